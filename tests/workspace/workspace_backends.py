"""Databases for the workspace tests: a fresh SQLite file, or a fresh database on a throwaway
PostgreSQL server started here (initdb in a temporary folder, 127.0.0.1, a free port).

The server runs as the ``postgres`` OS user when the tests run as root (PostgreSQL refuses to
run as root). Missing PostgreSQL binaries or psycopg FAIL the PostgreSQL tests with a message
saying what to install: they never skip.
"""

from __future__ import annotations

import atexit
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

BACKENDS = ("sqlite", "postgresql")
_INSTALL = ("apt-get install -y postgresql (Debian 12: PostgreSQL 15 in "
            "/usr/lib/postgresql/15/bin) and pip install 'psycopg[binary]'")


def pg_bindir() -> Path | None:
    """The folder of initdb and pg_ctl: PG_BINDIR, Debian's newest /usr/lib/postgresql/N/bin, or
    the PATH."""
    candidates = [Path(os.environ["PG_BINDIR"])] if os.environ.get("PG_BINDIR") else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda path: int(path.parent.name) if path.parent.name.isdigit()
                         else 0, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    return next((path for path in candidates if (path / "initdb").exists()
                 and (path / "pg_ctl").exists()), None)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """A PostgreSQL cluster in a temporary folder, on 127.0.0.1, trust authentication."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="bleu-pg-"))
        self.port = _free_port()
        self._names = itertools.count()
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail("The tests run as root and there is no 'postgres' OS user to run "
                            f"PostgreSQL as: {_INSTALL} creates it.", pytrace=False)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self._as_user, *command], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=120, check=False)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n"
                               f"{done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        """initdb, then pg_ctl start (fsync off: the tests kill clients, never the server)."""
        data = self.folder / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                   f"-c unix_socket_directories={self.folder} -c fsync=off "
                   "-c full_page_writes=off")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-l",
                  str(self.folder / "server.log"), "-o", options, "-w", "-t", "60", "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"ws_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                      "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


_SERVER: list[PostgresServer] = []


def postgres_server() -> PostgresServer:
    """The session's server, started on first use and stopped when the test process exits."""
    if not _SERVER:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pytest.fail(f"psycopg 3 is missing for the PostgreSQL tests: {_INSTALL}.",
                        pytrace=False)
        bindir = pg_bindir()
        if bindir is None:
            pytest.fail(f"PostgreSQL server binaries (initdb, pg_ctl) not found: {_INSTALL}.",
                        pytrace=False)
        server = PostgresServer(bindir)
        server.start()
        atexit.register(server.stop)
        _SERVER.append(server)
    return _SERVER[0]


@pytest.fixture(params=BACKENDS, name="location")
def location_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each backend: an SQLite file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "workspaces.sqlite3")
    else:
        yield postgres_server().new_database()

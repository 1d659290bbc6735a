"""Processes of the deployment tests: an app server (any command that serves Streamlit) and
nginx with the repository's deploy/nginx/bleu-explorer.conf, in a folder of its own on free
ports (no root-owned path is written, none is needed).

Each process runs in its own process group, stdin from /dev/null, its output in a log file that
a failure quotes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness import REPO

#: the proxy configuration that docs/deploy.md tells a server to use, as it is there
NGINX_SITE = REPO / "deploy" / "nginx" / "bleu-explorer.conf"
#: the replicas' systemd unit and the environment file it reads, as docs/deploy.md gives them
UNIT = REPO / "deploy" / "systemd" / "bleu-explorer@.service"
ENVIRONMENT_EXAMPLE = REPO / "deploy" / "systemd" / "environment.example"
#: where the unit expects the installed command (docs/deploy.md's venv)
UNIT_EXECUTABLE = "/opt/bleu-explorer/venv/bin/bleu-explorer"
#: the host name the proxy tests browse to (Chromium maps it to 127.0.0.1): not localhost, so
#: that Streamlit's same-origin check of the websocket compares the Host header nginx passes on
#: with the browser's origin, as for a real server name
PROXY_HOST = "bleu.test"
NGINX_INSTALL = "apt-get install -y nginx (as root; scripts/test.sh does it)"


def health(url: str, cookie: str | None = None) -> bool:
    """Whether ``url``/_stcore/health answers 200 ``ok``."""
    request = urllib.request.Request(f"{url}/_stcore/health")
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except OSError:
        return False


def log_tail(path: Path, size: int = 3000) -> str:
    return path.read_text(errors="replace")[-size:] if path.exists() else "(no log)"


class Process:
    """A command in its own process group, its output in ``log``."""

    def __init__(self, command: Sequence[str], log: Path, *, cwd: Path,
                 env: Mapping[str, str] | None = None) -> None:
        self.command, self.log, self.cwd = list(command), log, cwd
        self.env = dict(os.environ if env is None else env)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                self.command, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, number)

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM to the group, SIGKILL after ``timeout``; the exit status."""
        if self.process is None:
            return None
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=timeout)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=timeout)
        return self.process.returncode

    def wait_healthy(self, url: str, timeout: float = 90.0) -> None:
        """Until ``url`` is healthy; fails with the log's end if the process exits first."""
        deadline = time.monotonic() + timeout
        while not health(url):
            if not self.running:
                code = self.process.returncode if self.process else None
                raise RuntimeError(f"{' '.join(self.command)} exited ({code}) before {url} "
                                   f"was healthy:\n{log_tail(self.log)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} not healthy after {timeout:.0f} s:\n"
                                   f"{log_tail(self.log)}")
            time.sleep(0.25)
        if not self.running:  # something else answered on that port
            raise RuntimeError(f"{' '.join(self.command)} exited; {url} is another server's")


def unit_settings(section: str = "Service") -> dict[str, list[str]]:
    """The unit file's ``key=value`` lines of one section (a key may repeat)."""
    settings: dict[str, list[str]] = {}
    current = None
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
        elif current == section:
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def environment_file(**values: str) -> dict[str, str]:
    """environment.example's variables, with ``values`` put in for the placeholders they name
    (each must be there)."""
    found = {}
    for raw in ENVIRONMENT_EXAMPLE.read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.lstrip().startswith("#"):
            key, value = raw.split("=", 1)
            found[key.strip()] = value.strip()
    missing = set(values) - set(found)
    assert not missing, f"{ENVIRONMENT_EXAMPLE.name} lacks {missing}"
    return {**found, **values}


def unit_replica(port: int, state: Path, log: Path, executable: str,
                 **environment: str) -> Process:
    """A replica as bleu-explorer@<port>.service starts it (ExecStart, Environment,
    EnvironmentFile, WorkingDirectory), with ``executable`` for the installed command, ``state``
    for systemd's state folder (%S) and ``environment`` in environment.example's place."""
    settings = unit_settings()

    def expand(text: str) -> str:
        text = text.replace("%i", str(port)).replace("%S", str(state))
        assert "%" not in text, f"{UNIT.name}: a specifier the test does not know in {text!r}"
        return text

    (command,) = settings["ExecStart"]
    line = [expand(part) for part in shlex.split(command)]
    assert line[0] == UNIT_EXECUTABLE, line
    assert settings["EnvironmentFile"] == ["/etc/bleu-explorer/environment"]
    variables = dict(item.split("=", 1) for value in settings.get("Environment", [])
                     for item in shlex.split(expand(value)))
    (folder,) = settings["WorkingDirectory"]
    cwd = Path(expand(folder))
    cwd.mkdir(parents=True, exist_ok=True)  # StateDirectory= makes it
    base = {key: value for key, value in os.environ.items()
            if not key.startswith(("BLEU_EXPLORER_", "STREAMLIT_"))}
    return Process([executable, *line[1:]], log, cwd=cwd,
                   env={**base, **environment_file(**environment), **variables})


def nginx_binary() -> Path:
    """Debian's nginx (/usr/sbin is not on every PATH); fails saying what to install."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if found is None:
        pytest.fail(f"nginx not found: the replica tests need it: {NGINX_INSTALL}.",
                    pytrace=False)
    return Path(found)


def replace_once(text: str, old: str, new: str) -> str:
    """``text`` with the single occurrence of ``old`` replaced (the site file's lines the test
    changes must each be there exactly once, or the test no longer tests that file)."""
    count = text.count(old)
    assert count == 1, f"{NGINX_SITE.name}: expected {old!r} once, found it {count} times"
    return text.replace(old, new)


def site_for_test(folder: Path, listen: int, replicas: Sequence[int]) -> str:
    """deploy/nginx/bleu-explorer.conf with the test's ports and log path: its two example
    replicas (8501, 8502) become ``replicas``, ``listen 80`` the test's port."""
    text = NGINX_SITE.read_text(encoding="utf-8")
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+ .*;$", text, flags=re.MULTILINE)
    assert len(servers) == 2, f"{NGINX_SITE.name}: expected 2 replica lines, found {servers}"
    lines = [re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", servers[0]) for port in replicas]
    text = replace_once(text, "\n".join(servers), "\n".join(lines))
    text = replace_once(text, "listen 80;", f"listen 127.0.0.1:{listen};")
    return replace_once(text, "/var/log/nginx/bleu-explorer.access.log",
                        str(folder / "access.log"))


@dataclass(frozen=True)
class Served:
    """One request in the proxy's access log (deploy/nginx's ``bleu_upstream`` format)."""

    method: str
    path: str
    status: int
    route: str
    upstreams: tuple[str, ...]  # every replica nginx tried, the one that answered last

    @property
    def upstream(self) -> str:
        return self.upstreams[-1]


ACCESS_LINE = re.compile(r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) '
                         r'route=(?P<route>\S*) upstream=(?P<upstream>.*)$')


class Nginx:
    """nginx in ``folder`` (config, pid, logs, temp files), in the foreground."""

    def __init__(self, listen: int, replicas: Sequence[int]) -> None:
        # a folder nginx's workers (user nobody when started as root) may enter
        self.folder = Path(tempfile.mkdtemp(prefix="bleu-nginx-"))
        self.folder.chmod(0o755)
        self.port = listen
        self.config = self.folder / "nginx.conf"
        site = site_for_test(self.folder, listen, replicas)
        temp = "\n".join(f"    {name}_temp_path {self.folder / name};"
                         for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        self.config.write_text(
            f"worker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} info;\n"
            # a reload closes the old worker's websockets within a second (not an hour)
            "worker_shutdown_timeout 1s;\n"
            f"events {{ worker_connections 256; }}\nhttp {{\n{temp}\n{site}\n}}\n",
            encoding="utf-8")
        binary = nginx_binary()
        base = [str(binary), "-p", str(self.folder), "-c", str(self.config),
                "-e", str(self.folder / "error.log")]
        checked = subprocess.run([*base, "-t"], capture_output=True, text=True, timeout=30,
                                 stdin=subprocess.DEVNULL, check=False)
        assert checked.returncode == 0, f"nginx -t refused the config:\n{checked.stderr}"
        self._base = base
        self.process = Process([*base, "-g", "daemon off;"], self.folder / "nginx.out",
                               cwd=self.folder)

    @property
    def access_log(self) -> Path:
        return self.folder / "access.log"

    def start(self, timeout: float = 30.0) -> None:
        self.process.start()
        deadline = time.monotonic() + timeout
        while not health(f"http://127.0.0.1:{self.port}"):
            assert self.process.running, f"nginx exited:\n{log_tail(self.folder / 'error.log')}"
            assert time.monotonic() < deadline, (
                f"nginx not serving after {timeout:.0f} s:\n{log_tail(self.folder / 'error.log')}")
            time.sleep(0.2)

    def reload(self) -> None:
        """A configuration reload (SIGHUP): new workers; the old ones close their connections."""
        self.process.signal(signal.SIGHUP)

    def served(self) -> list[Served]:
        """Every request logged so far (websockets are logged when they close)."""
        if not self.access_log.exists():
            return []
        found = []
        for line in self.access_log.read_text(encoding="utf-8").splitlines():
            match = ACCESS_LINE.search(line)
            assert match, f"an access log line not in the bleu_upstream format: {line}"
            found.append(Served(match["method"], match["path"], int(match["status"]),
                                match["route"], tuple(match["upstream"].split(", "))))
        return found

    def stop(self) -> None:
        self.process.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

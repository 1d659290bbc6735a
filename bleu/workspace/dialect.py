"""The two databases behind the store, and the little SQL that differs between them.

SQL in the store is written once with ``?`` placeholders and ``{blob}``/``{real}`` column types;
a ``Dialect`` turns it into SQLite's or PostgreSQL's. A ``Backend`` opens a connection in
autocommit mode, so that every transaction is an explicit ``BEGIN`` ... ``COMMIT``, and says what
a driver error means for a visitor (``problem``).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import MissingExtraError
from .errors import Problem, StorageError
from .redaction import redact_location

#: how long a writer waits for another one's transaction before giving up (milliseconds)
BUSY_TIMEOUT_MS = 30_000
#: the PostgreSQL advisory lock that serializes writers (SQLite's BEGIN IMMEDIATE does the same)
_PG_WRITE_LOCK = 0x626C6575  # "bleu"
#: what errno values of an OSError mean
_OS_PROBLEMS = {errno.EROFS: Problem.READ_ONLY, errno.ENOSPC: Problem.FULL}
#: what SQLite's primary result codes mean
_SQLITE_PROBLEMS = {sqlite3.SQLITE_READONLY: Problem.READ_ONLY, sqlite3.SQLITE_FULL: Problem.FULL,
                    sqlite3.SQLITE_CORRUPT: Problem.DAMAGED, sqlite3.SQLITE_NOTADB: Problem.DAMAGED}
#: what PostgreSQL's SQLSTATEs mean: a read-only transaction or server, no permission to
#: write, a full disk
_PG_PROBLEMS = {"25006": Problem.READ_ONLY, "42501": Problem.READ_ONLY, "53100": Problem.FULL}
#: SQLite's result codes after which a database file is opened read-only instead
_READ_ONLY_FALLBACK = (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY)


@dataclass(frozen=True)
class Dialect:
    """How one database spells placeholders, types, transactions and upserts."""

    name: str
    placeholder: str
    blob: str
    real: str
    begin_read: str
    begin_write: str
    write_lock: str | None

    def sql(self, text: str) -> str:
        """Portable SQL (``?`` placeholders, ``{blob}``/``{real}`` types) in this dialect."""
        text = text.replace("{blob}", self.blob).replace("{real}", self.real)
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def upsert(self, table: str, columns: Sequence[str], key: Sequence[str],
               update: Sequence[str] = ()) -> str:
        """An INSERT that, when ``key`` exists, updates ``update`` (or does nothing)."""
        marks = ", ".join("?" for _ in columns)
        action = ("DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in update)
                  if update else "DO NOTHING")
        return self.sql(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
                        f"ON CONFLICT ({', '.join(key)}) {action}")


SQLITE = Dialect("sqlite", "?", "BLOB", "REAL", "BEGIN", "BEGIN IMMEDIATE", None)
POSTGRES = Dialect("postgresql", "%s", "BYTEA", "DOUBLE PRECISION",
                   "BEGIN ISOLATION LEVEL REPEATABLE READ", "BEGIN",
                   f"SELECT pg_advisory_xact_lock({_PG_WRITE_LOCK})")


class Backend(Protocol):
    """Where the workspaces live: opens autocommit connections; ``description`` is the location
    with its secrets hidden (for the command line; the app names no location)."""

    dialect: Dialect
    description: str
    driver_errors: tuple[type[BaseException], ...]

    def connect(self) -> Any:
        """A DB-API connection in autocommit mode (transactions are explicit)."""

    def problem(self, error: BaseException) -> Problem:
        """What a driver error means, as a visitor may be told it."""


def _os_problem(error: BaseException) -> Problem | None:
    return _OS_PROBLEMS.get(error.errno) if isinstance(error, OSError) else None


class SQLiteBackend:
    """A database file: WAL journal (readers never block the writer), a busy timeout, FKs on.

    A file that exists but cannot be opened for writing (a read-only folder, file or mount:
    SQLite cannot create the WAL's ``-wal`` and ``-shm`` files beside it) is opened read-only
    (``mode=ro``), else as immutable (``immutable=1``: no locks, no journal; what a WAL file
    left there holds is not seen), so that its workspaces still open; every write then fails
    as read-only.
    """

    dialect = SQLITE
    driver_errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.description = str(path)

    def connect(self) -> sqlite3.Connection:
        """Open (creating the file and its folder if needed, readable by their owner only)
        with WAL and the busy timeout; read-only where the file exists but cannot be opened
        for writing."""
        _keep_private(self.path)
        try:
            return self._open(str(self.path), uri=False, wal=True)
        except sqlite3.OperationalError as error:
            if (error.sqlite_errorcode & 0xFF) not in _READ_ONLY_FALLBACK \
                    or not self.path.is_file():
                raise
            uri = self.path.absolute().as_uri()
            try:
                return self._open(f"{uri}?mode=ro", uri=True, wal=False)
            except sqlite3.OperationalError:
                return self._open(f"{uri}?immutable=1", uri=True, wal=False)

    def _open(self, target: str, *, uri: bool, wal: bool) -> sqlite3.Connection:
        """A connection to ``target`` (a path, or a ``file:`` URI) that has read the schema."""
        connection = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, uri=uri,
                                     isolation_level=None, check_same_thread=False)
        try:
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if wal:
                _use_wal(connection)
            else:  # opening is lazy: make a read-only file fail here, not in the first query
                connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            connection.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            connection.close()
            raise
        return connection

    def problem(self, error: BaseException) -> Problem:
        """SQLite's result code (or the errno) as a visitor's problem."""
        if isinstance(error, sqlite3.Error):
            code = getattr(error, "sqlite_errorcode", None)
            found = None if code is None else _SQLITE_PROBLEMS.get(code & 0xFF)
            return found or Problem.UNAVAILABLE
        return _os_problem(error) or Problem.UNAVAILABLE


#: the companions SQLite writes beside a database file (WAL mode, and a rollback journal)
_COMPANIONS = ("-wal", "-shm", "-journal")


def _keep_private(path: Path) -> None:
    """The database file and its folder readable by their owner only (0600, 0700): a new
    folder and file are made so, and SQLite gives the ``-wal``, ``-shm`` and ``-journal``
    files the database file's mode. A database this user already owns with wider modes (made
    by an older version: 0644 in a 0755 folder, readable by every local user) is narrowed,
    and so is the app's own default folder; a folder given elsewhere is left as it is (its
    owner may share it on purpose). A file that cannot be changed (not ours, a read-only
    place) is left to the read-only fallback."""
    from .config import default_database

    folder = path.parent
    if not folder.is_dir():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    elif folder == default_database().parent:
        _narrow(folder)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
    except OSError:
        return  # a folder that cannot be written: SQLite says why, or opens read-only
    for file in (path, *(path.with_name(path.name + end) for end in _COMPANIONS)):
        _narrow(file)


def _narrow(path: Path) -> None:
    """``path`` kept from its group and others where this user owns it (its owner's own
    permissions stay as they are: a file made read-only stays read-only)."""
    try:
        found = path.stat()
        if found.st_uid == os.getuid() and found.st_mode & 0o077:
            path.chmod(stat.S_IMODE(found.st_mode) & 0o700)
    except OSError:
        pass


def _use_wal(connection: sqlite3.Connection) -> None:
    """Ask for the WAL journal (the file keeps it). Switching needs an exclusive lock that SQLite
    does not wait for: two processes opening a new file at once saw the switch refused as
    "database is locked" (half the runs of the two-process test), so it is retried until the
    busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


class PostgresBackend:
    """A PostgreSQL database by URL (``postgresql://user@host:port/db``), through psycopg 3."""

    dialect = POSTGRES

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise MissingExtraError(
                "A postgresql:// workspace database needs psycopg 3: pip install "
                "'bleu-explorer[postgres]'."
            ) from None
        self._psycopg = psycopg
        self.url = url
        self.description = redact_location(url)
        self.driver_errors = (psycopg.Error, OSError)

    def connect(self) -> Any:
        """A new autocommit connection (10 s connect timeout)."""
        return self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    def problem(self, error: BaseException) -> Problem:
        """The SQLSTATE (or the errno) as a visitor's problem; a failed connection (down, a
        wrong password, no such host) is "cannot be reached"."""
        found = _PG_PROBLEMS.get(getattr(error, "sqlstate", None) or "")
        return found or _os_problem(error) or Problem.UNAVAILABLE


def is_database_url(location: str | os.PathLike[str]) -> bool:
    """Whether ``location`` is a PostgreSQL URL rather than a file path."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def backend_for(location: str | os.PathLike[str]) -> SQLiteBackend | PostgresBackend:
    """The backend a location names: a postgresql:// URL, else an SQLite file path."""
    if is_database_url(location):
        return PostgresBackend(str(location))
    path = Path(location).expanduser()
    if not str(location).strip():
        raise StorageError("The workspace database path is empty: set BLEU_EXPLORER_DB to a "
                           "file path or a postgresql:// URL.")
    return SQLiteBackend(path)

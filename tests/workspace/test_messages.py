"""What a database problem tells a visitor (``StorageError.plain``): one sentence, no host, port,
user, path or driver text, for a stopped PostgreSQL, a wrong password, a missing database, a
full disk, a damaged file and a newer schema, on real drivers; the full message (for the command
line and the server's log) still says what the driver said, secrets hidden."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from workspace_backends import _free_port, postgres_server
from workspace_raw import raw_execute

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import Problem, StorageError, Workspace, WorkspaceStore, new_edit_token

DATA = Dataset({"sys": TextFile("sys.de", ("Ein Haus.",) * 50)},
               (TextFile("ref.de", ("Ein Haus.",) * 50),))
#: what the server knows that a visitor must not read
PRIVATE = ("127.0.0.1", "pwuser", "hunter2", "ws_", "5432", "\n", "\t", "FATAL", "connection")


def failure(action) -> StorageError:
    with pytest.raises(StorageError) as raised:
        action()
    return raised.value


def assert_plain(error: StorageError, problem: Problem, *private: str) -> None:
    assert error.problem is problem
    assert error.plain.count(".") == 1 and error.plain.endswith(".")  # one sentence
    for text in (*PRIVATE, *private):
        assert text not in error.plain


def test_a_stopped_postgresql_server() -> None:
    port = _free_port()  # nothing listens there: as a server that was stopped
    error = failure(WorkspaceStore(f"postgresql://pwuser:hunter2@127.0.0.1:{port}/db").list)
    assert_plain(error, Problem.UNAVAILABLE, str(port))
    assert error.plain == "The workspace database cannot be reached."
    assert str(port) in str(error) and "hunter2" not in str(error)  # the log keeps the details


@pytest.fixture(scope="module")
def password_user() -> str:
    """A role that must give its password (scram-sha-256) on the tests' PostgreSQL server."""
    server = postgres_server()
    hba = server.folder / "data" / "pg_hba.conf"
    if "pwuser" not in hba.read_text():
        hba.write_text("host all pwuser 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        raw_execute(server.url(), "CREATE ROLE pwuser LOGIN PASSWORD 'right-password'")
        raw_execute(server.url(), "SELECT pg_reload_conf()")
    return f"127.0.0.1:{server.port}"


def test_a_wrong_postgresql_password(password_user: str) -> None:
    location = f"postgresql://pwuser:hunter2@{password_user}/postgres"
    error = failure(WorkspaceStore(location).list)
    assert "password authentication failed" in str(error)  # really refused for the password
    assert_plain(error, Problem.UNAVAILABLE, password_user.split(":")[1])
    good = WorkspaceStore(f"postgresql://pwuser:right-password@{password_user}/postgres")
    assert_plain(failure(good.check_writable), Problem.READ_ONLY)  # no right to create tables


def test_a_missing_postgresql_database() -> None:
    server = postgres_server()
    error = failure(WorkspaceStore(server.url("no_such_database")).list)
    assert "no_such_database" in str(error)
    assert_plain(error, Problem.UNAVAILABLE, "no_such_database", str(server.port))


def small_disk(monkeypatch: pytest.MonkeyPatch, pages: int) -> None:
    """Every SQLite connection from now on may grow its file to ``pages`` pages only: SQLite
    answers as on a full disk ("database or disk is full", SQLITE_FULL)."""
    connect = sqlite3.connect

    def limited(*args, **options):
        connection = connect(*args, **options)
        connection.execute(f"PRAGMA max_page_count = {pages}")
        return connection

    monkeypatch.setattr(sqlite3, "connect", limited)


def test_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = WorkspaceStore(tmp_path / "full.sqlite3")
    store.check_writable()  # the schema fits
    ((pages,),) = raw_execute(str(tmp_path / "full.sqlite3"), "PRAGMA page_count")
    small_disk(monkeypatch, pages)
    big = Dataset({"sys": TextFile("sys.de", tuple(f"Satz {k} " * 40 for k in range(400)))},
                  (TextFile("ref.de", tuple(f"Zeile {k} " * 40 for k in range(400))),))
    error = failure(lambda: store.save(Workspace.new(big, "big"), token=new_edit_token()))
    assert "full" in str(error)
    assert_plain(error, Problem.FULL, str(tmp_path))
    assert error.plain == "The workspace database has no room left."
    monkeypatch.undo()
    assert store.list() == []  # nothing half-saved


def test_a_damaged_file_and_a_newer_schema(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database\n" * 500)
    assert_plain(failure(WorkspaceStore(garbage).list), Problem.DAMAGED, str(tmp_path))
    newer = tmp_path / "newer.sqlite3"
    WorkspaceStore(newer).list()
    raw_execute(str(newer), "UPDATE schema_version SET version = 99")
    assert_plain(failure(WorkspaceStore(newer).list), Problem.NEWER, "99")

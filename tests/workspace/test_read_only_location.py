"""A database in a folder that cannot be written (a read-only mount, another user's files): its
workspaces still open by link, and every change says the database is read-only. Before, SQLite
could not create the WAL's side files there and even reading failed ("unable to open database
file"). The checks run in a process that file modes really stop (``read_only.py``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from read_only import read_only_folder, run_read_only
from test_migrations import _write_old

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import SavedScores, Workspace, WorkspaceStore

WORKER = Path(__file__).resolve().parent / "read_only_worker.py"
SECRET = "read-only-test-secret-0"


def dataset(n_systems: int) -> Dataset:
    reference = TextFile("ref.de", ("Ein Haus.", "Zwei Häuser.", "Drei."))
    systems = {f"sys{k}": TextFile(f"sys{k}.de", ("Ein Haus.", f"Zwei {k}.", "Drei."))
               for k in range(n_systems)}
    return Dataset(systems, (reference,), label="test")


def check(database: Path, workspace_id: str, *secret: str) -> dict:
    done = run_read_only([str(WORKER), "store", str(database), workspace_id, *secret])
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["folder_refuses_writes"], "the folder must really be read-only"
    return seen


def assert_refused_as_read_only(seen: dict) -> None:
    for change in ("check_writable", "rename") if "rename" in seen else ("check_writable",):
        assert seen[change]["refused"] and seen[change]["read_only"], seen[change]
        assert seen[change]["plain"] == "The workspace database is read-only here."
        assert "read" in seen[change]["message"] and "only" in seen[change]["message"]


def test_a_closed_database_in_a_read_only_folder_opens(tmp_path: Path) -> None:
    """No side files left (a server shut down cleanly): opened as immutable."""
    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / "workspaces.sqlite3"
    comet = SavedScores("COMET", {"sys0": (0.5, None, 0.25)}, True, "comet.tsv")
    saved = WorkspaceStore(database).save(
        Workspace.new(dataset(2), "read-only", segment_scores=(comet,)), token=SECRET)
    assert [path.name for path in folder.iterdir()] == [database.name]
    with read_only_folder(folder):
        seen = check(database, saved.id, SECRET)
    assert (seen["name"], seen["systems"], seen["segments"]) == ("read-only", ["sys0", "sys1"], 3)
    assert seen["scores"] == ["COMET"] and seen["listed"] == [saved.id]
    assert_refused_as_read_only(seen)
    assert seen["files"] == [database.name]  # nothing was written beside it


def test_a_database_a_writer_still_has_open_is_read_with_its_journal(tmp_path: Path) -> None:
    """A writer elsewhere holds the file open, so its WAL still holds the latest save: the
    read-only process reads through the WAL (``mode=ro``) and sees that save too."""
    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / "workspaces.sqlite3"
    store = WorkspaceStore(database)
    store.save(Workspace.new(dataset(1), "first"), token=SECRET)
    holder = sqlite3.connect(database)  # keeps the WAL from being checkpointed on close
    try:
        holder.execute("PRAGMA wal_autocheckpoint = 0")
        holder.execute("SELECT COUNT(*) FROM workspaces").fetchone()
        latest = store.save(Workspace.new(dataset(3), "latest"), token=SECRET)
        assert (folder / f"{database.name}-wal").stat().st_size > 0
        with read_only_folder(folder):
            seen = check(database, latest.id, SECRET)
    finally:
        holder.close()
    assert (seen["name"], seen["systems"]) == ("latest", ["sys0", "sys1", "sys2"])
    assert len(seen["listed"]) == 2
    assert_refused_as_read_only(seen)


def test_an_older_database_that_cannot_be_migrated_is_read_as_it_is(tmp_path: Path) -> None:
    """A version-3 database in a read-only folder stays at version 3 and still opens."""
    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / "workspaces.sqlite3"
    _write_old(str(database), 3)
    with read_only_folder(folder):
        seen = check(database, "old-id")
    assert (seen["name"], seen["systems"], seen["scores"]) == (
        "from version 3", ["sys"], ["COMET-22", "MetricX-23"])
    assert_refused_as_read_only(seen)
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [(3,)]


@pytest.mark.parametrize("name", ["workspaces.sqlite3", "with space?#%.sqlite3"])
def test_odd_file_names_open_read_only(tmp_path: Path, name: str) -> None:
    """The read-only open goes through a file: URI: names with ?, # or % are quoted."""
    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / name
    saved = WorkspaceStore(database).save(Workspace.new(dataset(1), "odd"), token=SECRET)
    with read_only_folder(folder):
        seen = check(database, saved.id)
    assert seen["name"] == "odd"

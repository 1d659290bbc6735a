"""Files the app creates are readable by their owner only (issue 36): the workspace database,
its ``-wal`` and ``-shm``, and its folder. Before: 0644 in a 0755 folder, readable by every
local user of a class server."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bleu.io import TextFile
from bleu.io.dataset import assemble
from bleu.workspace import Workspace, WorkspaceStore, new_edit_token


@pytest.fixture
def umask() -> Iterator[None]:
    """The usual umask (022): without the fix, new files are 0644 and folders 0755."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def save_one(location: Path) -> None:
    data = assemble([TextFile("hyp.de", ("ein Haus",))], [TextFile("ref.de", ("ein Haus",))])
    store = WorkspaceStore(str(location))
    store.save(Workspace.new(data, "modes"), token=new_edit_token())
    assert store.list()


def test_a_new_database_and_its_folder_are_the_owners_only(tmp_path: Path, umask: None):
    location = tmp_path / "new" / "folder" / "workspaces.sqlite3"
    save_one(location)
    assert mode(location.parent) == 0o700
    # while a server's connection writes, SQLite keeps -wal and -shm beside it
    writing = sqlite3.connect(location, isolation_level=None)
    writing.execute("BEGIN IMMEDIATE")
    writing.execute("CREATE TABLE kept_open (x)")
    modes = {path.name: mode(path) for path in location.parent.iterdir()}
    writing.execute("ROLLBACK")
    writing.close()
    assert set(modes) >= {"workspaces.sqlite3", "workspaces.sqlite3-wal",
                          "workspaces.sqlite3-shm"}
    assert modes == dict.fromkeys(modes, 0o600)


def test_an_older_readable_database_is_narrowed(tmp_path: Path, umask: None,
                                                monkeypatch: pytest.MonkeyPatch):
    """A database an older version made (0644 in a 0755 folder) in the default place."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "bleu-explorer"
    folder.mkdir(mode=0o755)
    location = folder / "workspaces.sqlite3"
    save_one(location)
    for path in folder.iterdir():
        path.chmod(0o644)
    folder.chmod(0o755)
    save_one(location)
    assert mode(folder) == 0o700
    assert {mode(path) for path in folder.iterdir()} == {0o600}


def test_a_folder_given_elsewhere_keeps_its_mode(tmp_path: Path, umask: None):
    """Its owner may share it on purpose; the database in it is still the owner's only."""
    folder = tmp_path / "lab"
    folder.mkdir(mode=0o755)
    save_one(folder / "lab.sqlite3")
    assert mode(folder) == 0o755
    assert mode(folder / "lab.sqlite3") == 0o600

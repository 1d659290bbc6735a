"""Schema versions on both backends: a fresh database is at the latest version, and a database
written by version 1 (no options, external scores or notes columns) opens after migration."""

from __future__ import annotations

import json
import time

import pytest
from workspace_backends import location_fixture  # noqa: F401 -- `location`: both backends
from workspace_raw import raw_connection, raw_execute

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import SCHEMA_VERSION, Workspace, WorkspaceStore
from bleu.workspace.dialect import backend_for
from bleu.workspace.schema import migrate
from bleu.workspace.texts import canonical_bytes, pack, text_hash


def test_a_fresh_database_is_at_the_latest_version(location: str) -> None:
    assert SCHEMA_VERSION == 2
    WorkspaceStore(location).list()
    assert raw_execute(location, "SELECT version FROM schema_version") == [(2,)]
    WorkspaceStore(location).list()  # opening again changes nothing
    assert raw_execute(location, "SELECT version FROM schema_version") == [(2,)]


def _write_version_1(location: str) -> Dataset:
    """A version-1 database holding one workspace, written with version 1's columns only."""
    dialect = backend_for(location).dialect
    connection = raw_connection(location)
    try:
        cursor = connection.cursor()
        cursor.execute("BEGIN")
        migrate(cursor, dialect, location, target=1)
        cursor.execute("COMMIT")
        segments = {"ref": ("Ein Haus.", "Zwei Häuser."), "hyp": ("Ein Haus.", "Zwei Hauser."),
                    "docs": ("d1", "d1")}
        keys = {}
        for role, items in segments.items():
            raw = canonical_bytes(items)
            keys[role] = text_hash(raw)
            cursor.execute(dialect.sql("INSERT INTO texts (hash, n_items, size, data) "
                                       "VALUES (?, ?, ?, ?)"),
                           (keys[role], len(items), len(raw), pack(raw)))
        now = time.time()
        cursor.execute(dialect.sql("INSERT INTO workspaces (id, name, label, target_language, "
                                   "created, updated) VALUES (?, ?, ?, ?, ?, ?)"),
                       ("old-id", "from version 1", "old upload", "de", now, now))
        for role, name, file_name, key, doc in (
                ("reference", "", "ref.de", keys["ref"], keys["docs"]),
                ("system", "sys", "sys.de", keys["hyp"], None)):
            cursor.execute(dialect.sql(
                "INSERT INTO streams (workspace_id, role, position, name, file_name, text_hash, "
                "doc_hash, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                ("old-id", role, 0, name, file_name, key, doc, json.dumps(["a note"])))
    finally:
        connection.close()
    reference = TextFile("ref.de", segments["ref"], segments["docs"], ("a note",))
    system = TextFile("sys.de", segments["hyp"], None, ("a note",))
    return Dataset({"sys": system}, (reference,), None, "old upload", "de")


def test_a_version_1_database_opens_after_migration(location: str) -> None:
    expected = _write_version_1(location)
    assert raw_execute(location, "SELECT version FROM schema_version") == [(1,)]
    with pytest.raises(Exception, match="options"):  # version 1 really lacks the column
        raw_execute(location, "SELECT options FROM workspaces")
    store = WorkspaceStore(location)
    old = store.load("old-id")
    assert raw_execute(location, "SELECT version FROM schema_version") == [(2,)]
    assert old.dataset == expected
    assert (old.name, old.options, old.external_scores) == ("from version 1", {}, {})
    store.set_options("old-id", {"tokenize": "intl"})
    store.save(Workspace(old.id, old.name, old.dataset, old.options,
                         {"COMET": {"sys": (0.1, 0.2)}}, old.created))
    again = WorkspaceStore(location).load("old-id")
    assert again.external_scores == {"COMET": {"sys": (0.1, 0.2)}}
    assert again.created == old.created
    assert again.dataset == expected

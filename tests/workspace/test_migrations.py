"""Schema versions on both backends: a fresh database is at the latest version, and databases
written by version 1 (no options, external scores or notes columns) and version 2 (no edit
secrets) open after migration; their workspaces have no owner, so they are read-only: copied,
never changed. Version 3's scores (metric -> system -> scores, no direction or source) open with
the direction guessed from the label, migrated or not."""

from __future__ import annotations

import json
import time

import pytest
from workspace_backends import location_fixture  # noqa: F401 -- `location`: both backends
from workspace_raw import raw_connection, raw_execute

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import (
    SCHEMA_VERSION,
    SavedScores,
    Workspace,
    WorkspaceReadOnlyError,
    WorkspaceStore,
    new_edit_token,
)
from bleu.workspace.dialect import backend_for
from bleu.workspace.schema import migrate
from bleu.workspace.scores import EARLIER_SOURCE
from bleu.workspace.texts import canonical_bytes, pack, text_hash


def test_a_fresh_database_is_at_the_latest_version(location: str) -> None:
    assert SCHEMA_VERSION == 5
    WorkspaceStore(location).list()
    assert raw_execute(location, "SELECT version FROM schema_version") == [(5,)]
    WorkspaceStore(location).list()  # opening again changes nothing
    assert raw_execute(location, "SELECT version FROM schema_version") == [(5,)]


#: scores as version 3 kept them: metric -> system -> one score per segment
V3_SCORES = {"COMET-22": {"sys": [0.8, None]}, "MetricX-23": {"sys": [3.5, 1.0]}}
#: what they open as: the direction guessed from the label (MetricX: lower is better)
V3_OPENED = (SavedScores("COMET-22", {"sys": (0.8, None)}, True, EARLIER_SOURCE),
             SavedScores("MetricX-23", {"sys": (3.5, 1.0)}, False, EARLIER_SOURCE))


def _write_old(location: str, version: int) -> Dataset:
    """A database of an old ``version`` holding one workspace, written with that version's
    columns only."""
    dialect = backend_for(location).dialect
    connection = raw_connection(location)
    try:
        cursor = connection.cursor()
        cursor.execute("BEGIN")
        migrate(cursor, dialect, location, target=version)
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
        columns = ["id", "name", "label", "target_language", "created", "updated"]
        values = ["old-id", f"from version {version}", "old upload", "de", now, now]
        if version >= 2:
            columns.append("options")
            values.append(json.dumps({"tokenize": "intl"}))
        if version >= 3:
            columns.append("external_scores")
            values.append(json.dumps(V3_SCORES))
        cursor.execute(dialect.sql(f"INSERT INTO workspaces ({', '.join(columns)}) VALUES "
                                   f"({', '.join('?' for _ in columns)})"), values)
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


@pytest.mark.parametrize("version", [1, 2])
def test_an_old_database_opens_after_migration(location: str, version: int) -> None:
    expected = _write_old(location, version)
    assert raw_execute(location, "SELECT version FROM schema_version") == [(version,)]
    missing = "options" if version == 1 else "edit_hash"
    with pytest.raises(Exception, match=missing):  # the old version really lacks the column
        raw_execute(location, f"SELECT {missing} FROM workspaces")
    store = WorkspaceStore(location)
    old = store.load("old-id")
    assert raw_execute(location, "SELECT version FROM schema_version") == [(5,)]
    assert raw_execute(location, "SELECT edit_hash FROM workspaces") == [(None,)]
    assert old.dataset == expected
    options = {} if version == 1 else {"tokenize": "intl"}
    assert (old.name, old.options, old.segment_scores) == (f"from version {version}",
                                                           options, ())
    # saved before edit secrets: nobody owns it, so nobody changes it (whatever secret) ...
    secret = new_edit_token()
    assert store.editable({"old-id": secret}) == frozenset()
    for change in (lambda: store.set_options("old-id", {"tokenize": "char"}, token=secret),
                   lambda: store.rename("old-id", "mine now", token=secret),
                   lambda: store.save(old, token=secret),
                   lambda: store.delete("old-id", token=secret)):
        with pytest.raises(WorkspaceReadOnlyError):
            change()
    # ... but anyone copies it, and owns the copy
    comet = (SavedScores("COMET", {"sys": (0.1, 0.2)}, True, "comet.tsv"),)
    copy = store.save(Workspace.new(old.dataset, f"{old.name} (copy)", options=old.options,
                                    segment_scores=comet), token=secret)
    store.set_options(copy.id, {"tokenize": "char"}, token=secret)
    again = WorkspaceStore(location)
    assert again.load("old-id") == old
    mine = again.load(copy.id)
    assert mine.segment_scores == comet
    assert (mine.options, mine.dataset) == ({"tokenize": "char"}, expected)
    assert again.editable({copy.id: secret}) == {copy.id}


def test_version_3_scores_open_with_their_direction_guessed(location: str) -> None:
    """A version-3 database migrates (its rows stay as they were) and its scores open with the
    direction their label says; written again, they are kept in version 4's form."""
    expected = _write_old(location, 3)
    store = WorkspaceStore(location)
    old = store.load("old-id")
    assert raw_execute(location, "SELECT version FROM schema_version") == [(5,)]
    assert (old.dataset, old.options) == (expected, {"tokenize": "intl"})
    assert old.segment_scores == V3_OPENED
    secret = new_edit_token()
    copy = store.save(Workspace.new(old.dataset, "copy", segment_scores=old.segment_scores),
                      token=secret)
    ((stored,),) = raw_execute(location, "SELECT external_scores FROM workspaces WHERE id = ?",
                               (copy.id,))
    assert json.loads(stored) == [
        {"label": "COMET-22", "higher_is_better": True, "source": EARLIER_SOURCE,
         "scores": {"sys": [0.8, None]}},
        {"label": "MetricX-23", "higher_is_better": False, "source": EARLIER_SOURCE,
         "scores": {"sys": [3.5, 1.0]}}]
    assert WorkspaceStore(location).load(copy.id).segment_scores == V3_OPENED

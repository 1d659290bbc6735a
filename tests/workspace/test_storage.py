"""The workspace store on SQLite and PostgreSQL (same tests, both backends): real data round
trips byte for byte, texts are stored once, and a bad database says so clearly."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import sqlite3
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR
from workspace_backends import location_fixture  # noqa: F401 -- `location`: both backends

from bleu.errors import InputError, MissingExtraError
from bleu.io import TextFile, read_any
from bleu.io.dataset import Dataset, load_folder
from bleu.workspace import (
    Problem,
    SavedScores,
    StorageError,
    Workspace,
    WorkspaceError,
    WorkspaceNotFoundError,
    WorkspaceReadOnlyError,
    WorkspaceStore,
    database_location,
    default_database,
    new_edit_token,
    new_id,
    shared_delete,
    shared_instance,
)

REPO = Path(__file__).resolve().parents[2]
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"
#: the edit secret the workspaces of these tests are saved with
SECRET = new_edit_token()


def read(path: Path) -> TextFile:
    return read_any(path.read_bytes(), path.name)


@pytest.fixture(scope="module")
def wmt21() -> Dataset:
    """WMT21 en-de as the app loads a folder: 20 systems, references A, C, D and the source."""
    return load_folder(WMT21, "WMT21 newstest2021 en-de")


@pytest.fixture(scope="module")
def wmt17_ref() -> TextFile:
    return read(WMT17 / "newstest2017.en-de.ref.de")


def wmt17(ref: TextFile, *systems: str) -> Dataset:
    files = {name: read(WMT17 / f"newstest2017.{name}.en-de.de") for name in systems}
    return Dataset(files, (ref,), label="WMT17")


def test_real_test_set_round_trips_byte_for_byte(location: str, wmt21: Dataset) -> None:
    saved = WorkspaceStore(location).save(Workspace.new(wmt21, "wmt21 en-de"), token=SECRET)
    loaded = WorkspaceStore(location).load(saved.id)  # a new store: nothing kept in memory
    assert loaded.dataset == wmt21
    assert list(loaded.dataset.systems) == list(wmt21.systems)
    assert (loaded.id, loaded.name) == (saved.id, "wmt21 en-de")
    files = {path.name: path for path in WMT21.glob("newstest2021.*")}
    streams = [*loaded.dataset.references, loaded.dataset.source,
               *loaded.dataset.systems.values()]
    assert len(streams) == 24
    for file in streams:  # every stream written back gives the file's bytes exactly
        assert ("\n".join(file.segments) + "\n").encode("utf-8") == files[file.name].read_bytes()


def test_doc_ids_notes_options_and_segment_scores_round_trip(location: str) -> None:
    lines = (WMT17 / "newstest2017.online-A.0.en-de.de").read_text(encoding="utf-8").split("\n")
    tsv = "doc\thyp\n" + "".join(f"d{i // 7}\t{line}\n" for i, line in enumerate(lines[:300]))
    system = read_any(tsv.encode("utf-8"), "online-A.tsv", format="tsv", column="hyp",
                      doc_column="doc")
    odd = ("", "a\nb", "tab\there", "\u2028", "\x00", "\ud800 lone surrogate", "😀 " * 3,
           *system.segments[7:300])
    reference = TextFile("ref.tsv [ref]", odd, system.doc_ids, ("a note on the reference",))
    assert system.segments[0].startswith("\ufeff")  # a BOM inside the text, kept as is
    hypothesis = TextFile("online-A.tsv [hyp]", system.segments, system.doc_ids,
                          ("a note on the system",))
    data = Dataset({"online-A": hypothesis}, (reference,), None, "TSV upload", "de",
                   ("one dataset note",))
    options = {"tokenize": "intl", "lowercase": True, "smooth_method": "floor",
               "smooth_value_floor": 0.25, "max_ngram_order": 3, "n_bootstrap": 500}
    scores = (SavedScores("COMET", {"online-A": (*(float(k) / 3 for k in range(299)), None)},
                          True, "comet.tsv"),
              SavedScores("MetricX-23", {"online-A": (*(float(k) for k in range(299)), 2.5)},
                          False, "metricx.jsonl"),
              SavedScores("MQM", {"online-A": (None,) * 300}, True, "mqm.tsv"))
    store = WorkspaceStore(location)
    saved = store.save(Workspace.new(data, "tsv", options=options, segment_scores=scores),
                       token=SECRET)
    loaded = WorkspaceStore(location).load(saved.id)
    assert loaded.dataset == data
    assert loaded.dataset.systems["online-A"].doc_ids == system.doc_ids
    assert loaded.options == options
    assert loaded.segment_scores == scores  # every metric, in order, direction and source kept
    store.set_segment_scores(saved.id, scores[1:], token=SECRET)
    assert WorkspaceStore(location).load(saved.id).segment_scores == scores[1:]


def test_the_same_reference_set_is_stored_once(location: str, wmt17_ref: TextFile) -> None:
    store = WorkspaceStore(location)
    store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959", "FBK.4870"), "first"), token=SECRET)
    once = store.usage()
    assert (once.workspaces, once.texts) == (1, 3)
    # the same reference uploaded again under another file name, with one new system
    again = TextFile("copy-of-the-reference.txt", wmt17_ref.segments)
    store.save(Workspace.new(wmt17(again, "FBK.4870", "KIT.4950"), "second"), token=SECRET)
    twice = store.usage()
    assert (twice.workspaces, twice.texts) == (2, 4)  # only KIT is new
    kit = store.list()[0]
    assert (kit.name, kit.n_systems, kit.n_segments) == ("second", 2, len(wmt17_ref.segments))
    third = store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959", "FBK.4870"), "third"),
                       token=SECRET)
    assert store.usage().texts == 4
    assert store.usage().stored_bytes == twice.stored_bytes
    assert store.load(third.id).dataset.references[0].name == wmt17_ref.name


def test_texts_only_a_deleted_workspace_held_are_removed(location: str,
                                                         wmt17_ref: TextFile) -> None:
    store = WorkspaceStore(location)
    keep = store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959"), "keep"), token=SECRET)
    drop = store.save(Workspace.new(wmt17(wmt17_ref, "KIT.4950", "xmu.4910"), "drop"), token=SECRET)
    assert store.usage().texts == 4
    store.delete(drop.id, token=SECRET)
    assert store.usage().texts == 2  # the shared reference stays, KIT and xmu go
    assert store.load(keep.id).dataset == wmt17(wmt17_ref, "C-3MA.4959")
    with pytest.raises(WorkspaceNotFoundError, match=drop.id):
        store.load(drop.id)
    # overwriting a workspace (same id) drops the systems it no longer holds
    store.save(Workspace(keep.id, "keep", wmt17(wmt17_ref, "FBK.4870"), created=keep.created),
               token=SECRET)
    assert store.usage().texts == 2
    assert list(store.load(keep.id).dataset.systems) == ["FBK.4870"]
    assert store.load(keep.id).created == keep.created


def test_list_find_rename_and_missing(location: str, wmt17_ref: TextFile) -> None:
    store = WorkspaceStore(location)
    first = store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959"), "same name"), token=SECRET)
    second = store.save(Workspace.new(wmt17(wmt17_ref, "KIT.4950"), "same name"), token=SECRET)
    assert [info.id for info in store.list()] == [second.id, first.id]  # latest first
    assert [info.id for info in store.list([first.id, "no-such-id"])] == [first.id]
    assert store.list([]) == []
    assert store.find(first.id).id == first.id
    with pytest.raises(WorkspaceNotFoundError, match=r"2 workspaces .* named 'same name'"):
        store.find("same name")
    store.rename(first.id, "  renamed  ", token=SECRET)
    assert store.find("renamed").id == first.id
    assert store.load(first.id).name == "renamed"
    with pytest.raises(WorkspaceError, match="cannot be empty"):
        store.rename(first.id, " ", token=SECRET)
    with pytest.raises(WorkspaceNotFoundError, match="No workspace has the id or name 'nope'"):
        store.find("nope")
    for action in (lambda: store.rename("nope", "x", token=SECRET),
                   lambda: store.delete("nope", token=SECRET),
                   lambda: store.set_options("nope", {}, token=SECRET),
                   lambda: store.load("nope")):
        with pytest.raises(WorkspaceNotFoundError, match="'nope'"):
            action()
    store.set_options(second.id, {"tokenize": "char"}, token=SECRET)
    assert store.load(second.id).options == {"tokenize": "char"}


def test_ids_have_128_random_bits() -> None:
    ids = {new_id() for _ in range(2000)}
    assert len(ids) == 2000
    for value in list(ids)[:50]:
        assert len(value) == 22
        assert len(base64.urlsafe_b64decode(value + "==")) == 16


def test_ids_never_start_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line reads ``-Zx3...`` as an option: ids that start so are drawn again."""
    ids = [new_id() for _ in range(6400)]  # ~100 would start with "-" if they could
    assert not [value for value in ids if value.startswith("-")]
    assert {value[0] for value in ids} == set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")  # every other one
    drawn = iter(["-dashFirst0123456789ab", "--twoDashes0123456789a", "Plain-id_0123456789abc"])
    monkeypatch.setattr("bleu.workspace.model.secrets.token_urlsafe", lambda size: next(drawn))
    assert new_id() == "Plain-id_0123456789abc"  # a dash inside is fine


# ----------------------------------------------------------------------- bad databases

def test_a_corrupt_file_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not an SQLite database, just text\n" * 100)
    with pytest.raises(StorageError, match="not a database") as raised:
        WorkspaceStore(path).list()
    assert isinstance(raised.value, InputError)
    message = str(raised.value)
    assert message.startswith("The workspace database cannot be")
    assert str(tmp_path) not in message and "BLEU_EXPLORER_DB" in message
    with pytest.raises(StorageError) as raised:  # the command line names the file
        WorkspaceStore(path, show_location=True).list()
    assert f"The workspace database {path} cannot be" in str(raised.value)


def test_damaged_pages_are_found_on_load(tmp_path: Path, wmt17_ref: TextFile) -> None:
    path = tmp_path / "damaged.sqlite3"
    store = WorkspaceStore(path)
    saved = store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959", "FBK.4870"), "x"),
                       token=SECRET)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = bytearray(path.read_bytes())
    quarter = len(raw) // 4
    raw[quarter:3 * quarter] = bytes(2 * quarter)  # zeros over the middle half: blob pages
    path.write_bytes(bytes(raw))
    with pytest.raises(StorageError, match=r"damaged|malformed"):
        WorkspaceStore(path).load(saved.id)


@pytest.mark.parametrize("kind", ["a folder", "under a file"])
def test_an_unwritable_location_gives_a_clear_error(tmp_path: Path, kind: str) -> None:
    if kind == "a folder":
        path = tmp_path / "folder.sqlite3"
        path.mkdir()
    else:
        (tmp_path / "plain-file").write_text("x")
        path = tmp_path / "plain-file" / "workspaces.sqlite3"
    with pytest.raises(StorageError, match="cannot be opened") as raised:
        WorkspaceStore(path).list()
    assert str(tmp_path) not in str(raised.value)  # not even the folder an OSError names


def test_a_database_from_a_newer_version_is_refused(location: str) -> None:
    WorkspaceStore(location).list()
    from workspace_raw import raw_execute

    raw_execute(location, "UPDATE schema_version SET version = 99")
    with pytest.raises(StorageError, match="schema version 99, newer than"):
        WorkspaceStore(location).list()


def test_a_postgresql_url_without_psycopg_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(MissingExtraError, match=r"bleu-explorer\[postgres\]"):
        WorkspaceStore("postgresql://user@127.0.0.1:1/db")


def test_a_url_password_is_not_shown() -> None:
    store = WorkspaceStore("postgresql://lab:s3cret@127.0.0.1:1/db", show_location=True)
    assert "s3cret" not in store.description and "lab" in store.description
    with pytest.raises(StorageError, match="cannot be opened") as raised:
        store.list()
    assert "s3cret" not in str(raised.value)


# ------------------------------------------------------------------------ edit secrets

def test_only_the_edit_secret_changes_a_workspace(location: str, wmt17_ref: TextFile) -> None:
    from workspace_raw import raw_execute

    store = WorkspaceStore(location)
    data = wmt17(wmt17_ref, "C-3MA.4959")
    saved = store.save(Workspace.new(data, "mine"), token=SECRET)
    other = store.save(Workspace.new(data, "theirs"), token=new_edit_token())
    ((stored,),) = raw_execute(location, "SELECT edit_hash FROM workspaces WHERE id = ?",
                               (saved.id,))
    assert stored == hashlib.sha256(SECRET.encode()).hexdigest()  # the hash, never the secret
    assert SECRET not in str(raw_execute(location, "SELECT * FROM workspaces"))
    grown = Workspace(saved.id, "grown", wmt17(wmt17_ref, "C-3MA.4959", "KIT.4950"))
    changes = (lambda token: store.rename(saved.id, "stolen", token=token),
               lambda token: store.set_options(saved.id, {"lowercase": True}, token=token),
               lambda token: store.set_segment_scores(saved.id, (), token=token),
               lambda token: store.save(grown, token=token or "x"),
               lambda token: store.delete(saved.id, token=token))
    for wrong in (None, "", new_edit_token(), SECRET + "x"):
        for change in changes:
            with pytest.raises(WorkspaceReadOnlyError, match="only its owner's browser"):
                change(wrong)
    assert store.load(saved.id) == saved  # nothing changed
    assert store.editable({saved.id: SECRET, other.id: SECRET, "nope": SECRET}) == {saved.id}
    assert store.editable({}) == frozenset()
    store.rename(saved.id, "renamed", token=SECRET)
    store.save(dataclasses.replace(grown, name="grown"), token=SECRET)
    assert list(store.load(saved.id).dataset.systems) == ["C-3MA.4959", "KIT.4950"]
    assert store.editable({saved.id: SECRET}) == {saved.id}  # a save keeps the secret
    store.delete(other.id, token=None, anyone=True)  # a shared server that allows it
    store.delete(saved.id, token=SECRET)
    assert store.list() == []


@pytest.mark.parametrize("location", ["postgresql"], indirect=True)
def test_a_read_only_database_is_read_and_says_why_it_is_not_written(
        location: str, wmt17_ref: TextFile) -> None:
    """A read-only PostgreSQL database (SQLite files in a read-only folder:
    test_read_only_location.py)."""
    from workspace_raw import raw_execute

    saved = WorkspaceStore(location).save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959"), "x"),
                                          token=SECRET)
    database = location.rsplit("/", 1)[1]
    raw_execute(location, f"ALTER DATABASE {database} SET default_transaction_read_only = on")
    store = WorkspaceStore(location)  # a server started on the read-only database
    assert store.load(saved.id) == saved
    assert [info.id for info in store.list()] == [saved.id]
    assert store.editable({saved.id: SECRET}) == {saved.id}
    for write in (store.check_writable,
                  lambda: store.save(Workspace.new(saved.dataset, "y"), token=SECRET)):
        with pytest.raises(StorageError, match=r"cannot be written: .*read-?only") as raised:
            write()
        assert location not in str(raised.value)
        assert raised.value.read_only and raised.value.problem is Problem.READ_ONLY


def test_a_database_file_deleted_meanwhile_is_made_again(tmp_path: Path,
                                                         wmt17_ref: TextFile) -> None:
    path = tmp_path / "gone.sqlite3"
    store = WorkspaceStore(path)  # one store for the server's lifetime, as the app keeps it
    first = store.save(Workspace.new(wmt17(wmt17_ref, "C-3MA.4959"), "first"), token=SECRET)
    store.check_writable()
    for file in tmp_path.glob("gone.sqlite3*"):
        file.unlink()
    second = store.save(Workspace.new(wmt17(wmt17_ref, "KIT.4950"), "second"), token=SECRET)
    assert [info.id for info in store.list()] == [second.id]
    assert store.load(second.id).dataset == wmt17(wmt17_ref, "KIT.4950")
    with pytest.raises(WorkspaceNotFoundError):
        store.load(first.id)
    for file in tmp_path.glob("gone.sqlite3*"):
        file.unlink()
    with pytest.raises(StorageError, match="no such table"):  # a read finds no schema once
        store.list()
    assert store.list() == []  # and checks it again


# ------------------------------------------------------------------------ configuration

def test_where_the_database_is() -> None:
    home = {"HOME": "/home/u"}
    assert default_database({"XDG_DATA_HOME": "/data"}) == Path(
        "/data/bleu-explorer/workspaces.sqlite3")
    assert default_database({}).name == "workspaces.sqlite3"
    assert database_location(None, home).endswith("/bleu-explorer/workspaces.sqlite3")
    assert database_location("/from/secrets.sqlite3", home) == "/from/secrets.sqlite3"
    environ = {"BLEU_EXPLORER_DB": "postgresql://lab@db/ws"}
    assert database_location("/from/secrets.sqlite3", environ) == "postgresql://lab@db/ws"


def test_shared_instance_setting() -> None:
    assert shared_instance(None, {}) is False
    assert shared_instance(True, {}) is True
    assert shared_instance("true", {}) is True
    assert shared_instance(None, {"BLEU_EXPLORER_SHARED": "1"}) is True
    assert shared_instance(True, {"BLEU_EXPLORER_SHARED": "0"}) is False
    assert shared_delete(None, {"BLEU_EXPLORER_SHARED": "1"}) is False  # never by default
    assert shared_delete("true", {}) is True
    assert shared_delete(None, {"BLEU_EXPLORER_SHARED_DELETE": "yes"}) is True
    assert shared_delete(True, {"BLEU_EXPLORER_SHARED_DELETE": "off"}) is False

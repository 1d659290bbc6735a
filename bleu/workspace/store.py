"""Saving and reading workspaces; every save, rename or delete is one transaction.

Texts are content-addressed (``texts.py``): a save writes only the streams the database does not
hold yet, and a stream no workspace uses any more is removed in the transaction that dropped it.
Writers are serialized (SQLite ``BEGIN IMMEDIATE`` with a busy timeout, a PostgreSQL advisory
lock), so two sessions saving at once both succeed, one after the other. Every write transaction
checks the schema first (creating it again if the database file was deleted meanwhile); reads
check it once per store and again after an error, and need no write access (a database that
cannot be written, and of an older schema this code still reads, is read as it is).

Changing or deleting a workspace needs its edit secret (``model.new_edit_token``): the database
keeps only its sha256, set when the workspace is first saved.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from ..io import TextFile
from ..io.dataset import Dataset
from .dialect import Dialect, backend_for
from .errors import (
    Problem,
    StorageError,
    WorkspaceError,
    WorkspaceNotFoundError,
    WorkspaceReadOnlyError,
    capitalized,
)
from .model import SavedScores, Workspace, WorkspaceInfo, edit_hash, token_matches
from .redaction import redact_location
from .schema import LATEST, READABLE, migrate, recorded_version, refuse_newer
from .scores import decode, encode
from .texts import canonical_bytes, pack, text_hash, unpack

#: called after each stream written by ``save``: (streams done, streams in all)
Progress = Callable[[int, int], None]
#: after a failed connect, calls this soon fail at once with the same error (an unreachable
#: server would otherwise cost its connect timeout on every call, i.e. every rerun of the app)
RETRY_SECONDS = 10.0
_CHUNK = 500
_WORKSPACE_COLUMNS = ("id", "name", "label", "target_language", "created", "updated", "options",
                      "external_scores", "notes")
#: what a save writes: the columns read back, and the edit secret's hash (set once, on insert)
_SAVED_COLUMNS = (*_WORKSPACE_COLUMNS, "edit_hash")
_STREAM_COLUMNS = ("workspace_id", "role", "position", "name", "file_name", "text_hash",
                   "doc_hash", "notes")


def _languages(dataset: Dataset) -> str | None:
    """The ``target_language`` column: the target's code, or ``src-tgt`` where the source's
    is known too (versions before kept the target alone, read as it is)."""
    if dataset.source_language and dataset.target_language:
        return f"{dataset.source_language}-{dataset.target_language}"
    return dataset.target_language


def _read_languages(column: str | None) -> tuple[str | None, str | None]:
    """(source, target) from the ``target_language`` column."""
    if column and "-" in column:
        source, target = column.split("-", 1)
        return source, target
    return None, column


@dataclass(frozen=True)
class StoreUsage:
    """How much a database holds: workspaces, distinct texts, and their stored (packed) bytes."""

    workspaces: int
    texts: int
    stored_bytes: int


@dataclass(frozen=True)
class _Stream:
    role: str
    position: int
    name: str
    file: TextFile


def _streams(dataset: Dataset) -> list[_Stream]:
    found = [_Stream("reference", k, "", ref) for k, ref in enumerate(dataset.references)]
    if dataset.source is not None:
        found.append(_Stream("source", 0, "", dataset.source))
    found += [_Stream("system", k, name, file)
              for k, (name, file) in enumerate(dataset.systems.items())]
    return found


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class WorkspaceStore:
    """The workspaces of one database: an SQLite file path or a ``postgresql://`` URL.

    Opening costs nothing; the first use creates or migrates the schema. Each call opens its own
    connection, so one store serves every thread (Streamlit runs each session in its own).
    Messages say "the workspace database"; with ``show_location`` (the command line) they also
    give its location, secrets hidden. Driver errors are redacted the same way.
    """

    def __init__(self, location: str | os.PathLike[str], *, show_location: bool = False) -> None:
        self._location = location
        self._backend = backend_for(location)
        self._dialect = self._backend.dialect
        self._where = "the workspace database" + (
            f" {self._backend.description}" if show_location else "")
        self._ready = False
        self._writable = False
        self._unreachable: tuple[float, StorageError] | None = None  # when, and what it said
        self._ready_lock = threading.Lock()

    @property
    def description(self) -> str:
        """The database's location, secrets hidden (for the command line)."""
        return self._backend.description

    @property
    def where(self) -> str:
        """How messages name the database: "the workspace database" (and its location)."""
        return self._where

    # -------------------------------------------------------------------------- transactions

    def _fail(self, action: str, error: BaseException) -> StorageError:
        """A StorageError for a driver error, its text redacted (drivers echo URLs and paths),
        with what it means for a visitor (a read that fails is never "read-only")."""
        self._ready = self._writable = False  # check the schema again: the file may be gone
        details = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        details = redact_location(details.strip(), self._location) or "no details"
        problem = self._backend.problem(error)
        if problem is Problem.READ_ONLY and action != "written":
            problem = Problem.UNAVAILABLE
        return StorageError(
            f"{capitalized(self._where)} cannot be {action}: "
            f"{type(error).__name__}: {details}. Check that it is a BLEU Explorer database "
            "that can be written to, or set BLEU_EXPLORER_DB to another file or postgresql:// "
            "URL.", problem)

    @property
    def dialect(self) -> Dialect:
        """The database's SQL dialect (placeholders, upserts), for tables of other modules."""
        return self._dialect

    def transaction(self, action: str, *, write: bool) -> AbstractContextManager[Any]:
        """One transaction for another module's table (the learned-score cache): as the store's
        own, with its errors named by ``action`` ("used for learned scores")."""
        return self._transaction(action, write=write)

    @contextmanager
    def _transaction(self, action: str, *, write: bool) -> Iterator[Any]:
        """A cursor inside one transaction: committed on success, rolled back on any error.
        A write transaction creates or migrates the schema first; a read checks it once."""
        if not write and not self._ready:
            self._prepare()
        with self._connected(action, write=write, prepare=write) as cursor:
            yield cursor

    @contextmanager
    def _connected(self, action: str, *, write: bool, prepare: bool) -> Iterator[Any]:
        """A transaction on a new connection; driver errors become redacted StorageErrors."""
        errors = self._backend.driver_errors
        if self._unreachable and time.monotonic() - self._unreachable[0] < RETRY_SECONDS:
            raise self._unreachable[1]
        try:
            connection = self._backend.connect()
        except errors as error:
            failure = self._fail("opened", error)
            self._unreachable = (time.monotonic(), failure)
            raise failure from None
        try:
            cursor = connection.cursor()
            cursor.execute(self._dialect.begin_write if write else self._dialect.begin_read)
            if write and self._dialect.write_lock:
                cursor.execute(self._dialect.write_lock)
            if prepare:
                migrate(cursor, self._dialect, self._where)
            yield cursor
            cursor.execute("COMMIT")
        except BaseException as error:
            with suppress(*errors):
                connection.execute("ROLLBACK")
            if isinstance(error, errors):
                raise self._fail(action, error) from None
            raise
        finally:
            connection.close()

    def _prepare(self) -> None:
        """Check the schema for reading, once per store: a read transaction when it is current
        (so a read-only database can be read), else a write transaction that migrates it; an
        older schema this code reads as it is (``READABLE``) stays as it is when the database
        cannot be written."""
        with self._ready_lock:
            if self._ready:
                return
            try:
                with self._connected("read", write=False, prepare=False) as cursor:
                    found = recorded_version(cursor)
            except StorageError:  # no schema yet (or unreadable: the write below says which)
                found = -1
            refuse_newer(found, self._where)
            if found != LATEST:
                try:
                    with self._connected("written", write=True, prepare=True):
                        pass
                except StorageError as error:
                    if not (error.read_only and found >= READABLE):
                        raise
            self._ready = True

    def check_writable(self) -> None:
        """Raise a StorageError saying why unless the database takes writes (a read-only file,
        user or server does not); checked once, and again after any error."""
        if self._writable:
            return
        with self._transaction("written", write=True) as cursor:
            cursor.execute("UPDATE schema_version SET version = version")
        self._writable = True

    def _execute(self, cursor: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        cursor.execute(self._dialect.sql(sql), tuple(params))
        return cursor

    # ------------------------------------------------------------------------------ writing

    def save(self, workspace: Workspace, progress: Progress | None = None, *,
             token: str) -> Workspace:
        """Write a workspace whole, as one transaction (replacing what its id held); returns it
        with ``updated`` set. A new id keeps ``token``'s hash as its edit secret; an existing
        one is replaced only with that secret. A crash midway leaves the previous state."""
        if not workspace.name.strip():
            raise WorkspaceError("A workspace needs a name; the name given is empty.")
        streams = _streams(workspace.dataset)
        packed: dict[str, tuple[int, bytes]] = {}
        rows = []
        for stream in streams:
            keys = []
            for items in (stream.file.segments, stream.file.doc_ids):
                if items is None:
                    keys.append(None)
                    continue
                raw = canonical_bytes(items)
                key = text_hash(raw)
                packed.setdefault(key, (len(items), raw))
                keys.append(key)
            rows.append((workspace.id, stream.role, stream.position, stream.name,
                         stream.file.name, keys[0], keys[1], _json(list(stream.file.notes))))
        now = time.time()
        saved = dataclasses.replace(workspace, updated=now,
                                    created=workspace.created or now)
        dialect = self._dialect
        with self._transaction("written", write=True) as cursor:
            self._execute(cursor, "SELECT 1 FROM workspaces WHERE id = ?", (saved.id,))
            if cursor.fetchone() is not None:  # replacing a saved workspace: its owner only
                self._authorize(cursor, saved.id, token)
            held = self._held(cursor, list(packed))
            cursor.execute(dialect.upsert(
                "workspaces", _SAVED_COLUMNS, ("id",),
                [c for c in _WORKSPACE_COLUMNS if c not in ("id", "created")]),
                (saved.id, saved.name.strip(), saved.dataset.label,
                 _languages(saved.dataset), saved.created, saved.updated,
                 _json(dict(saved.options)), _json(encode(saved.segment_scores)),
                 _json(list(saved.dataset.notes)), edit_hash(token)))
            self._execute(cursor, "DELETE FROM streams WHERE workspace_id = ?", (saved.id,))
            insert_text = dialect.upsert("texts", ("hash", "n_items", "size", "data"), ("hash",))
            insert_stream = dialect.sql(
                f"INSERT INTO streams ({', '.join(_STREAM_COLUMNS)}) "
                f"VALUES ({', '.join('?' for _ in _STREAM_COLUMNS)})")
            for done, row in enumerate(rows, start=1):
                for key in (row[5], row[6]):
                    if key is not None and key not in held:
                        n_items, raw = packed[key]
                        cursor.execute(insert_text, (key, n_items, len(raw), pack(raw)))
                        held.add(key)
                cursor.execute(insert_stream, row)
                if progress is not None:
                    progress(done, len(rows))
            self._collect_garbage(cursor)
        return saved

    def _held(self, cursor: Any, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` the texts table holds already."""
        held: set[str] = set()
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start:start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            self._execute(cursor, f"SELECT hash FROM texts WHERE hash IN ({marks})", chunk)
            held.update(row[0] for row in cursor.fetchall())
        return held

    def _authorize(self, cursor: Any, workspace_id: str, token: str | None) -> None:
        """Refuse a change without the workspace's edit secret (inside the writer's transaction,
        so that nothing changes between the check and the write)."""
        self._execute(cursor, "SELECT edit_hash FROM workspaces WHERE id = ?", (workspace_id,))
        row = cursor.fetchone()
        if row is None:
            raise self._missing(workspace_id)
        if not token_matches(token, row[0]):
            raise WorkspaceReadOnlyError(
                f"Workspace {workspace_id!r} is read-only here: only its owner's browser (which "
                "holds its edit secret) can change or delete it. Copy it to your workspaces to "
                "change a copy.")

    def _collect_garbage(self, cursor: Any) -> None:
        """Drop texts no stream refers to (inside the writer's transaction)."""
        cursor.execute("DELETE FROM texts WHERE NOT EXISTS (SELECT 1 FROM streams "
                       "WHERE streams.text_hash = texts.hash OR streams.doc_hash = texts.hash)")

    def rename(self, workspace_id: str, name: str, *, token: str | None) -> None:
        """Give a workspace another name (names need not be unique; ids are); needs its edit
        secret."""
        name = name.strip()
        if not name:
            raise WorkspaceError(f"A workspace name cannot be empty (renaming {workspace_id}).")
        self._update(workspace_id, token, "name = ?, updated = ?", (name, time.time()))

    def set_options(self, workspace_id: str, options: Mapping[str, Any], *,
                    token: str | None) -> None:
        """Replace a workspace's options (JSON values), e.g. after the sidebar changed them;
        needs its edit secret."""
        self._update(workspace_id, token, "options = ?", (_json(dict(options)),))

    def set_segment_scores(self, workspace_id: str, scores: Sequence[SavedScores], *,
                           token: str | None) -> None:
        """Replace a workspace's segment scores (every metric, with direction and source);
        needs its edit secret."""
        self._update(workspace_id, token, "external_scores = ?", (_json(encode(scores)),))

    def _update(self, workspace_id: str, token: str | None, assignments: str,
                values: Sequence[Any]) -> None:
        """One UPDATE of a workspace's row, with its edit secret."""
        with self._transaction("written", write=True) as cursor:
            self._authorize(cursor, workspace_id, token)
            self._execute(cursor, f"UPDATE workspaces SET {assignments} WHERE id = ?",
                          (*values, workspace_id))

    def delete(self, workspace_id: str, *, token: str | None, anyone: bool = False) -> None:
        """Remove a workspace and every text only it held; needs its edit secret, unless the
        server lets ``anyone`` delete (a shared server with ``shared_delete``)."""
        with self._transaction("written", write=True) as cursor:
            if not anyone:
                self._authorize(cursor, workspace_id, token)
            self._execute(cursor, "DELETE FROM streams WHERE workspace_id = ?", (workspace_id,))
            self._execute(cursor, "DELETE FROM workspaces WHERE id = ?", (workspace_id,))
            if cursor.rowcount == 0:
                raise self._missing(workspace_id)
            self._collect_garbage(cursor)

    # ------------------------------------------------------------------------------ reading

    def _missing(self, workspace_id: str) -> WorkspaceNotFoundError:
        return WorkspaceNotFoundError(
            f"No workspace with id {workspace_id!r} in {self._where}: it was deleted, or "
            "the link or id is mistyped."
        )

    def editable(self, tokens: Mapping[str, str]) -> frozenset[str]:
        """The ids of ``tokens`` (id -> edit secret) whose secret is right: the workspaces a
        browser holding these secrets owns (wrong or stale ones are left out)."""
        wanted = list(tokens)
        found: set[str] = set()
        if not wanted:
            return frozenset()
        with self._transaction("read", write=False) as cursor:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start:start + _CHUNK]
                self._execute(cursor, "SELECT id, edit_hash FROM workspaces WHERE id IN "
                              f"({', '.join('?' for _ in chunk)})", chunk)
                found.update(key for key, stored in cursor.fetchall()
                             if token_matches(tokens[key], stored))
        return frozenset(found)

    def load(self, workspace_id: str) -> Workspace:
        """A saved workspace, exactly as it was saved (texts checked against their hashes)."""
        with self._transaction("read", write=False) as cursor:
            self._execute(cursor, f"SELECT {', '.join(_WORKSPACE_COLUMNS)} FROM workspaces "
                          "WHERE id = ?", (workspace_id,))
            row = cursor.fetchone()
            if row is None:
                raise self._missing(workspace_id)
            self._execute(cursor, "SELECT role, name, file_name, text_hash, doc_hash, notes "
                          "FROM streams WHERE workspace_id = ? ORDER BY role, position",
                          (workspace_id,))
            streams = cursor.fetchall()
            keys = sorted({key for stream in streams for key in stream[3:5] if key})
            texts: dict[str, tuple[str, ...]] = {}
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start:start + _CHUNK]
                self._execute(cursor, f"SELECT hash, data FROM texts WHERE hash IN "
                              f"({', '.join('?' for _ in chunk)})", chunk)
                texts.update((key, unpack(data, key)) for key, data in cursor.fetchall())
        return _workspace(row, streams, texts, self._where)

    def list(self, ids: Iterable[str] | None = None) -> list[WorkspaceInfo]:
        """Workspaces, the latest updated first: all of them, or those of ``ids`` that exist."""
        wanted = None if ids is None else list(dict.fromkeys(ids))
        if wanted is not None and not wanted:
            return []
        sql = ("SELECT w.id, w.name, w.label, w.created, w.updated, "
               "(SELECT COUNT(*) FROM streams s WHERE s.workspace_id = w.id "
               "AND s.role = 'system'), "
               "(SELECT t.n_items FROM streams s JOIN texts t ON t.hash = s.text_hash "
               "WHERE s.workspace_id = w.id AND s.role = 'reference' AND s.position = 0) "
               "FROM workspaces w")
        found: list[WorkspaceInfo] = []
        with self._transaction("read", write=False) as cursor:
            chunks = [None] if wanted is None else [
                wanted[k:k + _CHUNK] for k in range(0, len(wanted), _CHUNK)]
            for chunk in chunks:
                if chunk is None:
                    self._execute(cursor, sql)
                else:
                    self._execute(cursor, f"{sql} WHERE w.id IN "
                                  f"({', '.join('?' for _ in chunk)})", chunk)
                found += [WorkspaceInfo(i, name, label, int(n_sys), int(n_seg or 0),
                                        float(created), float(updated))
                          for i, name, label, created, updated, n_sys, n_seg in cursor]
        return sorted(found, key=lambda info: (-info.updated, info.id))

    def find(self, id_or_name: str) -> WorkspaceInfo:
        """The workspace with this id, else the one with this name (refuses an ambiguous name)."""
        everything = self.list()
        by_id = [info for info in everything if info.id == id_or_name]
        if by_id:
            return by_id[0]
        named = [info for info in everything if info.name == id_or_name.strip()]
        if len(named) == 1:
            return named[0]
        if named:
            raise WorkspaceNotFoundError(
                f"{len(named)} workspaces in {self._where} are named {id_or_name!r}; give "
                f"one's id instead: {', '.join(info.id for info in named)}."
            )
        raise WorkspaceNotFoundError(
            f"No workspace has the id or name {id_or_name!r} in {self._where} "
            f"({len(everything)} saved" + (": " + ", ".join(
                repr(info.name) for info in everything[:10]) if everything else "") + ")."
        )

    def usage(self) -> StoreUsage:
        """Counts of workspaces and distinct texts, and the texts' stored size in bytes."""
        with self._transaction("read", write=False) as cursor:
            cursor.execute("SELECT COUNT(*) FROM workspaces")
            workspaces = cursor.fetchone()[0]
            cursor.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM texts")
            texts, stored = cursor.fetchone()
        return StoreUsage(int(workspaces), int(texts), int(stored))


def _workspace(row: Sequence[Any], streams: Sequence[Sequence[Any]],
               texts: Mapping[str, tuple[str, ...]], where: str) -> Workspace:
    """A Workspace from its row, its stream rows and the texts they name."""
    (workspace_id, name, label, language, created, updated, options, scores, notes) = row
    references: list[TextFile] = []
    source: TextFile | None = None
    systems: dict[str, TextFile] = {}
    for role, system, file_name, key, doc_key, file_notes in streams:
        if key not in texts or (doc_key and doc_key not in texts):
            raise StorageError(f"{capitalized(where)} is damaged: workspace "
                               f"{workspace_id} names a text it does not hold.",
                               Problem.DAMAGED)
        file = TextFile(file_name, texts[key], texts[doc_key] if doc_key else None,
                        tuple(json.loads(file_notes)))
        if role == "reference":
            references.append(file)
        elif role == "source":
            source = file
        else:
            systems[system] = file
    source_language, target_language = _read_languages(language)
    dataset = Dataset(systems, tuple(references), source, label, target_language,
                      tuple(json.loads(notes)), source_language=source_language)
    return Workspace(workspace_id, name, dataset, json.loads(options), decode(json.loads(scores)),
                     float(created), float(updated))

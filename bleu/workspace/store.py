"""Saving and reading workspaces; every save, rename or delete is one transaction.

Texts are content-addressed (``texts.py``): a save writes only the streams the database does not
hold yet, and a stream no workspace uses any more is removed in the transaction that dropped it.
Writers are serialized (SQLite ``BEGIN IMMEDIATE`` with a busy timeout, a PostgreSQL advisory
lock), so two sessions saving at once both succeed, one after the other.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from ..io import TextFile
from ..io.dataset import Dataset
from .dialect import backend_for
from .errors import StorageError, WorkspaceError, WorkspaceNotFoundError
from .model import SavedScores, Workspace, WorkspaceInfo
from .schema import migrate
from .texts import canonical_bytes, pack, text_hash, unpack

#: called after each stream written by ``save``: (streams done, streams in all)
Progress = Callable[[int, int], None]
_CHUNK = 500
_WORKSPACE_COLUMNS = ("id", "name", "label", "target_language", "created", "updated", "options",
                      "external_scores", "notes")
_STREAM_COLUMNS = ("workspace_id", "role", "position", "name", "file_name", "text_hash",
                   "doc_hash", "notes")


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
    """

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self._backend = backend_for(location)
        self._dialect = self._backend.dialect
        self._ready = False
        self._ready_lock = threading.Lock()

    @property
    def description(self) -> str:
        """The database as messages name it (a URL's password hidden)."""
        return self._backend.description

    # -------------------------------------------------------------------------- transactions

    def _fail(self, action: str, error: BaseException) -> StorageError:
        return StorageError(
            f"The workspace database {self.description} cannot be {action}: "
            f"{type(error).__name__}: {str(error).strip() or 'no details'}. Check that it is "
            "a BLEU Explorer database you can write to, or set BLEU_EXPLORER_DB to another "
            "file or postgresql:// URL."
        )

    @contextmanager
    def _transaction(self, action: str, *, write: bool) -> Iterator[Any]:
        """A cursor inside one transaction: committed on success, rolled back on any error."""
        if not self._ready:
            self._prepare()
        yield from self._run(action, write=write, prepare=False)

    def _run(self, action: str, *, write: bool, prepare: bool) -> Iterator[Any]:
        errors = self._backend.driver_errors
        try:
            connection = self._backend.connect()
        except errors as error:
            raise self._fail("opened", error) from None
        try:
            cursor = connection.cursor()
            cursor.execute(self._dialect.begin_write if write else self._dialect.begin_read)
            if write and self._dialect.write_lock:
                cursor.execute(self._dialect.write_lock)
            if prepare:
                migrate(cursor, self._dialect, self.description)
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
        """Create or migrate the schema once per store (a write transaction of its own)."""
        with self._ready_lock:
            if self._ready:
                return
            for _ in self._run("prepared (schema check)", write=True, prepare=True):
                pass
            self._ready = True

    def _execute(self, cursor: Any, sql: str, params: Sequence[Any] = ()) -> Any:
        cursor.execute(self._dialect.sql(sql), tuple(params))
        return cursor

    # ------------------------------------------------------------------------------ writing

    def save(self, workspace: Workspace, progress: Progress | None = None) -> Workspace:
        """Write a workspace whole, as one transaction (replacing what its id held); returns it
        with ``updated`` set. A crash midway leaves the previous state as it was."""
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
            held = self._held(cursor, list(packed))
            cursor.execute(dialect.upsert(
                "workspaces", _WORKSPACE_COLUMNS, ("id",),
                [c for c in _WORKSPACE_COLUMNS if c not in ("id", "created")]),
                (saved.id, saved.name.strip(), saved.dataset.label,
                 saved.dataset.target_language, saved.created, saved.updated,
                 _json(dict(saved.options)), _json(_plain_scores(saved.external_scores)),
                 _json(list(saved.dataset.notes))))
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

    def _collect_garbage(self, cursor: Any) -> None:
        """Drop texts no stream refers to (inside the writer's transaction)."""
        cursor.execute("DELETE FROM texts WHERE NOT EXISTS (SELECT 1 FROM streams "
                       "WHERE streams.text_hash = texts.hash OR streams.doc_hash = texts.hash)")

    def rename(self, workspace_id: str, name: str) -> None:
        """Give a workspace another name (names need not be unique; ids are)."""
        name = name.strip()
        if not name:
            raise WorkspaceError(f"A workspace name cannot be empty (renaming {workspace_id}).")
        with self._transaction("written", write=True) as cursor:
            self._execute(cursor, "UPDATE workspaces SET name = ?, updated = ? WHERE id = ?",
                          (name, time.time(), workspace_id))
            if cursor.rowcount == 0:
                raise self._missing(workspace_id)

    def set_options(self, workspace_id: str, options: Mapping[str, Any]) -> None:
        """Replace a workspace's options (JSON values), e.g. after the sidebar changed them."""
        with self._transaction("written", write=True) as cursor:
            self._execute(cursor, "UPDATE workspaces SET options = ? WHERE id = ?",
                          (_json(dict(options)), workspace_id))
            if cursor.rowcount == 0:
                raise self._missing(workspace_id)

    def set_external_scores(self, workspace_id: str, scores: SavedScores) -> None:
        """Replace a workspace's external scores (metric -> system -> per-segment scores)."""
        with self._transaction("written", write=True) as cursor:
            self._execute(cursor, "UPDATE workspaces SET external_scores = ? WHERE id = ?",
                          (_json(_plain_scores(scores)), workspace_id))
            if cursor.rowcount == 0:
                raise self._missing(workspace_id)

    def delete(self, workspace_id: str) -> None:
        """Remove a workspace and every text only it held."""
        with self._transaction("written", write=True) as cursor:
            self._execute(cursor, "DELETE FROM streams WHERE workspace_id = ?", (workspace_id,))
            self._execute(cursor, "DELETE FROM workspaces WHERE id = ?", (workspace_id,))
            if cursor.rowcount == 0:
                raise self._missing(workspace_id)
            self._collect_garbage(cursor)

    # ------------------------------------------------------------------------------ reading

    def _missing(self, workspace_id: str) -> WorkspaceNotFoundError:
        return WorkspaceNotFoundError(
            f"No workspace with id {workspace_id!r} in {self.description}: it was deleted, or "
            "the link or id is mistyped."
        )

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
        return _workspace(row, streams, texts, self.description)

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
                f"{len(named)} workspaces in {self.description} are named {id_or_name!r}; give "
                f"one's id instead: {', '.join(info.id for info in named)}."
            )
        raise WorkspaceNotFoundError(
            f"No workspace has the id or name {id_or_name!r} in {self.description} "
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


def _plain_scores(scores: Mapping[str, Mapping[str, Sequence[float | None]]]) -> dict:
    return {metric: {system: list(values) for system, values in by_system.items()}
            for metric, by_system in scores.items()}


def _workspace(row: Sequence[Any], streams: Sequence[Sequence[Any]],
               texts: Mapping[str, tuple[str, ...]], where: str) -> Workspace:
    """A Workspace from its row, its stream rows and the texts they name."""
    (workspace_id, name, label, language, created, updated, options, scores, notes) = row
    references: list[TextFile] = []
    source: TextFile | None = None
    systems: dict[str, TextFile] = {}
    for role, system, file_name, key, doc_key, file_notes in streams:
        if key not in texts or (doc_key and doc_key not in texts):
            raise StorageError(f"The workspace database {where} is damaged: workspace "
                               f"{workspace_id} names a text it does not hold.")
        file = TextFile(file_name, texts[key], texts[doc_key] if doc_key else None,
                        tuple(json.loads(file_notes)))
        if role == "reference":
            references.append(file)
        elif role == "source":
            source = file
        else:
            systems[system] = file
    dataset = Dataset(systems, tuple(references), source, label, language,
                      tuple(json.loads(notes)))
    external = {metric: {system: tuple(values) for system, values in by_system.items()}
                for metric, by_system in json.loads(scores).items()}
    return Workspace(workspace_id, name, dataset, json.loads(options), external,
                     float(created), float(updated))

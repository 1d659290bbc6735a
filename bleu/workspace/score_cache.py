"""Learned metrics' segment scores kept in the workspace database (table ``learned_scores``,
schema version 4), so a model scores each text once for every workspace and session.

The same ScoreCache interface as ``bleu.metrics.learned.MemoryScoreCache``; ``score_cache`` gives
this one when a database is configured and the memory one otherwise. Each ``put`` is one short
write transaction (a batch's scores), so a run that is stopped keeps what it finished.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from ..metrics.learned.cache import CachedScore, MemoryScoreCache, ScoreCache
from .dialect import backend_for
from .errors import StorageError
from .redaction import redact_location
from .schema import migrate

_CHUNK = 500  # keys per SELECT (SQLite allows 999 parameters in older builds)


class DatabaseScoreCache:
    """A ScoreCache in the workspace database at ``location`` (SQLite path or PostgreSQL URL)."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self._location = location
        self._backend = backend_for(location)
        self._dialect = self._backend.dialect
        self._ready = False
        self._lock = threading.Lock()

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Any]:
        """A cursor in one transaction, the schema brought up to date first (once per cache)."""
        with self._lock:
            if not self._ready:
                with self._connected(write=True) as cursor:
                    migrate(cursor, self._dialect, "the workspace database")
                self._ready = True
        with self._connected(write=write) as cursor:
            yield cursor

    @contextmanager
    def _connected(self, *, write: bool) -> Iterator[Any]:
        errors = self._backend.driver_errors
        try:
            connection = self._backend.connect()
        except errors as error:
            raise self._fail(error) from None
        try:
            cursor = connection.cursor()
            cursor.execute(self._dialect.begin_write if write else self._dialect.begin_read)
            if write and self._dialect.write_lock:
                cursor.execute(self._dialect.write_lock)
            yield cursor
            cursor.execute("COMMIT")
        except BaseException as error:
            with suppress(*errors):
                connection.execute("ROLLBACK")
            if isinstance(error, errors):
                self._ready = False
                raise self._fail(error) from None
            raise
        finally:
            connection.close()

    def _fail(self, error: BaseException) -> StorageError:
        details = redact_location(str(error).strip(), self._location) or "no details"
        return StorageError(f"The workspace database cannot keep learned scores: "
                            f"{type(error).__name__}: {details}.")

    def get(self, model: str, segments: Sequence[str]) -> dict[str, CachedScore]:
        found: dict[str, CachedScore] = {}
        with self._transaction(write=False) as cursor:
            for start in range(0, len(segments), _CHUNK):
                chunk = segments[start:start + _CHUNK]
                cursor.execute(self._dialect.sql(
                    "SELECT segment, score, details FROM learned_scores WHERE model = ? AND "
                    f"segment IN ({', '.join('?' for _ in chunk)})"), (model, *chunk))
                for segment, value, details in cursor.fetchall():
                    found[segment] = CachedScore(float(value), details)
        return found

    def put(self, model: str, scores: Mapping[str, CachedScore]) -> None:
        if not scores:
            return
        insert = self._dialect.upsert(
            "learned_scores", ("model", "segment", "score", "details", "created"),
            ("model", "segment"))
        now = time.time()
        with self._transaction(write=True) as cursor:
            cursor.executemany(insert, [(model, key, value.score, value.details, now)
                                        for key, value in scores.items()])


def score_cache(location: str | os.PathLike[str] | None) -> ScoreCache:
    """The database's cache where a location is configured, else one in memory."""
    if location is None or not str(location).strip():
        return MemoryScoreCache()
    return DatabaseScoreCache(location)

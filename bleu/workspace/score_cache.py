"""Learned metrics' segment scores kept in the workspace database (table ``learned_scores``,
schema version 5), so a model scores each text once for every workspace and session.

The same ScoreCache interface as ``bleu.metrics.learned.MemoryScoreCache``; ``score_cache`` gives
this one when a database is configured and the memory one otherwise. Each ``put`` is one short
write transaction (a batch's scores), so a run that is stopped keeps what it finished.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ..metrics.learned.cache import CachedScore, MemoryScoreCache, ScoreCache
from .store import WorkspaceStore

_CHUNK = 500  # keys per SELECT (SQLite allows 999 parameters in older builds)


class DatabaseScoreCache:
    """A ScoreCache in the workspace database at ``location`` (SQLite path or PostgreSQL URL):
    its transactions are the workspace store's (schema kept current, errors redacted)."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self._store = WorkspaceStore(location)
        self._dialect = self._store.dialect

    def _transaction(self, *, write: bool) -> AbstractContextManager[Any]:
        return self._store.transaction("used for learned scores", write=write)

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

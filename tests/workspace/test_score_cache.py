"""The workspace database keeps learned metrics' scores (table learned_scores, schema version 4)
on both backends: scores and details come back exactly, a second put keeps the first score, a
version-3 database gains the table, and without a database the cache lives in memory."""

from __future__ import annotations

import math

from workspace_backends import location_fixture  # noqa: F401 -- `location`: both backends
from workspace_raw import raw_connection, raw_execute

from bleu.metrics.learned.cache import CachedScore, MemoryScoreCache, segment_key
from bleu.workspace import SCHEMA_VERSION, WorkspaceStore
from bleu.workspace.dialect import backend_for
from bleu.workspace.schema import migrate
from bleu.workspace.score_cache import DatabaseScoreCache, score_cache

MODEL = "0123456789abcdef0123456789abcdef"
SCORES = {
    segment_key(["src", "mt", "ref"]): CachedScore(0.8123456789012345, None),
    segment_key(["src", "mt", None]): CachedScore(-1e-300, '{"spans": [[0, 3, "minor", '
                                                           '"Ein", 0.5]]}'),
    segment_key(["ß", "“quoted”", ""]): CachedScore(math.pi, '{"precision": 0.1}'),
}


def test_scores_come_back_exactly(location: str) -> None:
    cache = DatabaseScoreCache(location)
    assert cache.get(MODEL, list(SCORES)) == {}
    cache.put(MODEL, SCORES)
    again = DatabaseScoreCache(location)  # another process, a later session
    assert again.get(MODEL, [*SCORES, "absent"]) == SCORES
    assert again.get("another model", list(SCORES)) == {}
    first = next(iter(SCORES))
    again.put(MODEL, {first: CachedScore(0.0, None)})  # computed twice at once: first one stays
    assert again.get(MODEL, [first]) == {first: SCORES[first]}
    assert raw_execute(location, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]


def test_many_keys_are_looked_up_in_chunks(location: str) -> None:
    scores = {segment_key([str(i)]): CachedScore(float(i)) for i in range(1234)}
    cache = DatabaseScoreCache(location)
    cache.put(MODEL, scores)
    assert cache.get(MODEL, list(scores)) == scores


def test_a_version_3_database_gains_the_table(location: str) -> None:
    connection = raw_connection(location)
    try:
        cursor = connection.cursor()
        cursor.execute("BEGIN")
        migrate(cursor, backend_for(location).dialect, location, target=3)
        cursor.execute("COMMIT")
    finally:
        connection.close()
    DatabaseScoreCache(location).put(MODEL, SCORES)
    assert raw_execute(location, "SELECT version FROM schema_version") == [(5,)]
    assert raw_execute(location, "SELECT COUNT(*) FROM learned_scores") == [(3,)]
    WorkspaceStore(location).list()  # the workspaces are still read as before


def test_without_a_database_the_cache_is_in_memory() -> None:
    cache = score_cache(None)
    assert isinstance(cache, MemoryScoreCache)
    cache.put(MODEL, SCORES)
    assert cache.get(MODEL, list(SCORES)) == SCORES
    assert isinstance(score_cache("/tmp/some.sqlite3"), DatabaseScoreCache)

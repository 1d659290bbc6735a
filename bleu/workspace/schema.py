"""The database schema, versioned: ``MIGRATIONS[k]`` takes a database from version k to k + 1.

Version 1 stored the test set and its systems; version 2 added the workspace's options, its
external scores and the dataset's notes (a version-1 workspace opens with none of them); version 3
added ``edit_hash``, the sha256 of the owner's edit secret (a workspace saved before has none:
nobody can change it, anyone can copy it); version 4 changed no table but what
``external_scores`` holds: a list of metrics with their direction and source (``scores.py``;
rows saved before are read as they are). A fresh database runs every migration in order, so the
upgrade path is the one always used. Version 5 added ``learned_scores``, the segment scores that
learned metrics computed (``score_cache.py``), keyed by model and text. A database of version
``READABLE`` or later that cannot be migrated (it is read-only) is read as it is.
"""

from __future__ import annotations

from typing import Any

from .dialect import Dialect
from .errors import Problem, StorageError, capitalized

_V1 = (
    """CREATE TABLE texts (
        hash TEXT PRIMARY KEY,
        n_items INTEGER NOT NULL,
        size INTEGER NOT NULL,
        data {blob} NOT NULL)""",
    """CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        label TEXT NOT NULL,
        target_language TEXT,
        created {real} NOT NULL,
        updated {real} NOT NULL)""",
    """CREATE TABLE streams (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        file_name TEXT NOT NULL,
        text_hash TEXT NOT NULL REFERENCES texts (hash),
        doc_hash TEXT REFERENCES texts (hash),
        notes TEXT NOT NULL,
        PRIMARY KEY (workspace_id, role, position))""",
    "CREATE INDEX streams_text ON streams (text_hash)",
    "CREATE INDEX streams_doc ON streams (doc_hash)",
)
_V2 = (
    "ALTER TABLE workspaces ADD COLUMN options TEXT NOT NULL DEFAULT '{}'",
    "ALTER TABLE workspaces ADD COLUMN external_scores TEXT NOT NULL DEFAULT '{}'",
    "ALTER TABLE workspaces ADD COLUMN notes TEXT NOT NULL DEFAULT '[]'",
)
_V3 = ("ALTER TABLE workspaces ADD COLUMN edit_hash TEXT",)
_V4: tuple[str, ...] = ()  # external_scores as a list of metrics (scores.py reads both forms)
_V5 = (
    """CREATE TABLE learned_scores (
        model TEXT NOT NULL,
        segment TEXT NOT NULL,
        score {real} NOT NULL,
        details TEXT,
        created {real} NOT NULL,
        PRIMARY KEY (model, segment))""",
)
MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, _V5)
LATEST = len(MIGRATIONS)
#: the oldest version this code reads without migrating it (every column it reads is there)
READABLE = 3


def recorded_version(cursor: Any) -> int:
    """The version recorded in ``schema_version`` (a driver error where the table is missing);
    reads only, so that a read-only database can be checked."""
    cursor.execute("SELECT MAX(version) FROM schema_version")
    row = cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def schema_version(cursor: Any, dialect: Dialect) -> int:
    """The version recorded in ``schema_version`` (0 for a database without tables yet)."""
    cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    return recorded_version(cursor)


def refuse_newer(found: int, where: str) -> None:
    """A database newer than this code is refused (it would be misread)."""
    if found > LATEST:
        raise StorageError(
            f"{capitalized(where)} has schema version {found}, newer than this "
            f"BLEU Explorer understands ({LATEST}): upgrade bleu-explorer, or point "
            "BLEU_EXPLORER_DB at another database.", Problem.NEWER)


def migrate(cursor: Any, dialect: Dialect, where: str, target: int = LATEST) -> int:
    """Bring the schema to ``target`` inside the caller's write transaction; returns the old
    version. ``where`` names the database in messages."""
    found = schema_version(cursor, dialect)
    refuse_newer(found, where)
    for version in range(found, target):
        for statement in MIGRATIONS[version]:
            cursor.execute(dialect.sql(statement))
    if found < target:
        cursor.execute("DELETE FROM schema_version")
        cursor.execute(dialect.sql("INSERT INTO schema_version (version) VALUES (?)"), (target,))
    return found

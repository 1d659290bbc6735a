"""Raw access to a test database (no store code), to build old schemas and break things."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any


def raw_connection(location: str) -> Any:
    """An autocommit DB-API connection to an SQLite path or a PostgreSQL URL."""
    if location.startswith("postgresql://"):
        import psycopg

        return psycopg.connect(location, autocommit=True)
    return sqlite3.connect(location, isolation_level=None)


def raw_execute(location: str, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
    """Run one statement (``?`` placeholders) and return its rows."""
    connection = raw_connection(location)
    try:
        if location.startswith("postgresql://"):
            sql = sql.replace("?", "%s")
        cursor = connection.cursor()
        cursor.execute(sql, tuple(params))
        return list(cursor.fetchall()) if cursor.description else []
    finally:
        connection.close()

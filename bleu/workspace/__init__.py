"""Workspaces: a loaded test set with its systems, options and external scores, saved in SQLite
(default) or PostgreSQL, reopened by an unguessable id. Pure: no Streamlit here."""

from .config import (
    DATABASE_VARIABLE,
    SHARED_VARIABLE,
    database_location,
    default_database,
    shared_instance,
)
from .errors import StorageError, WorkspaceError, WorkspaceNotFoundError
from .model import SavedScores, Workspace, WorkspaceInfo, new_id
from .schema import LATEST as SCHEMA_VERSION
from .store import StoreUsage, WorkspaceStore

__all__ = [
    "DATABASE_VARIABLE",
    "SCHEMA_VERSION",
    "SHARED_VARIABLE",
    "SavedScores",
    "StorageError",
    "StoreUsage",
    "Workspace",
    "WorkspaceError",
    "WorkspaceInfo",
    "WorkspaceNotFoundError",
    "WorkspaceStore",
    "database_location",
    "default_database",
    "new_id",
    "shared_instance",
]

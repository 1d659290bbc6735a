"""Workspaces: a loaded test set with its systems, options and segment scores, saved in SQLite
(default) or PostgreSQL, reopened by an unguessable id, changed only with its owner's edit
secret; what to do with newly loaded data (``autosave``) and which options a link opens with
(``precedence``). Pure: no Streamlit here."""

from .config import (
    DATABASE_VARIABLE,
    SHARED_DELETE_VARIABLE,
    SHARED_VARIABLE,
    database_location,
    default_database,
    shared_delete,
    shared_instance,
)
from .errors import (
    Problem,
    StorageError,
    WorkspaceError,
    WorkspaceNotFoundError,
    WorkspaceReadOnlyError,
)
from .model import SavedScores, Workspace, WorkspaceInfo, new_edit_token, new_id
from .redaction import redact_location
from .schema import LATEST as SCHEMA_VERSION
from .store import StoreUsage, WorkspaceStore

__all__ = [
    "DATABASE_VARIABLE",
    "SCHEMA_VERSION",
    "SHARED_DELETE_VARIABLE",
    "SHARED_VARIABLE",
    "Problem",
    "SavedScores",
    "StorageError",
    "StoreUsage",
    "Workspace",
    "WorkspaceError",
    "WorkspaceInfo",
    "WorkspaceNotFoundError",
    "WorkspaceReadOnlyError",
    "WorkspaceStore",
    "database_location",
    "default_database",
    "new_edit_token",
    "new_id",
    "redact_location",
    "shared_delete",
    "shared_instance",
]

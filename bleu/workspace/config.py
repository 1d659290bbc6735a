"""Where the workspaces live and whether every visitor may list them, from the environment.

``BLEU_EXPLORER_DB`` (a file path or a postgresql:// URL) wins over a configured value (the app
passes ``[workspaces] database`` of .streamlit/secrets.toml), which wins over the default file in
the user's data folder. ``BLEU_EXPLORER_SHARED=1`` (or ``[workspaces] shared = true``) makes the
server a shared lab instance that lists every workspace; only their owners may change or delete
them, unless ``BLEU_EXPLORER_SHARED_DELETE=1`` (or ``[workspaces] shared_delete = true``) lets
every visitor delete any workspace listed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DATABASE_VARIABLE = "BLEU_EXPLORER_DB"
SHARED_VARIABLE = "BLEU_EXPLORER_SHARED"
SHARED_DELETE_VARIABLE = "BLEU_EXPLORER_SHARED_DELETE"
FILE_NAME = "workspaces.sqlite3"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


def default_database(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME/bleu-explorer/workspaces.sqlite3`` (default ~/.local/share/...)."""
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bleu-explorer" / FILE_NAME


def database_location(configured: str | None = None,
                      environ: Mapping[str, str] = os.environ) -> str:
    """The database to use: the environment variable, else ``configured``, else the default."""
    return (environ.get(DATABASE_VARIABLE) or (configured or "").strip()
            or str(default_database(environ)))


def _switch(variable: str, configured: object, environ: Mapping[str, str]) -> bool:
    """An on/off setting: the environment variable (when it reads as one), else ``configured``."""
    value = environ.get(variable)
    if value is not None and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    if isinstance(configured, str):
        return configured.strip().lower() in _TRUE
    return bool(configured)


def shared_instance(configured: object = None, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether every visitor may list every workspace (a lab server), not only their own."""
    return _switch(SHARED_VARIABLE, configured, environ)


def shared_delete(configured: object = None, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether every visitor may delete any workspace, not only its owner: off unless the
    server enables it explicitly (a lab that cleans up together)."""
    return _switch(SHARED_DELETE_VARIABLE, configured, environ)

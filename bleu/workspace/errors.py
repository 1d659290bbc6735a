"""Errors of the workspace store: a database that cannot be used, a workspace that is not there."""

from __future__ import annotations

from ..errors import InputError


def capitalized(text: str) -> str:
    """``text`` with its first letter upper case: a database's name starting a message."""
    return text[:1].upper() + text[1:]


class WorkspaceError(InputError):
    """Base class of the workspace store's errors (a user or an administrator can fix them)."""


class StorageError(WorkspaceError):
    """The database cannot be opened, read or written (corrupt, unwritable, unreachable, too new).

    The message names the database and says what to do; the app keeps working without saving.
    """


class WorkspaceNotFoundError(WorkspaceError):
    """No workspace has the id (or name) asked for, or a name is shared by several workspaces."""


class WorkspaceReadOnlyError(WorkspaceError):
    """A change to a workspace without its edit secret: only its owner may change or delete it
    (anyone with its link may look at it and copy it)."""

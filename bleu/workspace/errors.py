"""Errors of the workspace store: a database that cannot be used, a workspace that is not there."""

from __future__ import annotations

import enum

from ..errors import InputError
from ..i18n import tr


def capitalized(text: str) -> str:
    """``text`` with its first letter upper case: a database's name starting a message."""
    return text[:1].upper() + text[1:]


class Problem(enum.Enum):
    """What is wrong with a database, as a visitor may be told it (``StorageError.plain``)."""

    UNAVAILABLE = "unavailable"  # cannot be opened, reached or read (down, wrong password...)
    READ_ONLY = "read-only"  # a read-only file, folder, user or server: links still open
    FULL = "full"  # no room left on its disk
    DAMAGED = "damaged"  # not a BLEU Explorer database, or rows that fail their checks
    NEWER = "newer"  # a schema newer than this code


def plain_sentence(problem: Problem) -> str:
    """One sentence a visitor may read about ``problem``: no host, user, path or driver text."""
    return {
        Problem.UNAVAILABLE: tr("The workspace database cannot be reached."),
        Problem.READ_ONLY: tr("The workspace database is read-only here."),
        Problem.FULL: tr("The workspace database has no room left."),
        Problem.DAMAGED: tr("The workspace database is damaged or is not a BLEU Explorer "
                            "database."),
        Problem.NEWER: tr("The workspace database was written by a newer BLEU Explorer."),
    }[problem]


class WorkspaceError(InputError):
    """Base class of the workspace store's errors (a user or an administrator can fix them)."""


class StorageError(WorkspaceError):
    """The database cannot be opened, read or written (corrupt, unwritable, unreachable, too new).

    The message names the database and says what to do (driver text included, secrets
    hidden: for the command line and the server's log); ``plain`` is the one sentence the app
    shows visitors. The app keeps working without saving.
    """

    def __init__(self, message: str, problem: Problem = Problem.UNAVAILABLE) -> None:
        super().__init__(message)
        self.problem = problem

    @property
    def plain(self) -> str:
        """What a visitor is told: one sentence, nothing about the server."""
        return plain_sentence(self.problem)

    @property
    def read_only(self) -> bool:
        """Whether the database can be read but not written (links still open)."""
        return self.problem is Problem.READ_ONLY


class WorkspaceNotFoundError(WorkspaceError):
    """No workspace has the id (or name) asked for, or a name is shared by several workspaces."""


class WorkspaceReadOnlyError(WorkspaceError):
    """A change to a workspace without its edit secret: only its owner may change or delete it
    (anyone with its link may look at it and copy it)."""

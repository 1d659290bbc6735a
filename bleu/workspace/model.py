"""A saved workspace: one loaded test set (a ``Dataset``) with its options and segment scores."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..io.dataset import Dataset

#: random bytes in a workspace id: 16 bytes = 128 bits, so an id cannot be guessed
ID_BYTES = 16
#: random bytes in an edit secret (the owner's right to change a workspace): 128 bits too
TOKEN_BYTES = 16


@dataclass(frozen=True)
class SavedScores:
    """One segment-score metric (COMET, MQM, ...) as a workspace keeps it: per system (named as
    loaded) one score per segment, None where a segment is not rated; which way it points; the
    file it came from. Plain values, so that workspaces compare equal (``scores.py`` converts
    to and from ``SegmentScores``)."""

    label: str
    scores: Mapping[str, tuple[float | None, ...]]
    higher_is_better: bool = True
    source: str = ""


def new_id() -> str:
    """A fresh workspace id: 128 random bits, URL-safe (22 characters), unguessable, never
    starting with ``-`` (a command line would read it as an option; 1 id in 64 did). Drawing
    again on a leading ``-`` leaves 63 choices for the first character: 127.98 bits."""
    while (workspace_id := secrets.token_urlsafe(ID_BYTES)).startswith("-"):
        pass
    return workspace_id


def new_edit_token() -> str:
    """A fresh edit secret: 128 random bits, URL-safe (22 characters); only its hash is stored."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def edit_hash(token: str) -> str:
    """What the database keeps of an edit secret (sha256, hex): a stolen database gives none."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored: str | None) -> bool:
    """Whether ``token`` is the secret of ``stored`` (compared in constant time)."""
    return bool(token and stored) and hmac.compare_digest(edit_hash(token), str(stored))


@dataclass(frozen=True)
class Workspace:
    """Everything one evaluation holds: test set and systems, options, segment scores.

    ``options`` are JSON values (the app's option widgets by key); ``created`` and ``updated``
    are Unix times.
    """

    id: str
    name: str
    dataset: Dataset
    options: Mapping[str, Any] = field(default_factory=dict)
    segment_scores: tuple[SavedScores, ...] = ()
    created: float = 0.0
    updated: float = 0.0

    @classmethod
    def new(cls, dataset: Dataset, name: str, *, options: Mapping[str, Any] | None = None,
            segment_scores: tuple[SavedScores, ...] = ()) -> Workspace:
        """A workspace not saved yet, with a fresh id and the current time."""
        now = time.time()
        return cls(new_id(), name, dataset, dict(options or {}), tuple(segment_scores), now, now)


@dataclass(frozen=True)
class WorkspaceInfo:
    """What a list of workspaces shows, without reading their texts."""

    id: str
    name: str
    label: str
    n_systems: int
    n_segments: int
    created: float
    updated: float

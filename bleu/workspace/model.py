"""A saved workspace: one loaded test set (a ``Dataset``) with its options and external scores."""

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

#: external scores: metric -> system -> one score per segment (None where a segment has none)
SavedScores = Mapping[str, Mapping[str, tuple[float | None, ...]]]


def new_id() -> str:
    """A fresh workspace id: 128 random bits, URL-safe (22 characters), unguessable."""
    return secrets.token_urlsafe(ID_BYTES)


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
    """Everything one evaluation holds: test set and systems, options, external scores.

    ``options`` are JSON values (the app's option widgets by key); ``created`` and ``updated``
    are Unix times.
    """

    id: str
    name: str
    dataset: Dataset
    options: Mapping[str, Any] = field(default_factory=dict)
    external_scores: SavedScores = field(default_factory=dict)
    created: float = 0.0
    updated: float = 0.0

    @classmethod
    def new(cls, dataset: Dataset, name: str, *, options: Mapping[str, Any] | None = None,
            external_scores: SavedScores | None = None) -> Workspace:
        """A workspace not saved yet, with a fresh id and the current time."""
        now = time.time()
        return cls(new_id(), name, dataset, dict(options or {}), dict(external_scores or {}),
                   now, now)


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

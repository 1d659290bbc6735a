"""Scores computed once: each segment's score under one model, keyed by the model and the texts
the model read, so that a rerun, another page or another workspace with the same text and model
finds them. ``MemoryScoreCache`` lives as long as the process; the workspace database keeps them
for good (``bleu.workspace.score_cache``)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class CachedScore:
    """One segment's score, and what else the model said about it as JSON text (error spans,
    BERTScore's precision and recall), or None."""

    score: float
    details: str | None = None


class ScoreCache(Protocol):
    """Where computed scores are kept: ``model`` is a scorer's ``identity`` (a short hash),
    ``segment`` a ``segment_key`` of the texts the model read."""

    def get(self, model: str, segments: Sequence[str]) -> dict[str, CachedScore]:
        """The scores held for those segments (absent ones are left out)."""

    def put(self, model: str, scores: Mapping[str, CachedScore]) -> None:
        """Keep these scores (a segment held already keeps its first score)."""


def segment_key(texts: Iterable[str | None]) -> str:
    """A hash of the texts one segment's score depends on, in the model's order (None, a missing
    text, differs from the empty one)."""
    encoded = json.dumps(list(texts), ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(encoded, digest_size=16).hexdigest()


def model_key(*parts: str) -> str:
    """A hash of what identifies a model's scores (kind, model version, library, settings)."""
    encoded = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(encoded, digest_size=16).hexdigest()


class MemoryScoreCache:
    """A ScoreCache in a dict: what the app uses without a workspace database."""

    def __init__(self) -> None:
        self._scores: dict[tuple[str, str], CachedScore] = {}
        self._lock = threading.Lock()

    def get(self, model: str, segments: Sequence[str]) -> dict[str, CachedScore]:
        with self._lock:
            return {key: self._scores[model, key] for key in segments
                    if (model, key) in self._scores}

    def put(self, model: str, scores: Mapping[str, CachedScore]) -> None:
        with self._lock:
            for key, value in scores.items():
                self._scores.setdefault((model, key), value)

    def __len__(self) -> int:
        return len(self._scores)

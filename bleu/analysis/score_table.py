"""Segment scores of several systems from outside BLEU (human judgments, other metrics)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class ExternalScores:
    """Segment scores per system: ``matrix[s, i]`` is system ``s`` on segment ``i + 1``.

    NaN marks a segment not rated for that system.
    """

    label: str
    systems: tuple[str, ...]
    matrix: np.ndarray
    source: str = "<text>"

    @classmethod
    def from_rows(cls, label: str, scores: Mapping[str, Mapping[int, float]],
                  source: str = "<text>") -> ExternalScores:
        """From each system's ``{segment id (1-based): score}``; segments a system lacks are
        NaN. The matrix is read-only."""
        systems = tuple(scores)
        width = max(max(per_system) for per_system in scores.values())
        matrix = np.full((len(systems), width), np.nan)
        for row, system in enumerate(systems):
            for seg_id, value in scores[system].items():
                matrix[row, seg_id - 1] = value
        matrix.setflags(write=False)
        return cls(label, systems, matrix, source)

    @cached_property
    def key(self) -> str:
        """A hash of the label, systems and scores: what caches are keyed on."""
        digest = hashlib.blake2b(digest_size=16)
        digest.update("\t".join((self.label, *self.systems)).encode("utf-8", "surrogatepass"))
        digest.update(np.ascontiguousarray(self.matrix, dtype=np.float64).tobytes())
        return digest.hexdigest()

    @property
    def n_segments(self) -> int:
        return int(self.matrix.shape[1])

    def scores(self, system: str) -> np.ndarray:
        """One system's scores, one per segment, NaN where not rated."""
        return self.matrix[self.systems.index(system)]

    def by_system(self) -> dict[str, np.ndarray]:
        """Every system's scores, by name."""
        return {name: self.matrix[row] for row, name in enumerate(self.systems)}

    def rated(self) -> int:
        """How many (system, segment) pairs have a score."""
        return int((~np.isnan(self.matrix)).sum())

    def rated_segments(self, system: str) -> np.ndarray:
        """0-based indices of the segments rated for ``system``."""
        return np.flatnonzero(~np.isnan(self.scores(system)))

    def system_score(self, system: str) -> float:
        """A system-level score: the mean over the segments rated for that system."""
        scores = self.scores(system)
        return float(np.mean(scores[~np.isnan(scores)]))

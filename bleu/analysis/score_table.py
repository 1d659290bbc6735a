"""Segment scores of several systems from outside BLEU (human judgments, other metrics)."""

from __future__ import annotations

from dataclasses import dataclass

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

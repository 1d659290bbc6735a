"""Segment scores of several systems from outside BLEU (human judgments, learned metrics), and
which way they point: COMET, BLEURT, BERTScore or DA higher is better; MetricX and MQM
penalties (error counts, not their negation) lower is better."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: label words of scores where lower is better (MetricX and MQM penalties, TER-like rates);
#: anything else is taken as higher-is-better, and the user can say otherwise
LOWER_IS_BETTER_WORDS = ("metricx", "penalty", "penalties", "error", "errors", "ter", "wer")


def lower_is_better(label: str) -> bool:
    """Whether scores named ``label`` are better when lower (``MetricX-23``, ``MQM penalty``);
    WMT's MQM files hold negated penalties (0 is perfect, higher is better), named ``MQM``."""
    words = "".join(c if c.isalnum() else " " for c in label.lower()).split()
    return any(word.startswith(LOWER_IS_BETTER_WORDS) for word in words)



@dataclass(frozen=True)
class SegmentScores:
    """Segment scores per system: ``matrix[s, i]`` is system ``s`` on segment ``i + 1``.

    NaN marks a segment not rated for that system. ``higher_is_better`` says which way the
    scores point (guessed from the label by ``lower_is_better``; the user may set it).
    """

    label: str
    systems: tuple[str, ...]
    matrix: np.ndarray
    source: str = "<text>"
    higher_is_better: bool = True

    @classmethod
    def from_rows(cls, label: str, scores: Mapping[str, Mapping[int, float]],
                  source: str = "<text>", higher_is_better: bool | None = None,
                  ) -> SegmentScores:
        """From each system's ``{segment id (1-based): score}``; segments a system lacks are
        NaN. The matrix is read-only; the direction is guessed from the label unless given."""
        systems = tuple(scores)
        width = max(max(per_system) for per_system in scores.values())
        matrix = np.full((len(systems), width), np.nan)
        for row, system in enumerate(systems):
            for seg_id, value in scores[system].items():
                matrix[row, seg_id - 1] = value
        matrix.setflags(write=False)
        if higher_is_better is None:
            higher_is_better = not lower_is_better(label)
        return cls(label, systems, matrix, source, higher_is_better)

    @cached_property
    def key(self) -> str:
        """A hash of the label, systems and scores: what caches are keyed on."""
        digest = hashlib.blake2b(digest_size=16)
        digest.update("\t".join((self.label, *self.systems, str(self.higher_is_better)))
                      .encode("utf-8", "surrogatepass"))
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

"""Per-segment scores as statistics: a row ``[score, 1]`` for a rated segment, ``[0, 0]`` for
an unrated one (NaN), so that a corpus, a resample or a bucket sums to (total, rated) and its
score is their ratio: the mean over the rated segments, as COMET and the WMT findings report a
system. ``rated_column`` lets a paired test leave out segments either system lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import InvalidTextError


def segment_stats(scores: Sequence[float] | np.ndarray, name: str = "scores") -> np.ndarray:
    """The ``[score, rated]`` rows of one system's segment scores (NaN: not rated)."""
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1:
        raise InvalidTextError(f"The {name} must be one score per segment; got an array of "
                               f"shape {values.shape}.")
    if np.isinf(values).any():
        where = int(np.flatnonzero(np.isinf(values))[0]) + 1
        raise InvalidTextError(f"The {name} hold an infinite value at segment {where}.")
    rated = ~np.isnan(values)
    stats = np.zeros((len(values), 2), np.float64)
    stats[rated, 0] = values[rated]
    stats[rated, 1] = 1.0
    stats.setflags(write=False)
    return stats


@dataclass(frozen=True)
class SegmentScorer:
    """A ``StatsScorer`` (``bleu.metrics.base``) of segment scores: the mean over rated
    segments (NaN where none is rated), in float64 for corpus scores, resamples and trials."""

    name: str
    higher_is_better: bool = True
    integer_stats: bool = False
    float32_resamples: bool = False
    rated_column: int | None = 1
    columns: int = 2

    def score(self, sums: np.ndarray) -> float:
        """The mean over the rated segments of one row of summed statistics."""
        total, rated = float(sums[0]), float(sums[1])
        return total / rated if rated > 0 else float("nan")

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """The mean of each row of summed statistics (a segment's own score for its row)."""
        sums = np.asarray(sums, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sums[..., 1] > 0, sums[..., 0] / sums[..., 1], np.nan)

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        """Resample means, as ``scores`` (no sacrebleu number to match: float64 throughout)."""
        return self.scores(sums)

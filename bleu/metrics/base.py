"""What every metric shares: per-segment statistics that sum to a corpus, and a scorer of sums.

A metric (BLEU, chrF, TER) turns each segment into one row of sufficient statistics; a corpus,
a bootstrap resample, an approximate-randomization trial or a bucket is a sum of rows, and a
``StatsScorer`` turns summed rows into scores, many rows at once. ``bleu.metrics.significance``
needs nothing else to test any metric.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

#: a progress callback: called with the fraction of the work done (0..1)
Progress = Callable[[float], None]


class StatsScorer(Protocol):
    """How a metric scores summed per-segment statistics (rows of a matrix)."""

    #: the score's name as sacrebleu prints it: ``BLEU``, ``chrF2``, ``chrF2++``, ``TER``
    name: str
    #: True where a higher score is better (False for TER)
    higher_is_better: bool
    #: True when every statistic is an integer count: sums of up to 2**24 are then exact in
    #: float32, so resample sums may be computed in any order
    integer_stats: bool

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, as the metric's ``corpus_score`` computes them
        (real scores and approximate-randomization trials)."""
        ...

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of bootstrap-resample sums as sacrebleu computes them: from float32
        statistics (``np.array(stats, dtype="float32")[indices].sum(0)``)."""
        ...

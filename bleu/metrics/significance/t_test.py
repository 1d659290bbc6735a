"""The paired t-test of two systems' segment scores, as comet-compare reports it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import LengthMismatchError
from ..base import StatsScorer
from .base import (
    ScorerSource,
    StatisticsShapeError,
    as_scorer,
    check_matrix,
)
from .groups import rated_rows


@dataclass(frozen=True)
class PairedTTest:
    """The paired t-test of two systems' segment scores, as ``comet-compare`` reports it
    (``scipy.stats.ttest_rel`` of A's against B's): ``t`` and its two-sided ``p_value`` with
    ``n_segments - 1`` degrees of freedom, over the segments rated for both systems."""

    t: float
    p_value: float
    n_segments: int
    mean_difference: float

    @property
    def degrees_of_freedom(self) -> int:
        return self.n_segments - 1


def paired_t_test(stats_a: np.ndarray, stats_b: np.ndarray,
                  metric: StatsScorer | ScorerSource) -> PairedTTest:
    """Student's paired t-test of A's and B's per-segment scores (their rows' scores), on the
    segments both are rated on. No variance in the differences gives t = NaN (all equal) or
    +-inf with p = 0 (all the same non-zero difference), as scipy does."""
    scorer = as_scorer(metric)
    a = check_matrix(stats_a, scorer, "system A")
    b = check_matrix(stats_b, scorer, "system B")
    if len(a) != len(b):
        raise LengthMismatchError(f"System A has {len(a)} segments, but B has {len(b)}; a "
                                  "paired test compares systems segment by segment.")
    rows = np.ones(len(a), bool)
    for matrix in (a, b):
        rated = rated_rows(scorer, matrix)
        rows &= True if rated is None else rated
    differences = scorer.scores(a[rows]) - scorer.scores(b[rows])
    n = len(differences)
    if n < 2:
        raise StatisticsShapeError(f"A paired t-test needs at least 2 segments rated for both "
                                   f"systems; {n} {'is' if n == 1 else 'are'}.")
    mean = float(differences.mean())
    deviation = float(differences.std(ddof=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        t_value = float(np.divide(mean, deviation / np.sqrt(n)))
    from .student_t import two_sided_p

    return PairedTTest(t_value, two_sided_p(t_value, n - 1), n, mean)

"""System A against system B on one metric: the scores, A − B with its 95% bootstrap interval
(A's score minus B's on each of the paired bootstrap's own resamples),
the paired bootstrap and approximate-randomization p-values, and for segment scores
comet-compare's paired t-test on the segments rated for both; which metrics call a winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import LengthMismatchError
from ..i18n import ntr, tr
from ..metrics.base import StatsScorer
from ..metrics.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    PairedTTest,
    ScorerSource,
    as_scorer,
    estimate_ci,
    paired_ar_from_stats,
    paired_bootstrap_differences,
    paired_t_test,
)
from ..number_rule import LEVEL
from .ranking import ALPHA


@dataclass(frozen=True)
class PairedComparison:
    """A against B on one metric: both scores, A − B with the 95% bootstrap interval of the
    difference, and the p-values of the paired bootstrap and of approximate randomization
    (sacrebleu's ``--paired-bs`` and ``--paired-ar`` with A as the baseline)."""

    metric: str
    higher_is_better: bool
    score_a: float
    score_b: float
    low: float
    high: float
    p_bootstrap: float
    p_ar: float
    n_bootstrap: int
    n_ar: int
    seed: int
    #: segment scores: the segments rated for both systems (what the tests used), the paired
    #: t-test comet-compare reports; None for text metrics, which test every segment
    n_segments: int | None = None
    t_test: PairedTTest | None = None

    @property
    def delta(self) -> float:
        return self.score_a - self.score_b

    def verdict(self, a: str = "A", b: str = "B", alpha: float = ALPHA) -> str:
        """Which system is better, and by which tests (p < ``alpha``), or "not significant"
        (in the interface language)."""
        tests = [name for name, p in (("bootstrap", self.p_bootstrap), ("AR", self.p_ar))
                 if p < alpha]
        if not tests:
            return tr("not significant")
        a_ahead = self.delta > 0 if self.higher_is_better else self.delta < 0
        winner = a if a_ahead else b
        if len(tests) == 2:
            return tr("{system} better").format(system=winner)
        return tr("{system} better ({test} only)").format(system=winner, test=tests[0])


def paired_comparison(stats_a: np.ndarray, stats_b: np.ndarray,
                      metric: StatsScorer | ScorerSource, *, n_bootstrap: int = 1000,
                      n_ar: int = DEFAULT_SAMPLES["ar"], seed: int = DEFAULT_SEED,
                      ) -> PairedComparison:
    """Test A against B on one metric (BLEU's options or any ``StatsScorer``).

    The p-values are those of ``paired_bootstrap_from_stats`` and ``paired_ar_from_stats``
    with A as the baseline; the interval of A − B is read from that bootstrap's resamples.
    """
    scorer = as_scorer(metric)
    stats_a, stats_b = check_pair(stats_a, stats_b)
    pair = {"A": stats_a, "B": stats_b}
    bootstrap, differences = paired_bootstrap_differences(pair, scorer, baseline="A",
                                                          n_samples=n_bootstrap, seed=seed)
    randomized = paired_ar_from_stats(pair, scorer, baseline="A", n_samples=n_ar, seed=seed)
    _, _, low, high = estimate_ci(differences["B"])
    rated = scorer.rated_column is not None
    return PairedComparison(
        metric=scorer.name, higher_is_better=scorer.higher_is_better,
        score_a=bootstrap["A"].score, score_b=bootstrap["B"].score,
        low=low, high=high,
        p_bootstrap=float(bootstrap["B"].p_value), p_ar=float(randomized["B"].p_value),
        n_bootstrap=n_bootstrap, n_ar=n_ar, seed=seed,
        n_segments=bootstrap["B"].n_segments if rated else None,
        t_test=paired_t_test(stats_a, stats_b, scorer) if rated else None)


def winners(results: Sequence[PairedComparison], alpha: float = ALPHA) -> dict[str, list[str]]:
    """The metrics by the system they find significantly better (bootstrap p < ``alpha``):
    ``{"A": [...], "B": [...]}``."""
    found: dict[str, list[str]] = {"A": [], "B": []}
    for result in results:
        if result.p_bootstrap < alpha and result.delta != 0:
            a_ahead = result.delta > 0 if result.higher_is_better else result.delta < 0
            found["A" if a_ahead else "B"].append(result.metric)
    return found


def disagreement(results: Sequence[PairedComparison], a: str, b: str,
                 alpha: float = ALPHA) -> str | None:
    """A sentence saying that the metrics disagree on the winner, naming which metric finds
    which system significantly better; None when they do not disagree."""
    found = winners(results, alpha)
    if not found["A"] or not found["B"]:
        return None
    def side(metrics: list[str], system: str) -> str:  # "BLEU finds", "chrF, TER find"
        return ntr("{metrics} finds {system} significantly better",
                   "{metrics} find {system} significantly better", len(metrics)).format(
            metrics=", ".join(metrics), system=system)

    return tr("The metrics disagree on the winner: {for_a}, {for_b} (paired bootstrap, p < "
              "{alpha}). Each metric sees different qualities: look at the segments where they "
              "differ (Metrics & human scores, 'Where BLEU and another metric "
              "disagree').").format(for_a=side(found["A"], a), for_b=side(found["B"], b),
                                    alpha=LEVEL.text(alpha))


def check_pair(stats_a: np.ndarray, stats_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both systems' statistics as arrays of one shape (scored on the same segments)."""
    stats_a, stats_b = np.asarray(stats_a), np.asarray(stats_b)
    if stats_a.shape != stats_b.shape:
        raise LengthMismatchError(
            f"The statistics of A have shape {stats_a.shape} and those of B {stats_b.shape}; "
            "both systems must be scored on the same segments with the same options."
        )
    return stats_a, stats_b

"""Correlations of metric scores with external scores (human judgments or other metrics).

Pearson's r, Spearman's rho (Pearson of average ranks) and Kendall's tau-b (ties corrected,
Knight's O(n log n) count), at the segment level (pooled over every rated (system, segment)
pair) and at the system level (corpus metric score against the mean external score over the
rated segments, as WMT reports MQM). Undefined correlations (fewer than 2 points, a constant
series) are NaN. ``pair_counts`` gives the concordant, discordant and tied pairs that Kendall
and the pairwise accuracies of ``bleu.explore.meta_eval`` are made of, with an optional tie
threshold on the metric side. Pure numpy: the tests compare with scipy.stats.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError
from ..i18n import tr

ArrayLike = Sequence[float] | np.ndarray


def _pair(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise InputError(tr("Expected two series of the same length, found shapes {x} and "
                            "{y}.").format(x=x.shape, y=y.shape))
    return x, y


def pearson(x: ArrayLike, y: ArrayLike) -> float:
    """Pearson's correlation coefficient r; NaN for fewer than 2 points or a constant series."""
    x, y = _pair(x, y)
    if len(x) < 2:
        return math.nan
    dx, dy = x - x.mean(), y - y.mean()
    denominator = math.sqrt(float(dx @ dx) * float(dy @ dy))
    if denominator == 0:
        return math.nan
    return max(-1.0, min(1.0, float(dx @ dy) / denominator))


def average_ranks(values: ArrayLike) -> np.ndarray:
    """1-based ranks, ties given the mean of the ranks they span (scipy's ``rankdata``)."""
    values = np.asarray(values, dtype=float)
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    starts = np.cumsum(counts) - counts
    return (starts + (counts + 1) / 2.0)[inverse.reshape(-1)]


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's rank correlation rho: Pearson's r of the average ranks."""
    x, y = _pair(x, y)
    return pearson(average_ranks(x), average_ranks(y))


def _tied_pairs(values: np.ndarray) -> int:
    counts = np.unique(values, return_counts=True)[1]
    return int((counts * (counts - 1) // 2).sum())


def _first_within(ordered: np.ndarray, start: np.ndarray, epsilon: float) -> np.ndarray:
    """For each j, the first i in ``start[j]..j`` with ``ordered[j] - ordered[i] <= epsilon``.

    ``ordered`` is ascending within each ``start`` block, so the condition holds on a suffix of
    the block; a vectorised bisection finds where it begins. The difference is taken as written
    (not ``ordered[i] >= ordered[j] - epsilon``), so a tie threshold that is one pair's own
    difference makes that pair a tie, as mt-metrics-eval's ``abs(x1 - x2) <= epsilon`` does.
    """
    low, high = start.astype(np.int64), np.arange(len(ordered), dtype=np.int64)
    while True:
        open_ = low < high
        if not open_.any():
            return low
        middle = (low + high) // 2
        within = ordered - ordered[middle] <= epsilon
        high = np.where(open_ & within, middle, high)
        low = np.where(open_ & ~within, middle + 1, low)


def _discordant(apart: np.ndarray, y_ranks: np.ndarray) -> int:
    """Pairs i < apart[j] with y[i] > y[j] (strict), by a Fenwick tree over dense ranks;
    ``apart`` is non-decreasing, so the points before it are added once each."""
    size = int(y_ranks.max()) + 1 if len(y_ranks) else 1
    tree = [0] * (size + 1)
    ranks, inserted, inversions = y_ranks.tolist(), 0, 0
    for j, limit in enumerate(apart.tolist()):
        while inserted < limit:
            position = ranks[inserted] + 1
            while position <= size:
                tree[position] += 1
                position += position & -position
            inserted += 1
        position, not_greater = ranks[j] + 1, 0
        while position > 0:
            not_greater += tree[position]
            position -= position & -position
        inversions += inserted - not_greater
    return inversions


@dataclass(frozen=True)
class PairCounts:
    """How the pairs of two series relate: the sufficient statistics of every Kendall variant.

    Named as mt-metrics-eval's ``TauSufficientStats``: ties are counted apart by where they
    are, in the human (gold) series only, in the metric series only, or in both.
    """

    concordant: int
    discordant: int
    ties_human: int
    ties_metric: int
    ties_both: int

    @property
    def pairs(self) -> int:
        return (self.concordant + self.discordant + self.ties_human + self.ties_metric
                + self.ties_both)


def pair_counts(metric: ArrayLike, human: ArrayLike, epsilon: float = 0.0) -> PairCounts:
    """Concordant, discordant and tied pairs of ``metric`` against ``human``, in O(n log n).

    Two metric scores that differ by at most ``epsilon`` count as tied (tie calibration); human
    scores tie only when equal. No NaN: drop unrated points first.
    """
    x, y = _pair(metric, human)
    if not epsilon >= 0:
        raise InputError(tr("The tie threshold epsilon must be 0 or more, found {epsilon}.")
                         .format(epsilon=epsilon))
    if np.isnan(x).any() or np.isnan(y).any():
        raise InputError(tr("Pair counts need two series without NaN: drop unrated points "
                            "first."))
    n = len(x)
    pairs = n * (n - 1) // 2
    by_x = np.lexsort((y, x))
    xs, ys = x[by_x], y[by_x]
    apart = _first_within(xs, np.zeros(n, dtype=np.int64), epsilon)
    tied_x = pairs - int(apart.sum())
    by_y = np.lexsort((x, y))
    xs_y, ys_y = x[by_y], y[by_y]
    block = np.r_[True, ys_y[1:] != ys_y[:-1]] if n else np.zeros(0, dtype=bool)
    starts = np.maximum.accumulate(np.where(block, np.arange(n), 0)) if n else block
    tied_both = int((np.arange(n) - _first_within(xs_y, starts, epsilon)).sum())
    tied_y = _tied_pairs(y)
    discordant = _discordant(apart, np.unique(ys, return_inverse=True)[1].reshape(-1))
    concordant = pairs - tied_x - tied_y + tied_both - discordant
    return PairCounts(concordant, discordant, tied_y - tied_both, tied_x - tied_both, tied_both)


def kendall(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b (scipy's default): (concordant - discordant) over the tie-corrected pairs."""
    counts = pair_counts(x, y)
    pairs = counts.pairs
    if pairs == 0:
        return math.nan
    tied_x = counts.ties_metric + counts.ties_both
    tied_y = counts.ties_human + counts.ties_both
    denominator = math.sqrt(float(pairs - tied_x) * float(pairs - tied_y))
    if denominator == 0:
        return math.nan
    return max(-1.0, min(1.0, (counts.concordant - counts.discordant) / denominator))


@dataclass(frozen=True)
class Correlation:
    """One metric against the external scores at one level, with the number of points."""

    metric: str
    level: str  # "segment" or "system"
    n: int
    pearson: float
    spearman: float
    kendall: float


def correlate(metric: str, level: str, x: ArrayLike, y: ArrayLike) -> Correlation:
    """Pearson, Spearman and Kendall of ``x`` (metric) with ``y`` (external), NaN pairs dropped."""
    x, y = _pair(x, y)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    return Correlation(metric, level, len(x), pearson(x, y), spearman(x, y), kendall(x, y))


def segment_correlation(metric: str, metric_scores: Mapping[str, ArrayLike],
                        external: Mapping[str, ArrayLike]) -> Correlation:
    """Segment level, pooled over every (system, segment) pair rated in ``external`` (NaN: not).

    Systems in only one of the two mappings are left out.
    """
    systems = [name for name in metric_scores if name in external]
    if not systems:
        raise InputError(tr("No system has both {metric} and external scores: {metric} has "
                            "{systems}, the external scores have {rated}.").format(
            metric=metric, systems=sorted(metric_scores), rated=sorted(external)))
    x = np.concatenate([np.asarray(metric_scores[name], dtype=float) for name in systems])
    y = np.concatenate([np.asarray(external[name], dtype=float) for name in systems])
    return correlate(metric, "segment", x, y)


def system_level_external(external: Mapping[str, ArrayLike]) -> dict[str, float]:
    """Each system's external score: the mean over its rated (non-NaN) segments."""
    out = {}
    for name, values in external.items():
        values = np.asarray(values, dtype=float)
        rated = values[~np.isnan(values)]
        out[name] = float(rated.mean()) if len(rated) else math.nan
    return out


def system_correlation(metric: str, corpus_scores: Mapping[str, float],
                       external: Mapping[str, ArrayLike]) -> Correlation:
    """System level: corpus scores against the mean external score of each system."""
    means = system_level_external(external)
    systems = [name for name in corpus_scores if name in means]
    return correlate(metric, "system", [corpus_scores[name] for name in systems],
                     [means[name] for name in systems])


def correlation_table(correlations: Sequence[Correlation]) -> pd.DataFrame:
    """One row per (metric, level): n, Pearson, Spearman, Kendall."""
    return pd.DataFrame([{"metric": c.metric, "level": c.level, "n": c.n, "Pearson": c.pearson,
                          "Spearman": c.spearman, "Kendall": c.kendall} for c in correlations],
                        columns=["metric", "level", "n", "Pearson", "Spearman", "Kendall"])

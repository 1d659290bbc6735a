"""Every system against every other: score differences, paired p-values for all pairs with
Holm's correction, and ranking clusters as the WMT findings report them.

The rule for clusters is WMT's (Barrault et al., Findings of WMT 2019 and 2020): "clusters are
identified by grouping systems together according to which systems significantly outperform all
others in lower ranking clusters". Precisely: systems are sorted by score, best first (ties keep
the given order); the list is cut between positions k and k + 1 exactly when every system above
the cut is significantly better than every system below it; the clusters are the runs between
the cuts, and each system's rank is its cluster's range of positions ("1", "2–4"). Significantly
better: Holm-adjusted p-value below ``alpha`` and a better score. So two systems in different
clusters always differ significantly; two in one cluster may too, when a system between them
differs from neither (significance is not transitive), as in WMT's tables.

The p-values are the paired bootstrap's or approximate randomization's for every pair
(``bleu.metrics.significance.pairwise_significance``), for BLEU or any ``StatsScorer``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..i18n import N_
from ..metrics.base import StatsScorer
from ..metrics.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    ScorerSource,
    as_scorer,
    pairwise_significance,
)

#: a pair is significantly different below this Holm-adjusted p-value
ALPHA = 0.05
#: the tests by their short names (as sacrebleu's ``--paired-bs`` / ``--paired-ar``)
METHODS = {"bs": N_("paired bootstrap"), "ar": N_("approximate randomization")}


def clusters(names: Sequence[str], better: np.ndarray) -> tuple[tuple[str, ...], ...]:
    """WMT's clusters of ``names`` (sorted best first): ``better[i, j]`` says that system i is
    significantly better than system j; a cut after position k is made when ``better`` holds
    for every i <= k < j."""
    better = np.asarray(better, dtype=bool)
    found, start = [], 0
    for k in range(1, len(names)):
        if better[:k, k:].all():
            found.append(tuple(names[start:k]))
            start = k
    if names:
        found.append(tuple(names[start:]))
    return tuple(found)


def rank_labels(groups: Sequence[Sequence[str]]) -> dict[str, str]:
    """Each system's rank: its cluster's positions, ``"3"`` alone or ``"2–4"`` for a range."""
    labels, first = {}, 1
    for group in groups:
        last = first + len(group) - 1
        for name in group:
            labels[name] = str(first) if last == first else f"{first}–{last}"
        first = last + 1
    return labels


def min_samples(n_systems: int, alpha: float = ALPHA) -> int:
    """The fewest resamples (or trials) with which any pair can come out significant.

    A p-value is at least 1 / (N + 1), and Holm multiplies the smallest by the number of pairs
    m, so some pair is significant only if m / (N + 1) < alpha.
    """
    pairs = n_systems * (n_systems - 1) // 2
    n = max(int(pairs / alpha) - 1, 1)
    while pairs / (n + 1) >= alpha:
        n += 1
    return n


@dataclass(frozen=True)
class AllPairs:
    """Every pair of systems compared with one paired test, systems sorted best first.

    ``deltas[i, j]`` is score i minus score j; ``p_values`` and ``adjusted`` (Holm over all
    pairs) hold NaN on the diagonal; ``clusters`` are WMT's (see the module docstring).
    """

    metric: str
    higher_is_better: bool
    names: tuple[str, ...]
    scores: tuple[float, ...]
    deltas: np.ndarray
    p_values: np.ndarray
    adjusted: np.ndarray
    method: str
    n_samples: int
    seed: int
    alpha: float
    clusters: tuple[tuple[str, ...], ...]
    #: segment scores: the segments each pair was tested on (rated for both); None: all
    segments: np.ndarray | None = None

    @property
    def significant(self) -> np.ndarray:
        """``[i, j]``: systems i and j differ significantly (False on the diagonal)."""
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(self.adjusted, nan=1.0) < self.alpha

    @property
    def tested_segments(self) -> tuple[int, ...]:
        """The distinct counts of segments the pairs were tested on (segment scores: rated
        for both systems), smallest first; () where every pair was tested on every segment."""
        if self.segments is None:
            return ()
        off_diagonal = ~np.eye(len(self.names), dtype=bool)
        return tuple(sorted({int(n) for n in self.segments[off_diagonal]}))

    @property
    def ranks(self) -> dict[str, str]:
        """Each system's rank label, by system, best first."""
        return rank_labels(self.clusters)

    @property
    def too_few_samples(self) -> bool:
        """True when no pair can be significant with this many resamples (see ``min_samples``)."""
        return self.n_samples < min_samples(len(self.names), self.alpha)


def all_pairs(stats: Mapping[str, np.ndarray], metric: StatsScorer | ScorerSource, *,
              method: str = "bs", n_samples: int | None = None, seed: int = DEFAULT_SEED,
              alpha: float = ALPHA) -> AllPairs:
    """Compare every pair of systems (statistics matrices by name) with ``method`` ("bs": paired
    bootstrap, "ar": approximate randomization; sacrebleu's default counts unless ``n_samples``),
    correct with Holm, sort best first and cluster."""
    scorer = as_scorer(metric)
    found = pairwise_significance(stats, scorer, method=method, n_samples=n_samples, seed=seed)
    scores = np.array([scorer.score(np.asarray(stats[name]).sum(axis=0))
                       for name in found.names])
    keys = -scores if scorer.higher_is_better else scores
    order = np.argsort(keys, kind="stable")
    names = tuple(found.names[k] for k in order)
    sorted_scores = scores[order]
    deltas = sorted_scores[:, None] - sorted_scores[None, :]
    p_values = found.p_values[np.ix_(order, order)]
    adjusted = found.adjusted[np.ix_(order, order)]
    with np.errstate(invalid="ignore"):
        ahead = deltas > 0 if scorer.higher_is_better else deltas < 0
        better = ahead & (np.nan_to_num(adjusted, nan=1.0) < alpha)
    return AllPairs(
        metric=scorer.name, higher_is_better=scorer.higher_is_better, names=names,
        scores=tuple(float(s) for s in sorted_scores), deltas=deltas, p_values=p_values,
        adjusted=adjusted, method=method,
        n_samples=DEFAULT_SAMPLES[method] if n_samples is None else int(n_samples),
        seed=seed, alpha=alpha, clusters=clusters(names, better),
        segments=None if found.segments is None else found.segments[np.ix_(order, order)])

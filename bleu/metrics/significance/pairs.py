"""Every pair of systems tested (bootstrap or approximate randomization) on the same draws, with
Holm's correction for the many comparisons."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import UnknownOptionError
from ..base import Progress, StatsScorer
from ..threads import single_threaded_blas
from .base import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    Reporter,
    ScorerSource,
    as_scorer,
    check_samples,
    ordered_systems,
    resolve_seed,
)
from .bootstrap import bootstrap_p
from .draws import (
    Randomizer,
    bootstrap_scores,
    exact_scores,
    selector_blocks,
)
from .groups import Group, rating_groups


@dataclass(frozen=True)
class PairwiseComparison:
    """p-values between every pair of systems (NaN on the diagonal), raw and Holm-adjusted;
    ``segments``: for segment scores, the segments each pair was tested on (rated for both)."""

    names: tuple[str, ...]
    p_values: np.ndarray
    adjusted: np.ndarray
    method: str
    segments: np.ndarray | None = None


def holm_bonferroni(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: the k-th smallest of m is max over j <= k of (m-j+1) p_(j)."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    factors = len(p) - np.arange(len(p))
    stepped = np.maximum.accumulate(np.minimum(p[order] * factors, 1.0))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def _group_p_values(group: Group, matrices: Sequence[np.ndarray], scorer: StatsScorer,
                    method: str, n_samples: int, seed: int, report: Reporter) -> list[float]:
    """The p-values of a group's pairs, from one generator seeded with ``seed``."""
    subset = group.matrices(matrices)
    pairs = group.local_pairs()
    rng = np.random.default_rng(seed)
    if method == "bs":
        scores = bootstrap_scores(subset, scorer, rng, n_samples, report)
        real = exact_scores(subset, scorer)
        return [bootstrap_p(scores[a], scores[b], real[a], real[b]) for a, b in pairs]
    randomizer = Randomizer(subset, scorer, pairs)
    for selectors in selector_blocks(rng, len(subset[0]), n_samples):
        randomizer.add(selectors)
        report.advance(len(selectors))
    return randomizer.p_values()


@single_threaded_blas()
def pairwise_significance(stats: Mapping[str, np.ndarray], metric: StatsScorer | ScorerSource,
                          *, method: str = "bs", n_samples: int | None = None,
                          seed: int | None = DEFAULT_SEED, progress: Progress | None = None,
                          ) -> PairwiseComparison:
    """p-values between every pair of systems, for a significance matrix.

    Entry (a, b) is the p-value a paired test with baseline a gives b (the tests are
    symmetric, so the matrix is too); ``adjusted`` applies Holm-Bonferroni over the pairs.
    Segment scores test each pair on the segments rated for both (``segments`` counts them).
    """
    if method not in DEFAULT_SAMPLES:
        raise UnknownOptionError(f"Unknown method {method!r}; expected 'bs' or 'ar'.")
    scorer = as_scorer(metric)
    names, matrices = ordered_systems(stats, scorer, None)
    n_samples = DEFAULT_SAMPLES[method] if n_samples is None else check_samples(n_samples)
    seed = resolve_seed(seed)
    pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    groups = rating_groups(scorer, matrices, pairs)
    report = Reporter(progress, n_samples * len(groups))
    found: dict[tuple[int, int], float] = {}
    segments = None if scorer.rated_column is None else np.zeros((len(names),) * 2, np.int64)
    for group in groups:
        p_list = _group_p_values(group, matrices, scorer, method, n_samples, seed, report)
        found.update(zip(group.pairs, p_list, strict=True))
        if segments is not None:
            for a, b in group.pairs:
                segments[a, b] = segments[b, a] = group.n_segments
    p_list = [found[pair] for pair in pairs]
    raw = np.full((len(names), len(names)), np.nan)
    adjusted = raw.copy()
    for (a, b), p, q in zip(pairs, p_list, holm_bonferroni(p_list), strict=True):
        raw[a, b] = raw[b, a] = p
        adjusted[a, b] = adjusted[b, a] = q
    for matrix in (raw, adjusted, segments):
        if matrix is not None:
            matrix.setflags(write=False)
    report.finish()
    return PairwiseComparison(tuple(names), raw, adjusted, method, segments)

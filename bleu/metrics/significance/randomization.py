"""Paired approximate randomization (sacrebleu's ``--paired-ar``), from statistics matrices."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..base import Progress, SignificanceResult, StatsScorer
from ..threads import single_threaded_blas
from .base import (
    DEFAULT_SEED,
    Reporter,
    ScorerSource,
    as_scorer,
    check_samples,
    confidence_samples,
    ordered_systems,
    resolve_seed,
)
from .bootstrap import interval
from .draws import (
    Randomizer,
    bootstrap_scores,
    exact_scores,
    selector_blocks,
)
from .groups import own_rows, rating_groups


@single_threaded_blas()
def paired_ar_from_stats(stats: Mapping[str, np.ndarray], metric: StatsScorer | ScorerSource, *,
                         baseline: str | None = None, n_samples: int = 10000,
                         n_confidence: int = -1, seed: int | None = DEFAULT_SEED,
                         progress: Progress | None = None) -> dict[str, SignificanceResult]:
    """Paired approximate randomization (Riezler & Maxwell 2005) on statistics, as sacrebleu's.

    ``n_confidence`` is sacrebleu's ``n_ar_confidence``: bootstrap resamples for each system's
    mean and CI; negative (the default) skips them, 0 means 1000. Segment scores are tested on
    the segments rated for both systems, as in ``paired_bootstrap_from_stats``.
    """
    scorer = as_scorer(metric)
    names, matrices = ordered_systems(stats, scorer, baseline)
    n_samples = check_samples(n_samples)
    n_conf = confidence_samples(n_confidence)
    seed = resolve_seed(seed)
    groups = rating_groups(scorer, matrices, [(0, k) for k in range(1, len(matrices))])
    report = Reporter(progress, len(groups) * (n_samples + n_conf) + n_conf)
    real = exact_scores(matrices, scorer)
    base = own_rows(scorer, matrices[0])
    results = {names[0]: SignificanceResult(
        names[0], real[0], n_segments=None if scorer.rated_column is None else len(base))}
    if n_conf:  # the baseline's interval comes from a generator of its own, as in sacrebleu
        scores = bootstrap_scores([base], scorer, np.random.default_rng(seed), n_conf,
                                   report)[0]
        results[names[0]] = interval(names[0], real[0], scores,
                                      n_segments=results[names[0]].n_segments)
    for group in groups:
        subset = group.matrices(matrices)
        rng = np.random.default_rng(seed)
        randomizer = Randomizer(subset, scorer, group.local_pairs())
        for selectors in selector_blocks(rng, len(subset[0]), n_samples):
            randomizer.add(selectors)
            report.advance(len(selectors))
        intervals: list[np.ndarray | None] = [None] * len(subset)
        if n_conf:  # the systems' resamples follow the selectors in the same generator
            intervals[1:] = bootstrap_scores(subset[1:], scorer, rng, n_conf, report)
        for index, (k, p) in enumerate(zip(group.systems[1:], randomizer.p_values(),
                                           strict=True), start=1):
            scores = intervals[index]
            results[names[k]] = (
                SignificanceResult(names[k], real[k], p, n_segments=group.n_segments)
                if scores is None else interval(names[k], real[k], scores, p,
                                                 n_segments=group.n_segments))
    report.finish()
    return {name: results[name] for name in names}

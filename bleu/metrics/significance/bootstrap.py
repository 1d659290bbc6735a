"""Paired bootstrap resampling (sacrebleu's ``--paired-bs``) and a system's bootstrap mean and
95% confidence interval (its ``--confidence``), from statistics matrices."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..base import Progress, SignificanceResult, StatsScorer
from ..threads import single_threaded_blas
from .base import (
    DEFAULT_SEED,
    Reporter,
    ScorerSource,
    StatisticsShapeError,
    as_scorer,
    check_matrix,
    check_samples,
    ordered_systems,
    p_value,
    resolve_seed,
)
from .draws import (
    bootstrap_scores,
    exact_scores,
)
from .groups import own_rows, rating_groups


def estimate_ci(scores: np.ndarray, *, exact_mean: bool = False,
                ) -> tuple[float, float, float, float]:
    """Mean of resample scores, half the width of their central 95%, and its two ends
    (the ``n // 40``-th score from each end of the sorted list), as sacrebleu computes them:
    in the scores' own precision (float32 for chrF and TER, whose resamples sacrebleu scores
    in float32), turned into Python floats at the end. The mean of a paired test is numpy's;
    that of a single system's interval (``exact_mean``, sacrebleu's ``Score.estimate_ci``) is
    ``statistics.mean``: exact, rounded once to the scores' type."""
    ordered = np.sort(np.asarray(scores))
    lower = len(ordered) // 40
    low, high = ordered[lower], ordered[len(ordered) - lower - 1]
    if exact_mean:
        import statistics  # 4 ms of imports (decimal, fractions, random) a paired test never needs

        mean = statistics.mean(ordered)
    else:
        mean = ordered.mean()
    return float(mean), float(0.5 * (high - low)), float(low), float(high)


def interval(name: str, score: float, scores: np.ndarray, p: float | None = None, *,
              exact_mean: bool = False, n_segments: int | None = None) -> SignificanceResult:
    mean, ci, low, high = estimate_ci(scores, exact_mean=exact_mean)
    return SignificanceResult(name, float(score), p, mean, ci, low, high, n_segments)


def bootstrap_p(scores_a: np.ndarray, scores_b: np.ndarray, real_a: float,
                 real_b: float) -> float:
    """The paired bootstrap's p-value: resampled |B - A| centred on its mean, against |B - A|."""
    diffs = np.abs(scores_b - scores_a)
    return p_value(diffs - diffs.mean(), abs(real_a - real_b))


@single_threaded_blas()
def paired_bootstrap_from_stats(stats: Mapping[str, np.ndarray],
                                metric: StatsScorer | ScorerSource, *,
                                baseline: str | None = None, n_samples: int = 1000,
                                seed: int | None = DEFAULT_SEED, progress: Progress | None = None,
                                ) -> dict[str, SignificanceResult]:
    """Paired bootstrap resampling (Koehn 2004) on precomputed statistics, as sacrebleu's.

    ``metric`` scores the statistics: BLEU's options, or any metric's ``StatsScorer``. The
    result maps each name to its score, p-value against the baseline, and the mean and 95% CI
    of its resample scores; the baseline comes first. For segment scores, each system is
    tested on the segments rated for it and the baseline (``n_segments`` says how many).
    """
    return _paired_bootstrap(stats, metric, baseline, n_samples, seed, progress)[0]


@single_threaded_blas()
def paired_bootstrap_differences(stats: Mapping[str, np.ndarray],
                                 metric: StatsScorer | ScorerSource, *,
                                 baseline: str | None = None, n_samples: int = 1000,
                                 seed: int | None = DEFAULT_SEED,
                                 ) -> tuple[dict[str, SignificanceResult], dict[str, np.ndarray]]:
    """``paired_bootstrap_from_stats``'s results, and for each other system the baseline's
    score minus its own on every resample: the draws an interval of the difference is read
    from, without resampling again."""
    return _paired_bootstrap(stats, metric, baseline, n_samples, seed, None)


def _paired_bootstrap(stats: Mapping[str, np.ndarray], metric: StatsScorer | ScorerSource,
                      baseline: str | None, n_samples: int, seed: int | None,
                      progress: Progress | None,
                      ) -> tuple[dict[str, SignificanceResult], dict[str, np.ndarray]]:
    scorer = as_scorer(metric)
    names, matrices = ordered_systems(stats, scorer, baseline)
    n_samples = check_samples(n_samples)
    seed = resolve_seed(seed)
    groups = rating_groups(scorer, matrices, [(0, k) for k in range(1, len(matrices))])
    report = Reporter(progress, n_samples * (len(groups) + (scorer.rated_column is not None)))
    real = exact_scores(matrices, scorer)
    results: dict[str, SignificanceResult] = {}
    differences: dict[str, np.ndarray] = {}
    if scorer.rated_column is not None:  # the baseline's own interval, on its rated segments
        own = own_rows(scorer, matrices[0])
        scores = bootstrap_scores([own], scorer, np.random.default_rng(seed), n_samples,
                                   report)[0]
        results[names[0]] = interval(names[0], real[0], scores, n_segments=len(own))
    for group in groups:
        subset = group.matrices(matrices)
        scores = bootstrap_scores(subset, scorer, np.random.default_rng(seed), n_samples,
                                   report)
        tested = exact_scores(subset, scorer)
        results.setdefault(names[0], interval(names[0], real[0], scores[0]))
        for index, k in enumerate(group.systems[1:], start=1):
            p = bootstrap_p(scores[0], scores[index], tested[0], tested[index])
            results[names[k]] = interval(names[k], real[k], scores[index], p,
                                          n_segments=group.n_segments)
            differences[names[k]] = scores[0] - scores[index]
    report.finish()
    return {name: results[name] for name in names}, differences


@single_threaded_blas()
def bootstrap_ci_from_stats(stats: np.ndarray, metric: StatsScorer | ScorerSource, *,
                            n_samples: int = 1000, seed: int | None = DEFAULT_SEED,
                            rows: np.ndarray | None = None) -> SignificanceResult:
    """Score and bootstrap 95% CI of one system, as sacrebleu's ``corpus_score(n_bootstrap=)``.

    ``rows`` (indices or a boolean mask) selects a subset of segments, e.g. a length bucket:
    the result is that of the subset taken as a corpus of its own. Segment scores are
    resampled over their rated segments.
    """
    scorer = as_scorer(metric)
    matrix = check_matrix(stats, scorer, "the system")
    if rows is not None:
        selection = np.asarray(rows)
        if selection.dtype == bool and selection.shape != (len(matrix),):
            raise StatisticsShapeError(
                f"rows is a mask of shape {selection.shape}, but the system has {len(matrix)} "
                "segments; give one boolean per segment, or segment indices."
            )
        matrix = matrix[selection if selection.dtype == bool else selection.astype(np.intp)]
        if len(matrix) == 0:
            raise StatisticsShapeError("rows selects no segment; a confidence interval needs one.")
    matrix = own_rows(scorer, matrix)
    n_samples = check_samples(n_samples)
    rng = np.random.default_rng(resolve_seed(seed))
    scores = bootstrap_scores([matrix], scorer, rng, n_samples, Reporter(None, n_samples))[0]
    return interval(scorer.name, exact_scores([matrix], scorer)[0], scores, exact_mean=True,
                     n_segments=None if scorer.rated_column is None else len(matrix))

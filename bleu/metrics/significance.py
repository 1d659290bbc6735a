"""Paired significance tests and bootstrap confidence intervals, with sacrebleu 2.6's numbers.

Every test is a sum of rows of the segment-statistics matrix. A bootstrap resample is a
weights vector (how often each segment was drawn) times that matrix; an approximate
randomization trial is a 0/1 selector (which system each segment is taken from) times each
system's matrix. So all resamples of all systems are one matrix product per chunk, scored at
once.

Parity with sacrebleu 2.6 (``sacrebleu.significance``), for the same seed:

- the same ``numpy.random.default_rng(seed)`` calls in the same order: ``choice`` of the
  resample indices (shared by every system of a paired bootstrap), and for AR ``integers`` of
  the selectors followed, when a confidence interval is asked for, by ``choice``;
- bootstrap resamples are scored as sacrebleu scores them: from float32 statistics, so that
  (NumPy >= 2 promotion) the n-gram precisions are float32 numbers; AR trials and real scores
  from exact integer statistics in float64;
- mean and 95% interval from the sorted resample scores (the ``n // 40``-th from each end),
  ``p = (c + 1) / (N + 1)`` with ``c`` the trials whose statistic is strictly above the real one.

Deliberate differences: a seed of 0 is a seed (sacrebleu draws fresh entropy for 0); with
``seed=None`` one fresh seed is drawn and shared by all systems, so the test stays paired.
With add-k smoothing and a fractional k, sacrebleu's AR trials add k to int64 arrays in place,
so they are scored with k rounded down while the real scores use k; ours use k throughout.
Resample sums are exact integers; sacrebleu's float32 sums stop being exact beyond 2**24
tokens (a corpus of some 16 million tokens), where the two could differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, LengthMismatchError, UnknownOptionError
from .bleu import BLEU, References, signature
from .bleu_score import LOG_ZERO, BLEUOptions, score_from_stats, scores_from_stats

Progress = Callable[[float], None] | None

#: sacrebleu's defaults: resamples for the bootstrap, trials for approximate randomization
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
#: bootstrap resamples for the AR confidence interval when ``n_confidence=0`` (as sacrebleu)
DEFAULT_CONFIDENCE_SAMPLES = 1000
#: resamples x segments per chunk (16 MiB of int64 counts): bounds memory, not results; large,
#: since each chunk is one BLAS call, and many small calls cost dearly on a busy machine
_CHUNK_CELLS = 1 << 21


class TooFewSystemsError(InputError):
    """A paired test or comparison was given fewer than two systems."""


class StatisticsShapeError(InputError):
    """A statistics matrix does not have one row per segment and the columns the options need."""


@dataclass(frozen=True)
class SignificanceResult:
    """One system's line of a paired test (or a single confidence interval).

    ``ci`` is the half-width of the 95% interval around ``mean``, as sacrebleu reports it;
    ``p_value`` is None for the baseline; ``mean`` and ``ci`` are None where no bootstrap ran.
    """

    name: str
    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


@dataclass(frozen=True)
class PairwiseComparison:
    """p-values between every pair of systems (NaN on the diagonal), raw and Holm-adjusted."""

    names: tuple[str, ...]
    p_values: np.ndarray
    adjusted: np.ndarray
    method: str


class _Reporter:
    """Forwards the fraction of work done to a callback, once per chunk (so never per resample)."""

    def __init__(self, callback: Progress, total: int, start: float = 0.0, stop: float = 1.0):
        self.callback, self.total, self.done = callback, max(total, 1), 0
        self.start, self.stop = start, stop

    def advance(self, units: int) -> None:
        self.done += units
        if self.callback is not None:
            fraction = min(self.done / self.total, 1.0)
            self.callback(self.start + (self.stop - self.start) * fraction)

    def finish(self) -> None:
        if self.callback is not None:
            self.callback(self.stop)


# ----------------------------------------------------------------------------- validation


def _check_samples(value: Any, what: str = "n_samples") -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise UnknownOptionError(f"{what} must be an integer >= 1, got {value!r}.")
    return int(value)


def _confidence_samples(n_confidence: Any) -> int:
    """sacrebleu's ``n_ar_confidence``: negative disables the interval, 0 means 1000."""
    if isinstance(n_confidence, bool) or not isinstance(n_confidence, int | np.integer):
        raise UnknownOptionError(f"n_confidence must be an integer, got {n_confidence!r}.")
    if n_confidence == 0:
        return DEFAULT_CONFIDENCE_SAMPLES
    return max(int(n_confidence), 0)


def _resolve_seed(seed: int | None) -> int:
    """The seed in effect; None draws one fresh seed, shared by every system of the call."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise UnknownOptionError(f"seed must be a non-negative integer or None, got {seed!r}.")
    return int(seed)


def _check_matrix(stats: Any, options: BLEUOptions, name: str) -> np.ndarray:
    matrix = np.asarray(stats)
    columns = 2 + 2 * options.max_ngram_order
    if matrix.ndim != 2 or matrix.shape[1] != columns:
        raise StatisticsShapeError(
            f"The statistics of {name} have shape {matrix.shape}; expected (segments, {columns}): "
            f"hyp_len, ref_len, then matches and totals for orders 1..{options.max_ngram_order}."
        )
    if len(matrix) == 0:
        raise StatisticsShapeError(f"The statistics of {name} have no segment.")
    return matrix


def _ordered_systems(stats: Mapping[str, Any], options: BLEUOptions, baseline: str | None,
                     ) -> tuple[list[str], list[np.ndarray]]:
    """Names and matrices with the baseline first, the others in the given order; validated."""
    names = _check_system_names(stats, baseline)
    matrices = [_check_matrix(stats[name], options, f"system {name!r}") for name in names]
    for name, matrix in zip(names[1:], matrices[1:], strict=True):
        if len(matrix) != len(matrices[0]):
            raise LengthMismatchError(
                f"System {name!r} has {len(matrix)} segments, but {names[0]!r} has "
                f"{len(matrices[0])}; a paired test compares systems segment by segment."
            )
    return names, matrices


def _check_system_names(systems: Mapping[str, Any], baseline: str | None) -> list[str]:
    if not isinstance(systems, Mapping):
        raise TooFewSystemsError(
            f"systems must be a dict of name -> system, got {type(systems).__name__}."
        )
    names = list(systems)
    if len(names) < 2:
        raise TooFewSystemsError(
            "A paired test needs at least 2 systems (a baseline and one to compare); "
            f"got {len(names)}: {', '.join(map(repr, names)) or 'none'}."
        )
    if baseline is None:
        return names
    if baseline not in systems:
        raise UnknownOptionError(
            f"The baseline {baseline!r} is not one of the systems: {', '.join(map(repr, names))}."
        )
    return [baseline, *(name for name in names if name != baseline)]


# ------------------------------------------------------------------------------ arithmetic


def resample_scores(sums: np.ndarray, options: BLEUOptions) -> np.ndarray:
    """BLEU of many rows of resampled statistics, computed as sacrebleu computes resamples.

    sacrebleu scores resamples from float32 statistics, so its precisions are float32 numbers
    (NumPy >= 2); this mirrors that arithmetic operation by operation, for all rows at once.
    """
    sums = np.asarray(sums, dtype=np.float64)
    order = options.max_ngram_order
    f32 = np.float32
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    correct = sums[:, 2 : 2 + order].astype(f32)
    total = sums[:, 2 + order : 2 + 2 * order].astype(f32)
    no_match = ~(correct != 0).any(axis=1)
    method, value = options.smooth_method, options.resolved_smooth_value
    if method == "add-k":
        correct[:, 1:] += f32(value)
        total[:, 1:] += f32(value)
    present = np.cumprod(total != 0, axis=1).astype(bool)  # sacrebleu stops at an empty order
    zero = correct == 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(sys_len < ref_len,
                      np.where(sys_len > 0, np.exp(1 - ref_len / np.maximum(sys_len, 1)), 0.0),
                      1.0)
        matched = (f32(100.0) * correct) / total
        if method == "exp":
            halvings = np.cumsum(zero & present, axis=1)
            smoothed = f32(100.0) / (np.exp2(halvings).astype(f32) * total)
        elif method == "floor":
            smoothed = f32(100.0 * value) / total
        else:
            smoothed = np.zeros_like(total)
        precisions = np.where(present, np.where(zero, smoothed, matched), f32(0)).astype(np.float64)
        logs = np.where(precisions == 0.0, float(LOG_ZERO),
                        np.log(np.where(precisions > 0, precisions, 1.0)))
    if options.effective_order:
        eff_order = np.maximum(present.sum(axis=1), 1)
    else:
        eff_order = np.full(len(sums), order)
    log_sum = np.zeros(len(sums))
    for n in range(order):  # left to right, as Python's sum() adds them
        log_sum = np.where(n < eff_order, log_sum + logs[:, n], log_sum)
    with np.errstate(over="ignore"):
        scores = bp * np.exp(log_sum / eff_order)
    return np.where(no_match, 0.0, scores)


def _estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """Mean of the resample scores and half the width of their central 95% (sacrebleu's)."""
    ordered = np.sort(scores)
    lower = len(ordered) // 40
    upper = len(ordered) - lower - 1
    return float(ordered.mean()), float(0.5 * (ordered[upper] - ordered[lower]))


def _p_value(trials: np.ndarray, real: float) -> float:
    """(c + 1) / (N + 1), c the trials strictly above the real statistic (after multeval)."""
    return (int(np.count_nonzero(trials > real)) + 1) / (len(trials) + 1)


def _product_dtype(bound: float) -> type:
    """float32 when every sum (and, the terms being >= 0, every partial sum) is an integer
    below 2**24, so that float32 products are exact and fast; float64 otherwise."""
    return np.float32 if bound < 2**24 else np.float64


def _bootstrap_sums(indices: np.ndarray, stacked: np.ndarray, report: _Reporter) -> np.ndarray:
    """Summed statistics of each resample (a row of segment indices), for every column at once.

    Each chunk of resamples becomes a matrix of draw counts, multiplied with the statistics.
    """
    n_samples, n_segments = indices.shape
    dtype = _product_dtype(n_segments * float(stacked.max(initial=0)))
    weights = stacked.astype(dtype)
    rows = max(1, _CHUNK_CELLS // n_segments)
    sums = np.empty((n_samples, stacked.shape[1]))
    for start in range(0, n_samples, rows):
        block = indices[start : start + rows]
        flat = (block + (np.arange(len(block)) * n_segments)[:, None]).ravel()  # int64
        counts = np.bincount(flat, minlength=block.size).reshape(block.shape)
        sums[start : start + len(block)] = counts.astype(dtype) @ weights
        report.advance(len(block))
    return sums


def _selected_sums(selectors: np.ndarray, stacked: np.ndarray, report: _Reporter) -> np.ndarray:
    """Per AR trial, the summed statistics of the segments its selector picks (0/1 rows)."""
    n_trials, n_segments = selectors.shape
    dtype = _product_dtype(float(stacked.sum(axis=0).max(initial=0)))
    weights = stacked.astype(dtype)
    rows = max(1, _CHUNK_CELLS // n_segments)
    sums = np.empty((n_trials, stacked.shape[1]))
    for start in range(0, n_trials, rows):
        block = selectors[start : start + rows]
        sums[start : start + len(block)] = block.astype(dtype) @ weights
        report.advance(len(block))
    return sums


def _draw_indices(rng: np.random.Generator, n_segments: int, n_samples: int,
                  fresh: bool = False) -> np.ndarray:
    """sacrebleu's draw ``rng.choice(n_segments, (n_samples, n_segments))``, in one call.

    On a fresh generator, int32 draws give the same numbers faster (both take 32-bit halves of
    each 64-bit draw, low half first); after other draws they would not, as the bit generator
    may hold a buffered half. Chunked draws would differ too, hence one call.
    """
    if fresh and n_segments < 2**31:
        return rng.integers(0, n_segments, size=(n_samples, n_segments), dtype=np.int32)
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def _stack(matrices: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(m, dtype=np.float64) for m in matrices], axis=1)


def _bootstrap_scores(matrices: Sequence[np.ndarray], options: BLEUOptions, indices: np.ndarray,
                      report: _Reporter) -> list[np.ndarray]:
    """Resample scores of each system on the same resamples."""
    columns = matrices[0].shape[1]
    sums = _bootstrap_sums(indices, _stack(matrices), report)
    return [resample_scores(sums[:, k * columns : (k + 1) * columns], options)
            for k in range(len(matrices))]


def _real_score(matrix: np.ndarray, options: BLEUOptions) -> float:
    return score_from_stats(np.asarray(matrix).sum(axis=0), options).score


# ------------------------------------------------------------------- tests on statistics


def paired_bootstrap_from_stats(stats: Mapping[str, np.ndarray], options: BLEUOptions, *,
                                baseline: str | None = None, n_samples: int = 1000,
                                seed: int | None = 12345, progress: Progress = None,
                                ) -> dict[str, SignificanceResult]:
    """Paired bootstrap resampling (Koehn 2004) on precomputed statistics, as sacrebleu's.

    The result maps each name to its score, p-value against the baseline, and the mean and
    95% CI of its resample scores; the baseline comes first.
    """
    names, matrices = _ordered_systems(stats, options, baseline)
    n_samples = _check_samples(n_samples)
    rng = np.random.default_rng(_resolve_seed(seed))
    report = _Reporter(progress, n_samples)
    indices = _draw_indices(rng, len(matrices[0]), n_samples, fresh=True)
    scores = _bootstrap_scores(matrices, options, indices, report)
    real = [_real_score(m, options) for m in matrices]
    mean, ci = _estimate_ci(scores[0])
    results = {names[0]: SignificanceResult(names[0], real[0], None, mean, ci)}
    for name, sys_scores, sys_real in zip(names[1:], scores[1:], real[1:], strict=True):
        diffs = np.abs(sys_scores - scores[0])
        p = _p_value(diffs - diffs.mean(), abs(real[0] - sys_real))
        mean, ci = _estimate_ci(sys_scores)
        results[name] = SignificanceResult(name, sys_real, p, mean, ci)
    report.finish()
    return results


def _ar_p_values(selected: np.ndarray, totals: np.ndarray, real: np.ndarray, columns: int,
                 options: BLEUOptions, pairs: Sequence[tuple[int, int]]) -> list[float]:
    """AR p-value of each (baseline, system) pair from the trials' selected sums.

    With P = selector @ stats, the pseudo-systems of a trial are ``P_a + (T_b - P_b)`` and
    ``(T_a - P_a) + P_b`` (exact integers), scored in float64 like the real scores.
    """
    def part(k: int) -> np.ndarray:
        return selected[:, k * columns : (k + 1) * columns]

    p_values = []
    for a, b in pairs:
        shuffled_a = part(a) + (totals[b] - part(b))
        shuffled_b = (totals[a] - part(a)) + part(b)
        trials = np.abs(scores_from_stats(shuffled_a, options)
                        - scores_from_stats(shuffled_b, options))
        p_values.append(_p_value(trials, abs(real[a] - real[b])))
    return p_values


def _ar_trials(matrices: Sequence[np.ndarray], options: BLEUOptions,
               selectors: np.ndarray, report: _Reporter,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Selected sums of every trial, each system's totals, and real scores (vectorized path)."""
    stacked = _stack(matrices)
    columns = matrices[0].shape[1]
    selected = _selected_sums(selectors, stacked, report)
    totals = stacked.sum(axis=0).reshape(len(matrices), columns)
    # Real scores on the path the trials take, so a trial equal to the real pair ties exactly.
    return selected, totals, scores_from_stats(totals, options)


def paired_ar_from_stats(stats: Mapping[str, np.ndarray], options: BLEUOptions, *,
                         baseline: str | None = None, n_samples: int = 10000,
                         n_confidence: int = -1, seed: int | None = 12345,
                         progress: Progress = None) -> dict[str, SignificanceResult]:
    """Paired approximate randomization (Riezler & Maxwell 2005) on statistics, as sacrebleu's.

    ``n_confidence`` is sacrebleu's ``n_ar_confidence``: bootstrap resamples for each system's
    mean and CI; negative (the default) skips them, 0 means 1000.
    """
    names, matrices = _ordered_systems(stats, options, baseline)
    n_samples = _check_samples(n_samples)
    n_conf = _confidence_samples(n_confidence)
    seed = _resolve_seed(seed)
    n_segments = len(matrices[0])
    report = _Reporter(progress, n_samples + 2 * n_conf)
    base_mean = base_ci = None
    if n_conf:
        base_indices = _draw_indices(np.random.default_rng(seed), n_segments, n_conf, fresh=True)
        base_mean, base_ci = _estimate_ci(
            _bootstrap_scores(matrices[:1], options, base_indices, report)[0])
    rng = np.random.default_rng(seed)
    selectors = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
    selected, totals, vector_real = _ar_trials(matrices, options, selectors, report)
    pairs = [(0, k) for k in range(1, len(matrices))]
    p_values = _ar_p_values(selected, totals, vector_real, matrices[0].shape[1], options, pairs)
    intervals: list[tuple[float | None, float | None]] = [(None, None)] * len(matrices)
    if n_conf:  # the systems' resamples follow the selectors (the baseline's did not)
        indices = _draw_indices(rng, n_segments, n_conf)
        intervals[1:] = [_estimate_ci(s)
                         for s in _bootstrap_scores(matrices[1:], options, indices, report)]
    real = [_real_score(m, options) for m in matrices]
    results = {names[0]: SignificanceResult(names[0], real[0], None, base_mean, base_ci)}
    for k, name in enumerate(names[1:], start=1):
        results[name] = SignificanceResult(name, real[k], p_values[k - 1], *intervals[k])
    report.finish()
    return results


def bootstrap_ci_from_stats(stats: np.ndarray, options: BLEUOptions, *, n_samples: int = 1000,
                            seed: int | None = 12345, rows: np.ndarray | None = None,
                            ) -> SignificanceResult:
    """Score and bootstrap 95% CI of one system, as sacrebleu's ``corpus_score(n_bootstrap=)``.

    ``rows`` (indices or a boolean mask) selects a subset of segments, e.g. a length bucket:
    the result is that of the subset taken as a corpus of its own.
    """
    matrix = _check_matrix(stats, options, "the system")
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
    n_samples = _check_samples(n_samples)
    rng = np.random.default_rng(_resolve_seed(seed))
    indices = _draw_indices(rng, len(matrix), n_samples, fresh=True)
    scores = _bootstrap_scores([matrix], options, indices, _Reporter(None, n_samples))[0]
    mean, ci = _estimate_ci(scores)
    return SignificanceResult("BLEU", _real_score(matrix, options), None, mean, ci)


def holm_bonferroni(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: the k-th smallest of m is max over j <= k of (m-j+1) p_(j)."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    factors = len(p) - np.arange(len(p))
    stepped = np.maximum.accumulate(np.minimum(p[order] * factors, 1.0))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def pairwise_significance(stats: Mapping[str, np.ndarray], options: BLEUOptions, *,
                          method: str = "bs", n_samples: int | None = None,
                          seed: int | None = 12345, progress: Progress = None,
                          ) -> PairwiseComparison:
    """p-values between every pair of systems, for a significance heat map.

    Entry (a, b) is the p-value a paired test with baseline a gives b (the tests are
    symmetric, so the matrix is too); ``adjusted`` applies Holm-Bonferroni over the pairs.
    """
    if method not in DEFAULT_SAMPLES:
        raise UnknownOptionError(f"Unknown method {method!r}; expected 'bs' or 'ar'.")
    names, matrices = _ordered_systems(stats, options, None)
    n_samples = DEFAULT_SAMPLES[method] if n_samples is None else _check_samples(n_samples)
    rng = np.random.default_rng(_resolve_seed(seed))
    n_segments = len(matrices[0])
    pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    report = _Reporter(progress, n_samples)
    if method == "bs":
        indices = _draw_indices(rng, n_segments, n_samples, fresh=True)
        scores = _bootstrap_scores(matrices, options, indices, report)
        real = [_real_score(m, options) for m in matrices]
        p_list = []
        for a, b in pairs:
            diffs = np.abs(scores[b] - scores[a])
            p_list.append(_p_value(diffs - diffs.mean(), abs(real[a] - real[b])))
    else:
        selectors = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
        selected, totals, real_vector = _ar_trials(matrices, options, selectors, report)
        p_list = _ar_p_values(selected, totals, real_vector, matrices[0].shape[1], options, pairs)
    raw = np.full((len(names), len(names)), np.nan)
    adjusted = raw.copy()
    for (a, b), p, q in zip(pairs, p_list, holm_bonferroni(p_list), strict=True):
        raw[a, b] = raw[b, a] = p
        adjusted[a, b] = adjusted[b, a] = q
    raw.setflags(write=False)
    adjusted.setflags(write=False)
    report.finish()
    return PairwiseComparison(tuple(names), raw, adjusted, method)


# ------------------------------------------------------------------------ tests on text


def _system_stats(systems: Mapping[str, Sequence[str]], references: References,
                  baseline: str | None, bleu_options: dict[str, Any], report: _Reporter,
                  ) -> tuple[dict[str, np.ndarray], BLEUOptions]:
    """Each system's statistics against references tokenized once; lengths checked first."""
    names = _check_system_names(systems, baseline)
    metric = BLEU(**bleu_options, references=references)
    n_segments = metric.reference_table(None).n_segments
    for name in names:
        if not isinstance(systems[name], str) and len(systems[name]) != n_segments:
            raise LengthMismatchError(
                f"System {name!r} has {len(systems[name])} segments, but the references have "
                f"{n_segments}; every system needs one line per segment."
            )
    stats = {}
    for name in names:
        stats[name] = metric.segment_stats(systems[name])
        report.advance(1)
    return stats, metric.options


def paired_bootstrap(systems: Mapping[str, Sequence[str]], references: References, *,
                     baseline: str | None = None, n_samples: int = 1000,
                     seed: int | None = 12345, progress: Progress = None,
                     **bleu_options: Any) -> dict[str, SignificanceResult]:
    """Paired bootstrap test of systems (name -> hypotheses) against references, as sacrebleu's.

    The baseline is the first system unless ``baseline`` names one; options are BLEU's.
    """
    _check_samples(n_samples)
    stats, options = _system_stats(systems, references, baseline, bleu_options,
                                   _Reporter(progress, len(systems), 0.0, 0.5))
    return paired_bootstrap_from_stats(
        stats, options, baseline=baseline, n_samples=n_samples, seed=seed,
        progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def paired_approximate_randomization(
    systems: Mapping[str, Sequence[str]], references: References, *,
    baseline: str | None = None, n_samples: int = 10000, n_confidence: int = -1,
    seed: int | None = 12345, progress: Progress = None, **bleu_options: Any,
) -> dict[str, SignificanceResult]:
    """Paired approximate randomization test of systems against references, as sacrebleu's.

    ``n_confidence`` > 0 adds bootstrap means and CIs (0 means 1000; negative, none).
    """
    _check_samples(n_samples)
    _confidence_samples(n_confidence)
    stats, options = _system_stats(systems, references, baseline, bleu_options,
                                   _Reporter(progress, len(systems), 0.0, 0.5))
    return paired_ar_from_stats(
        stats, options, baseline=baseline, n_samples=n_samples, n_confidence=n_confidence,
        seed=seed, progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def bootstrap_ci(hypotheses: Sequence[str], references: References, *, n_samples: int = 1000,
                 seed: int | None = 12345, **bleu_options: Any) -> SignificanceResult:
    """One system's score with its bootstrap mean and 95% CI (sacrebleu's ``--confidence``)."""
    metric = BLEU(**bleu_options, references=references)
    return bootstrap_ci_from_stats(metric.segment_stats(hypotheses), metric.options,
                                   n_samples=n_samples, seed=seed)


def significance_signature(options: BLEUOptions, n_refs: int, method: str, n_samples: int,
                           seed: int | None, n_confidence: int = -1) -> str:
    """sacrebleu's signature of a paired test or CI: ``nrefs:1|bs:1000|seed:12345|case:...``.

    ``method`` is "bs" (also for a single CI) or "ar"; AR with ``n_confidence`` adds ``bs:``.
    """
    if method not in DEFAULT_SAMPLES:
        raise UnknownOptionError(f"Unknown method {method!r}; expected 'bs' or 'ar'.")
    extra: dict[str, Any] = {method: n_samples, "seed": str(seed).lower()}
    if method == "ar" and _confidence_samples(n_confidence):
        extra["bs"] = _confidence_samples(n_confidence)
    return signature(options, n_refs, **extra)

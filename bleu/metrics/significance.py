"""Paired significance tests and bootstrap confidence intervals for any metric, with sacrebleu
2.6's numbers, in memory bounded by blocks of resamples.

A metric's per-segment statistics sum to its corpus statistics, and a ``StatsScorer`` scores
sums (``bleu.metrics.base``). A bootstrap resample is a weights vector (how often each segment was
drawn) times the statistics matrix; an approximate-randomization trial is a 0/1 selector (which
system each segment comes from) times each system's matrix. Resamples are drawn and summed block
by block (``_CHUNK_CELLS`` resamples x segments at a time), so memory grows with the segments,
not with segments x resamples, and the numbers do not depend on the block size.

Parity with sacrebleu 2.6 (``sacrebleu.significance``), for the same seed:

- the same ``numpy.random.default_rng(seed)`` draws in the same order: the resample indices of
  ``choice`` (shared by every system of a paired bootstrap), for AR the selectors of
  ``integers(2, dtype=bool)`` followed, for a confidence interval, by ``choice``. Drawing in
  blocks gives the same numbers: integer draws keep their unused 32-bit half in the bit
  generator, and bool draws, which take 32 per 32-bit word within one call, are drawn in
  blocks of a multiple of 32 rows (tested against one-call draws);
- bootstrap resamples are scored as sacrebleu scores them, from float32 statistics
  (``StatsScorer.resample_scores``): counts are summed exactly (any order gives the same integer
  below 2**24), other statistics (TER's reference lengths) are added in float32 one segment at
  a time, as numpy sums the rows of sacrebleu's ``stats[idxs][k]``; AR trials and real scores
  come from float64 sums (``StatsScorer.scores``);
- mean and 95% interval from the sorted resample scores (the ``n // 40``-th from each end),
  ``p = (c + 1) / (N + 1)`` with ``c`` the trials whose statistic is strictly above the real one.

Deliberate differences: a seed of 0 is a seed (sacrebleu draws fresh entropy for 0); with
``seed=None`` one fresh seed is drawn and shared by all systems, so the test stays paired.
With add-k smoothing and a fractional k, sacrebleu's BLEU AR trials add k to int64 arrays in
place, so they are scored with k rounded down while the real scores use k; ours use k
throughout. Resample sums of counts are exact integers; sacrebleu's float32 sums stop being
exact beyond 2**24 tokens (a corpus of some 16 million tokens), where the two could differ.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, LengthMismatchError, UnknownOptionError
from .base import Progress, SignificanceResult, StatsScorer
from .bleu import BLEU, signature
from .bleu.score import BLEUOptions, BLEUScorer
from .checks import References
from .threads import single_threaded_blas

#: sacrebleu's defaults: resamples for the bootstrap, trials for approximate randomization
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
#: sacrebleu's default seed of every resampling (its SACREBLEU_SEED)
DEFAULT_SEED = 12345
#: bootstrap resamples for the AR confidence interval when ``n_confidence=0`` (as sacrebleu)
DEFAULT_CONFIDENCE_SAMPLES = 1000
#: resamples x segments drawn and summed at once (about 16 MiB of counts): bounds memory, not
#: results; large enough that each block is one BLAS call on a busy machine
_CHUNK_CELLS = 1 << 21
#: AR selectors are drawn in blocks of a multiple of this many rows (see the module docstring)
_BOOL_ROWS = 32


class TooFewSystemsError(InputError):
    """A paired test or comparison was given fewer than two systems."""


class StatisticsShapeError(InputError):
    """A statistics matrix does not have one row per segment and the columns the metric needs."""


@dataclass(frozen=True)
class PairwiseComparison:
    """p-values between every pair of systems (NaN on the diagonal), raw and Holm-adjusted;
    ``segments``: for segment scores, the segments each pair was tested on (rated for both)."""

    names: tuple[str, ...]
    p_values: np.ndarray
    adjusted: np.ndarray
    method: str
    segments: np.ndarray | None = None


class _Reporter:
    """Forwards the fraction of work done to a callback, once per block (never per resample)."""

    def __init__(self, callback: Progress | None, total: int, start: float = 0.0,
                 stop: float = 1.0) -> None:
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


def as_scorer(metric: BLEUOptions | StatsScorer) -> StatsScorer:
    """The scorer of summed statistics: a ``StatsScorer`` as it is, ``BLEUOptions`` as BLEU's."""
    return BLEUScorer(metric) if isinstance(metric, BLEUOptions) else metric


def check_samples(value: Any, what: str = "n_samples") -> int:
    """A resample or trial count: an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise UnknownOptionError(f"{what} must be an integer >= 1, got {value!r}.")
    return int(value)


def confidence_samples(n_confidence: Any) -> int:
    """sacrebleu's ``n_ar_confidence``: negative disables the interval, 0 means 1000."""
    if isinstance(n_confidence, bool) or not isinstance(n_confidence, int | np.integer):
        raise UnknownOptionError(f"n_confidence must be an integer, got {n_confidence!r}.")
    if n_confidence == 0:
        return DEFAULT_CONFIDENCE_SAMPLES
    return max(int(n_confidence), 0)


def resolve_seed(seed: int | None) -> int:
    """The seed in effect; None draws one fresh seed, shared by every system of the call."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise UnknownOptionError(f"seed must be a non-negative integer or None, got {seed!r}.")
    return int(seed)


def _check_matrix(stats: Any, scorer: StatsScorer, name: str) -> np.ndarray:
    matrix = np.asarray(stats)
    if matrix.ndim != 2 or matrix.shape[1] != scorer.columns:
        raise StatisticsShapeError(
            f"The {scorer.name} statistics of {name} have shape {matrix.shape}; expected "
            f"(segments, {scorer.columns}), one row per segment."
        )
    if len(matrix) == 0:
        raise StatisticsShapeError(f"The statistics of {name} have no segment.")
    return matrix


def _check_system_names(systems: Any, baseline: str | None) -> list[str]:
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


def _ordered_systems(stats: Mapping[str, Any], scorer: StatsScorer, baseline: str | None,
                     ) -> tuple[list[str], list[np.ndarray]]:
    """Names and matrices with the baseline first, the others in the given order; validated."""
    names = _check_system_names(stats, baseline)
    matrices = [_check_matrix(stats[name], scorer, f"system {name!r}") for name in names]
    for name, matrix in zip(names[1:], matrices[1:], strict=True):
        if len(matrix) != len(matrices[0]):
            raise LengthMismatchError(
                f"System {name!r} has {len(matrix)} segments, but {names[0]!r} has "
                f"{len(matrices[0])}; a paired test compares systems segment by segment."
            )
    return names, matrices


# ------------------------------------------------------------------------------ resampling


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
    mean = statistics.mean(ordered) if exact_mean else ordered.mean()
    return float(mean), float(0.5 * (high - low)), float(low), float(high)


def p_value(trials: np.ndarray, real: float) -> float:
    """(c + 1) / (N + 1), c the trials strictly above the real statistic (after multeval)."""
    return (int(np.count_nonzero(trials > real)) + 1) / (len(trials) + 1)


def _block_rows(n_segments: int, multiple: int = 1) -> int:
    rows = max(1, _CHUNK_CELLS // max(n_segments, 1))
    return max(multiple, rows - rows % multiple)


def _draw_blocks(rng: np.random.Generator, n_segments: int, n_samples: int,
                 ) -> Iterator[np.ndarray]:
    """sacrebleu's ``rng.choice(n_segments, (n_samples, n_segments))``, block by block.

    int32 draws give the same numbers as ``choice``'s int64 (both take the 32-bit halves of
    the generator's 64-bit words, the unused half kept in the bit generator between calls).
    """
    dtype = np.int32 if n_segments < 2**31 else np.int64
    rows = _block_rows(n_segments)
    for start in range(0, n_samples, rows):
        yield rng.integers(0, n_segments, size=(min(rows, n_samples - start), n_segments),
                           dtype=dtype)


def _selector_blocks(rng: np.random.Generator, n_segments: int, n_trials: int,
                     ) -> Iterator[np.ndarray]:
    """sacrebleu's ``rng.integers(2, size=(n_trials, n_segments), dtype=bool)``, block by block
    (blocks of a multiple of 32 rows: a bool draw takes 32 values from each 32-bit word)."""
    rows = _block_rows(n_segments, _BOOL_ROWS)
    for start in range(0, n_trials, rows):
        yield rng.integers(2, size=(min(rows, n_trials - start), n_segments), dtype=bool)


def _stack(matrices: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(m, dtype=np.float64) for m in matrices], axis=1)


def _product_dtype(bound: float) -> type:
    """float32 when every sum (and, the terms being >= 0, every partial sum) is an integer
    below 2**24, so that float32 products are exact and fast; float64 otherwise."""
    return np.float32 if bound < 2**24 else np.float64


class _Resampler:
    """Sums the statistics of every system over bootstrap resamples, block by block."""

    def __init__(self, matrices: Sequence[np.ndarray], scorer: StatsScorer) -> None:
        self.columns = matrices[0].shape[1]
        self.stacked = _stack(matrices)
        self.n_segments = len(self.stacked)
        self.sequential = scorer.float32_resamples
        if scorer.integer_stats:
            dtype = _product_dtype(self.n_segments * float(np.abs(self.stacked).max(initial=0)))
            self.weights = self.stacked.astype(dtype)
        elif self.sequential:
            self.weights = self.stacked.astype(np.float32)
        else:
            self.weights = self.stacked

    def sums(self, indices: np.ndarray) -> np.ndarray:
        """Summed statistics of each resample (a row of segment indices), all systems at once."""
        if self.sequential:
            # float32, one segment after the other, as numpy sums the rows of stats[idxs][k]
            sums = np.zeros((len(indices), self.weights.shape[1]), np.float32)
            for column in indices.T:
                sums += self.weights[column]
            return sums.astype(np.float64)
        flat = (indices + (np.arange(len(indices)) * self.n_segments)[:, None]).ravel()
        counts = np.bincount(flat, minlength=indices.size).reshape(indices.shape)
        return counts.astype(self.weights.dtype) @ self.weights

    def scores(self, indices: np.ndarray, scorer: StatsScorer) -> list[np.ndarray]:
        """Each system's resample scores for one block of resamples."""
        sums = self.sums(indices)
        return [scorer.resample_scores(sums[:, k * self.columns : (k + 1) * self.columns])
                for k in range(self.stacked.shape[1] // self.columns)]


def _bootstrap_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer,
                      rng: np.random.Generator, n_samples: int, report: _Reporter,
                      ) -> list[np.ndarray]:
    """Every system's scores on the same ``n_samples`` resamples."""
    resampler = _Resampler(matrices, scorer)
    parts: list[list[np.ndarray]] = [[] for _ in matrices]
    for indices in _draw_blocks(rng, resampler.n_segments, n_samples):
        for part, scores in zip(parts, resampler.scores(indices, scorer), strict=True):
            part.append(scores)
        report.advance(len(indices))
    return [np.concatenate(part) for part in parts]


def _real_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer) -> np.ndarray:
    """Corpus scores from the summed rows, on the path the AR trials take (so a trial equal to
    the real pair ties exactly)."""
    return scorer.scores(np.stack([np.asarray(m, dtype=np.float64).sum(axis=0)
                                   for m in matrices]))


def _interval(name: str, score: float, scores: np.ndarray, p: float | None = None, *,
              exact_mean: bool = False, n_segments: int | None = None) -> SignificanceResult:
    mean, ci, low, high = estimate_ci(scores, exact_mean=exact_mean)
    return SignificanceResult(name, float(score), p, mean, ci, low, high, n_segments)


def _bootstrap_p(scores_a: np.ndarray, scores_b: np.ndarray, real_a: float,
                 real_b: float) -> float:
    """The paired bootstrap's p-value: resampled |B - A| centred on its mean, against |B - A|."""
    diffs = np.abs(scores_b - scores_a)
    return p_value(diffs - diffs.mean(), abs(real_a - real_b))


class _Randomizer:
    """Counts, for pairs of systems, the AR trials at least as different as the real pair."""

    def __init__(self, matrices: Sequence[np.ndarray], scorer: StatsScorer,
                 pairs: Sequence[tuple[int, int]]) -> None:
        self.scorer, self.pairs = scorer, list(pairs)
        self.columns = matrices[0].shape[1]
        self.stacked = _stack(matrices)
        self.totals = self.stacked.sum(axis=0)
        self.real = _real_scores(matrices, scorer)
        self.above = np.zeros(len(self.pairs), np.int64)
        self.trials = 0
        self.dtype = _product_dtype(float(np.abs(self.totals).max(initial=0)))

    def _part(self, sums: np.ndarray, k: int) -> np.ndarray:
        return sums[:, k * self.columns : (k + 1) * self.columns]

    def _sums(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every system's summed statistics where the selectors are 1 (``chosen``) and 0.

        Integer statistics are exact in any order: one product with all systems side by side,
        the rest as the total minus the chosen. Other statistics (TER's averaged reference
        lengths) are rounded as BLAS adds them, which depends on the matrix shapes: each
        system's product is taken as sacrebleu takes it, ``selectors @ stats`` with that one
        system's columns, so that a trial that ties the real difference ties in both."""
        if self.scorer.integer_stats:
            chosen = block.astype(self.dtype) @ self.stacked.astype(self.dtype)
            return chosen, self.totals[None, :] - chosen
        on, off = block.astype(np.float64), (~block).astype(np.float64)
        parts = [np.ascontiguousarray(self._part(self.stacked, k))
                 for k in range(self.stacked.shape[1] // self.columns)]
        return (np.concatenate([on @ part for part in parts], axis=1),
                np.concatenate([off @ part for part in parts], axis=1))

    def add(self, selectors: np.ndarray) -> None:
        """One block of trials: system a's statistics where a selector is 1, b's elsewhere, and
        the other way round (as sacrebleu's ``pos_sel @ a + neg_sel @ b``). Blocks hold a
        multiple of 32 trials: OpenBLAS's AVX-512 kernels summed TER rows in blocks of 7
        differently from one product of all trials, in blocks of 32 as that product does."""
        rows = _block_rows(len(self.stacked), _BOOL_ROWS)
        for start in range(0, len(selectors), rows):
            chosen, others = self._sums(selectors[start : start + rows])
            for index, (a, b) in enumerate(self.pairs):
                pseudo_a = self._part(chosen, a) + self._part(others, b)
                pseudo_b = self._part(others, a) + self._part(chosen, b)
                trials = np.abs(self.scorer.scores(pseudo_a) - self.scorer.scores(pseudo_b))
                self.above[index] += np.count_nonzero(trials > abs(self.real[a] - self.real[b]))
        self.trials += len(selectors)

    def p_values(self) -> list[float]:
        return [(int(c) + 1) / (self.trials + 1) for c in self.above]


# ------------------------------------------------------------------- tests on statistics


@dataclass(frozen=True)
class _Group:
    """Systems tested on the same segments: all of them, or (segment scores) those rated for
    every system of the group, so that a pair's test leaves out what either system lacks."""

    rows: np.ndarray | None
    systems: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]

    def matrices(self, matrices: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The group's systems' statistics on the group's segments, in ``systems`` order."""
        chosen = [np.asarray(matrices[k]) for k in self.systems]
        return chosen if self.rows is None else [m[self.rows] for m in chosen]

    def local_pairs(self) -> list[tuple[int, int]]:
        """``pairs`` as positions in ``systems``."""
        where = {k: i for i, k in enumerate(self.systems)}
        return [(where[a], where[b]) for a, b in self.pairs]

    @property
    def n_segments(self) -> int | None:
        return None if self.rows is None else int(self.rows.sum())


def _rated(scorer: StatsScorer, matrix: np.ndarray) -> np.ndarray | None:
    """The segments rated in ``matrix`` (None for a metric that rates every segment)."""
    if scorer.rated_column is None:
        return None
    return np.asarray(matrix)[:, scorer.rated_column] > 0


def _groups(scorer: StatsScorer, matrices: Sequence[np.ndarray],
            pairs: Sequence[tuple[int, int]]) -> list[_Group]:
    """The pairs grouped by the segments both systems are rated on (one group of everything
    for metrics that rate every segment); a pair rated on no common segment is refused."""
    if scorer.rated_column is None:
        return [_Group(None, tuple(range(len(matrices))), tuple(pairs))]
    rated = [_rated(scorer, m) for m in matrices]
    found: dict[bytes, tuple[np.ndarray, list[tuple[int, int]]]] = {}
    for a, b in pairs:
        rows = rated[a] & rated[b]
        if not rows.any():
            raise StatisticsShapeError(
                f"No segment is rated for both systems of a pair (positions {a + 1} and "
                f"{b + 1}); a paired test needs segments rated for both.")
        found.setdefault(np.packbits(rows).tobytes(), (rows, []))[1].append((a, b))
    return [_Group(rows, tuple(sorted({k for pair in group for k in pair})), tuple(group))
            for rows, group in found.values()]


def _own_rows(scorer: StatsScorer, matrix: np.ndarray) -> np.ndarray:
    """One system's statistics on its rated segments (all of them for most metrics)."""
    rows = _rated(scorer, matrix)
    if rows is None:
        return np.asarray(matrix)
    if not rows.any():
        raise StatisticsShapeError("No segment of the system is rated; a score needs one.")
    return np.asarray(matrix)[rows]


@single_threaded_blas()
def paired_bootstrap_from_stats(stats: Mapping[str, np.ndarray],
                                metric: BLEUOptions | StatsScorer, *,
                                baseline: str | None = None, n_samples: int = 1000,
                                seed: int | None = DEFAULT_SEED, progress: Progress | None = None,
                                ) -> dict[str, SignificanceResult]:
    """Paired bootstrap resampling (Koehn 2004) on precomputed statistics, as sacrebleu's.

    ``metric`` scores the statistics: BLEU's options, or any metric's ``StatsScorer``. The
    result maps each name to its score, p-value against the baseline, and the mean and 95% CI
    of its resample scores; the baseline comes first. For segment scores, each system is
    tested on the segments rated for it and the baseline (``n_segments`` says how many).
    """
    scorer = as_scorer(metric)
    names, matrices = _ordered_systems(stats, scorer, baseline)
    n_samples = check_samples(n_samples)
    seed = resolve_seed(seed)
    groups = _groups(scorer, matrices, [(0, k) for k in range(1, len(matrices))])
    report = _Reporter(progress, n_samples * (len(groups) + (scorer.rated_column is not None)))
    real = _exact_scores(matrices, scorer)
    results: dict[str, SignificanceResult] = {}
    if scorer.rated_column is not None:  # the baseline's own interval, on its rated segments
        own = _own_rows(scorer, matrices[0])
        scores = _bootstrap_scores([own], scorer, np.random.default_rng(seed), n_samples,
                                   report)[0]
        results[names[0]] = _interval(names[0], real[0], scores, n_segments=len(own))
    for group in groups:
        subset = group.matrices(matrices)
        scores = _bootstrap_scores(subset, scorer, np.random.default_rng(seed), n_samples,
                                   report)
        tested = _exact_scores(subset, scorer)
        results.setdefault(names[0], _interval(names[0], real[0], scores[0]))
        for index, k in enumerate(group.systems[1:], start=1):
            p = _bootstrap_p(scores[0], scores[index], tested[0], tested[index])
            results[names[k]] = _interval(names[k], real[k], scores[index], p,
                                          n_segments=group.n_segments)
    report.finish()
    return {name: results[name] for name in names}


def _exact_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer) -> list[float]:
    """Each system's corpus score exactly as its metric's ``corpus_score`` reports it."""
    return [float(scorer.score(np.asarray(m).sum(axis=0))) for m in matrices]


@single_threaded_blas()
def paired_ar_from_stats(stats: Mapping[str, np.ndarray], metric: BLEUOptions | StatsScorer, *,
                         baseline: str | None = None, n_samples: int = 10000,
                         n_confidence: int = -1, seed: int | None = DEFAULT_SEED,
                         progress: Progress | None = None) -> dict[str, SignificanceResult]:
    """Paired approximate randomization (Riezler & Maxwell 2005) on statistics, as sacrebleu's.

    ``n_confidence`` is sacrebleu's ``n_ar_confidence``: bootstrap resamples for each system's
    mean and CI; negative (the default) skips them, 0 means 1000. Segment scores are tested on
    the segments rated for both systems, as in ``paired_bootstrap_from_stats``.
    """
    scorer = as_scorer(metric)
    names, matrices = _ordered_systems(stats, scorer, baseline)
    n_samples = check_samples(n_samples)
    n_conf = confidence_samples(n_confidence)
    seed = resolve_seed(seed)
    groups = _groups(scorer, matrices, [(0, k) for k in range(1, len(matrices))])
    report = _Reporter(progress, len(groups) * (n_samples + n_conf) + n_conf)
    real = _exact_scores(matrices, scorer)
    base = _own_rows(scorer, matrices[0])
    results = {names[0]: SignificanceResult(
        names[0], real[0], n_segments=None if scorer.rated_column is None else len(base))}
    if n_conf:  # the baseline's interval comes from a generator of its own, as in sacrebleu
        scores = _bootstrap_scores([base], scorer, np.random.default_rng(seed), n_conf,
                                   report)[0]
        results[names[0]] = _interval(names[0], real[0], scores,
                                      n_segments=results[names[0]].n_segments)
    for group in groups:
        subset = group.matrices(matrices)
        rng = np.random.default_rng(seed)
        randomizer = _Randomizer(subset, scorer, group.local_pairs())
        for selectors in _selector_blocks(rng, len(subset[0]), n_samples):
            randomizer.add(selectors)
            report.advance(len(selectors))
        intervals: list[np.ndarray | None] = [None] * len(subset)
        if n_conf:  # the systems' resamples follow the selectors in the same generator
            intervals[1:] = _bootstrap_scores(subset[1:], scorer, rng, n_conf, report)
        for index, (k, p) in enumerate(zip(group.systems[1:], randomizer.p_values(),
                                           strict=True), start=1):
            scores = intervals[index]
            results[names[k]] = (
                SignificanceResult(names[k], real[k], p, n_segments=group.n_segments)
                if scores is None else _interval(names[k], real[k], scores, p,
                                                 n_segments=group.n_segments))
    report.finish()
    return {name: results[name] for name in names}


@single_threaded_blas()
def bootstrap_ci_from_stats(stats: np.ndarray, metric: BLEUOptions | StatsScorer, *,
                            n_samples: int = 1000, seed: int | None = DEFAULT_SEED,
                            rows: np.ndarray | None = None) -> SignificanceResult:
    """Score and bootstrap 95% CI of one system, as sacrebleu's ``corpus_score(n_bootstrap=)``.

    ``rows`` (indices or a boolean mask) selects a subset of segments, e.g. a length bucket:
    the result is that of the subset taken as a corpus of its own. Segment scores are
    resampled over their rated segments.
    """
    scorer = as_scorer(metric)
    matrix = _check_matrix(stats, scorer, "the system")
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
    matrix = _own_rows(scorer, matrix)
    n_samples = check_samples(n_samples)
    rng = np.random.default_rng(resolve_seed(seed))
    scores = _bootstrap_scores([matrix], scorer, rng, n_samples, _Reporter(None, n_samples))[0]
    return _interval(scorer.name, _exact_scores([matrix], scorer)[0], scores, exact_mean=True,
                     n_segments=None if scorer.rated_column is None else len(matrix))


def holm_bonferroni(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: the k-th smallest of m is max over j <= k of (m-j+1) p_(j)."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    factors = len(p) - np.arange(len(p))
    stepped = np.maximum.accumulate(np.minimum(p[order] * factors, 1.0))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def _group_p_values(group: _Group, matrices: Sequence[np.ndarray], scorer: StatsScorer,
                    method: str, n_samples: int, seed: int, report: _Reporter) -> list[float]:
    """The p-values of a group's pairs, from one generator seeded with ``seed``."""
    subset = group.matrices(matrices)
    pairs = group.local_pairs()
    rng = np.random.default_rng(seed)
    if method == "bs":
        scores = _bootstrap_scores(subset, scorer, rng, n_samples, report)
        real = _exact_scores(subset, scorer)
        return [_bootstrap_p(scores[a], scores[b], real[a], real[b]) for a, b in pairs]
    randomizer = _Randomizer(subset, scorer, pairs)
    for selectors in _selector_blocks(rng, len(subset[0]), n_samples):
        randomizer.add(selectors)
        report.advance(len(selectors))
    return randomizer.p_values()


@single_threaded_blas()
def pairwise_significance(stats: Mapping[str, np.ndarray], metric: BLEUOptions | StatsScorer,
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
    names, matrices = _ordered_systems(stats, scorer, None)
    n_samples = DEFAULT_SAMPLES[method] if n_samples is None else check_samples(n_samples)
    seed = resolve_seed(seed)
    pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    groups = _groups(scorer, matrices, pairs)
    report = _Reporter(progress, n_samples * len(groups))
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
                  metric: BLEUOptions | StatsScorer) -> PairedTTest:
    """Student's paired t-test of A's and B's per-segment scores (their rows' scores), on the
    segments both are rated on. No variance in the differences gives t = NaN (all equal) or
    +-inf with p = 0 (all the same non-zero difference), as scipy does."""
    scorer = as_scorer(metric)
    a = _check_matrix(stats_a, scorer, "system A")
    b = _check_matrix(stats_b, scorer, "system B")
    if len(a) != len(b):
        raise LengthMismatchError(f"System A has {len(a)} segments, but B has {len(b)}; a "
                                  "paired test compares systems segment by segment.")
    rows = np.ones(len(a), bool)
    for matrix in (a, b):
        rated = _rated(scorer, matrix)
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


# ------------------------------------------------------------------------ tests on text


def _metric_stats(references: References, metric: Any, bleu_options: dict[str, Any],
                  ) -> tuple[Callable[[Sequence[str]], np.ndarray], StatsScorer]:
    """A function from hypotheses to statistics, and the metric's scorer.

    BLEU with ``bleu_options`` by default (references tokenized once for all systems), or
    ``metric``: any metric object with ``segment_stats(hypotheses, references)`` and
    ``scorer`` (``bleu.CHRF``, ``bleu.TER``).
    """
    if metric is None:
        bleu = BLEU(**bleu_options, references=references)
        return bleu.segment_stats, bleu.scorer
    if bleu_options:
        raise UnknownOptionError(
            f"BLEU options {sorted(bleu_options)} were given with metric={metric!r}; give the "
            "options to the metric object instead.")
    return (lambda hypotheses: metric.segment_stats(hypotheses, references)), metric.scorer


def _system_stats(systems: Mapping[str, Sequence[str]], references: References,
                  baseline: str | None, metric: Any, bleu_options: dict[str, Any],
                  report: _Reporter) -> tuple[dict[str, np.ndarray], StatsScorer]:
    """Each system's statistics and the metric's scorer; lengths checked first."""
    names = _check_system_names(systems, baseline)
    stats_of, scorer = _metric_stats(references, metric, bleu_options)
    n_segments = len(references[0]) if references else 0
    for name in names:
        if not isinstance(systems[name], str) and len(systems[name]) != n_segments:
            raise LengthMismatchError(
                f"System {name!r} has {len(systems[name])} segments, but the references have "
                f"{n_segments}; every system needs one line per segment."
            )
    stats = {}
    for name in names:
        stats[name] = stats_of(systems[name])
        report.advance(1)
    return stats, scorer


def paired_bootstrap(systems: Mapping[str, Sequence[str]], references: References, *,
                     baseline: str | None = None, n_samples: int = 1000,
                     seed: int | None = DEFAULT_SEED, progress: Progress | None = None,
                     metric: Any = None, **bleu_options: Any) -> dict[str, SignificanceResult]:
    """Paired bootstrap test of systems (name -> hypotheses) against references, as sacrebleu's.

    The baseline is the first system unless ``baseline`` names one. BLEU with ``bleu_options``
    by default; ``metric=bleu.CHRF(...)`` or ``bleu.TER(...)`` tests another metric.
    """
    check_samples(n_samples)
    stats, scorer = _system_stats(systems, references, baseline, metric, bleu_options,
                                  _Reporter(progress, len(systems), 0.0, 0.5))
    return paired_bootstrap_from_stats(
        stats, scorer, baseline=baseline, n_samples=n_samples, seed=seed,
        progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def paired_approximate_randomization(
    systems: Mapping[str, Sequence[str]], references: References, *,
    baseline: str | None = None, n_samples: int = 10000, n_confidence: int = -1,
    seed: int | None = DEFAULT_SEED, progress: Progress | None = None, metric: Any = None,
    **bleu_options: Any,
) -> dict[str, SignificanceResult]:
    """Paired approximate randomization test of systems against references, as sacrebleu's.

    ``n_confidence`` > 0 adds bootstrap means and CIs (0 means 1000; negative, none); the
    metric is chosen as in ``paired_bootstrap``.
    """
    check_samples(n_samples)
    confidence_samples(n_confidence)
    stats, scorer = _system_stats(systems, references, baseline, metric, bleu_options,
                                  _Reporter(progress, len(systems), 0.0, 0.5))
    return paired_ar_from_stats(
        stats, scorer, baseline=baseline, n_samples=n_samples,
        n_confidence=n_confidence, seed=seed,
        progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def bootstrap_ci(hypotheses: Sequence[str], references: References, *, n_samples: int = 1000,
                 seed: int | None = DEFAULT_SEED, metric: Any = None,
                 **bleu_options: Any) -> SignificanceResult:
    """One system's score with its bootstrap mean and 95% CI (sacrebleu's ``--confidence``);
    the metric is chosen as in ``paired_bootstrap``."""
    stats_of, scorer = _metric_stats(references, metric, bleu_options)
    return bootstrap_ci_from_stats(stats_of(hypotheses), scorer, n_samples=n_samples, seed=seed)


def resampling_fields(method: str, n_samples: int, seed: int | None,
                      n_confidence: int = -1) -> dict[str, Any]:
    """The signature fields a paired test or CI adds, as sacrebleu adds them: ``bs:`` or
    ``ar:`` with its count, ``seed:``, and for AR with a CI ``bs:`` too."""
    if method not in DEFAULT_SAMPLES:
        raise UnknownOptionError(f"Unknown method {method!r}; expected 'bs' or 'ar'.")
    fields: dict[str, Any] = {method: n_samples, "seed": str(seed).lower()}
    if method == "ar" and confidence_samples(n_confidence):
        fields["bs"] = confidence_samples(n_confidence)
    return fields


def significance_signature(options: BLEUOptions, n_refs: int, method: str, n_samples: int,
                           seed: int | None, n_confidence: int = -1) -> str:
    """sacrebleu's BLEU signature of a paired test or CI: ``nrefs:1|bs:1000|seed:12345|...``.

    ``method`` is "bs" (also for a single CI) or "ar"; AR with ``n_confidence`` adds ``bs:``.
    """
    return signature(options, n_refs, **resampling_fields(method, n_samples, seed, n_confidence))

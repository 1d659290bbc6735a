"""chrF scores of summed statistics, many rows at once: corpus and sentence scores (float64)
and bootstrap resamples (float32, as sacrebleu scores them), and the ``StatsScorer``.

A statistics row holds ``[hyp, ref, match]`` for character orders 1..C, then word orders 1..W
(sacrebleu's layout). The arithmetic repeats sacrebleu's ``CHRF._compute_f_score`` operation by
operation and in its order, vectorized over rows, so every float is the one sacrebleu computes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .score import CHRFOptions

#: sacrebleu's smoothing constant: a precision or recall with nothing to count
EPS = 1e-16


def _columns(stats: np.ndarray, order: int, dtype: type) -> tuple[np.ndarray, ...]:
    """The hypothesis, reference and match counts of rows, each (rows, orders)."""
    triples = np.asarray(stats, dtype=dtype).reshape(-1, order, 3)
    return triples[..., 0], triples[..., 1], triples[..., 2]


def _in_order(values: np.ndarray) -> np.ndarray:
    """Each row's sum over orders, added left to right as sacrebleu's loop adds them
    (``accumulate`` is sequential; ``sum`` would add pairwise, rounding differently)."""
    return np.add.accumulate(values, axis=1)[:, -1]


def _effective_order_score(prec: np.ndarray, rec: np.ndarray, counted: np.ndarray,
                           factor: float) -> tuple[np.ndarray, np.ndarray]:
    """sacrebleu's default (effective order) score: the F-score of the precisions and
    recalls averaged over the orders where both counts are > 0 (elsewhere given as 0); and
    where it is computed (elsewhere sacrebleu returns the Python float 0.0)."""
    effective = counted.sum(axis=1)
    # sacrebleu divides by a Python int: float32 stays float32
    share = np.maximum(effective, 1).astype(prec.dtype)
    avg_prec, avg_rec = _in_order(prec) / share, _in_order(rec) / share
    value = (1 + factor) * avg_prec * avg_rec
    value = value / (factor * avg_prec + avg_rec)
    computed = (effective > 0) & (avg_prec + avg_rec != 0)
    return np.where(computed, 100 * value, 0.0), computed


def f_scores(stats: np.ndarray, options: CHRFOptions) -> np.ndarray:
    """sacrebleu's ``_compute_f_score`` of each row, in float64 (integer statistics, as its
    corpus and sentence scores see them: Python ints, whose true division rounds as float64's)."""
    n_hyp, n_ref, n_match = _columns(stats, options.order, np.float64)
    factor = options.beta ** 2  # a Python number, as in sacrebleu
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(n_hyp > 0, n_match / n_hyp, EPS)
        rec = np.where(n_ref > 0, n_match / n_ref, EPS)
        if options.eps_smoothing:
            denom = factor * prec + rec
            # left to right, as Python evaluates (1 + factor) * prec * rec / denom
            terms = np.where(denom > 0, (1 + factor) * prec * rec / denom, EPS)
            return 100 * _in_order(terms) / options.order
        counted = (n_hyp > 0) & (n_ref > 0)
        return _effective_order_score(np.where(counted, prec, 0.0), np.where(counted, rec, 0.0),
                                      counted, factor)[0]


@dataclass(frozen=True)
class _Typed:
    """Values as sacrebleu holds them on a float32 row: ``np.float32`` where ``is32``, else
    Python floats (float64); ``value`` holds either exactly."""

    value: np.ndarray
    is32: np.ndarray

    def column(self, i: int) -> _Typed:
        return _Typed(self.value[:, i], self.is32[:, i])


def _typed(x: _Typed | float | np.ndarray) -> _Typed:
    """A Python number (or float64 values) as a typed value: not float32."""
    if isinstance(x, _Typed):
        return x
    value = np.asarray(x, dtype=np.float64)
    return _Typed(value, np.zeros(value.shape, bool))


def _apply(op: Callable[[Any, Any], Any], a: Any, b: Any) -> _Typed:
    """``op(a, b)`` with NumPy 2's promotion (NEP 50): if either side is float32, the other (a
    weak Python number) is cast to float32 and the result is float32; else float64."""
    a, b = _typed(a), _typed(b)
    in32 = op(a.value.astype(np.float32), b.value.astype(np.float32)).astype(np.float64)
    in64 = op(a.value, b.value)
    is32 = a.is32 | b.is32
    return _Typed(np.where(is32, in32, in64), is32)


def _ratio32(numerator: np.ndarray, denominator: np.ndarray) -> _Typed:
    """``numerator / denominator`` of float32 statistics where the denominator is > 0, else
    sacrebleu's Python ``eps``."""
    counted = denominator > 0
    ratio = (numerator / denominator).astype(np.float64)  # exact; where() then keeps EPS
    return _Typed(np.where(counted, ratio, EPS), counted)


def _as_sacrebleu_array(scores: _Typed) -> np.ndarray:
    """The array ``np.array(scores)`` is in sacrebleu: float32 when every score is a float32
    number, else float64 (its ``estimate_ci`` takes the mean in that type)."""
    return scores.value.astype(np.float32 if scores.is32.all() else np.float64)


def resample_f_scores(stats: np.ndarray, options: CHRFOptions) -> np.ndarray:
    """sacrebleu's ``_compute_f_score`` of float32 rows, as its bootstrap scores resamples.

    There the statistics are ``np.float32``: a precision is float32 but ``eps`` a Python float,
    and under NumPy 2 a float32 operand makes the whole operation float32 (the Python number is
    cast first). Each step is repeated here with the type it has there, per row and order. The
    result's dtype is that of sacrebleu's array of the scores (see ``_as_sacrebleu_array``).
    """
    n_hyp, n_ref, n_match = _columns(stats, options.order, np.float32)
    factor = options.beta ** 2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if not options.eps_smoothing:
            # only orders with both counts > 0 count, and there everything is float32
            counted = (n_hyp > 0) & (n_ref > 0)
            prec = np.where(counted, n_match / n_hyp, np.float32(0))
            rec = np.where(counted, n_match / n_ref, np.float32(0))
            value, computed = _effective_order_score(prec, rec, counted, factor)
            return _as_sacrebleu_array(_Typed(value.astype(np.float64), computed))
        prec, rec = _ratio32(n_match, n_hyp), _ratio32(n_match, n_ref)
        denom = _apply(np.add, _apply(np.multiply, factor, prec), rec)
        term = _apply(np.divide, _apply(np.multiply, _apply(np.multiply, 1 + factor, prec),
                                        rec), denom)
        smoothed = denom.value > 0
        terms = _Typed(np.where(smoothed, term.value, EPS), smoothed & term.is32)
        score = _typed(np.zeros(len(n_hyp)))
        for i in range(options.order):  # Python float until a float32 term comes
            score = _apply(np.add, score, terms.column(i))
        return _as_sacrebleu_array(
            _apply(np.divide, _apply(np.multiply, 100, score), options.order))


@dataclass(frozen=True)
class CHRFScorer:
    """chrF as a ``StatsScorer``: rows of summed statistics to scores, for significance tests
    and per-segment scores."""

    options: CHRFOptions
    higher_is_better: bool = True
    integer_stats: bool = True
    float32_resamples: bool = False
    rated_column: int | None = None

    @property
    def name(self) -> str:
        return self.options.name

    @property
    def columns(self) -> int:
        """Statistics per segment: three per character order and per word order."""
        return 3 * self.options.order

    @property
    def layout(self) -> str:
        options = self.options
        return (f"[hyp, ref, match] for character orders 1..{options.char_order}, then word "
                f"orders 1..{options.word_order}")

    def score(self, sums: np.ndarray) -> float:
        """The corpus score of one row of summed statistics, exactly as ``corpus_score``."""
        return float(f_scores(np.asarray(sums)[None], self.options)[0])

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of integer rows, equal to sacrebleu's ``corpus_score`` of such sums."""
        return f_scores(sums, self.options)

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of resample sums as sacrebleu's bootstrap computes them (float32 rows;
        integer sums below 2**24 are exact there). The dtype is that of sacrebleu's array of
        them: float32 unless some score is a Python float (0.0, or eps-smoothed nothing)."""
        return resample_f_scores(sums, self.options)

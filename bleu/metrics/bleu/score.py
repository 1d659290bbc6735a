"""BLEU from sufficient statistics: brevity penalty, smoothing, the score object and its text."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ...errors import UnknownOptionError
from ..base import SignificanceResult, format_score

#: sacrebleu's default smoothing values (Chen & Cherry 2014); None: the method takes no value.
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: sacrebleu's floor for log(0), so that a zero precision drives the score to 0.
LOG_ZERO = -9999999999


@dataclass(frozen=True)
class BLEUOptions:
    """Every option that changes a BLEU number, validated once."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_ngram_order: int = 4
    effective_order: bool = False

    def __post_init__(self) -> None:
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise UnknownOptionError(
                f"Unknown smoothing method {self.smooth_method!r}; expected one of: "
                f"{', '.join(SMOOTH_DEFAULTS)}."
            )
        value = self.smooth_value
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or not math.isfinite(value) or value < 0):
            raise UnknownOptionError(
                f"smooth_value must be a finite number >= 0, got {value!r}."
            )
        order = self.max_ngram_order
        if isinstance(order, bool) or not isinstance(order, int | np.integer) or order < 1:
            raise UnknownOptionError(
                f"max_ngram_order must be an integer >= 1, got {self.max_ngram_order!r}."
            )

    def scorer(self) -> BLEUScorer:
        """BLEU's scorer of summed statistics with these options (what significance tests
        resample with)."""
        return BLEUScorer(self)

    @property
    def stats_columns(self) -> int:
        """Columns of a statistics row: hyp_len, ref_len, then matches and totals per order."""
        return 2 + 2 * self.max_ngram_order

    @property
    def resolved_smooth_value(self) -> float | None:
        """The smoothing value in effect: the given one, or sacrebleu's default for the method."""
        if self.smooth_value is None:
            return SMOOTH_DEFAULTS[self.smooth_method]
        return self.smooth_value

    def smooth_label(self) -> str:
        """The signature's ``smooth:`` value, e.g. ``exp`` or ``floor[0.10]``."""
        if SMOOTH_DEFAULTS[self.smooth_method] is None:
            return self.smooth_method
        return f"{self.smooth_method}[{self.resolved_smooth_value:.2f}]"


@dataclass(frozen=True)
class BLEUScore:
    """A corpus or sentence BLEU score with sacrebleu's fields, plus its signature.

    ``counts`` and ``totals`` are reported as sacrebleu reports them: with add-k smoothing they
    include the added k for orders above 1.
    """

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    signature: str = ""
    name: str = field(default="BLEU")

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when there is no reference text)."""
        return self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def prec_str(self) -> str:
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @property
    def verbose(self) -> str:
        """The part after the score: precisions, BP, ratio and lengths, as sacrebleu prints them."""
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False, interval: SignificanceResult | None = None) -> str:
        """sacrebleu's one-line text (``BLEU = 22.67 ...``) or its JSON, with the signature;
        ``interval`` (a bootstrap's mean and CI) adds ``(μ = mean ± ci)`` as sacrebleu does."""
        return format_score(self.name, self.score, width, score_only, signature, is_json,
                            self.verbose, interval)

    def __str__(self) -> str:
        return self.format()


def brevity_penalty(sys_len: int, ref_len: int) -> float:
    """exp(1 - r/c) when the hypothesis is shorter than the reference, else 1 (0 for c = 0)."""
    if sys_len < ref_len:
        return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    return 1.0


def _log(value: float) -> float:
    return LOG_ZERO if value == 0.0 else math.log(value)


def score_from_stats(
    stats: Sequence[int] | np.ndarray, options: BLEUOptions, signature: str = ""
) -> BLEUScore:
    """BLEU from one row of summed statistics ``[sys_len, ref_len, matches..., totals...]``.

    The arithmetic follows sacrebleu's step by step (same operations, same order), so the float
    result is identical.
    """
    order = options.max_ngram_order
    sys_len, ref_len = int(stats[0]), int(stats[1])
    correct: list[int | float] = [int(x) for x in stats[2 : 2 + order]]
    total: list[int | float] = [int(x) for x in stats[2 + order : 2 + 2 * order]]
    bp = brevity_penalty(sys_len, ref_len)
    precisions = [0.0] * order
    if not any(correct):
        return BLEUScore(0.0, tuple(correct), tuple(total), tuple(precisions), bp,
                         sys_len, ref_len, signature)
    method, value = options.smooth_method, options.resolved_smooth_value
    smooth_mteval = 1.0
    eff_order = order
    for n in range(1, order + 1):
        if method == "add-k" and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if options.effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    score = bp * math.exp(sum([_log(p) for p in precisions[:eff_order]]) / eff_order)
    return BLEUScore(score, tuple(correct), tuple(total), tuple(precisions), bp,
                     sys_len, ref_len, signature)


def _elementwise(function: Callable[[float], float], values: np.ndarray) -> np.ndarray:
    """The math module's ``function`` on every element, as sacrebleu computes it (numpy's SIMD
    log and exp may differ in the last bit)."""
    flat = values.ravel().tolist()
    return np.fromiter(map(function, flat), np.float64, len(flat)).reshape(values.shape)


def scores_from_stats(stats: np.ndarray, options: BLEUOptions, *,
                      float32: bool = False) -> np.ndarray:
    """BLEU for many rows of summed statistics at once (resamples, leave-one-out, buckets).

    The vectorized twin of ``score_from_stats``: the same operations in the same order (the log
    terms added left to right as Python's ``sum`` adds them). ``float32=True`` scores as
    sacrebleu scores bootstrap resamples, bit for bit (their mean and CI are printed in full):
    from float32 statistics, so that (NumPy >= 2) the precisions are float32 numbers, with logs
    and exponentials from the math module. Otherwise numpy's SIMD log and exp, which may differ
    from the math module's in the last bit (no p-value or 2-decimal score shows it), keep the
    approximate-randomization trials twice as fast.
    """
    stats = np.asarray(stats, dtype=np.float64)
    log, exp = ((partial(_elementwise, math.log), partial(_elementwise, math.exp)) if float32
                else (np.log, np.exp))
    order = options.max_ngram_order
    real = np.float32 if float32 else np.float64
    sys_len, ref_len = stats[:, 0], stats[:, 1]
    correct = stats[:, 2 : 2 + order].astype(real)
    total = stats[:, 2 + order : 2 + 2 * order].astype(real)
    no_match = ~(correct != 0).any(axis=1)
    method, value = options.smooth_method, options.resolved_smooth_value
    if method == "add-k":
        correct[:, 1:] += real(value)
        total[:, 1:] += real(value)
    present = np.cumprod(total != 0, axis=1).astype(bool)  # sacrebleu stops at an empty order
    zero = correct == 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        short = (sys_len < ref_len) & (sys_len > 0)
        bp = np.where(sys_len < ref_len, 0.0, 1.0)
        bp[short] = exp(1 - ref_len[short] / sys_len[short])
        matched = (real(100.0) * correct) / total
        if method == "exp":
            halvings = np.cumsum(zero & present, axis=1)
            smoothed = real(100.0) / (np.exp2(halvings).astype(real) * total)
        elif method == "floor":
            smoothed = real(100.0 * value) / total
        else:
            smoothed = np.zeros_like(total)
        precisions = np.where(present, np.where(zero, smoothed, matched), real(0))
        precisions = precisions.astype(np.float64)
        logs = np.where(precisions == 0.0, float(LOG_ZERO),
                        log(np.where(precisions > 0, precisions, 1.0)))
    if options.effective_order:
        eff_order = np.maximum(present.sum(axis=1), 1)
    else:
        eff_order = np.full(len(stats), order)
    log_sum = np.zeros(len(stats))
    for n in range(order):  # left to right, as Python's sum() adds them
        log_sum = np.where(n < eff_order, log_sum + logs[:, n], log_sum)
    with np.errstate(over="ignore"):
        return np.where(no_match, 0.0, bp * exp(log_sum / eff_order))


@dataclass(frozen=True)
class BLEUScorer:
    """BLEU as a ``StatsScorer``: summed statistics rows to scores, for significance tests."""

    options: BLEUOptions
    name: str = "BLEU"
    higher_is_better: bool = True
    integer_stats: bool = True
    float32_resamples: bool = False
    rated_column: int | None = None

    @property
    def columns(self) -> int:
        return self.options.stats_columns

    def score(self, sums: np.ndarray) -> float:
        return score_from_stats(sums, self.options).score

    def scores(self, sums: np.ndarray) -> np.ndarray:
        return scores_from_stats(sums, self.options)

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        return scores_from_stats(sums, self.options, float32=True)

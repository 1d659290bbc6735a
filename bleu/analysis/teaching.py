"""BLEU step by step for one candidate: n-gram tables, p_n, weights, logs, BP, the formula.

Every number follows sacrebleu's sentence BLEU (``bleu.sentence_bleu``): with uniform weights the
``score`` equals it (to float rounding, ~1e-12) under every smoothing and effective-order setting.
Custom weights ``w_n`` are our extension: they are normalized to sum to 1, and under effective
order renormalized over the orders that are used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..errors import UnknownOptionError
from ..metrics.bleu_score import SMOOTH_DEFAULTS, BLEUOptions
from ..metrics.explain import Explanation, explain

#: The classic clipping example (Papineni et al. 2002): "the" seven times, credited only twice.
CLASSIC_CANDIDATE = "the the the the the the the"
CLASSIC_REFERENCES = ("the cat is on the mat", "there is a cat on the mat")
SMOOTH_METHODS = tuple(SMOOTH_DEFAULTS)


@dataclass(frozen=True)
class NgramRow:
    """One distinct candidate n-gram: its count, the most any reference has, and the clip."""

    ngram: str
    count: int
    max_ref_count: int
    reference: int | None  # 1-based number of the first reference holding max_ref_count
    clipped: int


@dataclass(frozen=True)
class OrderStep:
    """p_n of one order: clipped matches over total n-grams, smoothing, weight and log."""

    order: int
    credited: int
    total: int
    numerator: float  # what the score uses, after smoothing
    denominator: float
    precision: float  # numerator / denominator as a fraction; 0 when p_n is zero
    weight: float  # effective weight in the geometric mean (0 for an order not used)
    used: bool
    note: str

    @property
    def fraction(self) -> str:
        return f"{self.credited}/{self.total}"

    @property
    def percent(self) -> float:
        """The raw modified precision credited/total in percent (0 when there are no n-grams)."""
        return 100.0 * self.credited / self.total if self.total else 0.0

    @property
    def log_precision(self) -> float:
        return math.log(self.precision) if self.precision > 0 else -math.inf

    @property
    def weighted_log(self) -> float:
        return self.weight * self.log_precision if self.weight > 0 else 0.0


@dataclass(frozen=True)
class BrevityStep:
    """The brevity penalty: candidate length c, reference length r, and why that r."""

    c: int
    r: int
    ref_lengths: tuple[int | None, ...]  # per reference, None where none was given
    chosen_reference: int  # 1-based
    bp: float
    reason: str


@dataclass(frozen=True)
class Walkthrough:
    """Every step of one sentence's BLEU, numbers only (no prose the caller must parse)."""

    tokens: tuple[str, ...]
    reference_tokens: tuple[tuple[str, ...] | None, ...]
    tables: tuple[tuple[NgramRow, ...], ...]  # [n-1]: the n-gram table of order n
    orders: tuple[OrderStep, ...]
    weights: tuple[float, ...]  # the normalized weights asked for (before effective order)
    log_sum: float  # sum of w_n log p_n over used orders (-inf when a used p_n is 0)
    geometric_mean: float  # exp(log_sum)
    brevity: BrevityStep
    score: float
    collapse: str | None  # why the score is 0, when it is
    options: BLEUOptions

    @property
    def formula(self) -> str:
        """The final formula with every number substituted, as plain text."""
        terms = " + ".join(f"{s.weight:.4g}×log({s.precision:.4f})" for s in self.orders
                           if s.weight > 0)
        return (f"BLEU = BP × exp(Σ w_n·log p_n) × 100 = {self.brevity.bp:.4f} × exp({terms}) "
                f"× 100 = {self.brevity.bp:.4f} × exp({_num(self.log_sum)}) × 100 "
                f"= {self.score:.2f}")

    @property
    def latex(self) -> str:
        """The same formula in LaTeX, one step per line (two terms per line of the sum, so it
        fits a narrow page); built from numbers only, so safe to render."""
        terms = [rf"{s.weight:.4g}\cdot\log {s.precision:.4f}" for s in self.orders if s.weight > 0]
        lines = [" + ".join(terms[k : k + 2]) for k in range(0, len(terms), 2)] or ["0"]
        log_sum = r"-\infty" if self.log_sum == -math.inf else f"{self.log_sum:.4f}"
        bp = f"{self.brevity.bp:.4f}"
        return (r"\begin{aligned}\mathrm{BLEU} &= \mathrm{BP}\cdot\exp\Big(\sum_n w_n \log p_n"
                r"\Big)\cdot 100 \\ "
                rf"&= {bp}\cdot\exp\big(" + r" \\ &\qquad + ".join(lines) + r"\big)\cdot 100 \\ "
                rf"&= {bp}\cdot\exp({log_sum})\cdot 100 = {self.score:.2f}\end{{aligned}}")


def _num(value: float) -> str:
    return "−∞" if value == -math.inf else f"{value:.4f}"


def _weights(weights: Sequence[float] | None, order: int) -> tuple[float, ...]:
    if weights is None:
        return (1.0 / order,) * order
    values = tuple(float(w) for w in weights)
    if len(values) != order or any(not math.isfinite(w) or w < 0 for w in values) or \
            sum(values) <= 0:
        raise UnknownOptionError(
            f"weights must be {order} non-negative numbers (one per n-gram order) with a "
            f"positive sum, got {list(weights)!r}."
        )
    total = sum(values)
    return tuple(w / total for w in values)


def _brevity(ex: Explanation) -> BrevityStep:
    c, r = ex.hyp_len, ex.ref_len
    lengths = tuple(ref.length if ref is not None else None for ref in ex.references)
    given = [(k + 1, n) for k, n in enumerate(lengths) if n is not None]
    chosen = ex.ref_len_reference + 1
    if len(given) == 1:
        why = f"One reference: r is its length, {r}."
    else:
        listed = ", ".join(f"{n} (ref {k})" for k, n in given)
        closest = [k for k, n in given if abs(n - c) == abs(r - c)]
        why = f"Reference lengths {listed}; r is the one closest to c = {c}"
        if len({n for k, n in given if k in closest}) > 1:
            why += (f": a tie at distance {abs(r - c)}, broken toward the shorter, "
                    f"{r} (ref {chosen}).")
        else:
            why += f": {r} (ref {chosen}, |{c} − {r}| = {abs(c - r)})."
    bp = ex.bp
    if c == 0:
        why += " The candidate is empty: BP = 0."
    elif c < r:
        why += f" c < r, so BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp:.4f}."
    else:
        why += " c ≥ r, so there is no penalty: BP = 1."
    return BrevityStep(c, r, lengths, chosen, bp, why)


def _steps(ex: Explanation, weights: tuple[float, ...]) -> tuple[list[OrderStep], str | None]:
    """p_n per order exactly as sacrebleu computes them, with the note saying how."""
    options = ex.options
    method, value = options.smooth_method, options.resolved_smooth_value
    halvings, broken, steps = 0, False, []
    nothing = ex.orders[0].matches == 0  # sacrebleu returns 0 (and p_n = 0) before smoothing
    for summary in ex.orders:
        n, num, den = summary.order, float(summary.matches), float(summary.total)
        if method == "add-k" and n > 1:
            num, den = num + value, den + value
        if nothing:
            steps.append(OrderStep(n, summary.matches, summary.total, 0.0, den, 0.0,
                                   weights[n - 1], den > 0, "no match at all: p_n = 0"))
            continue
        if broken or den == 0:
            broken = True
            note = f"the candidate has no {n}-grams"
            steps.append(OrderStep(n, summary.matches, summary.total, num, den, 0.0,
                                   weights[n - 1], False, note))
            continue
        if num == 0 and method == "exp":
            halvings += 1
            den, num = den * 2 ** halvings, 1.0
            note = f"no match: exp smoothing, 1/(2^{halvings}·{summary.total})"
        elif num == 0 and method == "floor":
            num = value
            note = f"no match: floor smoothing, {value:g}/{summary.total}"
        elif num == 0:
            note = "no match: p_n = 0 (no smoothing)"
        elif method == "add-k" and n > 1:
            note = f"add-k: ({summary.matches} + {value:g})/({summary.total} + {value:g})"
        else:
            note = f"{summary.matches}/{summary.total}"
        steps.append(OrderStep(n, summary.matches, summary.total, num, den, num / den,
                               weights[n - 1], True, note))
    if options.effective_order:  # the mean runs over the orders present, weights rescaled
        mass = sum(s.weight for s in steps if s.used)
        if mass <= 0 < sum(s.used for s in steps):
            raise UnknownOptionError(
                f"with effective order only orders 1..{sum(s.used for s in steps)} are used, "
                f"and the weights given to them are all 0: {list(weights)!r}."
            )
        steps = [_reweigh(s, s.weight / mass if s.used else 0.0) for s in steps]
    collapse = None
    if ex.orders[0].matches == 0:
        collapse = "No candidate word is in any reference: BLEU is 0 whatever the smoothing."
    else:
        zero = [s.order for s in steps if s.weight > 0 and s.precision == 0]
        if zero:
            collapse = (f"p_{zero[0]} = 0 and log 0 = −∞: the geometric mean, and so BLEU, "
                        f"collapses to 0. Smoothing or effective order avoids that.")
    return steps, collapse


def _reweigh(step: OrderStep, weight: float) -> OrderStep:
    return OrderStep(step.order, step.credited, step.total, step.numerator, step.denominator,
                     step.precision, weight, step.used, step.note)


def walkthrough(hypothesis: str, references: Sequence[str | None], *, tokenize: str = "13a",
                lowercase: bool = False, smooth_method: str = "exp",
                smooth_value: float | None = None, max_ngram_order: int = 4,
                effective_order: bool = True,
                weights: Sequence[float] | None = None) -> Walkthrough:
    """Sentence BLEU of ``hypothesis`` with every intermediate number, for teaching.

    Options and defaults are ``bleu.sentence_bleu``'s; ``weights`` (default uniform 1/N) are
    normalized to sum to 1.
    """
    ex = explain(hypothesis, references, tokenize=tokenize, lowercase=lowercase,
                 smooth_method=smooth_method, smooth_value=smooth_value,
                 max_ngram_order=max_ngram_order, effective_order=effective_order)
    norm = _weights(weights, ex.options.max_ngram_order)
    steps, collapse = _steps(ex, norm)
    brevity = _brevity(ex)
    log_sum = math.fsum(s.weighted_log for s in steps)
    mean = math.exp(log_sum)
    score = brevity.bp * mean * 100.0 if ex.orders[0].matches else 0.0
    tables = tuple(
        tuple(NgramRow(g.text, g.count, g.max_ref_count,
                       None if g.best_reference is None else g.best_reference + 1, g.credited)
              for g in grams)
        for grams in ex.ngrams
    )
    ref_tokens = tuple(None if ref is None else ref.tokens for ref in ex.references)
    return Walkthrough(ex.hypothesis_tokens, ref_tokens, tables, tuple(steps), norm, log_sum,
                       mean, brevity, score, collapse, ex.options)


def ngram_frame(walk: Walkthrough, order: int) -> pd.DataFrame:
    """The n-gram table of one order, ready for ``st.dataframe``."""
    rows = walk.tables[order - 1]
    return pd.DataFrame({
        "n-gram": [r.ngram for r in rows],
        "count": [r.count for r in rows],
        "max ref count": [r.max_ref_count for r in rows],
        "in reference": [r.reference for r in rows],
        "clipped": [r.clipped for r in rows],
    }).astype({"in reference": "Int64"})


def orders_frame(walk: Walkthrough) -> pd.DataFrame:
    """p_n, w_n, log p_n and w_n·log p_n per order (one row each)."""
    return pd.DataFrame({
        "n": [s.order for s in walk.orders],
        "credited/total": [s.fraction for s in walk.orders],
        "p_n (%)": [s.percent for s in walk.orders],
        "p_n used": [s.precision for s in walk.orders],
        "how": [s.note for s in walk.orders],
        "w_n": [s.weight for s in walk.orders],
        "log p_n": [s.log_precision for s in walk.orders],
        "w_n·log p_n": [s.weighted_log for s in walk.orders],
    })


@dataclass(frozen=True)
class SmoothingRow:
    """One (smoothing, effective order) setting for the same sentence."""

    smooth_method: str
    smooth_value: float | None
    effective_order: bool
    score: float
    precisions: tuple[float, ...]  # p_n used, in percent
    collapse: str | None


def smoothing_comparison(hypothesis: str, references: Sequence[str | None], *,
                         tokenize: str = "13a", lowercase: bool = False,
                         max_ngram_order: int = 4,
                         weights: Sequence[float] | None = None) -> tuple[SmoothingRow, ...]:
    """The sentence under every smoothing (none, floor, add-k, exp) x effective order off/on."""
    rows = []
    for method in SMOOTH_METHODS:
        for effective in (False, True):
            walk = walkthrough(hypothesis, references, tokenize=tokenize, lowercase=lowercase,
                               smooth_method=method, max_ngram_order=max_ngram_order,
                               effective_order=effective, weights=weights)
            rows.append(SmoothingRow(method, walk.options.resolved_smooth_value, effective,
                                     walk.score, tuple(100 * s.precision for s in walk.orders),
                                     walk.collapse))
    return tuple(rows)


def order_sweep(hypothesis: str, references: Sequence[str | None], *, max_order: int = 4,
                **options: object) -> tuple[tuple[int, float], ...]:
    """(N, score) for N = 1..max_order with uniform weights: how the choice of N moves BLEU."""
    return tuple(
        (n, walkthrough(hypothesis, references, max_ngram_order=n, **options).score)  # type: ignore[arg-type]
        for n in range(1, max_order + 1)
    )

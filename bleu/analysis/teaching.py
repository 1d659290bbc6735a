"""BLEU step by step for one candidate: n-gram tables, p_n, weights, logs, BP, the formula.

Every number follows sacrebleu's sentence BLEU (``bleu.sentence_bleu``): with uniform weights the
``score`` equals it (to float rounding, ~1e-12) under every smoothing and effective-order setting.
Custom weights ``w_n`` are our extension: they are normalized to sum to 1, and under effective
order renormalized over the orders that are used.

What a student reads must agree wherever a number appears, so every quantity has ONE formatter
here (``fmt_*``) and the tables, tab labels, formula and chart labels are all built with it:
p_n as an exact fraction and a percentage with 2 decimals, logs and weights with 4 decimals,
BP and the geometric mean with 4, BLEU with 2 (as sacrebleu prints it). An order the candidate
has no n-grams of has p_n = 0/0, which is undefined, and is shown so: effective order drops it;
without effective order sacrebleu counts it as 0, and the text says that too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from ..errors import InputError, UnknownOptionError
from ..metrics.bleu.explain import Explanation, explain
from ..metrics.bleu.score import SMOOTH_DEFAULTS, BLEUOptions
from .formatting import FACTOR, SCORE

#: The classic clipping example (Papineni et al. 2002): "the" seven times, credited only twice.
CLASSIC_CANDIDATE = "the the the the the the the"
CLASSIC_REFERENCES = ("the cat is on the mat", "there is a cat on the mat")
SMOOTH_METHODS = tuple(SMOOTH_DEFAULTS)
#: sentence BLEU's defaults in sacrebleu (``sentence_bleu``): what the walkthrough starts with
SENTENCE_DEFAULTS = BLEUOptions(smooth_method="exp", effective_order=True)

#: how p_n came about (``OrderStep.status``)
MATCHED = "matched"  # credited/total, or add-k's (credited + k)/(total + k)
SMOOTHED = "smoothed"  # no match: exp or floor smoothing replaced the 0
ZERO = "zero"  # no match and no smoothing: p_n = 0
UNDEFINED = "undefined"  # no n-grams of this order: 0/0
NOTHING = "nothing"  # no candidate word in any reference: BLEU is 0 before any smoothing


def fmt_percent(value: float) -> str:
    """A precision in percent, as every place on the page shows it (2 decimals)."""
    return f"{value:.2f}%"


def fmt_count(value: float) -> str:
    """A (possibly smoothed) count: ``2``, ``0.1``, ``1.5``."""
    return f"{value:g}"


def fmt_log(value: float) -> str:
    """A log or weighted log (4 decimals; −∞ for log 0)."""
    return "−∞" if value == -math.inf else f"{value:.4f}"


def fmt_weight(value: float) -> str:
    """A weight w_n (4 decimals)."""
    return f"{value:.4f}"


def fmt_factor(value: float) -> str:
    """BP and the geometric mean (``FACTOR``: 4 decimals)."""
    return FACTOR.text(value)


def fmt_score(value: float) -> str:
    """BLEU (``SCORE``: 2 decimals, as sacrebleu and WMT print it)."""
    return SCORE.text(value)


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
    """p_n of one order: clipped matches over total n-grams, smoothing, weight and log.

    ``numerator``/``denominator`` are what the score uses (after smoothing); both are None when
    p_n is undefined (0/0) and the score does not use it. ``used``: the order enters the
    geometric mean (an undefined order does, as 0, when effective order is off: sacrebleu's
    behaviour).
    """

    order: int
    credited: int
    total: int
    numerator: float | None
    denominator: float | None
    weight: float  # effective weight in the geometric mean (0 for an order not used)
    used: bool
    status: str
    note: str

    @property
    def fraction(self) -> str:
        """The raw modified precision as a fraction: ``2/7``, ``0/0``."""
        return f"{self.credited}/{self.total}"

    @property
    def defined(self) -> bool:
        """Whether the raw credited/total is a number (the candidate has n-grams of this order)."""
        return self.total > 0

    @property
    def percent(self) -> float | None:
        """The raw credited/total in percent; None when undefined (0/0)."""
        return 100.0 * self.credited / self.total if self.total else None

    @property
    def precision(self) -> float | None:
        """The p_n the score uses, as a fraction; None when it does not use this order's."""
        if self.numerator is None or self.denominator is None:
            return None
        return self.numerator / self.denominator

    @property
    def log_precision(self) -> float | None:
        """log p_n (−∞ for 0); None when p_n is undefined and dropped."""
        p = self.precision
        if p is None:
            return None
        return math.log(p) if p > 0 else -math.inf

    @property
    def weighted_log(self) -> float | None:
        """w_n·log p_n as the sum uses it; None for an order not in the sum."""
        log = self.log_precision
        if not self.used or log is None:
            return None
        return self.weight * log if self.weight > 0 else 0.0

    # --- the texts every place on the page uses -------------------------------------------
    @property
    def raw_text(self) -> str:
        """``2/7 = 28.57%`` or ``0/0: undefined``."""
        if not self.defined:
            return f"{self.fraction}: undefined"
        return f"{self.fraction} = {fmt_percent(self.percent or 0.0)}"

    @property
    def used_fraction(self) -> str | None:
        """The p_n used as an exact fraction (``1/12``, ``0.1/6``); None when dropped."""
        if self.numerator is None or self.denominator is None:
            return None
        return f"{fmt_count(self.numerator)}/{fmt_count(self.denominator)}"

    @property
    def used_text(self) -> str:
        """The p_n used: ``1/12 = 8.33%``, ``0 (0/0 counted as 0)``, ``undefined: dropped``."""
        if self.status in (UNDEFINED, NOTHING) and self.used and not self.defined:
            return f"0 ({self.fraction} counted as 0)"
        if self.precision is None:
            return "undefined: dropped"
        return f"{self.used_fraction} = {fmt_percent(100 * self.precision)}"

    @property
    def log_text(self) -> str:
        log = self.log_precision
        return "undefined" if log is None else fmt_log(log)

    @property
    def weight_text(self) -> str:
        return fmt_weight(self.weight) if self.used else "dropped"

    @property
    def weighted_text(self) -> str:
        term = self.weighted_log
        return "dropped" if term is None else fmt_log(term)


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
    def summed(self) -> tuple[OrderStep, ...]:
        """The orders in the weighted log sum (used, with a positive weight)."""
        return tuple(s for s in self.orders if s.used and s.weight > 0)

    @property
    def formula(self) -> str:
        """The final formula with every number substituted, as plain text."""
        terms = " + ".join(f"{fmt_weight(s.weight)}×log({s.used_fraction or '0'})"
                           for s in self.summed)
        bp = fmt_factor(self.brevity.bp)
        return (f"BLEU = BP × exp(Σ w_n·log p_n) × 100 = {bp} × exp({terms or '0'}) × 100 "
                f"= {bp} × exp({fmt_log(self.log_sum)}) × 100 = {fmt_score(self.score)}")

    @property
    def latex(self) -> str:
        """The same formula in LaTeX, one step per line (two terms per line of a sum, so it
        fits a narrow page); built from numbers only, so safe to render. Every number is
        written with the formatter the tables use."""
        bp = fmt_factor(self.brevity.bp)
        head = (r"\begin{aligned}\mathrm{BLEU} &= \mathrm{BP}\cdot\exp\Big(\sum_n w_n "
                r"\log p_n\Big)\cdot 100 \\ ")
        if self.orders[0].status == NOTHING:
            why = ("the candidate is empty" if self.orders[0].total == 0
                   else "no candidate word is in any reference")
            return head + rf"&= 0 \quad\text{{({why})}}\end{{aligned}}"
        symbolic = [rf"{fmt_weight(s.weight)}\cdot\log{_latex_fraction(s)}" for s in self.summed]
        numeric = [_latex_number(s.weighted_log or 0.0) for s in self.summed]
        lines = [
            rf"&= {bp}\cdot\exp\big(" + _latex_sum(symbolic) + r"\big)\cdot 100 \\ ",
            rf"&= {bp}\cdot\exp\big(" + _latex_sum(numeric, signed=True) + r"\big)\cdot 100 \\ ",
        ]
        if self.log_sum == -math.inf:
            lines.append(rf"&= {bp}\cdot\exp(-\infty)\cdot 100 = {bp}\cdot 0 \cdot 100 "
                         rf"= {fmt_score(self.score)}\end{{aligned}}")
        else:
            lines.append(rf"&= {bp}\cdot\exp({fmt_log(self.log_sum)})\cdot 100 "
                         rf"= {bp}\cdot {fmt_factor(self.geometric_mean)}\cdot 100 "
                         rf"= {fmt_score(self.score)}\end{{aligned}}")
        return head + "".join(lines)


def _latex_fraction(step: OrderStep) -> str:
    if step.status in (UNDEFINED, NOTHING) or step.numerator is None or step.denominator is None:
        return r" 0"
    return rf"\tfrac{{{fmt_count(step.numerator)}}}{{{fmt_count(step.denominator)}}}"


def _latex_number(value: float) -> str:
    return r"-\infty" if value == -math.inf else fmt_log(value)


def _latex_sum(terms: list[str], signed: bool = False) -> str:
    """Terms joined by + (or by their own sign when ``signed``), two per line."""
    if not terms:
        return "0"
    out = ""
    for k, term in enumerate(terms):
        if k:
            if k % 2 == 0:
                out += r" \\ &\qquad "
            out += " " if signed and term.startswith("-") else " + "
        out += term
    return out


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


def brevity_step(ex: Explanation) -> BrevityStep:
    """c, r (the reference length closest to c, the shorter on a tie), BP and why that r."""
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
        why += f" c < r, so BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {fmt_factor(bp)}."
    else:
        why += " c ≥ r, so there is no penalty: BP = 1."
    return BrevityStep(c, r, lengths, chosen, bp, why)


def _step(n: int, credited: int, total: int, method: str, value: float | None,
          halvings: int, effective: bool, weight: float) -> OrderStep:
    """One order's p_n exactly as sacrebleu computes it (``halvings``: exp smoothing's count of
    zero orders before this one)."""
    num, den = float(credited), float(total)
    if method == "add-k" and n > 1:
        num, den = num + value, den + value  # type: ignore[operator]
    if den == 0:
        if effective:
            return OrderStep(n, credited, total, None, None, 0.0, False, UNDEFINED,
                             f"no {n}-grams (0/0): dropped by effective order")
        return OrderStep(n, credited, total, 0.0, 1.0, weight, True, UNDEFINED,
                         f"no {n}-grams (0/0): counted as 0")
    if num > 0:
        note = (f"add-k: ({credited} + {value:g})/({total} + {value:g})"
                if method == "add-k" and n > 1 else f"{credited}/{total}")
        if method == "add-k" and n > 1 and total == 0:
            note += f", though no {n}-grams"
        return OrderStep(n, credited, total, num, den, weight, True, MATCHED, note)
    if method == "exp":
        return OrderStep(n, credited, total, 1.0, den * 2 ** (halvings + 1), weight, True,
                         SMOOTHED, f"no match: exp smoothing, 1/(2^{halvings + 1}·{total})")
    if method == "floor":
        return OrderStep(n, credited, total, float(value), den, weight, True,  # type: ignore[arg-type]
                         SMOOTHED, f"no match: floor smoothing, {value:g}/{total}")
    return OrderStep(n, credited, total, 0.0, den, weight, True, ZERO,
                     "no match: p_n = 0 (no smoothing)")


def _steps(ex: Explanation, weights: tuple[float, ...]) -> tuple[list[OrderStep], str | None]:
    """p_n per order exactly as sacrebleu computes them, with the note saying how."""
    options = ex.options
    method, value = options.smooth_method, options.resolved_smooth_value
    effective = options.effective_order
    if ex.orders[0].matches == 0:  # sacrebleu returns 0 (and p_n = 0) before smoothing
        steps = [OrderStep(s.order, s.matches, s.total, 0.0, float(max(s.total, 1)),
                           weights[s.order - 1], True, NOTHING, "no match at all: BLEU = 0")
                 for s in ex.orders]
        what = ("The candidate is empty" if ex.orders[0].total == 0
                else "No candidate word is in any reference")
        return steps, f"{what}: BLEU is 0 whatever the smoothing."
    steps, halvings = [], 0
    for summary in ex.orders:  # an order without n-grams is followed by more of them only
        step = _step(summary.order, summary.matches, summary.total, method, value, halvings,
                     effective, weights[summary.order - 1])
        halvings += step.status == SMOOTHED and method == "exp"
        steps.append(step)
    if effective:  # the mean runs over the orders present, weights rescaled
        mass = sum(s.weight for s in steps if s.used)
        if mass <= 0 < sum(s.used for s in steps):
            raise UnknownOptionError(
                f"with effective order only orders 1..{sum(s.used for s in steps)} are used, "
                f"and the weights given to them are all 0: {list(weights)!r}."
            )
        steps = [replace(s, weight=s.weight / mass if s.used else 0.0) for s in steps]
    zero = [s for s in steps if s.used and s.weight > 0 and s.precision == 0]
    collapse = None
    if zero:
        first = zero[0]
        what = (f"p_{first.order} = {first.fraction} is undefined and counted as 0"
                if first.status == UNDEFINED else f"p_{first.order} = 0")
        collapse = (f"{what}; log 0 = −∞, so the geometric mean, and BLEU, collapse to 0. "
                    "Smoothing or effective order avoids that.")
    return steps, collapse


#: what the teaching pages say when the References box holds nothing
NO_REFERENCE = "Give at least one reference (one per line)."


def require_reference(references: Sequence[str | None]) -> None:
    """Refuse typed references with none in them, in the words of the page (``explain`` itself
    words it for a programmer)."""
    if all(ref is None for ref in references):
        raise InputError(NO_REFERENCE)


def walkthrough(hypothesis: str, references: Sequence[str | None], *, tokenize: str = "13a",
                lowercase: bool = False, smooth_method: str = "exp",
                smooth_value: float | None = None, max_ngram_order: int = 4,
                effective_order: bool = True,
                weights: Sequence[float] | None = None) -> Walkthrough:
    """Sentence BLEU of ``hypothesis`` with every intermediate number, for teaching.

    Options and defaults are ``bleu.sentence_bleu``'s; ``weights`` (default uniform 1/N) are
    normalized to sum to 1.
    """
    require_reference(references)
    ex = explain(hypothesis, references, tokenize=tokenize, lowercase=lowercase,
                 smooth_method=smooth_method, smooth_value=smooth_value,
                 max_ngram_order=max_ngram_order, effective_order=effective_order)
    norm = _weights(weights, ex.options.max_ngram_order)
    steps, collapse = _steps(ex, norm)
    brevity = brevity_step(ex)
    terms = [s.weighted_log for s in steps if s.weighted_log is not None]
    log_sum = math.fsum(terms) if -math.inf not in terms else -math.inf
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


def tab_label(step: OrderStep) -> str:
    """The label of an order's tab: ``n = 1: p = 2/7 = 28.57%``, ``n = 4: p = 0/0, undefined``."""
    if not step.defined:
        return f"n = {step.order}: p = {step.fraction}, undefined"
    return f"n = {step.order}: p = {step.raw_text}"


def notes(walk: Walkthrough) -> tuple[str, ...]:
    """Sentences explaining where add-k, effective order or an undefined p_n change a number."""
    out = []
    options = walk.options
    undefined = [s for s in walk.orders if not s.defined]
    if walk.orders[0].status == NOTHING:
        out.append(_no_match_note(walk))
    elif undefined:
        first = undefined[0]
        names = ", ".join(f"p_{s.order}" for s in undefined)
        if options.smooth_method == "add-k" and first.order > 1 and \
                (options.resolved_smooth_value or 0) > 0:
            k = fmt_count(options.resolved_smooth_value or 0)
            out.append(f"The candidate has no {first.order}-grams, so {names} would be 0/0. "
                       f"add-k adds k = {k} to the matches and the totals of every order from 2 "
                       f"on, so p_{first.order} = (0 + {k})/(0 + {k}) = 100%: sacrebleu does "
                       "the same, although there is nothing to match.")
        elif options.effective_order:
            used = [s.order for s in walk.orders if s.used]
            out.append(f"The candidate has only {len(walk.tokens)} token(s): {names} = 0/0 "
                       f"is undefined. Effective order drops it: the geometric mean runs over "
                       f"n = 1..{max(used, default=0)} with the weights rescaled to sum to 1.")
        else:
            out.append(f"The candidate has only {len(walk.tokens)} token(s): {names} = 0/0 is "
                       "undefined. Without effective order sacrebleu counts it as 0, so "
                       "log 0 = −∞ and BLEU is 0; sentence BLEU turns effective order on.")
    if options.smooth_method == "add-k" and options.max_ngram_order > 1 and \
            any(s.status == MATCHED and s.order > 1 and s.total > 0 for s in walk.orders):
        k = fmt_count(options.resolved_smooth_value or 0)
        out.append(f"add-k: for n ≥ 2, p_n = (matches + {k})/(total + {k}), so the p_n used "
                   "differ from the raw credited/total.")
    return tuple(out)


def undefined_note(step: OrderStep) -> str:
    """What happens to an order the candidate has no n-grams of (p_n = 0/0)."""
    then = ("no n-gram matches at all, so sacrebleu counts it as 0 and BLEU is 0"
            if step.status == NOTHING else
            "effective order drops it" if not step.used else
            "without effective order sacrebleu counts it as 0" if step.precision == 0
            else "add-k makes it a number")
    return f"The candidate has no {step.order}-grams: p_{step.order} = 0/0 is undefined; {then}."


def _no_match_note(walk: Walkthrough) -> str:
    """Why no smoothing or effective order applies when no unigram matches."""
    if not walk.tokens:
        return ("The candidate is empty: every p_n is 0/0. sacrebleu returns BLEU = 0 as soon "
                "as no n-gram matches, before smoothing and effective order are applied, and "
                "reports every p_n as 0.")
    return ("No candidate word is in any reference, so no longer n-gram can match either: "
            "sacrebleu returns BLEU = 0 there, before smoothing and effective order are "
            "applied, and reports every p_n as 0.")


def ngram_frame(walk: Walkthrough, order: int) -> pd.DataFrame:
    """The n-gram table of one order, ready for ``st.dataframe`` (see ``NGRAM_HELP``)."""
    rows = walk.tables[order - 1]
    return pd.DataFrame({
        "n-gram": [r.ngram for r in rows],
        "count": [r.count for r in rows],
        "max ref count": [r.max_ref_count for r in rows],
        "from ref": [r.reference for r in rows],
        "credited": [r.clipped for r in rows],
    }).astype({"from ref": "Int64"})


#: what each column of ``ngram_frame`` means (the page's column help and caption)
NGRAM_HELP = {
    "count": "How often the candidate has this n-gram.",
    "max ref count": "The most times any ONE reference has it (counts are not added up "
                     "across references).",
    "from ref": "Which reference has that many (the first such one); empty when none has it.",
    "credited": "min(count, max ref count): the candidate's count clipped to what one "
                "reference supports.",
}


def orders_frame(walk: Walkthrough) -> pd.DataFrame:
    """p_n, w_n, log p_n and w_n·log p_n per order, one row each, as the page shows them
    (text, with the formatters the formula uses)."""
    return pd.DataFrame({
        "n": [s.order for s in walk.orders],
        "credited/total": [s.raw_text for s in walk.orders],
        "p_n used": [s.used_text for s in walk.orders],
        "how": [s.note for s in walk.orders],
        "w_n": [s.weight_text for s in walk.orders],
        "log p_n": [s.log_text for s in walk.orders],
        "w_n·log p_n": [s.weighted_text for s in walk.orders],
    })


@dataclass(frozen=True)
class SmoothingRow:
    """One (smoothing, effective order) setting for the same sentence."""

    smooth_method: str
    smooth_value: float | None
    effective_order: bool
    score: float
    precisions: tuple[float | None, ...]  # p_n used, in percent (None: undefined, dropped)
    labels: tuple[str, ...]  # p_n used as the page shows them ("0/0 → 0", "undefined")
    note: str  # a short word on what decides the score ("" when nothing special)


def _short_note(walk: Walkthrough) -> str:
    first = walk.orders[0]
    if first.status == NOTHING:
        return "no match at all: 0"
    zero = [s for s in walk.orders if s.used and s.weight > 0 and s.precision == 0]
    if zero:
        s = zero[0]
        what = f"p_{s.order} = 0/0 → 0" if s.status == UNDEFINED else f"p_{s.order} = 0"
        return f"{what}: log 0 = −∞"
    dropped = [s.order for s in walk.orders if not s.used]
    if dropped:
        return f"n ≥ {dropped[0]} dropped (0/0)"
    if walk.options.smooth_method == "add-k" and any(
            s.total == 0 and s.order > 1 for s in walk.orders):
        return "add-k: 0/0 becomes 1"
    if any(s.status == SMOOTHED for s in walk.orders):
        return "zeros smoothed"
    return ""


def _short_label(step: OrderStep) -> str:
    if step.status == UNDEFINED:
        return "0/0 → 0" if step.used else "undefined"
    return fmt_percent(100 * (step.precision or 0.0))


def smoothing_comparison(hypothesis: str, references: Sequence[str | None], *,
                         tokenize: str = "13a", lowercase: bool = False,
                         max_ngram_order: int = 4,
                         weights: Sequence[float] | None = None) -> tuple[SmoothingRow, ...]:
    """The sentence under every smoothing (none, floor, add-k, exp) x effective order off/on,
    each with sacrebleu's default smoothing value."""
    rows = []
    for method in SMOOTH_METHODS:
        for effective in (False, True):
            walk = walkthrough(hypothesis, references, tokenize=tokenize, lowercase=lowercase,
                               smooth_method=method, max_ngram_order=max_ngram_order,
                               effective_order=effective, weights=weights)
            rows.append(SmoothingRow(
                method, walk.options.resolved_smooth_value, effective, walk.score,
                tuple(None if s.precision is None else 100 * s.precision for s in walk.orders),
                tuple(_short_label(s) for s in walk.orders), _short_note(walk)))
    return tuple(rows)


def smoothing_frame(rows: Sequence[SmoothingRow]) -> pd.DataFrame:
    """``smoothing_comparison`` as the page shows it: BLEU with 2 decimals, each p_n used in
    percent with 2 (the walkthrough's formatters), one column per order, a short note."""
    order = max((len(r.labels) for r in rows), default=0)
    return pd.DataFrame([{
        "smoothing": r.smooth_method,
        "value": "" if r.smooth_value is None else fmt_count(r.smooth_value),
        "effective order": "on" if r.effective_order else "off",
        "BLEU": fmt_score(r.score),
        **{f"p_{n + 1}": label for n, label in enumerate(r.labels)},
        "note": r.note,
    } for r in rows], columns=["smoothing", "value", "effective order", "BLEU",
                               *(f"p_{n}" for n in range(1, order + 1)), "note"])


def order_sweep(hypothesis: str, references: Sequence[str | None], *, max_order: int = 4,
                **options: object) -> tuple[tuple[int, float], ...]:
    """(N, score) for N = 1..max_order with uniform weights: how the choice of N moves BLEU."""
    return tuple(
        (n, walkthrough(hypothesis, references, max_ngram_order=n, **options).score)  # type: ignore[arg-type]
        for n in range(1, max_order + 1)
    )

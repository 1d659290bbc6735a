"""BLEU step by step for one candidate: n-gram tables, p_n, weights, logs, BP, the formula.

Every number follows sacrebleu's sentence BLEU (``bleu.sentence_bleu``): with uniform weights the
``score`` equals it (to float rounding, ~1e-12) under every smoothing and effective-order setting.
Custom weights ``w_n`` are our extension: they are normalized to sum to 1, and under effective
order renormalized over the orders that are used.

What a student reads must agree wherever a number appears, so every quantity has ONE formatter
here (``fmt_*``, each a rule of ``bleu.display.formatting``) and the tables, tab labels, formula
and chart labels are all built with it: p_n as an exact fraction and a percentage with 2
decimals, logs and weights with 4 decimals, BP and the geometric mean with 4, BLEU with 2 (as
sacrebleu prints it) and on the article's 0-1 scale with 4. An order the candidate has no
n-grams of has p_n = 0/0, which is undefined, and is shown so: effective order drops it; without
effective order sacrebleu counts it as 0, and the text says that too.

Two presets name the settings a teacher starts from (``presets``): the article's formula
(Papineni et al. 2002: N = 4, w_n = 1/N, no smoothing) and sacrebleu's sentence-BLEU defaults
(exp smoothing, effective order).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from ..display.formatting import FACTOR, PLAIN, SCORE, NumberFormat
from ..errors import InputError, UnknownOptionError
from ..i18n import tr
from ..metrics.bleu.explain import Explanation, explain
from ..metrics.bleu.score import SMOOTH_DEFAULTS, BLEUOptions

#: The classic clipping example (Papineni et al. 2002): "the" seven times, credited only twice.
CLASSIC_CANDIDATE = "the the the the the the the"
CLASSIC_REFERENCES = ("the cat is on the mat", "there is a cat on the mat")
SMOOTH_METHODS = tuple(SMOOTH_DEFAULTS)
#: sentence BLEU's defaults in sacrebleu (``sentence_bleu``)
SENTENCE_DEFAULTS = BLEUOptions(smooth_method="exp", effective_order=True)
#: the formula of the article (Papineni et al. 2002): N = 4, w_n = 1/N, no smoothing, no
#: effective order; what How BLEU works starts with
ARTICLE_FORMULA = BLEUOptions(smooth_method="none", effective_order=False)

#: how p_n came about (``OrderStep.status``)
MATCHED = "matched"  # credited/total, or add-k's (credited + k)/(total + k)
SMOOTHED = "smoothed"  # no match: exp or floor smoothing replaced the 0
ZERO = "zero"  # no match and no smoothing: p_n = 0
UNDEFINED = "undefined"  # no n-grams of this order: 0/0
NOTHING = "nothing"  # no candidate word in any reference: BLEU is 0 before any smoothing


#: a precision in percent; a log, a weight (4 decimals)
PERCENT, LOG = NumberFormat(2), NumberFormat(4)


def fmt_percent(value: float) -> str:
    """A precision in percent, as every place on the page shows it (2 decimals)."""
    return PERCENT.text(value) + "%"


def fmt_count(value: float) -> str:
    """A (possibly smoothed) count: ``2``, ``0.1``, ``1.5`` (``PLAIN``)."""
    return PLAIN.text(value)


def fmt_log(value: float) -> str:
    """A log or weighted log (4 decimals; −∞ for log 0)."""
    return "−∞" if value == -math.inf else LOG.text(value)


def fmt_weight(value: float) -> str:
    """A weight w_n (4 decimals)."""
    return LOG.text(value)


def fmt_factor(value: float) -> str:
    """BP and the geometric mean (``BP`` and ``FACTOR``: both 4 decimals)."""
    return FACTOR.text(value)


def fmt_score(value: float) -> str:
    """BLEU (``SCORE``: 2 decimals, as sacrebleu and WMT print it)."""
    return SCORE.text(value)


def fmt_unit(score: float) -> str:
    """BLEU on the article's scale, 0 to 1 (``score`` is x100): 4 decimals, as BP."""
    return FACTOR.text(score / 100)


@dataclass(frozen=True)
class Preset:
    """A named set of this page's sentence-BLEU settings, and what it is."""

    key: str
    name: str
    description: str
    options: BLEUOptions

    def matches(self, options: BLEUOptions, weights: Sequence[float] | None = None) -> bool:
        """Whether ``options`` (N, smoothing and its value, effective order) and uniform
        ``weights`` are this preset's."""
        uniform = weights is None or len(set(weights)) == 1
        mine = self.options
        return uniform and (options.max_ngram_order, options.smooth_method,
                            options.resolved_smooth_value, options.effective_order) == (
            mine.max_ngram_order, mine.smooth_method, mine.resolved_smooth_value,
            mine.effective_order)


def presets() -> tuple[Preset, ...]:
    """The article's formula and sacrebleu's sentence-BLEU defaults, in the interface's
    language."""
    return (
        Preset("article", tr("The article's formula"),
               tr("BLEU as Papineni et al. (2002) define it: N = 4, w_n = 1/N, no smoothing, "
                  "no effective order. A p_n of 0 makes the geometric mean, and BLEU, 0."),
               ARTICLE_FORMULA),
        Preset("sacrebleu", tr("sacrebleu's sentence-BLEU defaults"),
               tr("What sacrebleu.sentence_bleu (and bleu.sentence_bleu) compute: N = 4, "
                  "w_n = 1/N, exp smoothing (a zero count becomes 1/2, 1/4, ... of the "
                  "n-grams), effective order on. Not the article's formula: a sentence "
                  "with no matching 4-gram still gets a score above 0."),
               SENTENCE_DEFAULTS),
    )


def preset_of(options: BLEUOptions, weights: Sequence[float] | None = None) -> Preset | None:
    """The preset these settings are, or None (custom settings)."""
    return next((p for p in presets() if p.matches(options, weights)), None)


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
            return tr("{fraction}: undefined").format(fraction=self.fraction)
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
            return tr("0 ({fraction} counted as 0)").format(fraction=self.fraction)
        if self.precision is None:
            return tr("undefined: dropped")
        return f"{self.used_fraction} = {fmt_percent(100 * self.precision)}"

    @property
    def log_text(self) -> str:
        log = self.log_precision
        return tr("undefined") if log is None else fmt_log(log)

    @property
    def weight_text(self) -> str:
        return fmt_weight(self.weight) if self.used else tr("dropped")

    @property
    def weighted_text(self) -> str:
        term = self.weighted_log
        return tr("dropped") if term is None else fmt_log(term)


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
            why = (tr("the candidate is empty") if self.orders[0].total == 0
                   else tr("no candidate word is in any reference"))
            return head + rf"&= 0 \quad\text{{({why})}}\end{{aligned}}"
        symbolic = [rf"{fmt_weight(s.weight)}\cdot\log{_latex_fraction(s)}" for s in self.summed]
        numeric = [_latex_number(s.weighted_log or 0.0) for s in self.summed]
        lines = [
            rf"&= {bp}\cdot\exp\big(" + latex_sum(symbolic) + r"\big)\cdot 100 \\ ",
            rf"&= {bp}\cdot\exp\big(" + latex_sum(numeric, signed=True) + r"\big)\cdot 100 \\ ",
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


def latex_sum(terms: list[str], signed: bool = False) -> str:
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
            tr("weights must be {order} non-negative numbers (one per n-gram order) with a "
               "positive sum, got {weights}.").format(order=order, weights=repr(list(weights)))
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
        why = tr("One reference: r is its length, {r}.").format(r=r)
    else:
        listed = ", ".join(tr("{length} (ref {k})").format(length=n, k=k) for k, n in given)
        closest = [k for k, n in given if abs(n - c) == abs(r - c)]
        why = tr("Reference lengths {listed}; r is the one closest to c = {c}").format(
            listed=listed, c=c)
        if len({n for k, n in given if k in closest}) > 1:
            why += tr(": a tie at distance {distance}, broken toward the shorter, {r} (ref "
                      "{k}).").format(distance=abs(r - c), r=r, k=chosen)
        else:
            why += tr(": {r} (ref {k}, |{c} − {r}| = {distance}).").format(
                r=r, k=chosen, c=c, distance=abs(c - r))
    bp = ex.bp
    if c == 0:
        why += " " + tr("The candidate is empty: BP = 0.")
    elif c < r:
        why += " " + tr("c < r, so BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(
            r=r, c=c, bp=fmt_factor(bp))
    else:
        why += " " + tr("c ≥ r, so there is no penalty: BP = 1.")
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
                             tr("no {n}-grams (0/0): dropped by effective order").format(n=n))
        return OrderStep(n, credited, total, 0.0, 1.0, weight, True, UNDEFINED,
                         tr("no {n}-grams (0/0): counted as 0").format(n=n))
    if num > 0:
        note = (tr("add-k: ({credited} + {k})/({total} + {k})").format(
                    credited=credited, total=total, k=fmt_count(value or 0))
                if method == "add-k" and n > 1 else f"{credited}/{total}")
        if method == "add-k" and n > 1 and total == 0:
            note += tr(", though no {n}-grams").format(n=n)
        return OrderStep(n, credited, total, num, den, weight, True, MATCHED, note)
    if method == "exp":
        return OrderStep(n, credited, total, 1.0, den * 2 ** (halvings + 1), weight, True,
                         SMOOTHED, tr("no match: exp smoothing, 1/(2^{power}·{total})").format(
                             power=halvings + 1, total=total))
    if method == "floor":
        return OrderStep(n, credited, total, float(value), den, weight, True,  # type: ignore[arg-type]
                         SMOOTHED, tr("no match: floor smoothing, {value}/{total}").format(
                             value=fmt_count(value or 0), total=total))
    return OrderStep(n, credited, total, 0.0, den, weight, True, ZERO,
                     tr("no match: p_n = 0 (no smoothing)"))


def _steps(ex: Explanation, weights: tuple[float, ...]) -> tuple[list[OrderStep], str | None]:
    """p_n per order exactly as sacrebleu computes them, with the note saying how."""
    options = ex.options
    method, value = options.smooth_method, options.resolved_smooth_value
    effective = options.effective_order
    if ex.orders[0].matches == 0:  # sacrebleu returns 0 (and p_n = 0) before smoothing
        steps = [OrderStep(s.order, s.matches, s.total, 0.0, float(max(s.total, 1)),
                           weights[s.order - 1], True, NOTHING, tr("no match at all: BLEU = 0"))
                 for s in ex.orders]
        what = (tr("The candidate is empty") if ex.orders[0].total == 0
                else tr("No candidate word is in any reference"))
        return steps, tr("{what}: BLEU is 0 whatever the smoothing.").format(what=what)
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
                tr("with effective order only orders 1..{used} are used, and the weights "
                   "given to them are all 0: {weights}.").format(
                    used=sum(s.used for s in steps), weights=repr(list(weights)))
            )
        steps = [replace(s, weight=s.weight / mass if s.used else 0.0) for s in steps]
    zero = [s for s in steps if s.used and s.weight > 0 and s.precision == 0]
    collapse = None
    if zero:
        first = zero[0]
        what = (tr("p_{n} = {fraction} is undefined and counted as 0").format(
                    n=first.order, fraction=first.fraction)
                if first.status == UNDEFINED else f"p_{first.order} = 0")
        collapse = tr("{what}; log 0 = −∞, so the geometric mean, and BLEU, collapse to 0. "
                      "Smoothing or effective order avoids that.").format(what=what)
    return steps, collapse


def no_reference() -> str:
    """What the teaching pages say when the References box holds nothing."""
    return tr("Give at least one reference (one per line).")


def require_reference(references: Sequence[str | None]) -> None:
    """Refuse typed references with none in them, in the words of the page (``explain`` itself
    words it for a programmer)."""
    if all(ref is None for ref in references):
        raise InputError(no_reference())


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


def walkthrough_with(hypothesis: str, references: Sequence[str | None], options: BLEUOptions,
                     weights: Sequence[float] | None = None) -> Walkthrough:
    """``walkthrough`` under ``options`` (tokenizer, case, N, smoothing, effective order)."""
    return walkthrough(hypothesis, references, tokenize=options.tokenize,
                       lowercase=options.lowercase, smooth_method=options.smooth_method,
                       smooth_value=options.smooth_value,
                       max_ngram_order=options.max_ngram_order,
                       effective_order=options.effective_order, weights=weights)


def tab_label(step: OrderStep) -> str:
    """The label of an order's tab: ``n = 1: p = 2/7 = 28.57%``, ``n = 4: p = 0/0, undefined``."""
    if not step.defined:
        return tr("n = {n}: p = {fraction}, undefined").format(n=step.order,
                                                               fraction=step.fraction)
    return tr("n = {n}: p = {text}").format(n=step.order, text=step.raw_text)


def notes(walk: Walkthrough) -> tuple[str, ...]:
    """Sentences explaining where add-k, effective order or an undefined p_n change a number.

    An empty candidate (or one with no word in any reference) gets ONE note: what every
    order and the score come to, said once (not once per order)."""
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
            out.append(tr("The candidate has no {n}-grams, so {names} would be 0/0. add-k adds "
                          "k = {k} to the matches and the totals of every order from 2 on, so "
                          "p_{n} = (0 + {k})/(0 + {k}) = 100%: sacrebleu does the same, although "
                          "there is nothing to match.").format(n=first.order, names=names, k=k))
        elif options.effective_order:
            used = [s.order for s in walk.orders if s.used]
            out.append(tr("The candidate has only {tokens} token(s): {names} = 0/0 is undefined. "
                          "Effective order drops it: the geometric mean runs over n = 1..{top} "
                          "with the weights rescaled to sum to 1.").format(
                tokens=len(walk.tokens), names=names, top=max(used, default=0)))
        else:
            out.append(tr("The candidate has only {tokens} token(s): {names} = 0/0 is "
                          "undefined. Without effective order sacrebleu counts it as 0, so "
                          "log 0 = −∞ and BLEU is 0; sentence BLEU turns effective order "
                          "on.").format(tokens=len(walk.tokens), names=names))
    if options.smooth_method == "add-k" and options.max_ngram_order > 1 and \
            any(s.status == MATCHED and s.order > 1 and s.total > 0 for s in walk.orders):
        k = fmt_count(options.resolved_smooth_value or 0)
        out.append(tr("add-k: for n ≥ 2, p_n = (matches + {k})/(total + {k}), so the p_n used "
                      "differ from the raw credited/total.").format(k=k))
    return tuple(out)


def undefined_note(step: OrderStep) -> str:
    """What happens to an order the candidate has no n-grams of (p_n = 0/0)."""
    then = (tr("no n-gram matches at all, so sacrebleu counts it as 0 and BLEU is 0")
            if step.status == NOTHING else
            tr("effective order drops it") if not step.used else
            tr("without effective order sacrebleu counts it as 0") if step.precision == 0
            else tr("add-k makes it a number"))
    return tr("The candidate has no {n}-grams: p_{n} = 0/0 is undefined; {then}.").format(
        n=step.order, then=then)


def _no_match_note(walk: Walkthrough) -> str:
    """Why no smoothing or effective order applies when no unigram matches."""
    if not walk.tokens:
        return tr("The candidate is empty: every p_n is 0/0. sacrebleu returns BLEU = 0 as soon "
                  "as no n-gram matches, before smoothing and effective order are applied, and "
                  "reports every p_n as 0.")
    return tr("No candidate word is in any reference, so no longer n-gram can match either: "
              "sacrebleu returns BLEU = 0 there, before smoothing and effective order are "
              "applied, and reports every p_n as 0.")


def ngram_frame(walk: Walkthrough, order: int) -> pd.DataFrame:
    """The n-gram table of one order, ready for ``st.dataframe`` (see ``ngram_help``)."""
    rows = walk.tables[order - 1]
    origin = tr("from ref")
    return pd.DataFrame({
        tr("n-gram"): [r.ngram for r in rows],
        tr("count"): [r.count for r in rows],
        tr("max ref count"): [r.max_ref_count for r in rows],
        origin: [r.reference for r in rows],
        tr("credited"): [r.clipped for r in rows],
    }).astype({origin: "Int64"})


def ngram_help() -> dict[str, str]:
    """What each column of ``ngram_frame`` means (the page's column help and caption)."""
    return {
        tr("count"): tr("How often the candidate has this n-gram."),
        tr("max ref count"): tr("The most times any ONE reference has it (counts are not added "
                                "up across references)."),
        tr("from ref"): tr("Which reference has that many (the first such one); empty when "
                           "none has it."),
        tr("credited"): tr("min(count, max ref count): the candidate's count clipped to what "
                           "one reference supports."),
    }


def orders_frame(walk: Walkthrough) -> pd.DataFrame:
    """p_n, w_n, log p_n and w_n·log p_n per order, one row each, as the page shows them
    (text, with the formatters the formula uses)."""
    return pd.DataFrame({
        "n": [s.order for s in walk.orders],
        tr("credited/total"): [s.raw_text for s in walk.orders],
        tr("p_n used"): [s.used_text for s in walk.orders],
        tr("how"): [s.note for s in walk.orders],
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
        return tr("no match at all: 0")
    zero = [s for s in walk.orders if s.used and s.weight > 0 and s.precision == 0]
    if zero:
        s = zero[0]
        what = f"p_{s.order} = 0/0 → 0" if s.status == UNDEFINED else f"p_{s.order} = 0"
        return f"{what}: log 0 = −∞"
    dropped = [s.order for s in walk.orders if not s.used]
    if dropped:
        return tr("n ≥ {n} dropped (0/0)").format(n=dropped[0])
    if walk.options.smooth_method == "add-k" and any(
            s.total == 0 and s.order > 1 for s in walk.orders):
        return tr("add-k: 0/0 becomes 1")
    if any(s.status == SMOOTHED for s in walk.orders):
        return tr("zeros smoothed")
    return ""


def _short_label(step: OrderStep) -> str:
    if step.status == UNDEFINED:
        return "0/0 → 0" if step.used else tr("undefined")
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
    smoothing, value, effective, note = (tr("smoothing"), tr("value"), tr("effective order"),
                                         tr("note"))
    return pd.DataFrame([{
        smoothing: r.smooth_method,
        value: "" if r.smooth_value is None else fmt_count(r.smooth_value),
        effective: tr("on") if r.effective_order else tr("off"),
        "BLEU": fmt_score(r.score),
        **{f"p_{n + 1}": label for n, label in enumerate(r.labels)},
        note: r.note,
    } for r in rows], columns=[smoothing, value, effective, "BLEU",
                               *(f"p_{n}" for n in range(1, order + 1)), note])


def order_sweep(hypothesis: str, references: Sequence[str | None], *, max_order: int = 4,
                **options: object) -> tuple[tuple[int, float], ...]:
    """(N, score) for N = 1..max_order with uniform weights: how the choice of N moves BLEU."""
    return tuple(
        (n, walkthrough(hypothesis, references, max_ngram_order=n, **options).score)  # type: ignore[arg-type]
        for n in range(1, max_order + 1)
    )

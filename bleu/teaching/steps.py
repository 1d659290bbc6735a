"""BLEU one step at a time: the tokens, each p_n, the geometric mean, the brevity penalty, the
score; each step with its formula, the same formula with the sentence's numbers in it, and the
number a student can predict before it is revealed.

Built from a ``Walkthrough`` (``bleu.teaching.breakdown``), so every number is the one the rest
of How BLEU works shows. Formulas are LaTeX made of numbers only (safe to render); the
explanations are plain text that may hold the candidate's words (escape them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..display.formatting import FACTOR
from ..i18n import tr
from .breakdown import (
    NOTHING,
    Walkthrough,
    fmt_count,
    fmt_factor,
    fmt_log,
    fmt_score,
    fmt_unit,
    fmt_weight,
    latex_sum,
)
from .exercises import Verdict, check_one, label


@dataclass(frozen=True)
class Prediction:
    """A number to predict before a step is revealed: the quantity (an exercise key: ``c``,
    ``p_2``, ``mean``, ``bp``, ``bleu``) and its true value."""

    key: str
    expected: float

    @property
    def label(self) -> str:
        return label(self.key)

    def check(self, text: str) -> Verdict:
        """The typed prediction against the true value (the exercises' tolerances)."""
        return check_one(self.key, text, self.expected)


@dataclass(frozen=True)
class Step:
    """One step of the formula: what it is, the formula, the formula with the numbers, and
    what to predict (None where there is nothing to compute)."""

    key: str
    title: str
    explanation: str
    formula: str  # LaTeX, symbols only
    worked: str  # LaTeX, with this sentence's numbers
    prediction: Prediction | None
    order: int | None = None  # the n-gram order whose table belongs to this step


def steps(walk: Walkthrough) -> tuple[Step, ...]:
    """The steps of ``walk``'s BLEU in the order of the formula. A candidate with no word in
    any reference (or none at all) gets one step for all its orders: BLEU is 0 there."""
    out = [_tokens(walk)]
    if walk.orders[0].status == NOTHING:
        out.append(Step("nothing", tr("No match at all"), walk.collapse or "",
                        r"p_1 = \frac{0}{t_1}", r"\mathrm{BLEU} = 0", None))
    else:
        out.extend(_precision(walk, n) for n in range(1, len(walk.orders) + 1))
        out.append(_mean(walk))
    out.append(_brevity(walk))
    out.append(_score(walk))
    return tuple(out)


def _tokens(walk: Walkthrough) -> Step:
    shown = " | ".join(walk.tokens) if walk.tokens else tr("(none)")
    return Step(
        "tokens", tr("The candidate's tokens"),
        tr("After tokenization ({tokenize}{case}) the candidate is: {tokens}").format(
            tokenize=walk.options.tokenize,
            case=tr(", lowercased") if walk.options.lowercase else "", tokens=shown),
        r"c = \text{" + tr("number of candidate tokens") + "}",
        f"c = {len(walk.tokens)}", Prediction("c", float(len(walk.tokens))))


def _precision(walk: Walkthrough, n: int) -> Step:
    step = walk.orders[n - 1]
    formula = (rf"p_{n} = \frac{{\sum_{{g}} \min(\mathrm{{count}}(g),\ "
               rf"\max_{{ref}} \mathrm{{count}}_{{ref}}(g))}}{{\sum_{{g}} \mathrm{{count}}(g)}}")
    raw = rf"p_{n} = \frac{{{step.credited}}}{{{step.total}}}"
    prediction = None
    if not step.defined:
        worked = raw + r" \quad\text{(" + tr("undefined") + ")}"
        if step.used and step.precision is not None:
            worked += rf" \to {FACTOR.text(step.precision)}"
            prediction = Prediction(f"p_{n}", step.precision)
    elif step.precision is not None and not math.isclose(step.precision,
                                                         step.credited / step.total):
        worked = (raw + rf" \to \frac{{{fmt_count(step.numerator or 0)}}}"
                  rf"{{{fmt_count(step.denominator or 1)}}} = {FACTOR.text(step.precision)}")
        prediction = Prediction(f"p_{n}", step.precision)
    else:
        worked = raw + f" = {FACTOR.text(step.precision or 0.0)}"
        prediction = Prediction(f"p_{n}", step.precision or 0.0)
    what = tr("Count each distinct {n}-gram of the candidate, clip the count to the most any "
              "one reference has, and divide the credited {n}-grams by all of the candidate's "
              "{n}-grams.").format(n=n)
    return Step(f"p_{n}", tr("{n}-gram precision p_{n}").format(n=n), f"{what} ({step.note})",
                formula, worked, prediction, order=n)


def _mean(walk: Walkthrough) -> Step:
    terms = [rf"{fmt_weight(s.weight)}\cdot\log {FACTOR.text(s.precision or 0)}"
             for s in walk.summed]
    head = r"\begin{aligned} &\exp\big(" + latex_sum(terms) + r"\big) \\ "
    if walk.log_sum == -math.inf:
        worked = head + r"&= \exp(-\infty) = 0 \end{aligned}"
        explanation = walk.collapse or ""
    else:
        worked = head + (rf"&= \exp({fmt_log(walk.log_sum)}) = "
                         rf"{fmt_factor(walk.geometric_mean)} \end{{aligned}}")
        explanation = tr("The weighted geometric mean of the p_n: with w_n = 1/N it is the "
                         "N-th root of their product, so one small p_n pulls it far down.")
    return Step("mean", tr("The geometric mean"), explanation,
                r"\exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)", worked,
                Prediction("mean", walk.geometric_mean))


def _brevity(walk: Walkthrough) -> Step:
    brevity = walk.brevity
    formula = (r"\mathrm{BP} = \begin{cases} 1 & c > r \\ e^{1 - r/c} & c \le r"
               r"\end{cases}")
    if brevity.c == 0:
        worked = rf"c = 0,\ r = {brevity.r}:\ \mathrm{{BP}} = 0"
    elif brevity.c < brevity.r:
        worked = (rf"c = {brevity.c},\ r = {brevity.r}:\ \mathrm{{BP}} = "
                  rf"e^{{1 - {brevity.r}/{brevity.c}}} = {fmt_factor(brevity.bp)}")
    else:
        worked = rf"c = {brevity.c} \ge r = {brevity.r}:\ \mathrm{{BP}} = 1"
    return Step("bp", tr("The brevity penalty"), brevity.reason, formula, worked,
                Prediction("bp", brevity.bp))


def _score(walk: Walkthrough) -> Step:
    explanation = tr("BLEU = BP × the geometric mean: {unit} on the article's 0–1 scale, "
                     "{score} when multiplied by 100 (as sacrebleu prints it).").format(
        unit=fmt_unit(walk.score), score=fmt_score(walk.score))
    return Step("bleu", tr("The score"), explanation,
                r"\mathrm{BLEU} = \mathrm{BP}\cdot\exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)",
                walk.latex, Prediction("bleu", walk.score))

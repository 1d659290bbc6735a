"""Exercises: a pair (or a small corpus) and the numbers a student computes for it by hand.

The student enters any of the clipped matches m_n, the candidate's n-grams t_n, the precisions
p_n, the lengths c and r, the brevity penalty BP and BLEU; ``check`` compares each answer with
the true value within a stated tolerance (``TOLERANCES``), names the first wrong step and says
why (a recognised mistake: no clipping, counts added across references, recall instead of
precision, r/c upside down, the arithmetic mean, a forgotten BP, sentence scores averaged...),
and ``worked_solution`` writes every step out with the numbers.

The true values are ``bleu.corpus_bleu`` (equal to sacrebleu's) on the exercise's pairs: for
one pair that is sentence BLEU under the exercise's options; for several, corpus BLEU, whose
counts are the sums of the sentences'. Ready exercises (``ready_exercises``) are real segments
of the bundled WMT22 English→German test set, easy to hard.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..display.formatting import FACTOR, SCORE
from ..errors import InputError
from ..i18n import tr
from ..metrics.bleu import corpus_bleu
from ..metrics.bleu.explain import Explanation, explain
from ..metrics.bleu.score import BLEUOptions
from .breakdown import (
    ARTICLE_FORMULA,
    SENTENCE_DEFAULTS,
    Walkthrough,
    fmt_count,
    fmt_factor,
    fmt_score,
    fmt_unit,
    require_reference,
    walkthrough_with,
)

#: how far an answer may be from the true value, per kind of number (counts: exact; p_n and
#: BP on the 0-1 scale; BLEU on the 0-100 scale): rounded intermediate values stay inside
TOLERANCES = {"count": 0.0, "precision": 0.005, "factor": 0.005, "score": 0.5}
#: what a student can be asked, besides the per-order m_n, t_n and p_n
LENGTHS = ("c", "r", "bp")
FINAL = "bleu"

RIGHT, WRONG, SKIPPED, UNREADABLE = "right", "wrong", "skipped", "unreadable"


def order_keys(order: int, *names: str) -> tuple[str, ...]:
    """``matches_1``, ``total_1``, ``p_1``, ... for orders 1..``order`` (``names``: which of
    ``matches``, ``total``, ``p``; all three by default), order by order."""
    kinds = names or ("matches", "total", "p")
    return tuple(f"{kind}_{n}" for n in range(1, order + 1) for kind in kinds)


def all_keys(order: int = 4) -> tuple[str, ...]:
    """Every quantity of a BLEU computation, in the order of the formula."""
    return (*order_keys(order), *LENGTHS, FINAL)


def kind_of(key: str) -> str:
    """``count``, ``precision``, ``factor`` or ``score``: how the answer is read and compared."""
    if key.startswith(("matches_", "total_")) or key in ("c", "r"):
        return "count"
    if key.startswith("p_"):
        return "precision"
    return "factor" if key in ("bp", "mean") else "score"


def _order(key: str) -> int:
    return int(key.rsplit("_", 1)[1])


def label(key: str) -> str:
    """What a quantity is, as the exercise form labels its box."""
    if key.startswith("matches_"):
        return tr("m_{n}: credited (clipped) {n}-grams").format(n=_order(key))
    if key.startswith("total_"):
        return tr("t_{n}: {n}-grams in the candidate").format(n=_order(key))
    if key.startswith("p_"):
        return tr("p_{n} = m_{n}/t_{n}").format(n=_order(key))
    return {"c": tr("c: candidate length (tokens)"), "r": tr("r: reference length (tokens)"),
            "bp": tr("BP: brevity penalty"), "bleu": tr("BLEU (0–100)"),
            "mean": tr("the geometric mean exp(Σ w_n log p_n)")}[key]


def tolerance_text() -> str:
    """The tolerances, in words, as the exercise form states them."""
    return tr("Counts (m_n, t_n, c, r) must be exact; p_n and BP may be {factor} off (on the "
              "0–1 scale; 2/7, 0.2857 and 28.57% are all read); BLEU may be {score} off on "
              "the 0–100 scale (an answer of 1 or less is read on the 0–1 scale when the "
              "score is above 1). A decimal comma is read as a decimal point.").format(
        factor=fmt_count(TOLERANCES["precision"]), score=fmt_count(TOLERANCES["score"]))


# --- the exercise and its solution -----------------------------------------------------------

@dataclass(frozen=True)
class Pair:
    """A candidate and its references."""

    hypothesis: str
    references: tuple[str, ...]


@dataclass(frozen=True)
class Exercise:
    """A pair (or several: a corpus), the options to score it with and what the student is
    asked; ``origin`` says where the text comes from."""

    key: str
    title: str
    lesson: str
    level: int
    pairs: tuple[Pair, ...]
    options: BLEUOptions
    asks: tuple[str, ...]
    origin: str

    @property
    def corpus(self) -> bool:
        """Whether the exercise is about corpus BLEU (several pairs)."""
        return len(self.pairs) > 1

    def focus(self, keys: Sequence[str]) -> Exercise:
        """The same exercise asking only the quantities of ``keys`` it asks (all of ``keys``
        when it asks none of them)."""
        kept = tuple(key for key in self.asks if key in keys)
        return replace(self, asks=kept or tuple(keys))


@dataclass(frozen=True)
class SentenceNumbers:
    """One pair's numbers, and the wrong numbers that common mistakes give."""

    explanation: Explanation
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    unclipped: tuple[int, ...]  # matches without clipping
    summed_clip: tuple[int, ...]  # clipped against the sum of the references' counts
    ref_totals: tuple[int, ...]  # n-grams of the reference whose length is r (for recall)
    score: float

    @property
    def c(self) -> int:
        return self.explanation.hyp_len

    @property
    def r(self) -> int:
        return self.explanation.ref_len

    @property
    def ref_lengths(self) -> tuple[int, ...]:
        return tuple(ref.length for ref in self.explanation.references if ref is not None)


@dataclass(frozen=True)
class Solution:
    """Every true number of an exercise (p_n as the score uses them, on the 0-1 scale; BLEU
    x100, as sacrebleu prints it)."""

    exercise: Exercise
    sentences: tuple[SentenceNumbers, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    c: int
    r: int
    bp: float
    score: float
    walk: Walkthrough | None  # one pair: every step (n-gram tables...); None for a corpus

    @property
    def order(self) -> int:
        return len(self.matches)

    @property
    def weights(self) -> tuple[float, ...]:
        return (1.0 / self.order,) * self.order

    def value(self, key: str) -> float:
        """The true value of a quantity (``matches_2``, ``p_1``, ``c``, ``bp``, ``bleu``)."""
        if key.startswith(("matches_", "total_", "p_")):
            n = _order(key) - 1
            table = {"matches": self.matches, "total": self.totals, "p": self.precisions}
            return float(table[key.rsplit("_", 1)[0]][n])
        return float({"c": self.c, "r": self.r, "bp": self.bp, "bleu": self.score}[key])

    def summed(self, name: str) -> tuple[int, ...]:
        """A per-order count (``unclipped``, ``summed_clip``, ``ref_totals``) over the pairs."""
        return tuple(sum(getattr(s, name)[n] for s in self.sentences)
                     for n in range(self.order))


def _sentence(pair: Pair, options: BLEUOptions) -> SentenceNumbers:
    require_reference(pair.references)
    ex = explain(pair.hypothesis, list(pair.references), tokenize=options.tokenize,
                 lowercase=options.lowercase, max_ngram_order=options.max_ngram_order)
    closest = ex.references[ex.ref_len_reference]
    order = options.max_ngram_order
    unclipped = tuple(sum(g.count for g in ex.ngrams[n] if g.max_ref_count > 0)
                      for n in range(order))
    summed_clip = tuple(sum(min(g.count, sum(g.ref_counts)) for g in ex.ngrams[n])
                        for n in range(order))
    ref_totals = tuple(max(closest.length - n, 0) for n in range(order))
    score = corpus_bleu([pair.hypothesis], [[ref] for ref in pair.references],
                        **_arguments(options)).score
    return SentenceNumbers(ex, tuple(s.matches for s in ex.orders),
                           tuple(s.total for s in ex.orders), unclipped, summed_clip,
                           ref_totals, score)


def _arguments(options: BLEUOptions) -> dict[str, object]:
    return {"tokenize": options.tokenize, "lowercase": options.lowercase,
            "smooth_method": options.smooth_method, "smooth_value": options.smooth_value,
            "max_ngram_order": options.max_ngram_order,
            "effective_order": options.effective_order}


def solve(exercise: Exercise) -> Solution:
    """The true numbers of ``exercise`` (``bleu.corpus_bleu`` on its pairs)."""
    options = exercise.options
    sentences = tuple(_sentence(pair, options) for pair in exercise.pairs)
    depth = max(len(pair.references) for pair in exercise.pairs)
    streams = [[pair.references[k] if k < len(pair.references) else None
                for pair in exercise.pairs] for k in range(depth)]
    found = corpus_bleu([pair.hypothesis for pair in exercise.pairs], streams,
                        **_arguments(options))
    walk = None
    if not exercise.corpus:
        walk = walkthrough_with(exercise.pairs[0].hypothesis, exercise.pairs[0].references,
                                options)
    return Solution(exercise, sentences, tuple(found.counts), tuple(found.totals),
                    tuple(p / 100 for p in found.precisions), found.sys_len, found.ref_len,
                    found.bp, found.score, walk)


# --- reading an answer --------------------------------------------------------------------------

_NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?"
_ANSWER = re.compile(rf"^\s*({_NUMBER})\s*(?:/\s*({_NUMBER}))?\s*(%?)\s*$")


@dataclass(frozen=True)
class Answer:
    """A typed answer read as a number on the quantity's own scale, and how it was read."""

    value: float
    note: str = ""


def parse_number(text: str) -> tuple[float, bool]:
    """``text`` as a number and whether it ended in %: ``2/7``, ``0.2857``, ``0,2857``,
    ``28.57%``; an InputError saying how to write one otherwise."""
    found = _ANSWER.match(text.replace("\u2212", "-"))
    if found is None:
        raise InputError(tr("“{text}” is not a number: write it as 2/7, 0.2857, 0,2857 or "
                            "28.57%.").format(text=text.strip()))
    value = float(found.group(1).replace(",", "."))
    if found.group(2) is not None:
        denominator = float(found.group(2).replace(",", "."))
        if denominator == 0:
            raise InputError(tr("“{text}” divides by 0.").format(text=text.strip()))
        value /= denominator
    return value, found.group(3) == "%"


def read_answer(key: str, text: str, expected: float) -> Answer:
    """``text`` as an answer for ``key``: a p_n over 1 written without % (and not as a
    fraction) is read as a percentage, p_n being at most 1; a BLEU of 1 or less, where the
    true score is above 1, is read on the article's 0-1 scale. ``note`` says when either
    happened."""
    value, percent = parse_number(text)
    kind = kind_of(key)
    if kind in ("precision", "factor"):
        if percent:
            return Answer(value / 100)
        if value > 1 and kind == "precision" and "/" not in text:
            return Answer(value / 100, tr("read as {value}%").format(value=fmt_count(value)))
        return Answer(value)
    if kind == "score" and not percent and abs(value) <= 1 < expected:
        return Answer(100 * value, tr("read on the 0–1 scale: {value} × 100 = {score}").format(
            value=fmt_count(value), score=SCORE.text(100 * value)))
    return Answer(value)


def _near(value: float, target: float, tolerance: float) -> bool:
    if math.isinf(target) or math.isinf(value):
        return value == target
    return abs(value - target) <= tolerance + 1e-12


# --- checking -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """One answer checked: its status (right, wrong, skipped, unreadable), the true value as
    the page writes it, and why it is wrong."""

    key: str
    label: str
    given: str
    value: float | None
    expected: float
    status: str
    why: str = ""
    note: str = ""

    @property
    def expected_text(self) -> str:
        return written(self.key, self.expected)


@dataclass(frozen=True)
class Feedback:
    """Every asked quantity's verdict, in the order of the formula."""

    verdicts: tuple[Verdict, ...]

    @property
    def answered(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.status != SKIPPED)

    @property
    def first_wrong(self) -> Verdict | None:
        """The first step (in the formula's order) that is wrong or unreadable."""
        return next((v for v in self.verdicts if v.status in (WRONG, UNREADABLE)), None)

    @property
    def all_right(self) -> bool:
        """Whether every asked quantity was answered, and right."""
        return bool(self.verdicts) and all(v.status == RIGHT for v in self.verdicts)

    def summary(self) -> str:
        """One sentence: how many are right, and the first step to fix."""
        right = sum(v.status == RIGHT for v in self.verdicts)
        first = self.first_wrong
        text = tr("{right} of {asked} right").format(right=right, asked=len(self.verdicts))
        if first is not None:
            return text + tr("; the first step to fix: {label}.").format(label=first.label)
        if right < len(self.verdicts):
            return text + tr("; the empty boxes are not checked.")
        return text + "."


def written(key: str, value: float) -> str:
    """A true value as the exercise writes it (counts as integers, p_n and BP with 4 decimals,
    BLEU with 2)."""
    kind = kind_of(key)
    if kind == "count":
        return str(round(value))
    return SCORE.text(value) if kind == "score" else FACTOR.text(value)


def check(solution: Solution, answers: Mapping[str, str]) -> Feedback:
    """Each asked quantity's answer (``answers``: key -> typed text; empty = not answered)
    against the solution, with why where it is wrong."""
    given: dict[str, float] = {}
    verdicts = []
    for key in solution.exercise.asks:
        text = (answers.get(key) or "").strip()
        expected = solution.value(key)
        if not text:
            verdicts.append(Verdict(key, label(key), "", None, expected, SKIPPED))
            continue
        try:
            answer = read_answer(key, text, expected)
        except InputError as error:
            verdicts.append(Verdict(key, label(key), text, None, expected, UNREADABLE,
                                    str(error)))
            continue
        given[key] = answer.value
        if _near(answer.value, expected, TOLERANCES[kind_of(key)]):
            verdicts.append(Verdict(key, label(key), text, answer.value, expected, RIGHT,
                                    note=answer.note))
        else:
            why = _why(solution, key, answer.value, given)
            verdicts.append(Verdict(key, label(key), text, answer.value, expected, WRONG, why,
                                    answer.note))
    return Feedback(tuple(verdicts))


def check_one(key: str, text: str, expected: float) -> Verdict:
    """One typed answer (a prediction) against ``expected``, with the tolerance of its kind;
    no diagnosis (there is no exercise around it)."""
    if not text.strip():
        return Verdict(key, label(key), "", None, expected, SKIPPED)
    try:
        answer = read_answer(key, text, expected)
    except InputError as error:
        return Verdict(key, label(key), text, None, expected, UNREADABLE, str(error))
    status = RIGHT if _near(answer.value, expected, TOLERANCES[kind_of(key)]) else WRONG
    return Verdict(key, label(key), text, answer.value, expected, status, note=answer.note)


# --- why an answer is wrong ---------------------------------------------------------------------

def _is(value: float, target: float, key: str) -> bool:
    return _near(value, target, TOLERANCES[kind_of(key)])


def _why(solution: Solution, key: str, value: float, given: Mapping[str, float]) -> str:
    if key.startswith("matches_"):
        return _why_matches(solution, _order(key), value)
    if key.startswith("total_"):
        return _why_total(solution, _order(key), value)
    if key.startswith("p_"):
        return _why_precision(solution, _order(key), value, given)
    if key == "c":
        return _why_c(solution, value)
    if key == "r":
        return _why_r(solution, value)
    if key == "bp":
        return _why_bp(solution, value)
    return _why_bleu(solution, value, given)


def _clipped_example(solution: Solution, n: int) -> str:
    """One clipped n-gram of order ``n`` in words ('"auf": 2 times in the candidate, at most 1
    in one reference: credited 1'), or ''."""
    for sentence in solution.sentences:
        for gram in sentence.explanation.ngrams[n - 1]:
            if gram.count > gram.max_ref_count > 0:
                return tr("“{gram}” is {count} times in the candidate and at most {most} "
                          "times in one reference, so it is credited {most}").format(
                    gram=gram.text, count=gram.count, most=gram.max_ref_count)
    return ""


def _why_matches(solution: Solution, n: int, value: float) -> str:
    truth = solution.matches[n - 1]
    if value == solution.summed("unclipped")[n - 1] != truth:
        return tr("That is the count without clipping: {example}. m_{n} = {truth}.").format(
            example=_clipped_example(solution, n), n=n, truth=truth)
    if value == solution.summed("summed_clip")[n - 1] != truth:
        return tr("The references' counts were added up. An n-gram is credited at most as "
                  "often as ONE reference has it (the maximum over the references, not the "
                  "sum): m_{n} = {truth}.").format(n=n, truth=truth)
    if value > solution.totals[n - 1]:
        return tr("m_{n} cannot be more than the candidate's {total} {n}-grams.").format(
            n=n, total=solution.totals[n - 1])
    return tr("Count each distinct {n}-gram of the candidate at most as often as one reference "
              "has it, and add up: m_{n} = {truth} (the worked solution lists them).").format(
        n=n, truth=truth)


def _why_total(solution: Solution, n: int, value: float) -> str:
    truth = solution.totals[n - 1]
    rule = tr("A candidate of c tokens has c − {n} + 1 {n}-grams").format(n=n)
    if solution.exercise.corpus:
        rule = tr("Each sentence of c_i tokens has c_i − {n} + 1 {n}-grams (none when it is "
                  "shorter than {n}), summed over the sentences").format(n=n)
    if n > 1 and value == solution.c:
        return tr("That is c, the number of tokens. {rule}: t_{n} = {truth}.").format(
            rule=rule, n=n, truth=truth)
    return tr("{rule}: t_{n} = {truth}.").format(rule=rule, n=n, truth=truth)


def _why_precision(solution: Solution, n: int, value: float,
                   given: Mapping[str, float]) -> str:
    m, t = solution.matches[n - 1], solution.totals[n - 1]
    truth = solution.precisions[n - 1]
    raw = m / t if t else 0.0
    options = solution.exercise.options
    mine_m, mine_t = given.get(f"matches_{n}"), given.get(f"total_{n}")
    if mine_m is not None and mine_t and _is(value, mine_m / mine_t, "p_1") and \
            (mine_m != m or mine_t != t):
        return tr("p_{n} follows from your m_{n} and t_{n}, but one of them is wrong: fix it "
                  "first.").format(n=n)
    ref_total = solution.summed("ref_totals")[n - 1]
    if ref_total and ref_total != t and _is(value, m / ref_total, "p_1"):
        return tr("That divides by the reference's {n}-grams: that is recall. BLEU's "
                  "precision divides by the candidate's: p_{n} = {m}/{t}.").format(n=n, m=m, t=t)
    if m and _is(value, t / m, "p_1"):
        return tr("Upside down: p_{n} = m_{n}/t_{n} = {m}/{t}.").format(n=n, m=m, t=t)
    if m == 0 and truth > 0 and _is(value, 0.0, "p_1"):
        return tr("No {n}-gram matches, but this exercise uses {method} smoothing: the 0 "
                  "becomes {truth} (see the worked solution).").format(
            n=n, method=options.smooth_method, truth=FACTOR.text(truth))
    if m == 0 and truth == 0 and value > 0:
        return tr("No {n}-gram of the candidate is in a reference, and the article's formula "
                  "does not smooth: p_{n} = 0/{t} = 0.").format(n=n, t=t)
    if not math.isclose(truth, raw) and _is(value, raw, "p_1"):
        return tr("That is m_{n}/t_{n} before smoothing; {method} smoothing makes it "
                  "{truth}.").format(n=n, method=options.smooth_method, truth=FACTOR.text(truth))
    return tr("p_{n} = m_{n}/t_{n} = {m}/{t} = {truth}.").format(n=n, m=m, t=t,
                                                               truth=FACTOR.text(truth))


def _why_c(solution: Solution, value: float) -> str:
    words = sum(len(pair.hypothesis.split()) for pair in solution.exercise.pairs)
    tokens = " | ".join(" | ".join(s.explanation.hypothesis_tokens) for s in solution.sentences)
    if value == words != solution.c:
        return tr("That counts the words between spaces. BLEU counts tokens after tokenization "
                  "({tokenize}): punctuation is a token of its own. The tokens: {tokens} "
                  "(c = {c}).").format(tokenize=solution.exercise.options.tokenize,
                                       tokens=tokens, c=solution.c)
    return tr("c is the number of candidate tokens: {tokens} (c = {c}).").format(
        tokens=tokens, c=solution.c)


def _why_r(solution: Solution, value: float) -> str:
    if solution.exercise.corpus:
        parts = " + ".join(str(s.r) for s in solution.sentences)
        firsts = sum(s.ref_lengths[0] for s in solution.sentences)
        extra = ""
        if value == firsts != solution.r:
            extra = tr("That sums the first references; ")
        return extra + tr("r sums each sentence's reference length closest to its own c: "
                          "{parts} = {r}.").format(parts=parts, r=solution.r)
    lengths = solution.sentences[0].ref_lengths
    c, r = solution.c, solution.r
    start = ""
    if len(lengths) > 1 and value in (min(lengths), max(lengths)) and value != r:
        start = tr("Not the shortest or the longest reference: ")
    elif len(lengths) > 1 and value == sum(lengths):
        start = tr("The lengths are not added: ")
    return start + tr("r is the length of the reference closest to c = {c} (the shorter one on "
                      "a tie); the references have {lengths} tokens, so r = {r}.").format(
        c=c, lengths=", ".join(str(n) for n in lengths), r=r)


def _why_bp(solution: Solution, value: float) -> str:
    c, r, truth = solution.c, solution.r, solution.bp
    if c >= r:
        return tr("c = {c} ≥ r = {r}: a candidate that is not shorter gets no penalty, "
                  "BP = 1.").format(c=c, r=r)
    if c and _is(value, math.exp(1 - c / r), "bp"):
        return tr("c and r are swapped: BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(
            r=r, c=c, bp=fmt_factor(truth))
    if c and _is(value, c / r, "bp"):
        return tr("That is c/r. BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(
            r=r, c=c, bp=fmt_factor(truth))
    if value > 1:
        return tr("BP is never more than 1: it only takes away. BP = exp(1 − r/c) = "
                  "exp(1 − {r}/{c}) = {bp}.").format(r=r, c=c, bp=fmt_factor(truth))
    if _is(value, 1.0, "bp"):
        return tr("c = {c} < r = {r}: the candidate is shorter, so BP = exp(1 − r/c) = "
                  "{bp}.").format(c=c, r=r, bp=fmt_factor(truth))
    return tr("BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(r=r, c=c,
                                                                   bp=fmt_factor(truth))


def _bleu_from(precisions: Sequence[float], bp: float, weights: Sequence[float]) -> float:
    if any(p <= 0 for p in precisions):
        return 0.0
    return 100 * bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(weights, precisions,
                                                                           strict=True)))


def _why_bleu(solution: Solution, value: float, given: Mapping[str, float]) -> str:
    truth, bp, weights = solution.score, solution.bp, solution.weights
    precisions = solution.precisions
    mean = _bleu_from(precisions, 1.0, weights)
    mine = [given.get(f"p_{n}", p) for n, p in enumerate(precisions, start=1)]
    wrong = [key for key in (*(f"p_{n}" for n in range(1, solution.order + 1)), "bp")
             if key in given and not _is(given[key], solution.value(key), key)]
    if wrong and _is(value, _bleu_from(mine, given.get("bp", bp), weights), "bleu"):
        return tr("Your last step is right for your own numbers; the error is earlier: "
                  "{keys}.").format(keys=", ".join(wrong))
    if truth == 0 and value > 0 and any(p == 0 for p in precisions):
        zero = next(n for n, p in enumerate(precisions, start=1) if p == 0)
        return tr("p_{n} = 0, and log 0 = −∞: the geometric mean is 0, so BLEU is 0 "
                  "(the article's formula has no smoothing; sacrebleu's sentence BLEU "
                  "smooths that 0 away).").format(n=zero)
    if _is(value, 100 * bp * math.fsum(precisions) / len(precisions), "bleu"):
        return tr("That is the arithmetic mean of the p_n. BLEU takes the geometric mean: "
                  "exp(Σ w_n log p_n), here {mean}.").format(mean=FACTOR.text(mean / 100))
    if bp < 1 and _is(value, mean, "bleu"):
        return tr("BP is missing: BLEU = BP × exp(Σ w_n log p_n) = {bp} × {mean} × 100 = "
                  "{score}.").format(bp=fmt_factor(bp), mean=FACTOR.text(mean / 100),
                                     score=fmt_score(truth))
    if all(p > 0 for p in precisions) and _is(value, 100 * bp * math.prod(precisions),
                                              "bleu"):
        return tr("That multiplies the p_n without taking the root: with w_n = 1/N, "
                  "exp(Σ w_n log p_n) is the N-th root of their product.")
    if solution.exercise.corpus:
        average = math.fsum(s.score for s in solution.sentences) / len(solution.sentences)
        if _is(value, average, "bleu"):
            return tr("That is the mean of the sentences' BLEU. Corpus BLEU adds up the "
                      "counts and lengths of all sentences first, then applies the formula "
                      "once: {score}.").format(score=fmt_score(truth))
    return tr("BLEU = BP × exp(Σ w_n log p_n) × 100 = {bp} × {mean} × 100 = {score}.").format(
        bp=fmt_factor(bp), mean=FACTOR.text(mean / 100), score=fmt_score(truth))


# --- the worked solution ------------------------------------------------------------------------

@dataclass(frozen=True)
class WorkedStep:
    """One step of the worked solution: a title and its lines (plain text holding the
    candidate's words: escape before rendering)."""

    title: str
    lines: tuple[str, ...]


def worked_solution(solution: Solution) -> tuple[WorkedStep, ...]:
    """Every step of the computation with the exercise's numbers, in the formula's order."""
    steps = [_tokens_step(solution)]
    for n in range(1, solution.order + 1):
        steps.append(_order_step(solution, n))
    steps.append(_brevity_step(solution))
    steps.append(_score_step(solution))
    return tuple(steps)


def _tokens_step(solution: Solution) -> WorkedStep:
    lines = []
    for k, sentence in enumerate(solution.sentences, start=1):
        tokens = " | ".join(sentence.explanation.hypothesis_tokens)
        prefix = tr("Sentence {k}: ").format(k=k) if solution.exercise.corpus else ""
        lines.append(prefix + tr("{tokens} ({c} tokens)").format(tokens=tokens, c=sentence.c))
    if solution.exercise.corpus:
        lines.append(tr("c = {parts} = {c}").format(
            parts=" + ".join(str(s.c) for s in solution.sentences), c=solution.c))
    else:
        lines.append(f"c = {solution.c}")
    return WorkedStep(tr("Tokens of the candidate (tokenizer {tokenize})").format(
        tokenize=solution.exercise.options.tokenize), tuple(lines))


def _order_step(solution: Solution, n: int) -> WorkedStep:
    lines = []
    for k, sentence in enumerate(solution.sentences, start=1):
        grams = sentence.explanation.ngrams[n - 1]
        credited = [f"“{g.text}” {g.credited}" + (f" ({g.count} → {g.credited})"
                                                   if g.count > g.credited > 0 else "")
                    for g in grams if g.credited]
        prefix = tr("Sentence {k}: ").format(k=k) if solution.exercise.corpus else ""
        lines.append(prefix + tr("credited: {grams}; m = {m}, t = {t}").format(
            grams=", ".join(credited) or tr("none"), m=sentence.matches[n - 1],
            t=sentence.totals[n - 1]))
        clipped = [g for g in grams if g.count > g.max_ref_count > 0]
        for gram in clipped:
            lines.append(tr("clipped: “{gram}” is {count} times in the candidate, at most {most} "
                            "in one reference (ref {k})").format(
                gram=gram.text, count=gram.count, most=gram.max_ref_count,
                k=(gram.best_reference or 0) + 1))
    m, t, p = solution.matches[n - 1], solution.totals[n - 1], solution.precisions[n - 1]
    if solution.exercise.corpus:
        lines.append(tr("m_{n} = {ms} = {m}; t_{n} = {ts} = {t}").format(
            n=n, ms=" + ".join(str(s.matches[n - 1]) for s in solution.sentences), m=m,
            ts=" + ".join(str(s.totals[n - 1]) for s in solution.sentences), t=t))
    raw = m / t if t else 0.0
    line = tr("p_{n} = m_{n}/t_{n} = {m}/{t}").format(n=n, m=m, t=t)
    if t and math.isclose(p, raw):
        line += f" = {FACTOR.text(p)}"
    elif solution.walk is not None:
        line += tr(" → {note}: {p}").format(note=solution.walk.orders[n - 1].note,
                                           p=FACTOR.text(p))
    else:
        line += tr(" → {method} smoothing: {p}").format(
            method=solution.exercise.options.smooth_method, p=FACTOR.text(p))
    lines.append(line)
    return WorkedStep(tr("Order {n}: clipped {n}-gram precision").format(n=n), tuple(lines))


def _brevity_step(solution: Solution) -> WorkedStep:
    c, r = solution.c, solution.r
    if solution.exercise.corpus:
        lines = [tr("Sentence {k}: c = {c}, reference lengths {lengths}, r = {r}").format(
            k=k, c=s.c, lengths=", ".join(str(n) for n in s.ref_lengths), r=s.r)
            for k, s in enumerate(solution.sentences, start=1)]
        lines.append(tr("r = {parts} = {r}").format(
            parts=" + ".join(str(s.r) for s in solution.sentences), r=r))
    else:
        lines = [solution.walk.brevity.reason] if solution.walk is not None else []
        lines.insert(0, f"c = {c}, r = {r}")
    if c >= r:
        lines.append(tr("c ≥ r: BP = 1"))
    else:
        lines.append(f"BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {fmt_factor(solution.bp)}")
    return WorkedStep(tr("Brevity penalty"), tuple(lines))


def _score_step(solution: Solution) -> WorkedStep:
    p, bp, weights = solution.precisions, solution.bp, solution.weights
    terms = " + ".join(f"{FACTOR.text(w)}·log {FACTOR.text(x)}" for w, x in zip(
        weights, p, strict=True))
    lines = []
    if any(x == 0 for x in p):
        zero = next(n for n, x in enumerate(p, start=1) if x == 0)
        lines.append(tr("p_{n} = 0 and log 0 = −∞: exp(Σ w_n log p_n) = 0, so BLEU = 0").format(
            n=zero))
    else:
        total = math.fsum(w * math.log(x) for w, x in zip(weights, p, strict=True))
        lines.append(f"Σ w_n log p_n = {terms} = {FACTOR.text(total)}")
        lines.append(tr("geometric mean = exp({total}) = {mean}").format(
            total=FACTOR.text(total), mean=FACTOR.text(math.exp(total))))
        lines.append(tr("BLEU = BP × geometric mean = {bp} × {mean} = {unit}").format(
            bp=fmt_factor(bp), mean=FACTOR.text(math.exp(total)),
            unit=fmt_unit(solution.score)))
    lines.append(tr("BLEU = {unit} on the article's 0–1 scale; × 100: {score} (as sacrebleu "
                    "prints it)").format(unit=fmt_unit(solution.score),
                                         score=fmt_score(solution.score)))
    if solution.exercise.corpus:
        scores = [s.score for s in solution.sentences]
        lines.append(tr("The sentences' own BLEU: {scores}; their mean, {mean}, is not the "
                        "corpus BLEU: the corpus adds the counts first.").format(
            scores=", ".join(fmt_score(s) for s in scores),
            mean=fmt_score(math.fsum(scores) / len(scores))))
    return WorkedStep(tr("The score"), tuple(lines))


# --- ready exercises ------------------------------------------------------------------------------

#: the bundled test set (sample_data/): WMT22 generaltest2022 English→German
SAMPLE_PREFIX = "generaltest2022.en-de"


@dataclass(frozen=True)
class ReadySpec:
    """Where a ready exercise's text is in the bundled test set, and what it asks."""

    key: str
    level: int
    system: str
    segments: tuple[int, ...]  # 1-based lines
    references: str  # reference letters, "A" or "AB"
    preset: str  # "article" or "sacrebleu"
    asks: tuple[str, ...]


READY = (
    ReadySpec("clipping", 1, "Lan-Bridge", (1099,), "A", "article", order_keys(4)),
    ReadySpec("zero", 2, "Lan-Bridge", (232,), "A", "article",
              (*order_keys(4, "p"), FINAL)),
    ReadySpec("smoothing", 3, "Lan-Bridge", (232,), "A", "sacrebleu", ("p_4", FINAL)),
    ReadySpec("brevity", 3, "Lan-Bridge", (1503,), "A", "article", (*LENGTHS, FINAL)),
    ReadySpec("references", 4, "JDExploreAcademy", (279,), "AB", "article",
              (*order_keys(4, "matches"), "r", "bp", FINAL)),
    ReadySpec("corpus", 5, "Lan-Bridge", (1099, 232, 1503), "A", "article",
              (*order_keys(4, "matches", "total"), *LENGTHS, FINAL)),
)


def _texts(spec: ReadySpec) -> tuple[str, str]:
    """The title and the lesson of a ready exercise, in the interface's language."""
    return {
        "clipping": (tr("1. Clipping"), tr(
            "The candidate says “auf” twice, the reference once: count every n-gram, then "
            "clip each to what the reference holds.")),
        "zero": (tr("2. A zero precision and the geometric mean"), tr(
            "No 4-gram of the candidate is in the reference. In the article's formula one "
            "p_n of 0 makes the geometric mean, and BLEU, 0.")),
        "smoothing": (tr("3. Smoothing"), tr(
            "The same pair under sacrebleu's sentence-BLEU defaults: exp smoothing replaces "
            "the 0 of p_4 by 1/(2·t_4), and BLEU is no longer 0.")),
        "brevity": (tr("4. Brevity"), tr(
            "A short, precise candidate: every precision is high, and the brevity penalty "
            "takes it back.")),
        "references": (tr("5. Several references"), tr(
            "Against reference A alone no 3-gram matches and BLEU is 0; with reference B "
            "too, each n-gram is credited by the reference that has it most, and r is the "
            "length closest to c.")),
        "corpus": (tr("6. One sentence against a corpus"), tr(
            "The three sentences of exercises 1, 2 and 4 as one corpus: add up m_n, t_n, c "
            "and r first, then apply the formula once. Sentence 2 alone scores 0; the "
            "corpus does not.")),
    }[spec.key]


def _lines(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except OSError as error:
        raise InputError(tr("{path}: cannot read the bundled test set ({error}).").format(
            path=path, error=error)) from error
    return lines[:-1] if lines and lines[-1] == "" else lines


def ready_exercises(folder: str | Path) -> tuple[Exercise, ...]:
    """The ready exercises, easy to hard, on the bundled test set in ``folder``
    (sample_data/): real system outputs and references, tokenizer 13a, case-sensitive."""
    root = Path(folder)
    presets = {"article": ARTICLE_FORMULA, "sacrebleu": SENTENCE_DEFAULTS}
    out = []
    for spec in READY:
        hyps = _lines(root / f"{SAMPLE_PREFIX}.hyp.{spec.system}.de")
        refs = {letter: _lines(root / f"{SAMPLE_PREFIX}.ref.{letter}.de")
                for letter in spec.references}
        pairs = tuple(Pair(hyps[line - 1], tuple(refs[k][line - 1] for k in spec.references))
                      for line in spec.segments)
        title, lesson = _texts(spec)
        origin = tr("WMT22 generaltest2022 English→German: {system}'s output, segment(s) "
                    "{segments}; reference(s) {references}").format(
            system=spec.system, segments=", ".join(str(s) for s in spec.segments),
            references=", ".join(spec.references))
        out.append(Exercise(spec.key, title, lesson, spec.level, pairs, presets[spec.preset],
                            spec.asks, origin))
    return tuple(out)


def own_exercise(hypothesis: str, references: Sequence[str], options: BLEUOptions,
                 asks: Sequence[str] | None = None) -> Exercise:
    """An exercise on the student's own pair, scored with ``options``; every quantity asked
    unless ``asks`` says which."""
    pair = Pair(hypothesis, tuple(references))
    require_reference(pair.references)
    return Exercise("own", tr("Your own pair"), tr("The pair you typed."), 0, (pair,), options,
                    tuple(asks or all_keys(options.max_ngram_order)), tr("typed in"))

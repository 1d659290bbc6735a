"""Why an answer is wrong: each quantity's common mistakes, recognised by the number they give
(no clipping, the references' counts added up, only the first reference read, recall instead
of precision, c and r swapped, BP without exp, log10 instead of ln, the arithmetic mean, a
forgotten BP, sentence scores averaged...), each named with the right computation; otherwise
the computation itself, with the exercise's numbers."""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...display.formatting import FACTOR
from ...i18n import tr
from ..breakdown import fmt_factor, fmt_score
from ..option_names import smoothing_name
from .answers import is_value
from .quantities import MEAN, order_of
from .solution import Solution, geometric_mean


def why(solution: Solution, key: str, value: float, given: Mapping[str, float]) -> str:
    """Why ``value`` is not the right ``key`` of ``solution``; ``given``: every answer the
    student gave, read as numbers (a later step can show that an earlier one is wrong)."""
    if key.startswith("matches_"):
        return _matches(solution, order_of(key), value)
    if key.startswith("total_"):
        return _total(solution, order_of(key), value)
    if key.startswith("p_"):
        return _precision(solution, order_of(key), value, given)
    if key == "c":
        return _c(solution, value, given)
    if key == "r":
        return _r(solution, value, given)
    if key == "bp":
        return _bp(solution, value, given)
    if key == MEAN:
        return _mean(solution, value)
    return _bleu(solution, value, given)


def _only_first(solution: Solution, key: str, value: float) -> bool:
    """Whether ``value`` is what ``key`` comes to against each pair's first reference alone
    (and that differs from the truth)."""
    first = solution.first_reference
    return first is not None and not is_value(key, first.value(key), solution.value(key)) \
        and is_value(key, value, first.value(key))


def _first_only_text() -> str:
    return tr("That counts reference A alone. With several references every n-gram is "
              "credited as often as the reference that has it most often, A or another, and r "
              "is the reference length closest to c.")


def _clipped_example(solution: Solution, n: int) -> str:
    """One clipped n-gram of order ``n`` in words, or ''."""
    for sentence in solution.sentences:
        for gram in sentence.explanation.ngrams[n - 1]:
            if gram.count > gram.max_ref_count > 0:
                return tr("“{gram}” is {count} times in the candidate and at most {most} "
                          "times in one reference, so it is credited {most}").format(
                    gram=gram.text, count=gram.count, most=gram.max_ref_count)
    return ""


def _matches(solution: Solution, n: int, value: float) -> str:
    truth = solution.matches[n - 1]
    if value == solution.summed("unclipped")[n - 1] != truth:
        return tr("That is the count without clipping: {example}. m_{n} = {truth}.").format(
            example=_clipped_example(solution, n), n=n, truth=truth)
    if value == solution.summed("summed_clip")[n - 1] != truth:
        return tr("The references' counts were added up. An n-gram is credited at most as "
                  "often as ONE reference has it (the maximum over the references, not the "
                  "sum): m_{n} = {truth}.").format(n=n, truth=truth)
    if _only_first(solution, f"matches_{n}", value):
        return _first_only_text() + " " + tr("m_{n} = {truth}.").format(n=n, truth=truth)
    if value > solution.totals[n - 1]:
        return tr("m_{n} cannot be more than the candidate's {total} {n}-grams.").format(
            n=n, total=solution.totals[n - 1])
    return tr("Count each distinct {n}-gram of the candidate at most as often as one reference "
              "has it, and add up: m_{n} = {truth} (the worked solution lists them).").format(
        n=n, truth=truth)


def _total(solution: Solution, n: int, value: float) -> str:
    truth = solution.totals[n - 1]
    rule = tr("A candidate of c tokens has c − {n} + 1 {n}-grams").format(n=n)
    if solution.exercise.corpus:
        rule = tr("Each sentence of c_i tokens has c_i − {n} + 1 {n}-grams (none when it is "
                  "shorter than {n}), summed over the sentences").format(n=n)
    if n > 1 and value == solution.c:
        return tr("That is c, the number of tokens. {rule}: t_{n} = {truth}.").format(
            rule=rule, n=n, truth=truth)
    return tr("{rule}: t_{n} = {truth}.").format(rule=rule, n=n, truth=truth)


def _precision(solution: Solution, n: int, value: float, given: Mapping[str, float]) -> str:
    m, t = solution.matches[n - 1], solution.totals[n - 1]
    truth = solution.precisions[n - 1]
    raw = m / t if t else 0.0
    method = smoothing_name(solution.exercise.options.smooth_method)
    mine_m, mine_t = given.get(f"matches_{n}"), given.get(f"total_{n}")
    if mine_m is not None and mine_t and is_value("p_1", value, mine_m / mine_t) and \
            (mine_m != m or mine_t != t):
        return tr("p_{n} follows from your m_{n} and t_{n}, but one of them is wrong: fix it "
                  "first.").format(n=n)
    ref_total = solution.summed("ref_totals")[n - 1]
    if ref_total and ref_total != t and is_value("p_1", value, m / ref_total):
        return tr("That divides by the reference's {n}-grams: that is recall. BLEU's "
                  "precision divides by the candidate's: p_{n} = {m}/{t}.").format(n=n, m=m, t=t)
    if m and is_value("p_1", value, t / m):
        return tr("Upside down: p_{n} = m_{n}/t_{n} = {m}/{t}.").format(n=n, m=m, t=t)
    if _only_first(solution, f"p_{n}", value):
        return _first_only_text() + " " + tr("p_{n} = {m}/{t}.").format(n=n, m=m, t=t)
    if m == 0 and truth > 0 and is_value("p_1", value, 0.0):
        return tr("No {n}-gram matches, but this exercise uses smoothing {method}: the 0 "
                  "becomes {truth} (see the worked solution).").format(
            n=n, method=method, truth=FACTOR.text(truth))
    if m == 0 and truth == 0 and value > 0:
        return tr("No {n}-gram of the candidate is in a reference, and the article's formula "
                  "does not smooth: p_{n} = 0/{t} = 0.").format(n=n, t=t)
    if not math.isclose(truth, raw) and is_value("p_1", value, raw):
        return tr("That is m_{n}/t_{n} before smoothing; smoothing {method} makes it "
                  "{truth}.").format(n=n, method=method, truth=FACTOR.text(truth))
    return tr("p_{n} = m_{n}/t_{n} = {m}/{t} = {truth}.").format(n=n, m=m, t=t,
                                                               truth=FACTOR.text(truth))


def _swapped(solution: Solution, given: Mapping[str, float]) -> bool:
    """Whether the c box holds r and the r box holds c."""
    c, r = solution.c, solution.r
    return c != r and given.get("c") == r and given.get("r") == c


def _swapped_text(solution: Solution) -> str:
    return tr("c and r are swapped: c is the candidate's length ({c} tokens), r the "
              "reference's ({r}).").format(c=solution.c, r=solution.r)


def _c(solution: Solution, value: float, given: Mapping[str, float]) -> str:
    words = sum(len(pair.hypothesis.split()) for pair in solution.exercise.pairs)
    tokens = " | ".join(" | ".join(s.explanation.hypothesis_tokens) for s in solution.sentences)
    if _swapped(solution, given):
        return _swapped_text(solution)
    if value == words != solution.c:
        return tr("That counts the words between spaces. BLEU counts tokens after tokenization "
                  "({tokenize}): punctuation is a token of its own. The tokens: {tokens} "
                  "(c = {c}).").format(tokenize=solution.exercise.options.tokenize,
                                       tokens=tokens, c=solution.c)
    if value == solution.r != solution.c:
        return tr("That is r, the reference's length. c is the number of candidate tokens: "
                  "{tokens} (c = {c}).").format(tokens=tokens, c=solution.c)
    return tr("c is the number of candidate tokens: {tokens} (c = {c}).").format(
        tokens=tokens, c=solution.c)


def _r(solution: Solution, value: float, given: Mapping[str, float]) -> str:
    if _swapped(solution, given):
        return _swapped_text(solution)
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
    if len(lengths) > 1 and value == lengths[0] != r:
        start = tr("That is reference A's length alone. ")
    elif len(lengths) > 1 and value in (min(lengths), max(lengths)) and value != r:
        start = tr("Not the shortest or the longest reference: ")
    elif len(lengths) > 1 and value == sum(lengths):
        start = tr("The lengths are not added: ")
    elif value == c != r:
        start = tr("That is c, the candidate's length. ")
    return start + tr("r is the length of the reference closest to c = {c} (the shorter one on "
                      "a tie); the references have {lengths} tokens, so r = {r}.").format(
        c=c, lengths=", ".join(str(n) for n in lengths), r=r)


def brevity_penalty(c: float, r: float) -> float:
    """BP = 1 when c ≥ r, else exp(1 − r/c) (0 for an empty candidate)."""
    if c >= r:
        return 1.0
    return math.exp(1 - r / c) if c > 0 else 0.0


def _bp(solution: Solution, value: float, given: Mapping[str, float]) -> str:
    c, r, truth = solution.c, solution.r, solution.bp
    formula = tr("BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(
        r=r, c=c, bp=fmt_factor(truth))
    mine_c, mine_r = given.get("c"), given.get("r")
    if mine_c is not None and mine_r is not None and (mine_c, mine_r) != (c, r) and \
            is_value("bp", value, brevity_penalty(mine_c, mine_r)):
        wrong = ", ".join(key for key, mine, right in (("c", mine_c, c), ("r", mine_r, r))
                          if mine != right)
        return tr("BP follows from your c and r; the error is earlier: {keys}.").format(
            keys=wrong)
    if c >= r:
        return tr("c = {c} ≥ r = {r}: a candidate that is not shorter gets no penalty, "
                  "BP = 1.").format(c=c, r=r)
    if c and is_value("bp", value, 1 - r / c):
        return tr("That is 1 − r/c = {exponent}, the exponent: BP raises e to it. "
                  "{formula}").format(exponent=FACTOR.text(1 - r / c), formula=formula)
    if c and is_value("bp", value, math.exp(1 - c / r)):
        return tr("c and r are swapped: BP = exp(1 − r/c) = exp(1 − {r}/{c}) = {bp}.").format(
            r=r, c=c, bp=fmt_factor(truth))
    if c and is_value("bp", value, c / r):
        return tr("That is c/r. {formula}").format(formula=formula)
    if _only_first(solution, "bp", value):
        return _first_only_text() + " " + formula
    if value > 1:
        return tr("BP is never more than 1: the penalty can only lower the score. "
                  "{formula}").format(formula=formula)
    if value < 0:
        return tr("BP is never negative: e to any power is more than 0. {formula}").format(
            formula=formula)
    if is_value("bp", value, 1.0):
        return tr("c = {c} < r = {r}: the candidate is shorter, so BP = exp(1 − r/c) = "
                  "{bp}.").format(c=c, r=r, bp=fmt_factor(truth))
    return formula


def _log10_means(precisions: tuple[float, ...], weights: tuple[float, ...]) -> tuple[float, ...]:
    """The geometric means that log10 in place of ln gives: exp(Σ w_n log10 p_n), and
    10^(Σ w_n ln p_n)."""
    if any(p <= 0 for p in precisions):
        return ()
    log_sum = math.fsum(w * math.log(p) for w, p in zip(weights, precisions, strict=True))
    return geometric_mean(precisions, weights, math.log10), 10.0 ** log_sum


def _log10_text(mean: float) -> str:
    return tr("That mixes log10 and e. The log of the formula is the natural logarithm ln "
              "(base e), undone by exp: exp(Σ w_n ln p_n) = {mean}.").format(
        mean=FACTOR.text(mean))


def _mean(solution: Solution, value: float) -> str:
    precisions, weights, truth = solution.precisions, solution.weights, solution.mean
    if truth == 0 and value > 0 and any(p == 0 for p in precisions):
        zero = next(n for n, p in enumerate(precisions, start=1) if p == 0)
        return tr("p_{n} = 0, and log 0 = −∞: the geometric mean is 0.").format(n=zero)
    if is_value(MEAN, value, math.fsum(precisions) / len(precisions)):
        return tr("That is the arithmetic mean of the p_n. BLEU takes the geometric mean: "
                  "exp(Σ w_n log p_n), here {mean}.").format(mean=FACTOR.text(truth))
    if any(is_value(MEAN, value, wrong) for wrong in _log10_means(precisions, weights)):
        return _log10_text(truth)
    if all(p > 0 for p in precisions) and is_value(MEAN, value, math.prod(precisions)):
        return tr("That multiplies the p_n without taking the root: with w_n = 1/N, "
                  "exp(Σ w_n log p_n) is the N-th root of their product.")
    return tr("exp(Σ w_n log p_n) = {mean}, with log the natural logarithm ln.").format(
        mean=FACTOR.text(truth))


def _bleu(solution: Solution, value: float, given: Mapping[str, float]) -> str:
    truth, bp, weights = solution.score, solution.bp, solution.weights
    precisions = solution.precisions
    mean = 100 * solution.mean
    mine = [given.get(f"p_{n}", p) for n, p in enumerate(precisions, start=1)]
    wrong = [key for key in (*(f"p_{n}" for n in range(1, solution.order + 1)), "bp")
             if key in given and not is_value(key, given[key], solution.value(key))]
    if wrong and is_value("bleu", value, 100 * given.get("bp", bp) *
                          geometric_mean(mine, weights)):
        return tr("Your last step is right for your own numbers; the error is earlier: "
                  "{keys}.").format(keys=", ".join(wrong))
    if truth == 0 and value > 0 and any(p == 0 for p in precisions):
        zero = next(n for n, p in enumerate(precisions, start=1) if p == 0)
        return tr("p_{n} = 0, and log 0 = −∞: the geometric mean is 0, so BLEU is 0 "
                  "(the article's formula has no smoothing; SacreBLEU's sentence BLEU "
                  "smooths that 0 away).").format(n=zero)
    if _only_first(solution, "bleu", value):
        return _first_only_text() + " " + tr("BLEU = {score}.").format(score=fmt_score(truth))
    if is_value("bleu", value, 100 * bp * math.fsum(precisions) / len(precisions)):
        return tr("That is the arithmetic mean of the p_n. BLEU takes the geometric mean: "
                  "exp(Σ w_n log p_n), here {mean}.").format(mean=FACTOR.text(mean / 100))
    if any(is_value("bleu", value, 100 * bp * wrong)
           for wrong in _log10_means(precisions, weights)):
        return _log10_text(mean / 100) + " " + tr("BLEU = {bp} × {mean} × 100 = "
                                                  "{score}.").format(
            bp=fmt_factor(bp), mean=FACTOR.text(mean / 100), score=fmt_score(truth))
    if bp < 1 and is_value("bleu", value, mean):
        return tr("BP is missing: BLEU = BP × exp(Σ w_n log p_n) = {bp} × {mean} × 100 = "
                  "{score}.").format(bp=fmt_factor(bp), mean=FACTOR.text(mean / 100),
                                     score=fmt_score(truth))
    if all(p > 0 for p in precisions) and is_value("bleu", value,
                                                   100 * bp * math.prod(precisions)):
        return tr("That multiplies the p_n without taking the root: with w_n = 1/N, "
                  "exp(Σ w_n log p_n) is the N-th root of their product.")
    if solution.exercise.corpus:
        average = math.fsum(s.score for s in solution.sentences) / len(solution.sentences)
        if is_value("bleu", value, average):
            return tr("That is the mean of the sentences' BLEU. Corpus BLEU adds up the "
                      "counts and lengths of all sentences first, then applies the formula "
                      "once: {score}.").format(score=fmt_score(truth))
    return tr("BLEU = BP × exp(Σ w_n log p_n) × 100 = {bp} × {mean} × 100 = {score}.").format(
        bp=fmt_factor(bp), mean=FACTOR.text(mean / 100), score=fmt_score(truth))

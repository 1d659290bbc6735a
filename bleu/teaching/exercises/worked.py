"""The worked solution of an exercise: every step of the computation with the exercise's
numbers, in the formula's order (tokens, each order's clipped precision, the brevity penalty,
the score)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...display.formatting import FACTOR
from ...i18n import tr
from ..breakdown import fmt_factor, fmt_score, fmt_unit
from ..formula import natural_log
from ..option_names import smoothing_name
from .solution import Solution


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


def _sentence_prefix(solution: Solution, k: int) -> str:
    return tr("Sentence {k}: ").format(k=k) if solution.exercise.corpus else ""


def _tokens_step(solution: Solution) -> WorkedStep:
    lines = []
    for k, sentence in enumerate(solution.sentences, start=1):
        tokens = " | ".join(sentence.explanation.hypothesis_tokens)
        lines.append(_sentence_prefix(solution, k) + tr("{tokens} ({c} tokens)").format(
            tokens=tokens, c=sentence.c))
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
        counted = (tr("credited: {grams}; m = {m}, t = {t}").format(
            grams=", ".join(credited), m=sentence.matches[n - 1], t=sentence.totals[n - 1])
            if credited else tr("no {n}-gram credited; m = 0, t = {t}").format(
                n=n, t=sentence.totals[n - 1]))
        lines.append(_sentence_prefix(solution, k) + counted)
        for gram in (g for g in grams if g.count > g.max_ref_count > 0):
            lines.append(tr("clipped: “{gram}” is {count} times in the candidate, at most {most} "
                            "in one reference (reference {k})").format(
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
        line += tr(" → smoothing {method}: {p}").format(
            method=smoothing_name(solution.exercise.options.smooth_method), p=FACTOR.text(p))
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
    lines.append(natural_log())
    lines.append(tr("BLEU = {unit} on the article's 0–1 scale; × 100: {score} (as SacreBLEU "
                    "reports it)").format(unit=fmt_unit(solution.score),
                                          score=fmt_score(solution.score)))
    if solution.exercise.corpus:
        scores = [s.score for s in solution.sentences]
        lines.append(tr("The sentences' own BLEU: {scores}; their mean, {mean}, is not the "
                        "corpus BLEU: the corpus adds the counts first.").format(
            scores=", ".join(fmt_score(s) for s in scores),
            mean=fmt_score(math.fsum(scores) / len(scores))))
    return WorkedStep(tr("The score"), tuple(lines))

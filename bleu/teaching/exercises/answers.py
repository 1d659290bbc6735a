"""Reading a typed answer: ``2/7``, ``0.2857``, ``0,2857`` and ``28.57%`` are the same number;
a p_n over 1 is a percentage; a BLEU of 1 or less, where the true score is above 1, is on the
article's 0-1 scale. And when an answer counts as right: counts exactly; p_n, BP and BLEU
within a tolerance, where a value written with at least ``DECIMALS`` decimals may be any value
within that tolerance rounded half up to the decimals written (what rounded intermediate
results give a student: 0.57 for a BP of 0.5647, from exp(1 − 1.57))."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...display.formatting import FACTOR, SCORE
from ...errors import InputError
from ...i18n import tr
from ..breakdown import fmt_count
from .quantities import kind_of

#: how far an answer may be from the true value, per kind of number (counts: exact; p_n and
#: BP on the 0-1 scale; BLEU on the 0-100 scale): rounded intermediate values stay inside
TOLERANCES = {"count": 0.0, "precision": 0.005, "factor": 0.005, "score": 0.5}
#: the decimals asked for p_n and BP (on the 0-1 scale) and BLEU (on the 0-100 scale)
DECIMALS = 2

_NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?"
_ANSWER = re.compile(rf"^\s*({_NUMBER})\s*(?:/\s*({_NUMBER}))?\s*(%?)\s*$")


@dataclass(frozen=True)
class Answer:
    """A typed answer read as a number on the quantity's own scale, how it was read, and half
    a unit of its last written decimal on that scale (0 where it is exact or has fewer
    decimals than asked: a fraction, an integer)."""

    value: float
    note: str = ""
    rounding: float = 0.0


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


def written_decimals(text: str) -> int | None:
    """How many decimals ``text`` writes its number with; None where it is exact as written
    (a fraction) or its digits do not say (an exponent)."""
    found = _ANSWER.match(text.replace("\u2212", "-"))
    if found is None or found.group(2) is not None or "e" in found.group(1).lower():
        return None
    number = found.group(1).replace(",", ".")
    return len(number.split(".", 1)[1]) if "." in number else 0


def _rounding(decimals: int | None) -> float:
    """Half a unit of the last of ``decimals`` decimals, when at least ``DECIMALS`` are."""
    if decimals is None or decimals < DECIMALS:
        return 0.0
    return 0.5 * 10.0 ** -decimals


def read_answer(key: str, text: str, expected: float) -> Answer:
    """``text`` as an answer for ``key``: a p_n over 1 written without % (and not as a
    fraction) is read as a percentage, p_n being at most 1; a BLEU between 0 and 1 (not 0
    itself, which is 0 on both scales), where the true score is above 1, is read on the
    article's 0-1 scale. ``note`` says when either happened."""
    value, percent = parse_number(text)
    decimals = written_decimals(text)
    kind = kind_of(key)
    if kind in ("precision", "factor"):
        if percent:
            return Answer(value / 100, rounding=_rounding(None if decimals is None
                                                          else decimals + 2))
        if value > 1 and kind == "precision" and "/" not in text:
            return Answer(value / 100, tr("read as {value}%").format(value=fmt_count(value)),
                          _rounding(None if decimals is None else decimals + 2))
        return Answer(value, rounding=_rounding(decimals))
    if kind == "score" and not percent and 0 < abs(value) <= 1 < expected:
        return Answer(100 * value, tr("read on the 0–1 scale: {value} × 100 = {score}").format(
            value=fmt_count(value), score=SCORE.text(100 * value)),
            _rounding(None if decimals is None else decimals - 2))
    return Answer(value, rounding=_rounding(decimals) if kind != "count" else 0.0)


def near(value: float, target: float, tolerance: float) -> bool:
    """Whether ``value`` is within ``tolerance`` of ``target`` (infinities only equal)."""
    if math.isinf(target) or math.isinf(value):
        return value == target
    return abs(value - target) <= tolerance + 1e-12


def accepted(key: str, answer: Answer, expected: float) -> bool:
    """Whether ``answer`` counts as the right value of ``key``: within the tolerance of its
    kind, widened by half a unit of its last decimal when it has the decimals asked for."""
    return near(answer.value, expected, TOLERANCES[kind_of(key)] + answer.rounding)


def is_value(key: str, value: float, target: float) -> bool:
    """Whether ``value`` equals ``target`` to the tolerance of ``key``'s kind (used to
    recognise the number a mistake gives)."""
    return near(value, target, TOLERANCES[kind_of(key)])


def tolerance_text() -> str:
    """The tolerances and the rounding rule, in words, as the exercise form states them."""
    return tr("Counts (m_n, t_n, c, r) must be exact. Write p_n and BP on the 0–1 scale (2/7, "
              "0.2857 and 28.57% are all accepted) and BLEU on the 0–100 scale, with at least "
              "{decimals} decimals: an answer is right when it is a value at most {factor} "
              "(p_n, BP) or {score} (BLEU) from the true one, rounded half up to the decimals "
              "you wrote, as rounded intermediate results give (for a BP of {bp}, both {low} "
              "and {high} are right). A decimal comma and a decimal point are both "
              "accepted.").format(
        decimals=DECIMALS, factor=fmt_count(TOLERANCES["precision"]),
        score=fmt_count(TOLERANCES["score"]), bp=FACTOR.text(0.5647), low=fmt_count(0.56),
        high=fmt_count(0.57))


def written(key: str, value: float) -> str:
    """A true value as the exercise writes it (counts as integers, p_n and BP with 4 decimals,
    BLEU with 2)."""
    kind = kind_of(key)
    if kind == "count":
        return str(round(value))
    return SCORE.text(value) if kind == "score" else FACTOR.text(value)

"""Checking answers: each asked quantity's typed answer read (``answers``), compared with the
true value by the stated rule, and, where wrong, why (``mistakes``); the first wrong step in
the formula's order is the one to fix first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import InputError
from ...i18n import tr
from .answers import Answer, accepted, read_answer, written
from .mistakes import why
from .quantities import label
from .solution import Solution

RIGHT, WRONG, SKIPPED, UNREADABLE = "right", "wrong", "skipped", "unreadable"


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


def _read(key: str, text: str, expected: float) -> Answer | InputError | None:
    """The answer typed for ``key``: None when the box is empty, the error when it is not a
    number."""
    if not text.strip():
        return None
    try:
        return read_answer(key, text, expected)
    except InputError as error:
        return error


def check(solution: Solution, answers: Mapping[str, str]) -> Feedback:
    """Each asked quantity's answer (``answers``: key -> typed text; empty = not answered)
    against the solution, with why where it is wrong. Every answer is read first, so that a
    mistake across boxes (c and r swapped) is named in each."""
    asks = solution.exercise.asks
    read = {key: _read(key, answers.get(key) or "", solution.value(key)) for key in asks}
    given = {key: answer.value for key, answer in read.items() if isinstance(answer, Answer)}
    verdicts = []
    for key in asks:
        text, answer, expected = (answers.get(key) or "").strip(), read[key], solution.value(key)
        if answer is None:
            verdicts.append(Verdict(key, label(key), "", None, expected, SKIPPED))
        elif isinstance(answer, InputError):
            verdicts.append(Verdict(key, label(key), text, None, expected, UNREADABLE,
                                    str(answer)))
        elif accepted(key, answer, expected):
            verdicts.append(Verdict(key, label(key), text, answer.value, expected, RIGHT,
                                    note=answer.note))
        else:
            verdicts.append(Verdict(key, label(key), text, answer.value, expected, WRONG,
                                    why(solution, key, answer.value, given), answer.note))
    return Feedback(tuple(verdicts))


def check_one(key: str, text: str, expected: float,
              solution: Solution | None = None) -> Verdict:
    """One typed answer (a prediction) against ``expected``, by the exercises' rule; where it
    is wrong and ``solution`` is the computation it belongs to, why (the mistakes an exercise
    names)."""
    answer = _read(key, text, expected)
    if answer is None:
        return Verdict(key, label(key), "", None, expected, SKIPPED)
    if isinstance(answer, InputError):
        return Verdict(key, label(key), text.strip(), None, expected, UNREADABLE, str(answer))
    if accepted(key, answer, expected):
        return Verdict(key, label(key), text.strip(), answer.value, expected, RIGHT,
                       note=answer.note)
    reason = why(solution, key, answer.value, {key: answer.value}) if solution else ""
    return Verdict(key, label(key), text.strip(), answer.value, expected, WRONG, reason,
                   answer.note)

"""Exercises: a pair (or a small corpus) and the numbers a student computes for it by hand.

The student enters any of the clipped matches m_n, the candidate's n-grams t_n, the precisions
p_n, the lengths c and r, the brevity penalty BP and BLEU; ``check`` compares each answer with
the true value by the stated rule (``answers``), names the first wrong step and says why
(``mistakes``), and ``worked_solution`` writes every step out with the numbers.

One job per module: ``quantities`` (what can be asked), ``answers`` (reading a typed number,
tolerances and rounding), ``solution`` (the exercise and its true numbers), ``mistakes`` (why
an answer is wrong), ``checking`` (verdicts and feedback), ``worked`` (the worked solution),
``ready`` (the ready exercises and the student's own pair).
"""

from .answers import DECIMALS, TOLERANCES, Answer, parse_number, read_answer, tolerance_text
from .checking import RIGHT, SKIPPED, UNREADABLE, WRONG, Feedback, Verdict, check, check_one
from .quantities import FINAL, LENGTHS, MEAN, all_keys, kind_of, label, order_keys
from .ready import READY, ReadySpec, own_exercise, ready_exercises
from .solution import Exercise, Pair, Solution, solve
from .worked import WorkedStep, worked_solution

__all__ = [
    "DECIMALS", "FINAL", "LENGTHS", "MEAN", "READY", "RIGHT", "SKIPPED", "TOLERANCES",
    "UNREADABLE", "WRONG", "Answer", "Exercise", "Feedback", "Pair", "ReadySpec", "Solution",
    "Verdict", "WorkedStep", "all_keys", "check", "check_one", "kind_of", "label", "order_keys",
    "own_exercise", "parse_number", "read_answer", "ready_exercises", "solve",
    "tolerance_text", "worked_solution",
]

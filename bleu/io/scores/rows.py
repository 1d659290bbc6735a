"""Segment scores row by row, checked as they come: every reader (tables, JSON Lines, COMET's
outputs, one file per system) adds (system, segment id, score) rows here, so that every format
refuses the same things with the same words, naming the file and the line."""

from __future__ import annotations

import math

from ...errors import ReadError
from ...metrics.segment.scores import SegmentScores

#: what an unrated segment is written as (an empty field, None, NA, n/a)
UNRATED = ("", "none", "na", "n/a")


def fail(source: str, line: int, message: str) -> ReadError:
    """A reading error that names the file and the line."""
    return ReadError(f"{source}, line {line}: {message}")


def parse_score(raw: object, source: str, line: int) -> float:
    """A score field: a finite number, or NaN for an unrated segment (empty, None, NA); a NaN
    or infinite number written out is refused (a metric that failed, not a missing rating)."""
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in UNRATED):
        return math.nan
    if isinstance(raw, bool):
        raise fail(source, line, f"expected a number (or None for unrated), found {raw!r}")
    try:
        value = float(raw.strip() if isinstance(raw, str) else raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise fail(source, line, f"expected a number (or None for unrated), found "
                                 f"{str(raw)[:40]!r}") from None
    if not math.isfinite(value):
        raise fail(source, line, f"expected a finite number, found {str(raw)[:40]!r}; write "
                                 "an empty field or None for a segment that is not rated")
    return value


def parse_segment(raw: object, source: str, line: int, first: int = 1) -> int:
    """A segment id: an integer, 1-based (``first=0`` for 0-based numbering, as COMET's)."""
    if isinstance(raw, bool):
        raise fail(source, line, f"expected an integer segment id, found {raw!r}")
    try:
        number = int(raw.strip() if isinstance(raw, str) else raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise fail(source, line, f"expected an integer segment id, found {str(raw)[:40]!r}"
                   ) from None
    if isinstance(raw, float) and raw != number:
        raise fail(source, line, f"expected an integer segment id, found {raw!r}")
    if number < first:
        raise fail(source, line, f"segment ids start at {first}"
                                 + (" (line numbers of the test set)" if first == 1 else "")
                                 + f", found {number}")
    return number - first + 1


class ScoreRows:
    """Rows collected into ``SegmentScores``: a system's segment may come once."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.scores: dict[str, dict[int, float]] = {}

    def add(self, system: str, segment: int, score: float, line: int) -> None:
        """One row (``segment`` 1-based, ``score`` NaN where unrated)."""
        if not system:
            raise fail(self.source, line, "expected a system name, found an empty field")
        per_system = self.scores.setdefault(system, {})
        if segment in per_system:
            raise fail(self.source, line, f"system {system!r} has segment {segment} twice")
        per_system[segment] = score

    def result(self, label: str, higher_is_better: bool | None = None) -> SegmentScores:
        if not self.scores:
            raise ReadError(f"{self.source}: expected at least one score, found none.")
        return SegmentScores.from_rows(label, self.scores, self.source, higher_is_better)

"""Segment-score files beyond tables: JSON Lines, the outputs of COMET's ``comet-score``, and one
file per system with one score per line.

- JSON Lines: one object a line with a system, a segment id and a score (the same names as a
  table's columns: ``system``/``sys``/``model``, ``seg_id``/``segment``/..., and one number);
- ``comet-score``'s printout (unbabel-comet 2.x): ``FILE<TAB>Segment I<TAB>score: S`` a
  segment (I counted from 0), then ``FILE<TAB>score: S`` a system; FILE names the system as a
  system file's name does (``newstest2021.en-de.hyp.UEdin.de`` is ``UEdin``);
- ``comet-score --to_json``: ``{FILE: [{"src", "mt", "ref", "COMET": S, "errors": [...]}, ...]}``
  (one list per system, in segment order);
- one file per system: a score per line (empty or ``None`` unrated), named like the system's
  file plus the metric (``hyp.UEdin.de.comet`` or ``UEdin.COMET``): several such files of one
  metric are one score set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import PurePath

from ...errors import ReadError
from ...metrics.segment.scores import SegmentScores
from .rows import ScoreRows, fail, parse_score, parse_segment

SYSTEM_FIELDS = ("system", "sys", "system_name", "model", "sys_name")
SEGMENT_FIELDS = ("seg_id", "segment_id", "segment", "seg", "sid", "id", "item", "line")
_COMET_SEGMENT = re.compile(r"^(?P<file>.+?)\tSegment (?P<segment>\d+)\tscore: (?P<score>\S+)"
                            r"(?:\tvariance: \S+)?$")
_COMET_SYSTEM = re.compile(r"^.+?\tscore: \S+$")
_COMET_SAVED = re.compile(r"^Predictions saved in: ")
#: how metric names are usually written, by a file suffix in lower case
KNOWN_METRICS = {"comet": "COMET", "xcomet": "xCOMET", "cometkiwi": "CometKiwi",
                 "bleurt": "BLEURT", "metricx": "MetricX", "bertscore": "BERTScore",
                 "mqm": "MQM", "da": "DA", "esa": "ESA"}


def looks_like_comet_output(text: str) -> bool:
    """Whether ``text`` is ``comet-score``'s printout (its first line a segment's score)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return bool(_COMET_SEGMENT.match(first))


def parse_comet_output(text: str, source: str, system_of: Callable[[str], str],
                       label: str | None = None) -> SegmentScores:
    """``comet-score``'s printout: its segment lines (system lines and the note about a JSON
    file are skipped; the system score is their mean, recomputed)."""
    rows = ScoreRows(source)
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or _COMET_SAVED.match(line):
            continue
        found = _COMET_SEGMENT.match(line)
        if found is None:
            if _COMET_SYSTEM.match(line):
                continue
            raise fail(source, number, "expected a line of comet-score's output "
                                       "('FILE<TAB>Segment N<TAB>score: S'), found "
                                       f"{line[:60]!r}")
        rows.add(system_of(found["file"]), parse_segment(found["segment"], source, number, 0),
                 parse_score(found["score"], source, number), number)
    return rows.result(label or "COMET")


def looks_like_comet_json(text: str) -> bool:
    """Whether ``text`` is a JSON object (``comet-score --to_json``), not JSON Lines."""
    stripped = text.lstrip("\ufeff \t\n")
    return stripped.startswith("{") and not _is_json_lines(stripped)


def _is_json_lines(text: str) -> bool:
    first = text.split("\n", 1)[0].strip()
    try:
        return isinstance(json.loads(first), dict) and "\n" in text.strip()
    except json.JSONDecodeError:
        return False


def parse_comet_json(text: str, source: str, system_of: Callable[[str], str],
                     label: str | None = None) -> SegmentScores:
    """``comet-score --to_json``'s file: per system file, its segments in order, each with the
    score under ``COMET`` (or the one numeric field besides src, mt and ref)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise fail(source, error.lineno, f"expected comet-score's JSON (an object of system "
                                         f"files), found invalid JSON: {error.msg}") from None
    if not isinstance(data, dict) or not data:
        raise ReadError(f"{source}: expected comet-score's JSON, an object of system files "
                        "each with a list of segments.")
    rows = ScoreRows(source)
    key = label or "COMET"
    for file, segments in data.items():
        if not isinstance(segments, list):
            raise ReadError(f"{source}: expected a list of segments for {file!r}, found "
                            f"{type(segments).__name__}.")
        for index, segment in enumerate(segments, start=1):
            where = f"{file!r}, segment {index}"
            if not isinstance(segment, dict):
                raise ReadError(f"{source}: {where}: expected an object with a score.")
            field = "COMET" if "COMET" in segment else _score_field(segment, source, where)
            try:
                value = parse_score(segment[field], source, 0)
            except ReadError as error:
                raise ReadError(f"{source}: {where}: {str(error).split(': ', 2)[-1]}") from None
            rows.add(system_of(file), index, value, 0)
    return rows.result(key)


def _score_field(record: dict, source: str, where: str) -> str:
    numbers = [name for name, value in record.items()
               if isinstance(value, int | float) and not isinstance(value, bool)]
    if len(numbers) != 1:
        raise ReadError(f"{source}: {where}: expected one score field (COMET), found "
                        f"{sorted(record)}.")
    return numbers[0]


def looks_like_json_lines(text: str) -> bool:
    return _is_json_lines(text.lstrip("\ufeff \t\n"))


def parse_json_lines(text: str, source: str, label: str | None = None) -> SegmentScores:
    """One object a line with a system, a segment id (1-based) and one score field."""
    rows = ScoreRows(source)
    names: set[str] = set()
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise fail(source, number, f"expected a JSON object, found invalid JSON: "
                                       f"{error.msg}") from None
        if not isinstance(record, dict):
            raise fail(source, number, f"expected a JSON object, found "
                                       f"{type(record).__name__}")
        system = _field(record, SYSTEM_FIELDS, "system", source, number)
        segment = _field(record, SEGMENT_FIELDS, "segment id", source, number)
        rest = [name for name in record if name not in (system, segment)]
        if len(rest) != 1:
            raise fail(source, number, f"expected one score field besides {system!r} and "
                                       f"{segment!r}, found {rest}")
        names.add(rest[0])
        rows.add(str(record[system]).strip(), parse_segment(record[segment], source, number),
                 parse_score(record[rest[0]], source, number), number)
    if len(names) > 1:
        raise ReadError(f"{source}: the lines name different scores ({', '.join(sorted(names))}); "
                        "give one metric per file.")
    return rows.result(label or (names.pop() if names else PurePath(source).stem))


def _field(record: dict, wanted: Sequence[str], what: str, source: str, line: int) -> str:
    lowered = {name.lower(): name for name in record}
    for name in wanted:
        if name in lowered:
            return lowered[name]
    raise fail(source, line, f"expected a {what} field (one of {', '.join(wanted)}), found "
                             f"{sorted(record)}")


def looks_like_one_system(text: str) -> bool:
    """Whether every line is a number or unrated: one system's scores, a score per line."""
    lines = [line.strip() for line in text.lstrip("\ufeff").split("\n")]
    if lines and not lines[-1]:
        lines.pop()
    if not lines:
        return False
    for line in lines:
        try:
            float(line)
        except ValueError:
            if line.lower() not in ("", "none", "na", "n/a", "nan"):
                return False
    return True


def one_system_name(file_name: str, system_of: Callable[[str], str]) -> tuple[str, str]:
    """The system and the metric a one-system score file is named after: ``hyp.UEdin.de.comet``
    is UEdin's COMET, ``UEdin.bleurt`` UEdin's BLEURT (the metric: the last suffix, written as
    the metric usually is, ``KNOWN_METRICS``)."""
    path = PurePath(file_name)
    metric = path.suffix.lstrip(".")
    if not metric:
        return system_of(file_name), "scores"
    return system_of(path.stem), KNOWN_METRICS.get(metric.lower(), metric)


def parse_one_system(text: str, source: str, system: str, label: str) -> SegmentScores:
    """One system's scores, line i the score of segment i (1-based)."""
    rows = ScoreRows(source)
    lines = text.lstrip("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        rows.add(system, number, parse_score(line, source, number), number)
    return rows.result(label)

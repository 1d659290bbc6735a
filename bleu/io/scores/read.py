"""External segment scores (COMET, BLEURT, MQM, DA, ...): a validating reader and name matching.

A file has one row per (system, segment id, score). Accepted shapes:
- Google's WMT MQM ``*.avg_seg_scores.tsv`` exactly as published (space-separated header
  ``system mqm_avg_score seg_id``, rows split on any whitespace, ``None`` = unrated): read by
  ``bleu.mqm.parse_mqm`` with the file's own names;
- a TSV or CSV with a header naming a system column (``system``, ``sys``, ``model``), a
  segment-id column (``seg_id``, ``segment``, ``id``, ...) and a score column (the remaining
  one, or the one the caller names). The score column's name is the metric's label.
Segment ids are 1-based line numbers of the test set. Empty, ``None``, ``NA`` and ``nan`` scores
mean "not rated". Names are matched case-sensitively to the loaded systems; ``aliases`` maps
file names to loaded names (``Nemo`` -> ``NVIDIA-NeMo``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path, PurePath

import numpy as np

from ...errors import InputError, ReadError
from ...metrics.segment.scores import SegmentScores
from ..dataset import system_name
from . import formats
from .mqm import HEADER as MQM_HEADER
from .mqm import parse_mqm
from .rows import ScoreRows, fail, parse_score, parse_segment

SYSTEM_COLUMNS = ("system", "sys", "system_name", "model", "sys_name")
SEGMENT_COLUMNS = ("seg_id", "segment_id", "segment", "seg", "sid", "id", "item", "line")
#: scores whose column is called this are labelled with the file's name instead
GENERIC_SCORE_NAMES = ("score", "scores", "value")


def _find(header: list[str], wanted: Sequence[str], given: str | None, what: str,
          source: str) -> int:
    lowered = [name.strip().lower() for name in header]
    if given is not None:
        if given not in header:
            raise fail(source, 1, f"expected a column {given!r} ({what}), found the columns "
                                   f"{header}")
        return header.index(given)
    for name in wanted:
        if name in lowered:
            return lowered.index(name)
    raise fail(source, 1, f"expected a {what} column (one of {', '.join(wanted)}), found the "
                           f"columns {header}")


def _table(text: str, source: str, label: str | None, system_column: str | None,
           segment_column: str | None, score_column: str | None) -> SegmentScores:
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first or source.lower().endswith(".tsv") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise fail(source, 1, "expected a header (system, segment id, score), found an "
                               "empty line" if rows else "expected a header, found an empty file")
    header = [cell.strip() for cell in rows[0]]
    sys_col = _find(header, SYSTEM_COLUMNS, system_column, "system", source)
    seg_col = _find(header, SEGMENT_COLUMNS, segment_column, "segment id", source)
    if score_column is None:
        rest = [i for i in range(len(header)) if i not in (sys_col, seg_col)]
        if len(rest) != 1:
            raise fail(source, 1, f"expected exactly one score column besides {header[sys_col]!r}"
                                   f" and {header[seg_col]!r}, found {[header[i] for i in rest]}; "
                                   f"name the score column")
        score_col = rest[0]
    else:
        score_col = _find(header, (), score_column, "score", source)
    name = header[score_col]
    if label is None:
        label = Path(source).stem if name.lower() in GENERIC_SCORE_NAMES else name
    rows_in = ScoreRows(source)
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise fail(source, number, f"expected {len(header)} fields, found {len(row)}: "
                                       f"{delimiter.join(row)[:60]!r}")
        rows_in.add(row[sys_col].strip(), parse_segment(row[seg_col], source, number),
                    parse_score(row[score_col], source, number), number)
    return rows_in.result(label)


def parse_scores(data: bytes | str, source: str = "<text>", *, label: str | None = None,
                 system_column: str | None = None, segment_column: str | None = None,
                 score_column: str | None = None,
                 n_segments: int | None = None) -> SegmentScores:
    """Read an external-scores file (MQM TSV, or a TSV/CSV with a header); errors name the line.

    With ``n_segments`` (the loaded test set's size) a segment id beyond it is refused, and the
    matrix is padded with NaN to that width.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ReadError(f"{source}: expected UTF-8 text, found the byte "
                            f"{data[error.start]:#04x} at offset {error.start}.") from None
    else:
        text = data
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise ReadError(f"{source}: the file is empty; expected segment scores.")
    if tuple(text.split("\n", 1)[0].split()) == MQM_HEADER:
        mqm = parse_mqm(text, source)
        result = replace(mqm, label=label or "MQM", source=source)
    elif formats.looks_like_comet_output(text):
        result = formats.parse_comet_output(text, source, _system_of, label)
    elif formats.looks_like_json_lines(text):
        result = formats.parse_json_lines(text, source, label)
    elif formats.looks_like_comet_json(text):
        result = formats.parse_comet_json(text, source, _system_of, label)
    elif formats.looks_like_one_system(text):
        system, metric = formats.one_system_name(source, _system_of)
        result = formats.parse_one_system(text, source, system, label or metric)
    else:
        result = _table(text, source, label, system_column, segment_column, score_column)
    return fitted(result, n_segments)


def _system_of(file_name: str) -> str:
    """A system's name from the name of its output file, as the Data page guesses it."""
    return system_name(PurePath(file_name).name)


def fitted(result: SegmentScores, n_segments: int | None) -> SegmentScores:
    """Scores padded with NaN (unrated) to the loaded test set's ``n_segments``; a segment id
    beyond it is refused: the file is for another test set."""
    source = result.source
    if n_segments is not None:
        if result.n_segments > n_segments:
            raise ReadError(f"{source}: scores segment {result.n_segments}, but the loaded test "
                            f"set has {n_segments} segments: the file is for another test set.")
        padded = np.full((len(result.systems), n_segments), np.nan)
        padded[:, : result.n_segments] = result.matrix
        result = replace(result, matrix=padded)
    result.matrix.setflags(write=False)
    return result


def parse_score_files(files: Sequence[tuple[bytes, str]], n_segments: int | None = None,
                      ) -> list[SegmentScores]:
    """Several files at once: each is read by ``parse_scores``; one-system files of the same
    metric (``hyp.A.de.comet``, ``hyp.B.de.comet``) join into one score set. Raises the first
    file's error (naming file and line)."""
    found = [parse_scores(data, name) for data, name in files]
    merged: dict[str, SegmentScores] = {}
    for scores in found:
        if scores.label in merged and len(scores.systems) == 1:
            merged[scores.label] = merge(merged[scores.label], scores)
        else:
            merged[scores.label] = scores
    return [fitted(scores, n_segments) for scores in merged.values()]


def merge(first: SegmentScores, second: SegmentScores) -> SegmentScores:
    """Two score sets of one metric as one (a system may appear in one of them only)."""
    clash = set(first.systems) & set(second.systems)
    if clash:
        raise InputError(f"{second.source}: system {sorted(clash)[0]!r} has {first.label} "
                         f"scores in {first.source} already; give each system once.")
    width = max(first.n_segments, second.n_segments)
    rows = {}
    for scores in (first, second):
        for system, values in scores.by_system().items():
            rows[system] = {i + 1: float(v) for i, v in enumerate(values)}
            rows[system].update({i: np.nan for i in range(len(values) + 1, width + 1)})
    return SegmentScores.from_rows(first.label, rows, f"{first.source}, {second.source}",
                                   first.higher_is_better)


def read_scores(path: str | Path, **options: object) -> SegmentScores:
    """``parse_scores`` of a file on disk (UTF-8), named by its file name as an upload would be
    (messages shown in the browser never carry a server path)."""
    path = Path(path)
    return parse_scores(path.read_bytes(), path.name, **options)  # type: ignore[arg-type]

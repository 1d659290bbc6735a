"""Google's WMT MQM segment scores (``mqm_*.avg_seg_scores.tsv``): a reader and the score table.

The files' quirks (see data/MANIFEST.md): the header is space-separated, rows are
``system<TAB>score<SPACE>seg_id``, so fields are split on any whitespace; unrated segments have
the score ``None``; ``seg_id`` is the 1-based line number in the WMT files; the system ``Nemo``
is the file ``NVIDIA-NeMo``. Scores are negated MQM: 0 is perfect, higher is better.
"""

from __future__ import annotations

import math
from pathlib import Path

from ...errors import ReadError
from ...metrics.segment.scores import SegmentScores

#: MQM system names that differ from the WMT file names of the same system
MQM_ALIASES: dict[str, str] = {"Nemo": "NVIDIA-NeMo"}
HEADER = ("system", "mqm_avg_score", "seg_id")


def _fail(source: str, line: int, message: str) -> ReadError:
    return ReadError(f"{source}, line {line}: {message}")


def parse_mqm(text: str, source: str = "<text>") -> SegmentScores:
    """Parse an MQM ``avg_seg_scores`` file's text, with the file's own system names (matching
    them to loaded systems, ``Nemo`` to ``NVIDIA-NeMo`` included, is
    ``bleu.evaluation.systems``')."""
    lines = text.splitlines()
    if not lines or tuple(lines[0].split()) != HEADER:
        found = lines[0][:60] if lines else "an empty file"
        raise _fail(source, 1, f"expected the header {' '.join(HEADER)!r}, found {found!r}")
    scores: dict[str, dict[int, float]] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 3:
            raise _fail(source, number, f"expected 3 fields (system, score, seg_id), "
                                        f"found {len(fields)}: {line[:60]!r}")
        name, raw_score, raw_seg = fields
        try:
            seg_id = int(raw_seg)
            score = math.nan if raw_score == "None" else float(raw_score)
        except ValueError:
            raise _fail(source, number, f"expected a number (or None) and a segment id, "
                                        f"found {raw_score!r} and {raw_seg!r}") from None
        if seg_id < 1:
            raise _fail(source, number, f"segment ids start at 1, found {seg_id}")
        per_system = scores.setdefault(name, {})
        if seg_id in per_system:
            raise _fail(source, number, f"system {name!r} has segment {seg_id} twice")
        per_system[seg_id] = score
    if not scores:
        raise _fail(source, 2, "expected at least one score row, found none")
    return SegmentScores.from_rows("MQM", scores, source)


def read_mqm(path: str | Path) -> SegmentScores:
    """Read an MQM ``avg_seg_scores`` TSV file (UTF-8); errors name the file and line."""
    path = Path(path)
    return parse_mqm(path.read_text(encoding="utf-8"), str(path))

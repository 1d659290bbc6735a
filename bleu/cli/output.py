"""The command line's multi-system output, shaped as sacrebleu 2.6 prints it (table or JSON).

Scripts that parse sacrebleu's output parse ours: the same table (drawn by ``tabulate``, as
sacrebleu draws it), one column per metric, the same JSON keys, the same explanation of the
paired test and the same list of signatures. Segment-score metrics (``--scores``) add their
columns, their ``n_segments`` in paired JSON, and a block on their scores under the signatures;
without them, nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import tr

if TYPE_CHECKING:
    from ..metrics.base import SignificanceResult

#: sacrebleu's output formats; ``latex`` only changes the multi-system table.
FORMATS = ("json", "text", "latex")


@dataclass(frozen=True)
class Cell:
    """One metric's result for one system: a plain score, or a paired test's result."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    paired: bool = False
    #: segments tested (segment scores: those rated for the system and the baseline)
    n_segments: int | None = None


@dataclass(frozen=True)
class PairedTestInfo:
    """What the explanation under a paired-test table says: the test and its sample count."""

    method: str  # "bs" or "ar"
    n_samples: int


@dataclass(frozen=True)
class SegmentNote:
    """What the text output says of a segment-score metric: where its scores come from, which
    way they point, each system's rated segments, and the segments each paired test used."""

    source: str
    higher_is_better: bool
    rated: tuple[int, ...]
    n_segments: int
    tested: tuple[int, ...] = ()


#: metric name -> one cell per system, in the systems' order
Columns = Mapping[str, Sequence[Cell]]
#: decimals of the scores of some metrics, where they differ from ``--width``
Widths = Mapping[str, int]


def _text(cell: Cell, width: int, multiline: bool) -> str:
    if not cell.paired:
        return f"{cell.score:.{width}f}"
    text = f"{cell.score:.{width}f}"
    if cell.mean is not None and cell.ci is not None:
        text += f" ({cell.mean:.{width}f} ± {cell.ci:.{width}f})"
    if cell.p_value is not None:
        star = "" if cell.p_value > 0.05 else "*"
        text += ("\n" if multiline else " ") + f"(p = {cell.p_value:.4f}){star}"
    return text


def _optional_float(value: float | None) -> float | None:
    return None if value is None else float(value)


def results_json(systems: Sequence[str], columns: Columns, width: int,
                 widths: Widths | None = None) -> str:
    """sacrebleu's multi-system JSON: a list of ``{"system": ..., "<metric>": ...}`` records.

    Plain scores are strings (as sacrebleu writes them); paired results are objects whose numbers
    are converted to Python floats, so NumPy scalars never reach ``json.dumps``.
    """
    import json  # loaded here: a table (the default) does not need it

    records = []
    for k, system in enumerate(systems):
        record: dict[str, object] = {"system": system}
        for metric, cells in columns.items():
            cell = cells[k]
            if not cell.paired:
                record[metric] = f"{cell.score:.{(widths or {}).get(metric, width)}f}"
                continue
            result: dict[str, object] = {
                "score": float(cell.score), "p_value": _optional_float(cell.p_value),
                "mean": _optional_float(cell.mean), "ci": _optional_float(cell.ci)}
            if cell.n_segments is not None:
                result["n_segments"] = cell.n_segments
            record[metric] = result
        records.append(record)
    return json.dumps(records, indent=4)


def results_table(systems: Sequence[str], columns: Columns, width: int, fmt: str,
                  widths: Widths | None = None) -> str:
    """sacrebleu's multi-system table (``fancy_grid`` for text, ``latex_booktabs`` for latex)."""
    from tabulate import tabulate  # only the multi-system table needs it

    multiline = fmt == "text"
    table: dict[str, list[str]] = {"System": list(systems)}
    decimals = [width]  # of each column: tabulate writes the plain scores again with these
    bootstrap = False
    for metric, cells in columns.items():
        # as sacrebleu, a bootstrap's first column marks every later one as well
        bootstrap = bootstrap or any(c.paired and c.mean is not None for c in cells)
        title = f"{metric} (μ ± 95% CI)" if bootstrap else metric
        decimals.append((widths or {}).get(metric, width))
        table[title] = [_text(cell, decimals[-1], multiline) for cell in cells]
    floatfmt: str | list[str] = f".{width}f"
    if widths:
        floatfmt = [f".{places}f" for places in decimals]
    return tabulate(table, headers="keys", tablefmt="fancy_grid" if multiline else "latex_booktabs",
                    colalign=("right",), stralign="center", numalign="center",
                    floatfmt=floatfmt)


def paired_explanation(info: PairedTestInfo, baseline: str) -> str:
    """The notes sacrebleu prints under a paired-test table: what was compared, how to read p."""
    if info.method == "bs":
        msg = f"Paired bootstrap resampling test with {info.n_samples} resampling trials"
        shown = ("   Actual system score / bootstrap estimated true mean / 95% CI are provided "
                 "for each metric.")
    else:
        msg = f"Paired approximate randomization test with {info.n_samples} trials"
        shown = "   Actual system score is provided for each metric."
    rule = "-" * len(msg)
    lines = [
        rule, msg, rule,
        f" - Each system is pairwise compared to {baseline}.",
        shown,
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis is "
        "correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but '
        "rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return "\n".join(lines)


def signatures_block(signatures: Mapping[str, str]) -> str:
    """The ``Metric signatures`` list that ends sacrebleu's multi-system text output (a
    segment-score metric that was not resampled has no signature, and no line)."""
    return "\n".join(["-----------------", "Metric signatures", "-----------------",
                      *(f" - {name:<10} {signature}" for name, signature in signatures.items()
                        if signature)])


def _count_range(counts: Sequence[int]) -> str:
    low, high = min(counts), max(counts)
    return f"{low}" if low == high else tr("{low} to {high}").format(low=low, high=high)


def _direction(higher_is_better: bool) -> str:
    return tr("higher is better") if higher_is_better else tr("lower is better")


def segment_scores_block(notes: Mapping[str, SegmentNote]) -> str:
    """What the text output adds for segment-score metrics, a line each: the file, the
    direction, the rated segments behind each system score and those each paired test used."""
    lines = ["--------------", tr("Segment scores"), "--------------"]
    for name, note in notes.items():
        text = tr("{source}, {direction}: each system's mean over its rated segments ({rated} of "
                  "{total})").format(source=note.source,
                                     direction=_direction(note.higher_is_better),
                                     rated=_count_range(note.rated), total=note.n_segments)
        if note.tested:
            text += tr("; each system tested against the baseline on the segments rated for "
                       "both ({tested})").format(tested=_count_range(note.tested))
        lines.append(f" - {name:<10} {text}")
    return "\n".join(lines)


def multi_system_report(systems: Sequence[str], columns: Columns,
                        signatures: Mapping[str, str], width: int, fmt: str,
                        paired: PairedTestInfo | None = None, widths: Widths | None = None,
                        notes: Mapping[str, SegmentNote] | None = None) -> str:
    """Everything sacrebleu prints for several systems, in ``fmt`` (json, text or latex), and
    ``notes`` on the segment-score metrics under it (text and latex)."""
    if fmt == "json":
        return results_json(systems, columns, width, widths)
    parts = [results_table(systems, columns, width, fmt, widths), ""]
    if paired is not None:
        parts.append(paired_explanation(paired, systems[0]))
    parts.append(signatures_block(signatures))
    if notes:
        parts.append(segment_scores_block(notes))
    return "\n".join(parts)


def segment_score_line(name: str, score: float, note: SegmentNote, width: int,
                       score_only: bool = False, signature: str = "", is_json: bool = False,
                       interval: SignificanceResult | None = None) -> str:
    """One system's segment-score metric as sacrebleu prints a score, its interval shown
    whatever its sign (sacrebleu's own line drops an interval whose mean is not above 0):
    ``MQM|bs:1000|seed:12345 = -1.0527 (μ = -1.0527 ± 0.0864) (527 of 1002 segments rated,
    higher is better)``, or its JSON."""
    from ..metrics.base import format_score  # numpy: only once a score is printed

    rated = tr("({rated} of {total} segments rated, {direction})").format(
        rated=note.rated[0], total=note.n_segments, direction=_direction(note.higher_is_better))
    return format_score(name, score, width, score_only, signature, is_json, interval=interval,
                        any_sign=True, note=rated,
                        fields={"rated_segments": note.rated[0], "n_segments": note.n_segments,
                                "higher_is_better": note.higher_is_better,
                                "source": note.source})


def single_system_report(lines: Sequence[str], fmt: str) -> str:
    """One system's scores, one line (or JSON object) per metric, as sacrebleu prints them:
    several JSON objects become a list; several text lines are aligned on their '='."""
    if fmt == "json":
        return lines[0] if len(lines) == 1 else "[\n" + ",\n".join(lines) + "\n]"
    if len(lines) == 1 or any("=" not in line for line in lines):
        return "\n".join(lines)
    width = max(line.index("=") - 1 for line in lines)
    return "\n".join(f"{line[: line.index('=') - 1]:>{width}}{line[line.index('=') - 1:]}"
                     for line in lines)

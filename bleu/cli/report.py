"""What the command line prints, from an ``Evaluation``: sacrebleu's lines for one system (with
``--confidence``'s interval), its ``-sl`` lines, its multi-system table with paired tests, and
the segment-score metrics' rows and notes beside them; BLEU alone on one file is scored while
the file is read (``streamed_single_system``), in bounded memory.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from ..errors import LengthMismatchError, ReadError
from ..evaluation import Evaluation, MetricScores
from .inputs import check_lengths, iter_segments, paired_test_asked
from .options import bleu_options, resampling_seed, terminal_progress
from .output import (
    Cell,
    PairedTestInfo,
    SegmentNote,
    multi_system_report,
    segment_score_line,
    single_system_report,
)
from .parser import SEGMENT_SCORE_DECIMALS


def _signature(found: MetricScores, args: argparse.Namespace, short: bool | None = None,
               **resampling: object) -> str:
    """sacrebleu's signature of a text metric, with the resampling fields of a test or CI."""
    metric = found.text_metric
    return metric.get_signature(**resampling).format(args.short if short is None else short)


def sentence_level(evaluation: Evaluation, label: str, args: argparse.Namespace,
                   out: TextIO) -> None:
    """``-sl``: one line per segment of the one system, as sacrebleu prints them."""
    found = evaluation.scores(label)
    signature = _signature(found, args)
    (matrix,) = found.stats.values()
    for row in matrix:
        score = found.text_metric.score_stats(row[None, :])
        print(score.format(args.width, args.score_only, signature), file=out)


def _segment_note(found: MetricScores, n_segments: int, tested: Sequence[int] = (),
                  ) -> SegmentNote:
    """What the block under the signatures says of a segment-score metric."""
    return SegmentNote(found.source, found.higher_is_better,
                       tuple(int(matrix[:, 1].sum()) for matrix in found.stats.values()),
                       n_segments, tuple(tested))


def single_system(evaluation: Evaluation, labels: Sequence[str], args: argparse.Namespace,
                  out: TextIO) -> None:
    """One system's line per metric, with its bootstrap interval if ``--confidence``."""
    is_json = args.format == "json"
    confidence = args.confidence and args.confidence_n > 1
    seed = resampling_seed() if confidence else None
    lines = []
    for label in labels:
        found = evaluation.scores(label)
        (system, stats), = found.stats.items()
        interval = None
        if confidence:
            interval = evaluation.significance(label, n_samples=args.confidence_n,
                                               seed=seed)[system]
        if found.text_metric is None:
            signature = (found.tested_signature("bs", args.confidence_n, seed) if confidence
                         else "")
            lines.append(segment_score_line(
                label, found.scores[system], _segment_note(found, evaluation.n_segments),
                max(args.width, SEGMENT_SCORE_DECIMALS), args.score_only, signature, is_json,
                interval))
            continue
        resampling = {"bs": args.confidence_n, "seed": str(seed).lower()} if confidence else {}
        signature = _signature(found, args, args.short and not is_json, **resampling)
        score = found.text_metric.score_stats(stats)
        lines.append(score.format(args.width, args.score_only, signature, is_json, interval))
    print(single_system_report(lines, args.format), file=out)


def system_names(evaluation: Evaluation, args: argparse.Namespace) -> list[str]:
    """The table's names, as sacrebleu's: the baseline marked in paired mode; stdin columns are
    ``System k`` (files and a saved workspace keep their systems' names)."""
    systems = list(evaluation.systems)
    from_files = args.input is not None or args.workspace is not None
    names = [name if from_files else f"System {k + 1}" for k, name in enumerate(systems)]
    if paired_test_asked(args):
        names[0] = f"Baseline: {systems[0]}" if from_files else "Baseline"
        names[1:] = [name if from_files else f"System {k}"
                     for k, name in enumerate(names[1:], start=1)]
    return names


def multi_system(evaluation: Evaluation, labels: Sequence[str], args: argparse.Namespace,
                 out: TextIO) -> None:
    """sacrebleu's table of several systems: each metric's scores, or with a paired test its
    p-values, means and intervals against the first system; segment scores noted below."""
    names = system_names(evaluation, args)
    paired: PairedTestInfo | None = None
    method, n_samples, seed = "bs", 0, None
    if paired_test_asked(args):
        method = "bs" if args.paired_bs else "ar"
        asked = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        n_samples = asked if asked > 0 else (1000 if method == "bs" else 10000)
        seed = resampling_seed()
        paired = PairedTestInfo(method, asked)
    baseline = next(iter(evaluation.systems))
    columns: dict[str, list[Cell]] = {}
    signatures: dict[str, str] = {}
    notes: dict[str, SegmentNote] = {}
    widths: dict[str, int] = {}
    for label in labels:
        found = evaluation.scores(label)
        is_text = found.text_metric is not None
        name = (found.text_metric.score_stats(next(iter(found.stats.values()))).name
                if is_text else label)
        if paired is None:
            columns[name] = [Cell(found.scores[system]) for system in found.stats]
            signatures[name] = _signature(found, args) if is_text else ""
        else:
            results = evaluation.significance(label, baseline=baseline, method=method,
                                              n_samples=n_samples, seed=seed)
            columns[name] = [Cell(r.score, r.p_value, r.mean, r.ci, paired=True,
                                  n_segments=None if is_text else r.n_segments)
                             for r in results.values()]
            resampling = {method: n_samples, "seed": str(seed).lower()}
            signatures[name] = (_signature(found, args, **resampling) if is_text
                                else found.tested_signature(method, n_samples, seed))
        if not is_text:
            tested = [] if paired is None else [
                r.n_segments for r in list(results.values())[1:] if r.n_segments is not None]
            notes[name] = _segment_note(found, evaluation.n_segments, tested)
            widths[name] = max(args.width, SEGMENT_SCORE_DECIMALS)
    print(multi_system_report(names, columns, signatures, args.width, args.format, paired,
                              widths, notes), file=out)


def streamed_single_system(args: argparse.Namespace, out: TextIO) -> None:
    """One system against its references, read and scored chunk by chunk (bounded memory)."""
    from ..metrics.bleu import bleu_signature
    from ..metrics.bleu.score import BLEUOptions
    from ..metrics.streaming import score_totals, stream_totals

    hyp_path = args.input[0]
    options = BLEUOptions(**bleu_options(args))
    progress = terminal_progress(args)
    try:
        totals = stream_totals(
            iter_segments(hyp_path, args.encoding, args.line_limit),
            [iter_segments(path, args.encoding, args.line_limit) for path in args.refs],
            options, names=[hyp_path, *args.refs], progress=progress, force=args.force)
    except LengthMismatchError:
        # Count every file to word the error exactly as for files read whole.
        def count(path: str) -> int:
            return sum(1 for _ in iter_segments(path, args.encoding, args.line_limit))

        references = [[""] * count(path) for path in args.refs]
        hypotheses = [""] * count(hyp_path)
        check_lengths([(hyp_path, hypotheses)], references, args.refs)
        raise
    finally:
        if progress is not None:
            print(file=sys.stderr)
    if totals.n_segments == 0:
        raise ReadError(f"{hyp_path}: the system output is empty.")
    score = score_totals(totals, options)
    is_json = args.format == "json"
    signature = bleu_signature(options, totals.n_refs).format(args.short and not is_json)
    print(score.format(args.width, args.score_only, signature, is_json), file=out)

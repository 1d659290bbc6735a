"""The command line's learned metrics, ``-m comet``, ``-m bertscore`` and ``-m metricx``:
computed from a model on this machine (``bleu.metrics.learned``; never downloaded), cached in the
workspace database by model and text (so a second run, or the app, takes them from there), then
scored and tested as a ``--scores`` metric is (added to the evaluation: rows, confidence
intervals and paired tests on segment scores), in the direction its registry entry declares
(MetricX: lower is better). Loaded only when one is asked for (through the registry's ``load``).

The plan (segments to compute, those cached, the time estimated from one timed batch, the
device) is logged before the first batch, the signature after the scores; a progress line
follows on stderr when it is a terminal. Interrupted (Ctrl+C), a run keeps its finished batches
in the cache.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..evaluation import Evaluation, registry
from ..evaluation.registry import LEARNED, MetricSpec
from ..i18n import tr
from ..metrics.learned import Plan, Progress, ProgressCallback, Scorer, score
from ..metrics.learned.background import FallbackScoreCache
from ..metrics.learned.describe import plan_text, progress_text
from ..number_rule import COUNT
from ..workspace.config import database_location
from ..workspace.score_cache import score_cache
from .inputs import CommandLineError, paired_test_asked, read_segments
from .scores import CLI_HINT, check_pairs

logger = logging.getLogger("bleu.cli")

PROG = "bleu-explorer"
#: exit status after Ctrl+C, as a shell reports a process ended by SIGINT
INTERRUPTED = 130


def _specs() -> dict[str, MetricSpec]:
    """The learned metrics of ``-m``, by their command names, as the registry declares them."""
    return {spec.command_name: spec for spec in registry.declared()
            if spec.family == LEARNED and spec.command_name}


def _given(args: argparse.Namespace, flag: str) -> Any:
    """The value of ``flag`` (``--metricx-tokenizer``) on the command line (None or False if
    not given)."""
    return getattr(args, flag.lstrip("-").replace("-", "_"))


def asked(args: argparse.Namespace) -> list[str]:
    """The learned metrics of ``-m``, in the order given (each once)."""
    return [metric for metric in dict.fromkeys(args.metrics) if metric in _specs()]


def check_flags(args: argparse.Namespace) -> None:
    """Each learned metric has its model, each of its flags its metric; no ``--sentence-level``."""
    metrics = asked(args)
    for metric, spec in _specs().items():
        if metric in metrics and not _given(args, spec.model_flag):
            raise CommandLineError(tr(
                "-m {metric} needs its model: {flag} PATH_OR_NAME (a folder, or a name in the "
                "Hugging Face cache; nothing is downloaded).").format(metric=metric,
                                                                     flag=spec.model_flag))
        flags = [spec.model_flag, *spec.model_flags]
        flags += [spec.reference_free_flag] if spec.reference_free_flag else []
        for flag in flags:
            if _given(args, flag) not in (None, False) and metric not in metrics:
                raise CommandLineError(tr("{flag} is for -m {metric}, which is not asked for; "
                                          "add {metric} to -m.").format(flag=flag,
                                                                        metric=metric))
    if args.source and not any(_specs()[metric].needs_source for metric in metrics):
        readers = [f"-m {metric}" for metric, spec in _specs().items() if spec.needs_source]
        raise CommandLineError(tr("--source is read by {metrics} only, which are not asked "
                                  "for.").format(metrics=" and ".join(readers)))
    if metrics and args.sentence_level:
        raise CommandLineError(tr("-m {metric} is not available with --sentence-level: its "
                                  "segment scores are in the table's paired tests and "
                                  "confidence intervals.").format(metric=metrics[0]))


def _scorer(spec: MetricSpec, args: argparse.Namespace) -> tuple[Scorer, str]:
    """The model loaded through its registry entry (the slow part), with the options its flags
    give, and the label its scores are shown under."""
    model = str(_given(args, spec.model_flag))
    options = {option: _given(args, flag) for flag, option in spec.model_flags.items()}
    logger.info(tr("Loading the {metric} model {model}…").format(metric=spec.name,
                                                                 model=model))
    scorer: Scorer = spec.load(model, **options)  # type: ignore[misc]
    return scorer, spec.label(model, scorer=scorer, **options)  # type: ignore[misc]


def terminal_progress(label: str, stream: TextIO, quiet: bool) -> ProgressCallback:
    """The plan logged at the first report; on a terminal, a progress line rewritten after
    each batch (and ended with a line break at the last)."""
    on_terminal = not quiet and stream.isatty()
    planned: list[bool] = []

    def report(progress: Progress) -> None:
        if not planned:
            planned.append(True)
            logger.info(tr("{label}: {plan}").format(label=label, plan=plan_text(Plan(
                progress.total, progress.cached, progress.estimate), _gpu_name())))
        if on_terminal and progress.total:
            end = "\n" if progress.done >= progress.total else ""
            print(f"\r{PROG}: {label}: {progress_text(progress)}", end=end, file=stream,
                  flush=True)
    return report


def _gpu_name() -> str | None:
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None
    return str(torch.cuda.get_device_name(0))


def _source(args: argparse.Namespace, n_segments: int, metric: str) -> list[str]:
    if not args.source:
        raise CommandLineError(tr("-m {metric} reads the source segments: give them with "
                                  "--source FILE (one segment a line, as the references).")
                               .format(metric=metric))
    sources = read_segments(args.source, args.encoding, args.line_limit)
    if len(sources) != n_segments:
        raise CommandLineError(tr("{path} has {found} lines, but the systems have {expected}; "
                                  "--source needs one line per segment.").format(
            path=args.source, found=len(sources), expected=n_segments))
    return sources


def add_learned_metrics(evaluation: Evaluation, args: argparse.Namespace,
                        taken: Sequence[str]) -> list[str]:
    """Every learned metric of ``-m`` computed (or taken from the cache) for the evaluation's
    systems and added to it as segment scores, in the direction its registry entry declares;
    ``taken`` are the labels of the table's other columns. Returns the labels, in order."""
    metrics = asked(args)
    if not metrics:
        return []
    specs = _specs()
    reading = [metric for metric in metrics if specs[metric].needs_source]
    sources = _source(args, evaluation.n_segments, reading[0]) if reading else None
    cache = FallbackScoreCache(score_cache(database_location()))
    labels = []
    for metric in metrics:
        spec = specs[metric]
        scorer, label = _scorer(spec, args)
        if label in taken:
            raise CommandLineError(tr("{label} is also the name of a --scores metric; name "
                                      "that file's scores with --scores-label.").format(
                label=label))
        reference_free = bool(spec.reference_free_flag and _given(args, spec.reference_free_flag))
        streams = [] if reference_free else evaluation.references
        try:
            result = score(scorer, evaluation.systems, sources=sources, references=streams,
                           cache=cache, progress=terminal_progress(label, sys.stderr,
                                                                   args.quiet))
        except KeyboardInterrupt:
            print(file=sys.stderr)
            logger.warning(tr("{label}: interrupted; the batches finished are kept in the "
                              "cache, and the next run starts from there.").format(label=label))
            raise SystemExit(INTERRUPTED) from None
        logger.info(tr("{label}: {computed} segments computed, {cached} taken from the "
                       "cache.").format(label=label, computed=COUNT.text(result.computed),
                                        cached=COUNT.text(result.cached)))
        logger.info(tr("{label}: signature {signature}").format(label=label,
                                                                 signature=result.signature))
        labels.append(evaluation.add_scores(result.to_segment_scores(label),
                                            higher_is_better=spec.higher_is_better,
                                            require_all=True, hint=CLI_HINT))
        if paired_test_asked(args):
            check_pairs(evaluation, labels[-1])
    if cache.failure:
        logger.warning(tr("The scores were not kept for the next run: {error}").format(
            error=cache.failure))
    return labels

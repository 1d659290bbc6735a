"""``bleu-explorer`` / ``python -m bleu``: sacrebleu's command line for BLEU, chrF and TER, on one
path: parse the flags (``parser``, checked by ``options``), read the files (``inputs``), build an
``Evaluation`` with the metrics asked for (``scores`` adds ``--scores`` files, ``learned`` the
learned metrics), print what it returns (``report``, in sacrebleu 2.6's JSON or text).

Test-set downloads are refused: BLEU Explorer never goes online. Nothing heavy is imported
before the arguments are read: ``--help`` or a bad flag costs a Python start; each metric loads
when it is used. Input is read as a stream (``streams``): binary or newline-less input is
refused after its first blocks, and a closed or terminal stdin is named before any file is read.
BLEU alone on one file is scored while it is read (``report.streamed_single_system``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from ..errors import InputError, MissingModelError
from ..i18n import tr
from ..metrics.threads import blas_on_one_thread_from_start
from .inputs import check_lengths, check_stdin, read_references, read_systems
from .options import (
    bleu_options,
    check_flags,
    check_modes,
    streams,
    text_metrics,
    warn_about_language,
)
from .output import FORMATS
from .parser import LEARNED_METRICS, PROG, SPM_TOKENIZERS, build_parser

logger = logging.getLogger("bleu.cli")


def run(args: argparse.Namespace, stdin: TextIO | None, out: TextIO) -> None:
    """Score what ``args`` asks for and print it to ``out`` in sacrebleu's shape (``stdin`` is
    None where the process has none)."""
    check_flags(args)
    if args.spm_model is None:
        _score(args, stdin, out)
        return
    from ..metrics.tokenizers.spm import set_spm_model

    tokenize = str(bleu_options(args)["tokenize"])
    set_spm_model(tokenize, args.spm_model)
    try:
        _score(args, stdin, out)
    finally:
        set_spm_model(tokenize, None)  # a later call in this process sets its own


def _score_names(args: argparse.Namespace) -> list[str]:
    """The score names of ``-m``'s text metrics (``BLEU``, ``chrF2++``...): each metric is made
    without references, so bad options (a tokenizer, a smoothing method, a chrF order...) fail
    before any file is read."""
    from ..evaluation import registry

    try:
        registry.get("BLEU").make(**bleu_options(args))
        return [registry.get(name).make(**options).name
                for name, options in text_metrics(args).items()]
    except MissingModelError as error:
        if bleu_options(args)["tokenize"] not in SPM_TOKENIZERS:
            raise
        raise MissingModelError(tr("{error} Or give the file with --spm-model FILE.").format(
            error=error)) from None


def _score(args: argparse.Namespace, stdin: TextIO | None, out: TextIO) -> None:
    taken = _score_names(args)
    warn_about_language(args)
    if args.input is None and args.workspace is None:
        check_stdin(stdin)  # closed, or a terminal: say so before reading the references
    if args.workspace is not None or args.save_workspace is not None:
        from .workspace import workspace_inputs

        references, ref_names, systems = workspace_inputs(args, stdin, bleu_options(args))
    elif streams(args):
        from .report import streamed_single_system

        streamed_single_system(args, out)
        return
    else:
        references, ref_names = read_references(args.refs, args.num_refs, args.encoding,
                                                 args.line_limit)
        systems = read_systems(args, stdin, (len(references[0]), ref_names[0]))
    check_modes(args, len(systems))
    check_lengths(systems, references, ref_names)
    from ..evaluation import Evaluation
    from . import report

    evaluation = Evaluation(dict(systems), references, **bleu_options(args))
    asked = text_metrics(args)
    for name, options in asked.items():
        evaluation.add_metric(name, **options)
    if "BLEU" in asked and not args.force:  # sacrebleu's warning, once per system
        from ..metrics.bleu.engine import warn_if_tokenized

        for _, hypotheses in systems:
            warn_if_tokenized(hypotheses)
    scored: list[str] = []
    if args.scores:  # read and matched before any metric is computed: a bad file fails fast
        from .scores import add_score_files

        if args.save_workspace is not None:
            logger.info(tr("--save-workspace saved the texts and options; the --scores files "
                           "are not saved with them (the app's Metrics & human scores page adds "
                           "them)."))
        scored = add_score_files(evaluation, args, taken)
    if set(args.metrics) & set(LEARNED_METRICS):
        from .learned import add_learned_metrics

        scored = add_learned_metrics(evaluation, args, [*taken, *scored]) + scored
    labels = [*asked, *scored]
    if args.sentence_level:
        report.sentence_level(evaluation, labels[0], args, out)
    elif len(systems) == 1:
        report.single_system(evaluation, labels, args, out)
    else:
        logger.info("Found %d systems.", len(systems))
        if args.paired_jobs != 1:
            logger.info("--paired-jobs is ignored: the paired tests are vectorized in one "
                        "process.")
        report.multi_system(evaluation, labels, args, out)


def _format_from_environment(args: argparse.Namespace) -> None:
    value = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if value in FORMATS:
        args.format = value


def main(argv: Sequence[str] | None = None) -> int:
    """The ``bleu-explorer`` entry point: returns the exit status (0, or 1 on bad input)."""
    blas_on_one_thread_from_start()
    args = build_parser().parse_args(argv)
    _format_from_environment(args)
    out = sys.stdout
    if hasattr(out, "reconfigure") and (out.encoding or "").lower() not in ("utf-8", "utf8"):
        out.reconfigure(encoding="utf-8")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
    package_logger = logging.getLogger("bleu")
    saved_level = package_logger.level
    package_logger.addHandler(handler)
    package_logger.setLevel(logging.WARNING if args.quiet else logging.INFO)
    try:
        run(args, sys.stdin, out)
    except InputError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader left early (`| head`): stop quietly, as sacrebleu does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        package_logger.removeHandler(handler)
        package_logger.setLevel(saved_level)
    return 0

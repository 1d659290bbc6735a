"""What the flags ask for, checked before any file is read: refused combinations, each metric's
options by sacrebleu's argument names, the language's tokenizer, the resampling seed.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable

from ..i18n import tr
from .inputs import CommandLineError, paired_test_asked
from .parser import (
    DEFAULT_SEED,
    LEARNED_FLAGS,
    LEARNED_METRICS,
    PROG,
    SPM_TOKENIZERS,
    TEST_SET_FLAGS,
)

logger = logging.getLogger("bleu.cli")


def resampling_seed() -> int | None:
    """The seed of bootstrap and randomization, from SACREBLEU_SEED as sacrebleu reads it.

    Default 12345; ``none`` draws fresh entropy (so results change from run to run).
    """
    value = os.environ.get("SACREBLEU_SEED", DEFAULT_SEED)
    if value.lower() == "none":
        return None
    try:
        return int(value)
    except ValueError:
        raise CommandLineError(
            f"SACREBLEU_SEED must be an integer or 'none', found {value!r}."
        ) from None


def check_flags(args: argparse.Namespace) -> None:
    """Refuse what needs the internet, with a message saying why."""
    for flag in TEST_SET_FLAGS:
        if getattr(args, flag):
            option = "--" + flag.replace("_", "-")
            raise CommandLineError(
                f"{option} needs sacrebleu's online test sets; BLEU Explorer never downloads "
                "anything. Give reference files as positional arguments instead."
            )
    if args.sentence_level and args.scores:
        raise CommandLineError(tr("--scores is not available with --sentence-level: a segment "
                                  "score file holds each segment's score already."))
    if not args.scores and (args.scores_alias or args.scores_label or
                            args.scores_lower_is_better or args.scores_higher_is_better):
        raise CommandLineError(tr("--scores-alias, --scores-label and the --scores-*-is-better "
                                  "flags describe --scores files; none was given."))
    if set(args.metrics) & set(LEARNED_METRICS) or any(getattr(args, flag)
                                                        for flag in LEARNED_FLAGS):
        from .learned import check_flags as check_learned_flags

        check_learned_flags(args)
    if args.spm_model is not None and bleu_options(args)["tokenize"] not in SPM_TOKENIZERS:
        raise CommandLineError(tr("--spm-model is the SentencePiece model of -tok flores101, "
                                  "flores200 or spBLEU-1K; -tok is {tokenize}.").format(
            tokenize=bleu_options(args)["tokenize"]))
    if args.sentence_level and len(set(args.metrics)) > 1:
        raise CommandLineError("Only one metric can be used with --sentence-level; "
                               f"{len(set(args.metrics))} were given with -m.")


def target_language(args: argparse.Namespace) -> str:
    return args.langpair.split("-")[-1] if args.langpair else ""


def warn_about_language(args: argparse.Namespace) -> None:
    """Once per run: a -l that is not a pair, and a tokenizer other than the target's own."""
    from ..metrics.tokenizers import LANGUAGE_TOKENIZERS

    if args.langpair is not None and "-" not in args.langpair:
        logger.warning("-l expects a source-target pair such as en-de; %r is taken as the "
                       "target language.", args.langpair)
    target = target_language(args)
    scores_bleu = "bleu" in {metric.lower() for metric in args.metrics}
    if scores_bleu and args.tokenize is not None and \
            LANGUAGE_TOKENIZERS.get(target, args.tokenize) != args.tokenize:
        logger.warning("Consider using the %r tokenizer for target language %r.",
                       LANGUAGE_TOKENIZERS[target], target)


def bleu_options(args: argparse.Namespace) -> dict[str, object]:
    """BLEU's options (``BLEUOptions``' names): the flags, the target language's tokenizer."""
    from ..metrics.tokenizers import language_tokenizer

    tokenize = args.tokenize
    if tokenize is None:
        tokenize = language_tokenizer(target_language(args))
    return {"tokenize": tokenize, "lowercase": args.lowercase,
            "smooth_method": args.smooth_method, "smooth_value": args.smooth_value,
            "max_ngram_order": args.max_ngram_order,
            "effective_order": bool(args.sentence_level)}


def chrf_options(args: argparse.Namespace) -> dict[str, object]:
    """chrF's options (``CHRFOptions``' names) from its flags."""
    return {"char_order": args.chrf_char_order, "word_order": args.chrf_word_order,
            "beta": args.chrf_beta, "lowercase": args.chrf_lowercase,
            "whitespace": args.chrf_whitespace, "eps_smoothing": args.chrf_eps_smoothing}


def ter_options(args: argparse.Namespace) -> dict[str, object]:
    """TER's options (``TEROptions``' names) from its flags."""
    return {"normalized": args.ter_normalized, "no_punct": args.ter_no_punct,
            "asian_support": args.ter_asian_support, "case_sensitive": args.ter_case_sensitive}


def text_metrics(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """The text metrics of ``-m`` (registered names) with the options their flags give, in
    sacrebleu's order (its score names sorted: BLEU, CHRF, TER). BLEU's options are the
    evaluation's own (``bleu_options``), so BLEU takes none here."""
    wanted = {metric.lower() for metric in args.metrics}
    found: dict[str, dict[str, object]] = {}
    if "bleu" in wanted:
        found["BLEU"] = {}
    if "chrf" in wanted:
        found["chrF"] = chrf_options(args)
    if "ter" in wanted:
        found["TER"] = ter_options(args)
    return found


def check_modes(args: argparse.Namespace, n_systems: int) -> None:
    if args.sentence_level:
        if n_systems > 1:
            raise CommandLineError(f"Only one system can be scored with --sentence-level; "
                                   f"{n_systems} were given.")
        if args.confidence or paired_test_asked(args):
            raise CommandLineError("Confidence intervals and paired tests are not available "
                                   "with --sentence-level.")
    if paired_test_asked(args) and n_systems == 1:
        raise CommandLineError("Paired tests (--paired-bs, --paired-ar) need two or more systems "
                               "given with -i (the first is the baseline); one was given.")
    if args.confidence and n_systems > 1:
        raise CommandLineError(f"--confidence is for one system; for {n_systems} systems use a "
                               "paired test (--paired-bs or --paired-ar).")


def streams(args: argparse.Namespace) -> bool:
    """Whether to score in chunks while reading: one system file, BLEU alone, one corpus score,
    plain references."""
    return (args.input is not None and len(args.input) == 1 and not args.sentence_level
            and not args.scores and not args.confidence and not paired_test_asked(args)
            and args.num_refs == 1 and bool(args.refs) and set(args.metrics) == {"bleu"})


def terminal_progress(args: argparse.Namespace) -> Callable[[int], None] | None:
    """A one-line counter on stderr while big files are scored (only on a terminal)."""
    if args.quiet or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{PROG}: {done:,} segments scored", end="", file=sys.stderr, flush=True)
    return show

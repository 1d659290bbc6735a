"""``bleu-explorer`` / ``python -m bleu``: sacrebleu's command line for BLEU, chrF and TER.

Reference files are positional, systems come from ``-i`` (or tab-separated on stdin), metrics
from ``-m bleu chrf ter``; the output is sacrebleu 2.6's JSON or text (one system, ``-sl``
lines, or the multi-system table with paired tests). Test-set downloads are refused: BLEU
Explorer never goes online. Nothing heavy is imported before the arguments are read: ``--help``
or a bad flag costs a Python start; each metric loads when it is used. ``--scores FILE`` adds a
segment-score metric (COMET, MQM...: ``scores``, loaded only then); ``-m comet`` and
``-m bertscore`` compute one from a model on disk (``learned``, loaded only then). Input is
read as a stream (``streams``): binary or newline-less input is refused after its first blocks,
and a closed or terminal stdin is named before any file is read.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .._version import __version__
from ..errors import InputError, LengthMismatchError, MissingModelError, ReadError
from ..i18n import tr
from ..metrics.threads import blas_on_one_thread_from_start
from .inputs import (
    CommandLineError,
    check_lengths,
    check_stdin,
    iter_segments,
    paired_test_asked,
    read_references,
    read_systems,
)
from .output import (
    FORMATS,
    Cell,
    PairedTestInfo,
    SegmentNote,
    multi_system_report,
    segment_score_line,
    single_system_report,
)
from .streams import MAX_LINE_CHARS

#: spBLEU's tokenizers (bleu.metrics.tokenizers.SPM_TOKENIZER_NAMES, named here so that
#: ``--help`` needs nothing more)
SPM_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")

if TYPE_CHECKING:
    from .scores import ScoreMetric

PROG = "bleu-explorer"
logger = logging.getLogger("bleu.cli")

#: the metrics of ``-m``, by sacrebleu's names, then the learned ones (``learned``)
METRICS = ("bleu", "chrf", "ter", "comet", "bertscore", "metricx")
#: the text metrics of ``-m``, which sacrebleu computes too
TEXT_METRICS = ("bleu", "chrf", "ter")
#: the flags of the learned metrics: with any of them given, ``learned`` checks them
LEARNED_FLAGS = ("comet_model", "bertscore_model", "bertscore_layers", "source",
                 "comet_no_reference", "metricx_model",
                 "metricx_tokenizer")  # each None or False unless given
#: BLEU's smoothing methods (bleu.metrics.bleu.score.SMOOTH_DEFAULTS, named here so that
#: ``--help`` needs no numpy)
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")
#: sacrebleu flags that need its online test sets; refused with a message
TEST_SET_FLAGS = ("test_set", "download", "echo", "origlang", "subset", "list", "citation",
                  "detail")
DEFAULT_SEED = "12345"
#: options whose value may start with '-': a workspace id (from ``secrets.token_urlsafe``) can
DASH_VALUE_OPTIONS = ("--workspace", "--save-workspace")
#: the least decimals of a segment-score metric (comet-score prints 4; ``--width`` may give more)
SEGMENT_SCORE_DECIMALS = 4


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2, as argparse), and
    that takes the word after ``--workspace`` or ``--save-workspace`` as its value even when it
    starts with '-' (argparse alone reads ``--workspace -Zx3`` as two options)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        arguments = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._attach_dash_values(arguments), namespace)

    def _full_option(self, word: str) -> str | None:
        """The long option ``word`` names, as argparse resolves it (exact, or a unique prefix)."""
        if word in self._option_string_actions:
            return word
        if not word.startswith("--") or "=" in word:
            return None
        matches = [option for option in self._option_string_actions if option.startswith(word)]
        return matches[0] if len(matches) == 1 else None

    def _attach_dash_values(self, arguments: list[str]) -> list[str]:
        """``--workspace -Zx3`` as ``--workspace=-Zx3``, which argparse reads as one option and
        its value; a value that is itself an option (``--workspace -i``) is left to argparse."""
        attached: list[str] = []
        words = iter(arguments)
        for word in words:
            if word == "--":  # the rest are positional
                attached += [word, *words]
                break
            if self._full_option(word) in DASH_VALUE_OPTIONS:
                value = next(words, None)
                if value is not None and value.startswith("-") and value != "--" \
                        and value not in self._option_string_actions:
                    attached.append(f"{word}={value}")
                    continue
                attached += [word] if value is None else [word, value]
                continue
            attached.append(word)
        return attached


def build_parser() -> argparse.ArgumentParser:
    """sacrebleu 2.6's flags (no test-set downloads), with its names, short forms and defaults."""
    parser = _Parser(prog=PROG, description="BLEU, chrF and TER exactly as sacrebleu computes "
                     "them, with its flags and output. Example: bleu-explorer ref.de -i hyp.de "
                     "-m bleu chrf ter -f text. 'bleu-explorer app' starts the web app "
                     "(see bleu-explorer app --help).",
                     epilog="sacrebleu's test-set flags (-t, --download, --echo, --list, "
                     "--citation, --origlang, --subset, --detail) are refused: BLEU Explorer "
                     "never downloads anything.")
    add = parser.add_argument
    add("refs", nargs="*", default=[],
        help="Reference files (one segment per line); give them before -i/--input.")
    add("--input", "-i", nargs="*", default=None,
        help="System output file(s); several systems give a table. Default: read stdin "
        "(several systems as tab-separated columns; it must be piped in, not a terminal).")
    add("--num-refs", "-nr", type=int, default=1,
        help="Split one reference file on tabs into this many references (default: 1).")
    add("--encoding", "-e", default="utf-8", help="Encoding of the files (default: utf-8).")
    add("--line-limit", type=_at_least_one("a whole number of characters"),
        default=MAX_LINE_CHARS, metavar="CHARS",
        help=f"Refuse input with a line longer than this as binary or not line-based, naming the "
        f"file (or stdin) and line (default: {MAX_LINE_CHARS:,} characters; a NUL byte is "
        "refused too). BLEU Explorer's addition: sacrebleu reads any line.")
    add("--metrics", "-m", nargs="+", default=["bleu"], choices=METRICS,
        help="Metrics to compute: bleu, chrf, ter (default: bleu); comet and bertscore from a "
        "model on this machine (BLEU Explorer's addition: see the learned metrics' flags).")
    add("--sentence-level", "-sl", action="store_true", help="Score each sentence.")
    add("--language-pair", "-l", dest="langpair", default=None,
        help="Source-target pair (e.g. en-zh): picks the target language's default tokenizer.")
    bleu = parser.add_argument_group("BLEU options")
    bleu.add_argument("--smooth-method", "-s", default="exp",
                      help=f"Smoothing: {', '.join(SMOOTH_METHODS)} (default: exp).")
    bleu.add_argument("--smooth-value", "-sv", type=float, default=None,
                      help="The smoothing value for floor and add-k (defaults: 0.1 and 1).")
    bleu.add_argument("--tokenize", "-tok", default=None,
                      help="Tokenizer: none, 13a, intl, zh, char, ja-mecab, ko-mecab, and "
                      "spBLEU's flores101 (spm), flores200, spBLEU-1K with --spm-model "
                      "(default: 13a, or the -l target language's).")
    bleu.add_argument("--spm-model", default=None, metavar="FILE",
                      help="The SentencePiece model file of -tok flores101, flores200 or "
                      "spBLEU-1K (sacrebleu downloads it; BLEU Explorer never does: "
                      "sacrebleu keeps its copy in ~/.sacrebleu/models). BLEU Explorer's "
                      "addition.")
    bleu.add_argument("--lowercase", "-lc", action="store_true", help="Case-insensitive BLEU.")
    bleu.add_argument("--force", action="store_true",
                      help="No warning for input that looks tokenized.")
    bleu.add_argument("--max-ngram-order", type=int, default=4,
                      help="Largest n-gram order (default: 4). BLEU Explorer's addition: sacrebleu "
                      "has no such flag, and the signature does not show it.")
    chrf = parser.add_argument_group("chrF options")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=6,
                      help="Character n-gram order (default: 6).")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=0,
                      help="Word n-gram order; 2 gives chrF++ (default: 0).")
    chrf.add_argument("--chrf-beta", type=int, default=2,
                      help="How much more recall counts than precision (default: 2).")
    chrf.add_argument("--chrf-whitespace", action="store_true",
                      help="Keep whitespace in character n-grams.")
    chrf.add_argument("--chrf-lowercase", action="store_true", help="Case-insensitive chrF.")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true",
                      help="Epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order.")
    ter = parser.add_argument_group("TER options (the defaults are TERCOM's)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="Case-sensitive TER.")
    ter.add_argument("--ter-asian-support", action="store_true",
                     help="Tokenize Asian scripts (CJK, kana) for TER.")
    ter.add_argument("--ter-no-punct", action="store_true", help="Remove punctuation.")
    ter.add_argument("--ter-normalized", action="store_true",
                     help="Normalize the text as TERCOM's -N does.")
    stats = parser.add_argument_group("confidence intervals and paired significance tests")
    stats.add_argument("--confidence", "-ci", action="store_true",
                       help="Report a bootstrap 95%% confidence interval (one system).")
    stats.add_argument("--confidence-n", "-cin", type=int, default=1000,
                       help="Bootstrap resamples for --confidence (default: 1000).")
    paired = stats.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true",
                        help="Paired approximate randomization test against the first system.")
    paired.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="Paired bootstrap resampling test against the first system.")
    stats.add_argument("--paired-ar-n", "-parn", type=int, default=10000,
                       help="Trials of the approximate randomization test (default: 10000).")
    stats.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000,
                       help="Resamples of the paired bootstrap test (default: 1000).")
    stats.add_argument("--paired-jobs", "-j", type=int, default=1,
                       help="Accepted for sacrebleu compatibility and ignored: the tests are "
                       "vectorized in one process.")
    scored = parser.add_argument_group(
        "segment-score metrics (BLEU Explorer's addition)",
        "Per-segment scores of a metric or of human raters (COMET, xCOMET, BLEURT, MetricX, MQM, "
        "DA...) as a metric beside -m's: each system's score is the mean over its rated "
        "segments, and a paired test uses the segments rated for both systems. Example: "
        "bleu-explorer ref.de -i a.de b.de --scores comet.tsv --paired-bs.")
    scored.add_argument("--scores", action="append", metavar="FILE",
                        help="A file of segment scores, repeatable: a table with a header "
                        "(system, seg_id, score), WMT's MQM TSV, JSON Lines, comet-score's "
                        "printout or its --to_json file, or one score per line for one system "
                        "(hyp.NAME.de.comet). A system is named by its -i file's path, base "
                        "name or guessed name (UEdin for newstest2021.en-de.hyp.UEdin.de); "
                        "other systems of the file are left out. Scores are printed with at "
                        f"least {SEGMENT_SCORE_DECIMALS} decimals.")
    scored.add_argument("--scores-alias", action="append", type=_pair, metavar="FILE_NAME=SYSTEM",
                        help="The score files' system FILE_NAME is the -i system SYSTEM "
                        "(repeatable). WMT21's MQM name Nemo is matched to NVIDIA-NeMo without it.")
    scored.add_argument("--scores-label", action="append", type=_pair, metavar="FILE=LABEL",
                        help="Name the metric of a --scores FILE (default: its score column, "
                        "COMET for comet-score's output, the suffix of one-system files).")
    scored.add_argument("--scores-lower-is-better", action="append", metavar="LABEL",
                        help="The metric LABEL is better when lower (default: guessed from the "
                        "name: MetricX, penalties, errors, TER-like rates are; COMET, BLEURT, "
                        "DA and WMT's negated MQM are not).")
    scored.add_argument("--scores-higher-is-better", action="append", metavar="LABEL",
                        help="The metric LABEL is better when higher, whatever its name says.")
    learned = parser.add_argument_group(
        "learned metrics (BLEU Explorer's addition; pip install 'bleu-explorer[learned]')",
        "COMET and BERTScore computed from a model on this machine (a folder, or a name in the "
        "Hugging Face cache: nothing is downloaded), on the GPU when torch sees one; scored and "
        "tested as --scores metrics are. Scores are kept in BLEU_EXPLORER_DB by model and text, "
        "so each is computed once. Example: bleu-explorer ref.de -i a.de b.de -m bleu comet "
        "--comet-model Unbabel/wmt22-comet-da --source src.en --paired-bs.")
    learned.add_argument("--comet-model", default=None, metavar="PATH_OR_NAME",
                         help="The COMET model of -m comet: its folder (hparams.yaml beside "
                         "checkpoints/), its checkpoints/model.ckpt, or its Hugging Face name "
                         "(Unbabel/wmt22-comet-da, Unbabel/XCOMET-XL, a cometkiwi model).")
    learned.add_argument("--source", default=None, metavar="FILE",
                         help="The source segments, one a line: COMET reads them.")
    learned.add_argument("--comet-no-reference", action="store_true",
                         help="Score without the reference, for a model that can (xCOMET).")
    learned.add_argument("--bertscore-model", default=None, metavar="PATH_OR_NAME",
                         help="The BERTScore model of -m bertscore: a Hugging Face model folder "
                         "or cached name (roberta-large); the score is F1, the best over the "
                         "references.")
    learned.add_argument("--bertscore-layers", type=_at_least_one("a layer number"),
                         default=None, metavar="N",
                         help="The layer whose embeddings BERTScore compares (bert_score's "
                         "num_layers; default: bert_score's for the models it names).")
    learned.add_argument("--metricx-model", default=None, metavar="PATH_OR_NAME",
                         help="The MetricX-24 model of -m metricx (an error score from 0 to 25: "
                         "lower is better); reads --source, and the first reference if given.")
    learned.add_argument("--metricx-tokenizer", default=None, metavar="PATH_OR_NAME",
                         help="The folder of MetricX's mT5 tokenizer (google/mt5-xl), where "
                         "the model's folder does not hold it.")
    saved = parser.add_argument_group(
        "workspaces", "Saved in BLEU_EXPLORER_DB (an SQLite file or a postgresql:// URL; default: "
        "the user's data folder), shared with the app.")
    saved.add_argument("--workspace", default=None, metavar="ID_OR_NAME",
                       help="Score a saved workspace: its references, and its systems unless -i "
                       "gives other files. An id that starts with '-' is read as the id (or give "
                       "--workspace=ID).")
    saved.add_argument("--save-workspace", default=None, metavar="NAME",
                       help="Save the references and systems given as a new workspace NAME "
                       "(the app reopens it by its id: ?ws=ID).")
    report = parser.add_argument_group("output")
    report.add_argument("--quiet", "-q", action="store_true", help="No informational messages.")
    report.add_argument("--short", "-sh", action="store_true", help="The short signature.")
    report.add_argument("--score-only", "-b", action="store_true", help="Print the score only.")
    report.add_argument("--width", "-w", type=_decimals, default=1,
                        help="Decimals of the scores (default: 1).")
    report.add_argument("--no-color", "-nc", action="store_true",
                        help="Accepted for sacrebleu compatibility: output is never colored.")
    report.add_argument("--format", "-f", default="json", choices=FORMATS,
                        help="Output format (default: json; the SACREBLEU_FORMAT environment "
                        "variable overrides it, as in sacrebleu).")
    report.add_argument("--version", "-V", action="version", version=f"{PROG} {__version__}")
    for flags, extra in ((("--test-set", "-t"), {}), (("--download",), {}),
                         (("--echo",), {"nargs": "+"}), (("--origlang", "-ol"), {}),
                         (("--subset",), {})):
        parser.add_argument(*flags, default=None, help=argparse.SUPPRESS, **extra)
    for flags in (("--list",), ("--citation", "--cite"), ("--detail", "-d")):
        parser.add_argument(*flags, action="store_true", help=argparse.SUPPRESS)
    return parser


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


def _decimals(text: str) -> int:
    """``--width``: a whole number of decimals, 0 or more (sacrebleu crashes on -1)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number of decimals, 0 or more; "
                                         f"got {text!r}")
    return value


def _pair(text: str) -> tuple[str, str]:
    """``--scores-alias`` and ``--scores-label``: ``NAME=VALUE``, both parts given (split at the
    first '=')."""
    name, equals, value = text.partition("=")
    if not equals or not name or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. Nemo=NVIDIA-NeMo; got "
                                         f"{text!r}")
    return name, value


def _at_least_one(what: str) -> Callable[[str], int]:
    """An argparse type: a whole number, 1 or more, that argparse's message calls ``what``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"must be {what}, 1 or more; got {text!r}")
        return value
    return parse


def _check_flags(args: argparse.Namespace) -> None:
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
    if set(args.metrics) & {"comet", "bertscore", "metricx"} or any(getattr(args, flag) for flag in
                                                          LEARNED_FLAGS):
        from .learned import check_flags

        check_flags(args)
    if args.spm_model is not None and _bleu_options(args)["tokenize"] not in SPM_TOKENIZERS:
        raise CommandLineError(tr("--spm-model is the SentencePiece model of -tok flores101, "
                                  "flores200 or spBLEU-1K; -tok is {tokenize}.").format(
            tokenize=_bleu_options(args)["tokenize"]))
    if args.sentence_level and len(set(args.metrics)) > 1:
        raise CommandLineError("Only one metric can be used with --sentence-level; "
                               f"{len(set(args.metrics))} were given with -m.")


def _target_language(args: argparse.Namespace) -> str:
    return args.langpair.split("-")[-1] if args.langpair else ""


def _warn_about_language(args: argparse.Namespace) -> None:
    """Once per run: a -l that is not a pair, and a tokenizer other than the target's own."""
    from ..metrics.bleu import LANGUAGE_TOKENIZERS

    if args.langpair is not None and "-" not in args.langpair:
        logger.warning("-l expects a source-target pair such as en-de; %r is taken as the "
                       "target language.", args.langpair)
    target = _target_language(args)
    scores_bleu = "bleu" in {metric.lower() for metric in args.metrics}
    if scores_bleu and args.tokenize is not None and \
            LANGUAGE_TOKENIZERS.get(target, args.tokenize) != args.tokenize:
        logger.warning("Consider using the %r tokenizer for target language %r.",
                       LANGUAGE_TOKENIZERS[target], target)


def _bleu_options(args: argparse.Namespace) -> dict[str, object]:
    from ..metrics.bleu import LANGUAGE_TOKENIZERS

    tokenize = args.tokenize
    if tokenize is None:
        tokenize = LANGUAGE_TOKENIZERS.get(_target_language(args), "13a")
    return {"tokenize": tokenize, "lowercase": args.lowercase,
            "smooth_method": args.smooth_method, "smooth_value": args.smooth_value,
            "max_ngram_order": args.max_ngram_order,
            "effective_order": bool(args.sentence_level)}


def _check_modes(args: argparse.Namespace, n_systems: int) -> None:
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


def _metrics(args: argparse.Namespace, references: Any = None) -> dict[str, Any]:
    """The metrics of ``-m`` by sacrebleu's score names, in its order (sorted), references
    processed once; built without references first, bad options fail before files are read."""
    found: dict[str, Any] = {}
    for name in sorted({metric.upper() for metric in args.metrics if metric in TEXT_METRICS}):
        if name == "BLEU":
            from ..metrics.bleu import BLEU

            found[name] = BLEU(**_bleu_options(args), force=args.force, references=references)
        elif name == "CHRF":
            from ..metrics.chrf import CHRF

            found[name] = CHRF(char_order=args.chrf_char_order, word_order=args.chrf_word_order,
                               beta=args.chrf_beta, lowercase=args.chrf_lowercase,
                               whitespace=args.chrf_whitespace,
                               eps_smoothing=args.chrf_eps_smoothing, references=references)
        else:
            from ..metrics.ter import TER

            found[name] = TER(normalized=args.ter_normalized, no_punct=args.ter_no_punct,
                              asian_support=args.ter_asian_support,
                              case_sensitive=args.ter_case_sensitive, references=references)
    return found


def _signature(metric: Any, args: argparse.Namespace, short: bool | None = None,
               **resampling: Any) -> str:
    """sacrebleu's signature of ``metric``, with the resampling fields of a test or CI."""
    return metric.get_signature(**resampling).format(args.short if short is None else short)


def _sentence_level(metric: Any, hypotheses: Sequence[str], args: argparse.Namespace,
                    out: TextIO) -> None:
    signature = _signature(metric, args)
    for row in metric.segment_stats(hypotheses):
        score = metric.score_stats(row[None, :])
        print(score.format(args.width, args.score_only, signature), file=out)


def _single_system(metrics: dict[str, Any], scored: Sequence[ScoreMetric],
                   hypotheses: Sequence[str], args: argparse.Namespace, out: TextIO) -> None:
    """One system's line per metric (and per ``--scores`` metric), with its CI if asked for."""
    is_json = args.format == "json"
    seed = resampling_seed() if args.confidence and args.confidence_n > 1 else None
    lines = []
    for metric in metrics.values():
        stats = metric.segment_stats(hypotheses)
        score = metric.score_stats(stats)
        resampling: dict[str, object] = {}
        interval = None
        if args.confidence and args.confidence_n > 1:
            from ..metrics.significance import bootstrap_ci_from_stats

            interval = bootstrap_ci_from_stats(stats, metric.scorer, n_samples=args.confidence_n,
                                               seed=seed)
            resampling = {"bs": args.confidence_n, "seed": str(seed).lower()}
        signature = _signature(metric, args, args.short and not is_json, **resampling)
        lines.append(score.format(args.width, args.score_only, signature, is_json, interval))
    for found in scored:
        lines.append(_segment_score_line(found, args, seed))
    print(single_system_report(lines, args.format), file=out)


def _segment_score_line(found: ScoreMetric, args: argparse.Namespace, seed: int | None) -> str:
    """A ``--scores`` metric's line for one system: its mean over the rated segments, and with
    ``--confidence`` the bootstrap over them (``bs:``/``seed:`` its signature)."""
    scores = found.scores
    (system, stats), = scores.stats.items()
    interval = None
    signature = ""
    if args.confidence and args.confidence_n > 1:
        from ..metrics.significance import bootstrap_ci_from_stats

        interval = bootstrap_ci_from_stats(stats, scores.scorer, n_samples=args.confidence_n,
                                           seed=seed)
        signature = scores.tested_signature("bs", args.confidence_n, seed)
    return segment_score_line(found.label, scores.scores[system], _segment_note(found),
                              max(args.width, SEGMENT_SCORE_DECIMALS), args.score_only,
                              signature, args.format == "json", interval)


def _segment_note(found: ScoreMetric, tested: Sequence[int] = ()) -> SegmentNote:
    return SegmentNote(found.source, found.higher_is_better, tuple(found.rated()),
                       found.n_segments, tuple(tested))


def _system_names(systems: list[tuple[str, list[str]]], args: argparse.Namespace) -> list[str]:
    """The table's names, as sacrebleu's: the baseline marked in paired mode; stdin columns are
    ``System k`` (files and a saved workspace keep their systems' names)."""
    from_files = args.input is not None or args.workspace is not None
    names = [name if from_files else f"System {k + 1}" for k, (name, _) in enumerate(systems)]
    if paired_test_asked(args):
        names[0] = f"Baseline: {systems[0][0]}" if from_files else "Baseline"
        names[1:] = [name if from_files else f"System {k}"
                     for k, name in enumerate(names[1:], start=1)]
    return names


def _multi_system(metrics: dict[str, Any], scored: Sequence[ScoreMetric],
                  systems: list[tuple[str, list[str]]], args: argparse.Namespace,
                  out: TextIO) -> None:
    logger.info("Found %d systems.", len(systems))
    if args.paired_jobs != 1:
        logger.info("--paired-jobs is ignored: the paired tests are vectorized in one process.")
    names = _system_names(systems, args)
    paired: PairedTestInfo | None = None
    resampling: dict[str, object] = {}
    if paired_test_asked(args):
        from ..metrics.significance import paired_ar_from_stats, paired_bootstrap_from_stats

        method = "bs" if args.paired_bs else "ar"
        asked = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        n_samples = asked if asked > 0 else (1000 if method == "bs" else 10000)
        seed = resampling_seed()
        test = paired_bootstrap_from_stats if method == "bs" else paired_ar_from_stats
        paired = PairedTestInfo(method, asked)
        resampling = {method: n_samples, "seed": str(seed).lower()}
    columns: dict[str, list[Cell]] = {}
    signatures: dict[str, str] = {}
    for metric in metrics.values():
        stats = {name: metric.segment_stats(hyps)
                 for name, (_, hyps) in zip(names, systems, strict=True)}
        label = metric.score_stats(next(iter(stats.values()))).name
        if paired is None:
            columns[label] = [Cell(metric.score_stats(matrix).score) for matrix in stats.values()]
        else:
            results = test(stats, metric.scorer, n_samples=n_samples, seed=seed)
            columns[label] = [Cell(r.score, r.p_value, r.mean, r.ci, paired=True)
                              for r in results.values()]
        signatures[label] = _signature(metric, args, **resampling)
    notes: dict[str, SegmentNote] = {}
    for found in scored:
        scores = found.scores
        if paired is None:
            columns[found.label] = [Cell(scores.scores[system]) for system in scores.stats]
            notes[found.label] = _segment_note(found)
            signatures[found.label] = ""
            continue
        stats = dict(zip(names, scores.stats.values(), strict=True))
        results = test(stats, scores.scorer, n_samples=n_samples, seed=seed)
        columns[found.label] = [Cell(r.score, r.p_value, r.mean, r.ci, paired=True,
                                     n_segments=r.n_segments) for r in results.values()]
        tested = [r.n_segments for r in list(results.values())[1:] if r.n_segments is not None]
        notes[found.label] = _segment_note(found, tested)
        signatures[found.label] = scores.tested_signature(method, n_samples, seed)
    widths = {found.label: max(args.width, SEGMENT_SCORE_DECIMALS) for found in scored}
    print(multi_system_report(names, columns, signatures, args.width, args.format, paired,
                              widths, notes), file=out)


def _streams(args: argparse.Namespace) -> bool:
    """Whether to score in chunks while reading: one system file, BLEU alone, one corpus score,
    plain references."""
    return (args.input is not None and len(args.input) == 1 and not args.sentence_level
            and not args.scores and not args.confidence and not paired_test_asked(args)
            and args.num_refs == 1 and bool(args.refs) and set(args.metrics) == {"bleu"})


def _terminal_progress(args: argparse.Namespace) -> Callable[[int], None] | None:
    """A one-line counter on stderr while big files are scored (only on a terminal)."""
    if args.quiet or not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{PROG}: {done:,} segments scored", end="", file=sys.stderr, flush=True)
    return show


def _streamed_single_system(args: argparse.Namespace, out: TextIO) -> None:
    """One system against its references, read and scored chunk by chunk (bounded memory)."""
    from ..metrics.bleu import bleu_signature
    from ..metrics.bleu.score import BLEUOptions
    from ..metrics.streaming import score_totals, stream_totals

    hyp_path = args.input[0]
    bleu_options = BLEUOptions(**_bleu_options(args))
    progress = _terminal_progress(args)
    try:
        totals = stream_totals(
            iter_segments(hyp_path, args.encoding, args.line_limit),
            [iter_segments(path, args.encoding, args.line_limit) for path in args.refs],
            bleu_options,
            names=[hyp_path, *args.refs], progress=progress, force=args.force)
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
    score = score_totals(totals, bleu_options)
    is_json = args.format == "json"
    signature = bleu_signature(bleu_options, totals.n_refs).format(args.short and not is_json)
    print(score.format(args.width, args.score_only, signature, is_json), file=out)


def run(args: argparse.Namespace, stdin: TextIO | None, out: TextIO) -> None:
    """Score what ``args`` asks for and print it to ``out`` in sacrebleu's shape (``stdin`` is
    None where the process has none)."""
    _check_flags(args)
    if args.spm_model is None:
        _score(args, stdin, out)
        return
    from ..metrics.tokenizers.spm import set_spm_model

    tokenize = str(_bleu_options(args)["tokenize"])
    set_spm_model(tokenize, args.spm_model)
    try:
        _score(args, stdin, out)
    finally:
        set_spm_model(tokenize, None)  # a later call in this process sets its own


def _score(args: argparse.Namespace, stdin: TextIO | None, out: TextIO) -> None:
    try:
        _metrics(args)  # bad options (a tokenizer, a smoothing method...) fail before any read
    except MissingModelError as error:
        if _bleu_options(args)["tokenize"] not in SPM_TOKENIZERS:
            raise
        raise MissingModelError(tr("{error} Or give the file with --spm-model FILE.").format(
            error=error)) from None
    _warn_about_language(args)
    if args.input is None and args.workspace is None:
        check_stdin(stdin)  # closed, or a terminal: say so before reading the references
    if args.workspace is not None or args.save_workspace is not None:
        from .workspace import workspace_inputs

        references, ref_names, systems = workspace_inputs(args, stdin, _bleu_options(args))
    elif _streams(args):
        _streamed_single_system(args, out)
        return
    else:
        references, ref_names = read_references(args.refs, args.num_refs, args.encoding,
                                                 args.line_limit)
        systems = read_systems(args, stdin)
    _check_modes(args, len(systems))
    check_lengths(systems, references, ref_names)
    metrics = _metrics(args, references)
    scored: list[ScoreMetric] = []
    taken = [metric.name for metric in metrics.values()]
    if args.scores:  # read and matched before any metric is computed: a bad file fails fast
        from .scores import score_metrics

        if args.save_workspace is not None:
            logger.info(tr("--save-workspace saved the texts and options; the --scores files "
                           "are not saved with them (the app's Metrics & human scores page adds "
                           "them)."))
        scored = score_metrics(args, [name for name, _ in systems], len(systems[0][1]), taken)
    if set(args.metrics) & {"comet", "bertscore", "metricx"}:
        from .learned import learned_metrics

        scored = learned_metrics(args, systems, references,
                                 [*taken, *(found.label for found in scored)]) + scored
    if args.sentence_level:
        _sentence_level(next(iter(metrics.values())), systems[0][1], args, out)
    elif len(systems) == 1:
        _single_system(metrics, scored, systems[0][1], args, out)
    else:
        _multi_system(metrics, scored, systems, args, out)


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

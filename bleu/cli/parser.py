"""The command line's flags: sacrebleu 2.6's (names, short forms, defaults; its test-set flags
refused), then BLEU Explorer's (segment scores, learned metrics, workspaces). Nothing heavy is
imported here: ``--help`` or a bad flag costs a Python start.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from .._version import __version__
from .output import FORMATS
from .streams import MAX_LINE_CHARS

#: spBLEU's tokenizers (bleu.metrics.tokenizers.SPM_TOKENIZER_NAMES, named here so that
#: ``--help`` needs nothing more)
SPM_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")


PROG = "bleu-explorer"


#: the text metrics of ``-m``, which sacrebleu computes too
TEXT_METRICS = ("bleu", "chrf", "ter")


#: the learned metrics of ``-m`` and their flags: the command-line face of their registry
#: entries (``command_name``, ``--NAME-model``, ``model_flags``, ``reference_free_flag``),
#: written out here so that parsing imports no registry and no numpy; a test keeps the two
#: equal (tests/cli/test_cli_learned.py)
LEARNED_METRICS = ("comet", "bertscore", "metricx")


#: the metrics of ``-m``, by sacrebleu's names, then the learned ones (``learned``)
METRICS = TEXT_METRICS + LEARNED_METRICS


#: the flags of the learned metrics: with any of them given, ``learned`` checks them
LEARNED_FLAGS = ("comet_model", "bertscore_model", "bertscore_layers", "source",
                 "comet_no_reference", "comet_precision", "metricx_model",
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
        help="Metrics to compute: bleu, chrf, ter (default: bleu); comet, bertscore and metricx "
        "from a model on this machine (BLEU Explorer's addition: see the learned metrics' "
        "flags).")
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
    learned.add_argument("--comet-precision", choices=("fp32", "bf16", "fp16"), default=None,
                         help="Run COMET's encoder at a reduced precision (fp32 by default; "
                         "fp16 on a GPU only): faster where the hardware has it, scores "
                         "shifted by the amount measured on the first batches and said in "
                         "the signature.")
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

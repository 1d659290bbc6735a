"""The ready exercises, easy to hard, and an exercise on the student's own pair.

In English they are real segments of the bundled WMT22 English→German test set; in Dutch,
Dutch sentences written for this app (``sample_data/exercises/nl.json``, whose README says
what each shows). Both sets teach the same six lessons with the same presets and questions;
each exercise states where its text comes from.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ...i18n import language, tr
from ...metrics.bleu.explain import explain
from ...metrics.bleu.score import BLEUOptions
from ..breakdown import ARTICLE_FORMULA, SENTENCE_DEFAULTS, require_reference
from .quantities import FINAL, LENGTHS, all_keys, order_keys
from .solution import Exercise, Pair

#: the bundled test set (sample_data/): WMT22 generaltest2022 English→German
SAMPLE_PREFIX = "generaltest2022.en-de"
#: the Dutch sentences written for the app, in sample_data/
DUTCH = Path("exercises") / "nl.json"


@dataclass(frozen=True)
class ReadySpec:
    """Where a ready exercise's text is (in the bundled test set, and in the Dutch set), and
    what it asks."""

    key: str
    level: int
    system: str
    segments: tuple[int, ...]  # 1-based lines of the test set
    references: str  # reference letters, "A" or "AB"
    preset: str  # "article" or "sacrebleu"
    asks: tuple[str, ...]
    dutch_segments: tuple[int, ...]  # 1-based segments of sample_data/exercises/nl.json


READY = (
    ReadySpec("clipping", 1, "Lan-Bridge", (1099,), "A", "article", order_keys(4), (1,)),
    ReadySpec("zero", 2, "Lan-Bridge", (232,), "A", "article",
              (*order_keys(4, "p"), FINAL), (2,)),
    ReadySpec("smoothing", 3, "Lan-Bridge", (232,), "A", "sacrebleu", ("p_4", FINAL), (2,)),
    ReadySpec("brevity", 3, "Lan-Bridge", (1503,), "A", "article", (*LENGTHS, FINAL), (3,)),
    ReadySpec("references", 4, "JDExploreAcademy", (279,), "AB", "article",
              (*order_keys(4, "matches"), "r", "bp", FINAL), (4,)),
    ReadySpec("corpus", 5, "Lan-Bridge", (1099, 232, 1503), "A", "article",
              (*order_keys(4, "matches", "total"), *LENGTHS, FINAL), (1, 2, 3)),
)
PRESETS = {"article": ARTICLE_FORMULA, "sacrebleu": SENTENCE_DEFAULTS}


def _clipped_word(pairs: Sequence[Pair], options: BLEUOptions) -> str:
    """The first unigram of ``pairs`` that clipping cuts ('' when none is)."""
    for pair in pairs:
        ex = explain(pair.hypothesis, list(pair.references), tokenize=options.tokenize,
                     lowercase=options.lowercase, max_ngram_order=1)
        for gram in ex.ngrams[0]:
            if gram.count > gram.max_ref_count > 0:
                return gram.text
    return ""


def _texts(spec: ReadySpec, pairs: Sequence[Pair]) -> tuple[str, str]:
    """The title and the lesson of a ready exercise, in the interface's language."""
    if spec.key == "clipping":
        return tr("1. Clipping"), tr(
            "The candidate has “{word}” twice, the reference once: count every n-gram, then "
            "clip each count to how often the n-gram occurs in the reference.").format(
            word=_clipped_word(pairs, PRESETS[spec.preset]))
    return {
        "zero": (tr("2. A zero precision and the geometric mean"), tr(
            "No 4-gram of the candidate is in the reference. In the article's formula one "
            "p_n of 0 makes the geometric mean, and with it BLEU, 0.")),
        "smoothing": (tr("3. Smoothing"), tr(
            "The same pair under SacreBLEU's sentence-BLEU defaults: exp smoothing replaces "
            "the 0 of p_4 by 1/(2·t_4), and BLEU is no longer 0.")),
        "brevity": (tr("4. Brevity"), tr(
            "A short, precise candidate: all precisions are high, but the brevity penalty "
            "pulls the score down. Compute c, r and BP first.")),
        "references": (tr("5. Several references"), tr(
            "Against reference A alone no 3-gram matches and BLEU is 0. With reference B too, "
            "each n-gram counts as often as in the reference where it occurs most often, and r "
            "is the reference length closest to c.")),
        "corpus": (tr("6. One sentence against a corpus"), tr(
            "The three sentences of exercises 1, 2 and 4 as one corpus: add up m_n, t_n, c "
            "and r first, then apply the formula once. Sentence 2 alone scores 0; the "
            "corpus does not.")),
    }[spec.key]


def _length_lesson(spec: ReadySpec) -> str:
    """The lesson of a ready exercise when only c, r and BP are asked ('' where the exercise's
    own lesson is about them already)."""
    return {
        "references": tr("Two references of different lengths: r is the length of the "
                         "reference closest to c (the shorter one on a tie), and BP follows "
                         "from c and that r."),
        "corpus": tr("The three sentences as one corpus: c and r are sums over the sentences "
                     "(each sentence adds the reference length closest to its own c), and BP "
                     "is computed once, from those sums."),
    }.get(spec.key, "")


def _lines(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except OSError as error:
        raise InputError(tr("{path}: cannot read the bundled test set ({error}).").format(
            path=path, error=error)) from error
    return lines[:-1] if lines and lines[-1] == "" else lines


def _wmt_pairs(root: Path, spec: ReadySpec) -> tuple[tuple[Pair, ...], str]:
    hyps = _lines(root / f"{SAMPLE_PREFIX}.hyp.{spec.system}.de")
    refs = {letter: _lines(root / f"{SAMPLE_PREFIX}.ref.{letter}.de")
            for letter in spec.references}
    pairs = tuple(Pair(hyps[line - 1], tuple(refs[k][line - 1] for k in spec.references))
                  for line in spec.segments)
    origin = tr("WMT22 generaltest2022 English→German: {system}'s output, segment(s) "
                "{segments}; reference(s) {references}").format(
        system=spec.system, segments=", ".join(str(s) for s in spec.segments),
        references=", ".join(spec.references))
    return pairs, origin


def _dutch_pairs(root: Path, spec: ReadySpec) -> tuple[tuple[Pair, ...], str]:
    path = root / DUTCH
    try:
        segments = json.loads(path.read_text(encoding="utf-8"))["segments"]
        pairs = tuple(Pair(segments[k - 1]["candidate"],
                           tuple(segments[k - 1]["references"][letter]
                                 for letter in spec.references))
                      for k in spec.dutch_segments)
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        raise InputError(tr("{path}: cannot read the Dutch exercises ({error}).").format(
            path=path, error=error)) from error
    origin = tr("Written for this app: sentence(s) {segments} of {file}; reference(s) "
                "{references}").format(segments=", ".join(str(k) for k in spec.dutch_segments),
                                       file=DUTCH.as_posix(),
                                       references=", ".join(spec.references))
    return pairs, origin


def ready_exercises(folder: str | Path, code: str | None = None) -> tuple[Exercise, ...]:
    """The ready exercises, easy to hard, for the interface language ``code`` (the current
    one by default): Dutch sentences written for the app in Dutch, the bundled WMT22 test set
    in ``folder`` (sample_data/) otherwise; tokenizer 13a, case-sensitive."""
    root = Path(folder)
    dutch = (code or language()) == "nl"
    out = []
    for spec in READY:
        pairs, origin = _dutch_pairs(root, spec) if dutch else _wmt_pairs(root, spec)
        title, lesson = _texts(spec, pairs)
        out.append(Exercise(spec.key, title, lesson, spec.level, pairs, PRESETS[spec.preset],
                            spec.asks, origin, _length_lesson(spec)))
    return tuple(out)


def own_exercise(hypothesis: str, references: Sequence[str], options: BLEUOptions,
                 asks: Sequence[str] | None = None) -> Exercise:
    """An exercise on the student's own pair, scored with ``options``; every quantity asked
    unless ``asks`` says which."""
    pair = Pair(hypothesis, tuple(references))
    require_reference(pair.references)
    return Exercise("own", tr("Your own pair"), tr("The pair you typed in."), 0, (pair,),
                    options, tuple(asks or all_keys(options.max_ngram_order)), tr("typed in"))

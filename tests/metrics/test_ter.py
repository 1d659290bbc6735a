"""TER (bleu.metrics.ter) against sacrebleu 2.6.0, the oracle, run here.

Every expected number comes from sacrebleu in the test, or from its recorded outputs in
``cases.json``. Exactness is ``==`` on every statistic and score: segment rows, corpus sums,
corpus and sentence scores, float32 resamples, formatted text, signatures.

sacrebleu's TER is slow (1 to 30 ms per segment and reference on these sets, seconds for a
sentence of a few hundred words), so its search runs once per session for each pair of word
lists (conftest's ``sacrebleu_ter_once``: a public call after the statistics, or the same pair
in another test, takes sacrebleu's own earlier result), and what runs is sampled,
deterministically:

- tests/data's cut (100 segments per set): every test set, each reference alone and all
  together, one system per combination (rotating through the systems), all 100 segments;
  public ``sentence_score`` on the first 15 segments of each set; every system of three sets
  with cached references; every option combination on a corpus of 6 segments from each set
  (rotating windows, references padded with None);
- the full sets (``full_data``): per test set and reference combination one rotating system on
  a rotating window of 150 segments (50-100 for the slowest sets), plus the recorded
  whole-corpus cases (WMT17, TED), whose expected numbers need no sacrebleu run;
- generated text (hypothesis): characters from the shared fragments, and token sequences that
  make shifts likely (permutations and repetitions of a small vocabulary), long ones beyond the
  50-word shift distance and the 1000-candidate limit, and extreme length ratios (wide beam).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
import sacrebleu
from conftest import (
    DATA_ROOTS,
    REPO,
    read_lines,
    sacrebleu_cases,
    segment_text,
    ted_lines,
    wmt17_case_data,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics import ter as sacre_ter
from sacrebleu.significance import _bootstrap_resample
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercomTokenizer

from bleu._version import __version__
from bleu.errors import (
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
    UnknownOptionError,
)
from bleu.metrics import threads
from bleu.metrics.base import SignificanceResult
from bleu.metrics.ter import TER, TERScore, corpus_ter, resample_sums, sentence_ter
from bleu.metrics.ter import engine as ter_engine
from bleu.metrics.ter.tokenizer import TercomTokenizer

VERSION = f"bleu-explorer-{__version__}"
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
#: every combination of TER's four options
OPTIONS = [dict(zip(OPTION_NAMES, flags, strict=True))
           for flags in itertools.product((False, True), repeat=4)]
CUT = DATA_ROOTS[0].values[0]
#: sacrebleu's TER searches each hypothesis-reference pair once per session (conftest)
pytestmark = pytest.mark.usefixtures("sacrebleu_ter_once")


# ----------------------------------------------------------------------------- the oracle


def _ours(signature: str) -> str:
    return signature.replace("version:2.6.0", f"version:{VERSION}").replace(
        "v:2.6.0", f"v:{VERSION}")


def assert_parity(hyps: list[str], refs: list[list[str | None]], **options: bool) -> None:
    """Statistics, corpus score and every sentence score equal sacrebleu's.

    sacrebleu's side takes the steps of its ``corpus_score`` and ``sentence_score``
    (``_extract_corpus_statistics``, then ``_aggregate_and_compute`` of all rows or of one):
    extracting once keeps the sweep affordable.
    """
    ours, theirs = TER(**options), SacreTER(**options)
    expected = theirs._extract_corpus_statistics(hyps, refs)
    stats = ours.segment_stats(hyps, refs)
    assert stats.dtype == np.float64
    assert stats.tolist() == expected
    mine, sacre = ours.score_stats(stats), theirs._aggregate_and_compute(expected)
    assert (mine.score, mine.num_edits, mine.ref_length) == (
        sacre.score, sacre.num_edits, sacre.ref_length)
    assert type(mine.ref_length) is type(sacre.ref_length) is float
    assert str(mine) == str(sacre)
    sentences = [theirs._aggregate_and_compute([row]).score for row in expected]
    assert ours.sentence_scores(hyps, refs).tolist() == sentences
    assert ours.signature == _ours(str(theirs.get_signature()))


def assert_public_parity(hyps: list[str], refs: list[list[str | None]], **options: bool) -> None:
    """The public calls of both: corpus_score, and sentence_score of every segment."""
    ours, theirs = TER(**options), SacreTER(**options)
    mine, sacre = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
    assert (mine.score, mine.num_edits, mine.ref_length) == (
        sacre.score, sacre.num_edits, sacre.ref_length)
    for i, hyp in enumerate(hyps):
        segment_refs = [stream[i] for stream in refs]
        mine, sacre = ours.sentence_score(hyp, segment_refs), theirs.sentence_score(
            hyp, segment_refs)
        assert (mine.score, mine.num_edits, mine.ref_length) == (
            sacre.score, sacre.num_edits, sacre.ref_length), i


def sacrebleu_edits(hyp: list[str], ref: list[str]) -> int:
    return lib_ter.translation_edit_rate(hyp, ref)[0]


def our_edits(hyp: list[str], ref: list[str]) -> int:
    """Our kernel on the same words (through the engine's one-segment path)."""
    return ter_engine.sentence_stats(hyp, [ref])[0]


def test_the_session_memo_is_sacrebleus_search_run_once() -> None:
    """This module's sacrebleu TER takes its searches from conftest's memo: the numbers of
    sacrebleu's own search, and each pair of word lists searched once per session."""
    hyps = ["memo a b c d", "memo e f g", "memo a c b"]
    refs = [["memo a b d c", "memo f e g", "memo x"], ["memo b a", None, "memo a b c"]]
    searched: list[tuple[list[str], list[str]]] = []
    original = lib_ter.translation_edit_rate

    def counted(words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
        searched.append((words_hyp, words_ref))
        return original(words_hyp, words_ref)

    with mock.patch.object(lib_ter, "translation_edit_rate", counted):
        memoized = SacreTER()._extract_corpus_statistics(hyps, refs)
        public = SacreTER().corpus_score(hyps, refs)
        sentence = SacreTER().sentence_score(hyps[0], [refs[0][0], refs[1][0]])
    assert len(searched) == 5  # 2 + 1 + 2 references, and nothing searched again
    with mock.patch.object(sacre_ter, "translation_edit_rate", original):
        assert SacreTER()._extract_corpus_statistics(hyps, refs) == memoized
        assert SacreTER().corpus_score(hyps, refs).score == public.score
        assert SacreTER().sentence_score(hyps[0], [refs[0][0], refs[1][0]]).score == (
            sentence.score)


# ----------------------------------------------------------------------------- real test sets


@dataclass(frozen=True)
class DataSet:
    """A real test set: its references and systems (file names in its folder)."""

    folder: str
    references: dict[str, str]
    systems: dict[str, str]

    def load(self, root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        path = root / self.folder
        return ({name: read_lines(path / file) for name, file in self.systems.items()},
                {name: read_lines(path / file) for name, file in self.references.items()})


def _wmt(folder: str, prefix: str, lang: str, refs: str) -> DataSet:
    systems = {p.name[len(f"{prefix}.hyp."): -len(lang) - 1]: p.name
               for p in sorted((CUT / folder).glob(f"{prefix}.hyp.*.{lang}"))}
    return DataSet(folder, {k: f"{prefix}.ref.{k}.{lang}" for k in refs}, systems)


def _wmt17() -> DataSet:
    folder = "wmt17_newstest2017_en-de"
    ref = "newstest2017.en-de.ref.de"
    systems = {p.name[len("newstest2017."): -len(".en-de.de")]: p.name
               for p in sorted((CUT / folder).glob("newstest2017.*.de")) if p.name != ref}
    return DataSet(folder, {"ref": ref}, systems)


def _compare_mt(folder: str, stem: str, suffix: str) -> DataSet:
    return DataSet(folder, {"ref": f"{stem}.ref{suffix}"},
                   {s: f"{stem}.{s}{suffix}" for s in ("sys1", "sys2")})


TEST_SETS = {
    "ted-detok": _compare_mt("compare-mt_ted_sk-en", "ted", ".detok.eng"),
    "ted-tok": _compare_mt("compare-mt_ted_sk-en", "ted", ".eng"),
    "multited-ja": _compare_mt("compare-mt_multited_ja", "multited", ".jpn"),
    "wmt17-en-de": _wmt17(),
    "wmt21-en-de": _wmt("wmt21_newstest2021_en-de", "newstest2021.en-de", "de", "ACD"),
    "wmt21-zh-en": _wmt("wmt21_newstest2021_zh-en", "newstest2021.zh-en", "en", "A"),
    "wmt22-en-de": _wmt("wmt22_generaltest2022_en-de", "generaltest2022.en-de", "de", "AB"),
    "wmt22-en-ja": _wmt("wmt22_generaltest2022_en-ja", "generaltest2022.en-ja", "ja", "A"),
    "wmt22-en-zh": _wmt("wmt22_generaltest2022_en-zh", "generaltest2022.en-zh", "zh", "AB"),
}
#: segments of a full set scored per reference combination: sacrebleu's time bounds it (the
#: pre-tokenized Japanese and WMT21's long segments cost it 5-50 ms per segment and reference)
FULL_WINDOW = {"multited-ja": 50, "wmt21-en-de": 100, "wmt21-zh-en": 100}


def reference_choices(names: list[str]) -> list[list[str]]:
    """Each reference alone, then all together (when there are several)."""
    return [[name] for name in names] + ([names] if len(names) > 1 else [])


def test_every_folder_is_a_test_set() -> None:
    folders = {p.name for p in CUT.iterdir() if p.is_dir()}
    assert folders - {"sacrebleu_cases"} == {s.folder for s in TEST_SETS.values()}
    assert all(s.systems for s in TEST_SETS.values())


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize("name", TEST_SETS)
def test_test_set_parity(name: str, root: Path) -> None:
    """Each reference alone and all together, one rotating system each: the whole cut, or a
    rotating window of the full set."""
    systems, refs = TEST_SETS[name].load(root)
    system_names = sorted(systems)
    set_index = list(TEST_SETS).index(name)
    for k, chosen in enumerate(reference_choices(sorted(refs))):
        hyps = systems[system_names[(set_index + k) % len(system_names)]]
        streams = [refs[r] for r in chosen]
        if root != CUT:
            window = FULL_WINDOW.get(name, 150)
            start = (set_index * 7 + k) * 389 % (len(hyps) - window)
            hyps = hyps[start:start + window]
            streams = [stream[start:start + window] for stream in streams]
        assert_parity(hyps, streams)


@pytest.mark.parametrize("name", TEST_SETS)
def test_test_set_public_calls(name: str) -> None:
    """On the cut: sacrebleu's public corpus_score and per-segment sentence_score, all refs."""
    systems, refs = TEST_SETS[name].load(CUT)
    hyps = systems[sorted(systems)[-1]][:15]
    assert_public_parity(hyps, [stream[:15] for stream in refs.values()])


@pytest.mark.parametrize("name", ["ted-detok", "wmt22-en-de", "wmt22-en-zh"])
def test_every_system_with_cached_references(name: str) -> None:
    """On the cut: references prepared once (both sides), every system scored with them."""
    systems, refs = TEST_SETS[name].load(CUT)
    streams = list(refs.values())
    ours, theirs = TER(references=streams), SacreTER(references=streams)
    for hyps in systems.values():
        mine, sacre = ours.corpus_score(hyps), theirs.corpus_score(hyps, None)
        assert (mine.score, mine.num_edits, mine.ref_length) == (
            sacre.score, sacre.num_edits, sacre.ref_length)
    assert ours.signature.startswith(f"nrefs:{len(streams)}|")


# ----------------------------------------------------------------------------- options


def mixed_corpus(rotation: int, per_set: int = 6) -> tuple[list[str], list[list[str | None]]]:
    """``per_set`` segments of every test set (a window and a system chosen by ``rotation``),
    references in three streams, None where a set has fewer."""
    hyps: list[str] = []
    refs: list[list[str | None]] = [[], [], []]
    for s, test_set in enumerate(TEST_SETS.values()):
        systems, set_refs = test_set.load(CUT)
        system = sorted(systems)[(rotation + s) % len(systems)]
        start = (rotation * 13 + s * 29) % (100 - per_set)
        hyps += systems[system][start:start + per_set]
        streams = [stream[start:start + per_set] for stream in set_refs.values()]
        for k in range(3):
            refs[k] += streams[k] if k < len(streams) else [None] * per_set
    return hyps, refs


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(
    name for name, on in o.items() if on) or "default")
def test_every_option_combination(options: dict[str, bool]) -> None:
    """Normalization, punctuation removal, Asian support and case, on text from every set
    (CJK included), with variable reference counts."""
    hyps, refs = mixed_corpus(OPTIONS.index(options))
    assert_parity(hyps, refs, **options)


SPECIAL_TEXTS = [
    "", " ", "\t\n ", "a", "Ab", "(hi)", "hi!", "!hi", "a.b. c,d ,e", "...", "3.14 1,000 5-4",
    "Jim's car's", "the cats' toys", "&quot;quoted&quot; &amp;amp; &lt;b&gt;", "line-\nbreak\nx",
    "İstanbul İİ", "ΟΔΟΣ ΣΑΣ Σ", "Straße STRASSE", "美众院公布对特", "りの拳銃を持",
    "ひらがな カタカナ ㇰㇱ", "中文，你好。「引用」！", "日本語のテキスト。", "한국어 텍스트",
    "㌀㈀豈︰⺀㇀", "．，？：；！＂（）", "😀😀 👍🏽 🇩🇪", "\xa0nbsp\u3000ideo\u2028ls\x85nel",
    "a b " * 40, "x" * 300,
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(
    name for name, on in o.items() if on) or "default")
def test_special_texts(options: dict[str, bool]) -> None:
    """Empty and whitespace-only lines, every tokenizer rule, CJK and kana, case changes."""
    hyps = SPECIAL_TEXTS
    refs = [SPECIAL_TEXTS[3:] + SPECIAL_TEXTS[:3], [t.upper() for t in SPECIAL_TEXTS]]
    assert_parity(hyps, refs, **options)


@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_options_must_be_booleans(value: object) -> None:
    """A documented difference: sacrebleu takes any value and prints it into the signature."""
    for name in OPTION_NAMES:
        with pytest.raises(UnknownOptionError, match=f"TER's {name} must be True or False"):
            TER(**{name: value})
    assert TER(normalized=np.bool_(True)).options.normalized is True


# ----------------------------------------------------------------------------- tokenizer


@pytest.mark.parametrize("case", [c for c in sacrebleu_cases() if c["kind"] == "ter_tokenize"],
                         ids=lambda c: c["id"])
def test_recorded_tokenizer_cases(case: dict) -> None:
    assert TercomTokenizer(**case["kwargs"])(case["input"]) == case["expected"]


CJK_PIECES = st.sampled_from(["美众院", "りの拳銃を持", "ひらがな", "カタカナ", "ㇰㇱ", "。", "、",
                              "「」", "〈〉", "．", "，", "？", "｡", "㌀", "㈀", "豈", "︰", "⺀",
                              "㇀", "丂", "㐀", "䶿"])


@settings(max_examples=500, deadline=None)
@given(st.lists(segment_text | CJK_PIECES, max_size=4).map("".join),
       st.sampled_from(OPTIONS))
def test_tokenizer_equals_sacrebleus(text: str, options: dict[str, bool]) -> None:
    """Our tokenizer's text and words, sacrebleu's ``TercomTokenizer`` and
    ``_preprocess_segment`` (which right-strips first)."""
    ours = TercomTokenizer(**options)
    assert ours(text) == SacreTercomTokenizer(**options)(text)
    assert ours.words(text) == SacreTER(**options)._preprocess_segment(text).split()
    assert ours.reference_words(text) == (
        SacreTER(**options)._cache_references([[text]])[0]["ref_words"][0])


@pytest.mark.parametrize("reference", ["..3", ",,3", ".,3", "a..3", "x ,.5 y", "4.,,"])
@pytest.mark.parametrize("asian_support", [False, True])
def test_references_are_tokenized_twice_as_sacrebleu_does(reference: str,
                                                           asian_support: bool) -> None:
    """sacrebleu preprocesses a reference twice (its base class, then TER's
    ``_extract_reference_info``) and a hypothesis once; normalization is not idempotent on
    punctuation runs before a digit: "..3" is ". .3" (2 words) once, ". . 3" (3 words) twice."""
    tokenizer = TercomTokenizer(normalized=True, asian_support=asian_support)
    once, twice = tokenizer.words(reference), tokenizer.reference_words(reference)
    assert twice == tokenizer.words(" ".join(once))
    if reference == "..3":
        assert (once, twice) == ([".", ".3"], [".", ".", "3"])
    assert_parity([reference, "a b"], [[reference, "b a"]], normalized=True,
                  asian_support=asian_support)
    assert_public_parity([reference], [[reference]], normalized=True,
                         asian_support=asian_support)


# ----------------------------------------------------------------------------- generated text


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]], dict[str, bool]]:
    """A few segments of generated text (cut to 120 characters: sacrebleu is slow on long
    ones), 1-3 references with None gaps, random options."""
    text = segment_text.map(lambda s: s[:120])
    n_segments = draw(st.integers(1, 3))
    n_refs = draw(st.integers(1, 3))
    hyps = draw(st.lists(text, min_size=n_segments, max_size=n_segments))
    refs: list[list[str | None]] = [
        draw(st.lists(text | st.none() if n_refs > 1 else text, min_size=n_segments,
                      max_size=n_segments)) for _ in range(n_refs)]
    for i in range(n_segments):
        if all(stream[i] is None for stream in refs):
            refs[draw(st.integers(0, n_refs - 1))][i] = draw(text)
    return hyps, refs, draw(st.sampled_from(OPTIONS))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_generated_text(corpus: tuple) -> None:
    hyps, refs, options = corpus
    assert_parity(hyps, refs, **options)


@st.composite
def shuffled_pairs(draw: st.DrawFn, min_size: int = 0, max_size: int = 40,
                   ) -> tuple[list[str], list[str]]:
    """A reference over a small vocabulary and a hypothesis made from it by moving blocks,
    swapping, repeating and dropping words: many equal-cost edit paths and shift candidates,
    so every tie-break shows."""
    vocabulary = [f"w{i}" for i in range(draw(st.integers(1, 8)))]
    word = st.sampled_from(vocabulary)
    ref = draw(st.lists(word, min_size=min_size, max_size=max_size))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 6))):
        move = draw(st.sampled_from(["block", "swap", "repeat", "drop", "insert"]))
        if not hyp:
            hyp.append(draw(word))
            continue
        i = draw(st.integers(0, len(hyp) - 1))
        if move == "block":
            length = draw(st.integers(1, 12))
            block, rest = hyp[i:i + length], hyp[:i] + hyp[i + length:]
            j = draw(st.integers(0, len(rest)))
            hyp = rest[:j] + block + rest[j:]
        elif move == "swap":
            j = draw(st.integers(0, len(hyp) - 1))
            hyp[i], hyp[j] = hyp[j], hyp[i]
        elif move == "repeat":
            hyp.insert(i, hyp[i])
        elif move == "drop":
            del hyp[i]
        else:
            hyp.insert(i, draw(word))
    return hyp, ref


@settings(max_examples=250, deadline=None)
@given(shuffled_pairs())
def test_shifts_on_small_vocabularies(pair: tuple[list[str], list[str]]) -> None:
    hyp, ref = pair
    assert our_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shuffled_pairs(min_size=51, max_size=75))
def test_shifts_beyond_the_shift_distance(pair: tuple[list[str], list[str]]) -> None:
    """Sentences over 50 words: blocks whose match lies more than 50 positions away are not
    shift candidates."""
    hyp, ref = pair
    assert our_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(51, 220), st.integers(1, 6), st.booleans())
def test_extreme_length_ratios(short: int, long: int, vocabulary: int, flip: bool) -> None:
    """A reference more than 50 times longer than the hypothesis widens the beam to
    ``ceil(ratio / 2 + 25)``; the other way round the beam is 25 around a flat diagonal."""
    ref = [f"w{(i * 7) % vocabulary}" for i in range(long)]
    hyp = [f"w{(i * 3 + 1) % vocabulary}" for i in range(short)]
    if flip:
        hyp, ref = ref, hyp
    assert our_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


def test_beam_boundaries() -> None:
    """Length ratios at the widening threshold (m / n = 50, 51, 52) and floating-point ratios
    whose ``floor(i * ratio)`` falls just below an integer (m / n = 10 / 3, 49 / 7, ...)."""
    for n, m in [(1, 50), (1, 51), (1, 52), (2, 100), (2, 101), (2, 103), (3, 10), (7, 49),
                 (6, 49), (10, 3), (100, 1), (100, 2), (51, 1), (30, 100), (3, 158)]:
        for vocabulary in (1, 2, 5):
            ref = [f"w{(i * 5) % vocabulary}" for i in range(m)]
            hyp = [f"w{(i * 3 + 1) % vocabulary}" for i in range(n)]
            assert our_edits(hyp, ref) == sacrebleu_edits(hyp, ref), (n, m, vocabulary)
            assert our_edits(ref, hyp) == sacrebleu_edits(ref, hyp), (m, n, vocabulary)


def _watched_edits(hyp: list[str], ref: list[str]) -> tuple[int, int]:
    """sacrebleu's edits for this pair, and how many shift candidates it checked (its
    ``_shift`` watched, its results passed on unchanged): one search gives both."""
    seen = [0]
    original = lib_ter._shift

    def watched(*args: object) -> tuple:
        result = original(*args)
        seen[0] = max(seen[0], result[2])
        return result

    with mock.patch.object(lib_ter, "_shift", watched):
        edits = sacrebleu_edits(hyp, ref)
    return edits, seen[0]


def test_candidate_limit_stops_the_search() -> None:
    """Past 1000 checked candidates sacrebleu stops, and drops the best shift of that round:
    60 words over 2 or 3 distinct ones, 20 swaps, reach the limit (some exactly, some in the
    middle of a block's target positions); ours stops at the same place."""
    for seed in range(6):
        rng = np.random.default_rng(seed)
        ref = [f"w{x}" for x in rng.integers(0, 2 + seed % 2, 60)]
        hyp = list(ref)
        for _ in range(20):
            i, j = rng.integers(0, len(hyp), 2)
            hyp[i], hyp[j] = hyp[j], hyp[i]
        edits, candidates = _watched_edits(hyp, ref)
        assert candidates >= lib_ter._MAX_SHIFT_CANDIDATES, seed
        assert our_edits(hyp, ref) == edits, seed


def test_long_lines() -> None:
    """A document as one line (hundreds of words): the beam and the shift distance bound
    the search (for the candidate limit see above)."""
    folder = CUT / "wmt22_generaltest2022_en-de"
    hyps = read_lines(folder / "generaltest2022.en-de.hyp.Online-W.de")
    refs = read_lines(folder / "generaltest2022.en-de.ref.A.de")
    hyp, ref = " ".join(hyps[:18]), " ".join(refs[:18])
    assert len(hyp.split()) > 250
    assert_public_parity([hyp, hyp[:400]], [[ref, ref[:800]]])


@settings(max_examples=60, deadline=None)
@given(shuffled_pairs(max_size=30))
def test_sacrebleus_row_cache_changes_no_number(pair: tuple[list[str], list[str]]) -> None:
    """sacrebleu's prefix cache of matrix rows only saves time: without it (no row ever
    stored) its numbers are the same, and so are ours."""
    hyp, ref = pair
    cached = sacrebleu_edits(hyp, ref)
    with mock.patch.object(lib_ter, "_MAX_CACHE_SIZE", 0):
        assert sacrebleu_edits(hyp, ref) == cached
    assert our_edits(hyp, ref) == cached


# ----------------------------------------------------------------------------- references


def test_none_gaps_and_variable_reference_counts() -> None:
    """None means "no reference here": the segment's best edits over its present references,
    their average length; nrefs becomes var, as sacrebleu's signature says."""
    folder = CUT / "wmt21_newstest2021_en-de"
    hyps = read_lines(folder / "newstest2021.en-de.hyp.UEdin.de")[:40]
    refs: list[list[str | None]] = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de")[:40]
                                    for k in "ACD"]
    for k, stream in enumerate(refs):
        for i in range(k, len(stream), 3 + k):
            stream[i] = None
    for i in range(len(hyps)):
        if all(stream[i] is None for stream in refs):
            refs[2][i] = "Ein Satz."
    assert_parity(hyps, refs)
    assert_public_parity(hyps[:10], [stream[:10] for stream in refs])
    metric = TER()
    metric.corpus_score(hyps, refs)
    assert metric.signature.startswith("nrefs:var|")


def test_empty_hypotheses_and_references() -> None:
    """"" is a real, empty reference (length 0, all hypothesis words are edits) and can be the
    best one; empty hypotheses cost every reference word."""
    hyps = ["", "a b", "", "a b c", " ", "x"]
    refs = [["", "", "a b", "", "\t", "x"], ["q", None, "", "c b a", None, ""]]
    assert_parity(hyps, refs)
    assert_public_parity(hyps, refs)
    assert_parity([""], [[""]])
    assert_parity(["a"], [[""]])


def test_cached_references_match_one_shot() -> None:
    hyps, refs = mixed_corpus(3)
    cached = TER(references=refs)
    assert cached.n_refs == -1
    assert (cached.segment_stats(hyps) == TER().segment_stats(hyps, refs)).all()
    assert cached.corpus_score(hyps) == corpus_ter(hyps, refs)
    twin = TER(**cached.arguments, references=refs)
    assert twin.corpus_score(hyps) == cached.corpus_score(hyps)


def test_nrefs_follows_sacrebleu() -> None:
    """The signature's nrefs is that of the references last passed in (cached ones do not
    reset it, as in sacrebleu)."""
    refs2 = [["a b", "c"], ["b a", "d"]]
    ours, theirs = TER(references=refs2), SacreTER(references=refs2)
    for metric in (ours, theirs):
        metric.corpus_score(["a b", "c"], [["a b", "c"]])
        metric.corpus_score(["a b", "c"], None)
    assert ours.signature == _ours(str(theirs.get_signature()))
    for metric in (ours, theirs):
        metric.sentence_score("a", ["a", None, "b"])
    assert ours.signature == _ours(str(theirs.get_signature()))


@pytest.mark.parametrize("chunk", [1, 3])
def test_chunks_and_threads(chunk: int) -> None:
    """Pairs cut into many chunks (on the thread pool, and on one thread) change nothing."""
    hyps, refs = mixed_corpus(5)
    expected = TER().segment_stats(hyps, refs)
    with mock.patch.object(ter_engine, "MIN_CHUNK_PAIRS", chunk):
        assert (TER().segment_stats(hyps, refs) == expected).all()
        threads.set_threads(1)
        try:
            assert (TER().segment_stats(hyps, refs) == expected).all()
        finally:
            threads.set_threads(None)


# ----------------------------------------------------------------------------- scorer


def _real_stats() -> np.ndarray:
    """WMT21 en-de's cut against three references: average lengths in thirds, inexact in
    float32 and float64."""
    folder = CUT / "wmt21_newstest2021_en-de"
    hyps = read_lines(folder / "newstest2021.en-de.hyp.Online-W.de")
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    return TER().segment_stats(hyps, refs)


EDGE_ROWS = np.array([[0, 0], [3, 0], [0, 5], [3, 2.5], [7, 1 / 3], [1e6, 3.0], [2, 1e-3]])


def test_scores_of_summed_rows() -> None:
    """``scores`` of float64 rows (segments, sums of random subsets, the zero-length edge
    cases) as sacrebleu's ``_compute_score_from_stats``."""
    stats = _real_stats()
    rng = np.random.default_rng(7)
    subsets = (rng.random((50, len(stats))) < 0.3).astype(np.float64) @ stats
    rows = np.concatenate((stats, subsets, EDGE_ROWS))
    theirs = SacreTER()
    assert TER().scorer.scores(rows).tolist() == [
        theirs._compute_score_from_stats(row.tolist()).score for row in rows]
    assert TER().scorer.scores(rows).tolist() == [
        theirs._compute_score_from_stats(row).score for row in rows]


def test_resample_scores_of_float32_rows() -> None:
    rows = np.concatenate((_real_stats()[:50] * 3.7, EDGE_ROWS)).astype(np.float32)
    theirs = SacreTER()
    assert TER().scorer.resample_scores(rows).tolist() == [
        float(theirs._compute_score_from_stats(row).score) for row in rows]


def test_resample_sums_add_as_numpy_does() -> None:
    """1000 resamples of real statistics: ``np.array(stats, dtype="float32")[idxs][k].sum(0)``
    exactly, then scored as sacrebleu's ``_bootstrap_resample`` scores them (seed 12345)."""
    stats = _real_stats()
    indices = np.random.default_rng(12345).choice(len(stats), size=(1000, len(stats)),
                                                  replace=True)
    expected = np.array([resample.sum(0) for resample in
                         np.array(stats.tolist(), dtype="float32")[indices]])
    sums = resample_sums(stats, indices)
    assert sums.dtype == np.float32
    assert (sums == expected).all()
    pairwise = np.ascontiguousarray(np.float32(stats)[indices][:, :, 1]).sum(axis=1)
    assert (pairwise != expected[:, 1]).any()  # the order of the additions matters
    with mock.patch.dict(os.environ, {"SACREBLEU_SEED": "12345"}):
        _, scores = _bootstrap_resample(stats.tolist(), SacreTER(), 1000)
    assert TER().scorer.resample_scores(sums).tolist() == [float(s.score) for s in scores]
    assert (TER().scorer.resample_sums(stats, indices) == sums).all()


def test_scores_of_approximate_randomization_trials() -> None:
    """AR trials (``pos_sel @ bl_stats + neg_sel @ sys_stats``, then
    ``_aggregate_and_compute``) scored alike."""
    baseline = _real_stats()
    folder = CUT / "wmt21_newstest2021_en-de"
    system = TER().segment_stats(
        read_lines(folder / "newstest2021.en-de.hyp.UEdin.de"),
        [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"])
    selectors = np.random.default_rng(3).integers(2, size=(200, len(baseline)), dtype=bool)
    trials = selectors @ baseline.tolist() + ~selectors @ system.tolist()
    theirs = SacreTER()
    assert TER().scorer.scores(trials).tolist() == [
        theirs._aggregate_and_compute(x).score for x in trials[:, None]]


def test_corpus_sums_are_sequential() -> None:
    """A corpus adds reference lengths left to right as sacrebleu's ``sum_of_lists`` does;
    numpy's pairwise sum differs on these thirds."""
    stats = _real_stats()
    sacre = SacreTER()._aggregate_and_compute(stats.tolist())
    assert TER().score_stats(stats).ref_length == sacre.ref_length
    tiled = np.tile(stats, (40, 1))
    expected = SacreTER()._aggregate_and_compute(tiled.tolist())
    assert TER().score_stats(tiled).ref_length == expected.ref_length
    assert tiled[:, 1].sum() != expected.ref_length


def test_scorer_protocol() -> None:
    scorer = TER(normalized=True).scorer
    assert (scorer.name, scorer.higher_is_better, scorer.integer_stats) == ("TER", False, False)
    assert scorer.scores(np.zeros((0, 2))).shape == (0,)


# ----------------------------------------------------------------------------- recorded cases


def _cases(kind: str, data: bool) -> list[dict]:
    return [case for case in sacrebleu_cases()
            if case["kind"] == kind and (("data_file" in case or "data" in case) == data)]


def _check_recorded(metric: TER, score: TERScore, expected: dict) -> None:
    assert (score.score, score.num_edits, score.ref_length) == (
        expected["score"], expected["num_edits"], expected["ref_length"])
    assert str(score) == expected["str"]
    assert score.format(width=3, score_only=True) == expected["score_w3"]
    assert metric.signature == _ours(expected["signature"])
    assert metric.get_signature().format(short=True) == _ours(expected["signature_short"])


@pytest.mark.parametrize("case", _cases("corpus_ter", data=False), ids=lambda c: c["id"])
def test_recorded_corpus_cases(case: dict) -> None:
    metric = TER(**case["kwargs"])
    _check_recorded(metric, metric.corpus_score(case["hyps"], case["refs"]), case["expected"])


@pytest.mark.parametrize("case", _cases("ter_signature", data=False), ids=lambda c: c["id"])
def test_recorded_signatures(case: dict) -> None:
    metric = TER(**case["kwargs"])
    score = metric.corpus_score(["a b"], [["a b"]])
    expected = case["expected"]
    assert metric.signature == _ours(expected["long"])
    assert str(metric.get_signature()) == _ours(expected["long"])
    assert metric.get_signature().format(short=True) == _ours(expected["short"])
    assert str(score) == expected["str"]


@pytest.mark.full_data
@pytest.mark.parametrize("case", _cases("corpus_ter", data=True), ids=lambda c: c["id"])
def test_recorded_full_data_cases(case: dict) -> None:
    """Whole WMT17 systems and TED sys1 (sacrebleu's recorded numbers; tercom's agree within
    test.sh's tolerance)."""
    if "data_file" in case:
        data = wmt17_case_data()
        hyps, refs = data["systems"][case["system"]], [data["references"]]
    else:
        hyps, refs = ted_lines(case["system"]), [ted_lines("ref")]
    metric = TER(**case["kwargs"])
    score = metric.corpus_score(hyps, refs)
    _check_recorded(metric, score, case["expected"])
    if "external_expected" in case:
        assert abs(score.score / 100 - case["external_expected"]) <= case["external_tolerance"]


def test_every_ter_case_is_tested() -> None:
    kinds = {"corpus_ter", "ter_signature", "ter_tokenize"}
    tested = (sum(len(_cases(kind, data)) for kind in ("corpus_ter", "ter_signature")
                  for data in (False, True))
              + sum(1 for c in sacrebleu_cases() if c["kind"] == "ter_tokenize"))
    assert tested == sum(1 for case in sacrebleu_cases() if case["kind"] in kinds) == 36
    assert not _cases("ter_signature", data=True)


# ----------------------------------------------------------------------------- output


def test_format_as_sacrebleu() -> None:
    hyps, refs = mixed_corpus(1)
    ours = TER(normalized=True).corpus_score(hyps, refs)
    theirs = SacreTER(normalized=True).corpus_score(hyps, refs)
    metric = TER(normalized=True, references=refs)
    signature = metric.signature
    assert str(ours) == str(theirs) == theirs.format()
    assert ours.name == theirs.name == "TER"
    for width, score_only in itertools.product((0, 1, 2, 4), (False, True)):
        assert ours.format(width, score_only) == theirs.format(width, score_only)
        assert (ours.format(width, score_only, signature)
                == theirs.format(width, score_only, signature))
    assert (ours.format(signature=signature, is_json=True)
            == theirs.format(signature=signature, is_json=True))
    theirs._mean, theirs._ci = 61.234, 1.5
    interval = SignificanceResult("TER", ours.score, mean=61.234, ci=1.5)
    for is_json in (False, True):
        assert (ours.format(signature=signature, is_json=is_json, interval=interval)
                == theirs.format(signature=signature, is_json=is_json))


def test_json_without_signature_works() -> None:
    """A documented difference: sacrebleu raises ValueError on JSON without a signature."""
    score = TER().corpus_score(["a b"], [["a c"]])
    with pytest.raises(ValueError):
        SacreTER().corpus_score(["a b"], [["a c"]]).format(is_json=True)
    assert json.loads(score.format(is_json=True)) == {"name": "TER", "score": 50.0,
                                                      "signature": ""}


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(
    name for name, on in o.items() if on) or "default")
def test_signatures(options: dict[str, bool]) -> None:
    ours, theirs = TER(**options), SacreTER(**options)
    with pytest.raises(ValueError, match="score something first"):
        _ = ours.signature
    for metric in (ours, theirs):
        metric.corpus_score(["a b", "c"], [["a b", "c"], ["b", None]])
    assert ours.signature == _ours(str(theirs.get_signature()))
    assert ours.get_signature().format(short=True) == _ours(
        theirs.get_signature().format(short=True))
    expected = theirs.get_signature()
    expected.update("bs", 1000)
    expected.update("seed", "12345")
    resampled = ours.get_signature(bs=1000, seed="12345")
    assert str(resampled) == _ours(str(expected))
    assert resampled.format(short=True) == _ours(expected.format(short=True))


# ----------------------------------------------------------------------------- compat


@pytest.mark.parametrize("options", OPTIONS[::3], ids=lambda o: "-".join(
    name for name, on in o.items() if on) or "default")
def test_compat_functions(options: dict[str, bool]) -> None:
    hyps, refs = mixed_corpus(2, per_set=3)
    mine, sacre = corpus_ter(hyps, refs, **options), sacrebleu.corpus_ter(hyps, refs, **options)
    assert (mine.score, mine.num_edits, mine.ref_length) == (
        sacre.score, sacre.num_edits, sacre.ref_length)
    for i in range(0, len(hyps), 4):
        segment = [stream[i] for stream in refs]
        mine = sentence_ter(hyps[i], segment, **options)
        sacre = sacrebleu.sentence_ter(hyps[i], segment, **options)
        assert (mine.score, mine.num_edits, mine.ref_length) == (
            sacre.score, sacre.num_edits, sacre.ref_length)


# ----------------------------------------------------------------------------- refusals


def test_mismatched_lengths_refused_where_sacrebleu_truncates() -> None:
    """A documented difference: sacrebleu's API zips the streams (dropping segments)."""
    hyps, refs = mixed_corpus(0, per_set=3)
    assert SacreTER().corpus_score(hyps[:20], refs).score > 0  # silently 20 segments
    with pytest.raises(LengthMismatchError, match="reference stream 1 has 27 segments, but "
                                                  "the hypotheses have 20"):
        TER().corpus_score(hyps[:20], refs)
    with pytest.raises(LengthMismatchError, match="reference stream 2 has 26"):
        TER().corpus_score(hyps, [refs[0], refs[1][:26]])
    with pytest.raises(LengthMismatchError, match="hypotheses have 26"):
        TER(references=refs).corpus_score(hyps[:26])


def test_empty_corpus_and_missing_references() -> None:
    """sacrebleu fails on these with IndexError or ZeroDivisionError; ours say what is wrong."""
    with pytest.raises(ZeroDivisionError):
        SacreTER().corpus_score(["a", "b"], [["a", None]])
    with pytest.raises(InvalidTextError, match="corpus is empty"):
        TER().corpus_score([], [[]])
    with pytest.raises(InvalidTextError, match="non-empty list of reference streams"):
        TER().corpus_score(["a"], [])
    with pytest.raises(InvalidTextError, match="non-empty list of reference streams"):
        TER().sentence_score("a", [])
    with pytest.raises(MissingReferenceError, match="Segment 2 has no reference"):
        TER().corpus_score(["a", "b"], [["a", None], ["b", None]])
    with pytest.raises(MissingReferenceError, match="no reference"):
        TER().sentence_score("a", [None, None])
    with pytest.raises(MissingReferenceError, match=r"none were given to TER\(references"):
        TER().corpus_score(["a"])


@pytest.mark.parametrize(("call", "message"), [
    (lambda: TER().corpus_score(["a", 3], [["a", "b"]]), "hypotheses: segment 2 is int"),
    (lambda: TER().corpus_score("a b", [["a b"]]), "hypotheses must be a list of strings"),
    (lambda: TER().corpus_score(["a"], [[b"a"]]), "reference stream 1: segment 1 is bytes"),
    (lambda: TER().corpus_score(["a"], ["a"]), "reference stream 1 must be a list"),
    (lambda: TER().corpus_score(["a", None], [["a", "b"]]), "segment 2 is NoneType"),
    (lambda: TER().sentence_score(None, ["a"]), "hypothesis: segment 1 is NoneType"),
    (lambda: TER().sentence_score("a", "a"), "references must be a list of strings"),
    (lambda: TER().sentence_score("a", [1]), "references: segment 1 is int"),
    (lambda: TER(references=[[None]]), "Segment 1 has no reference"),
])
def test_invalid_input_is_refused(call: object, message: str) -> None:
    with pytest.raises((InvalidTextError, MissingReferenceError), match=message):
        call()  # type: ignore[operator]


# ----------------------------------------------------------------------------- compiled code


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, cwd=REPO, env={**os.environ, **env}, timeout=300)


def test_numba_is_imported_only_when_ter_is_computed() -> None:
    result = _python("import sys, bleu, bleu.metrics.ter as t; m = t.TER(references=[['a b']]); "
                     "print('numba' in sys.modules); m.corpus_score(['b a']); "
                     "print('numba' in sys.modules)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


def test_works_silently_without_a_writable_cache() -> None:
    """Where numba finds no cache folder it can write (here: only IPython's locator allowed,
    which never applies), ``cache=True`` would raise at import; the kernel then compiles in
    memory, with no warning (turned into errors once the package is imported) and the same
    numbers."""
    result = _python("import warnings\n"
                     "from bleu.metrics.ter import corpus_ter\n"
                     "warnings.simplefilter('error')\n"
                     "s = corpus_ter(['d e f g h a b c', 'x y'], [['a b c d e f g h', 'y x z']])\n"
                     "from bleu.metrics.ter import kernel as ter_kernel\n"
                     "cache = type(ter_kernel.pair_edits._cache).__name__\n"
                     "print(s.num_edits, s.ref_length, cache)",
                     NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    expected = SacreTER().corpus_score(["d e f g h a b c", "x y"],
                                       [["a b c d e f g h", "y x z"]])
    assert result.stdout.split() == [str(expected.num_edits), str(expected.ref_length),
                                     "NullCache"]

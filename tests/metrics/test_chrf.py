"""chrF and chrF++ (bleu.metrics.chrf) against sacrebleu 2.6.0, the oracle, run here.

Every expected number comes from sacrebleu in the test, or from its recorded outputs in
``cases.json``. Exactness is ``==`` on every statistic and every score: corpus, sentence,
resampled (float32) and formatted. Real test sets are scored on tests/data's cut always and on
the full sets when ../shared/data is there (``full_data``); systems rotate over the
combinations of references and options, so that the full sweep stays within minutes.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
import sacrebleu
from conftest import (
    DATA_ROOTS,
    REPO_DATA,
    read_lines,
    sacrebleu_cases,
    segment_text,
    ted_lines,
    wmt17_case_data,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.significance import _bootstrap_resample

from bleu._version import __version__
from bleu.errors import (
    InvalidTextError,
    LengthMismatchError,
    MissingReferenceError,
    UnknownOptionError,
)
from bleu.metrics import threads
from bleu.metrics.base import SignificanceResult
from bleu.metrics.chrf import CHRF, CHRFScore, corpus_chrf, sentence_chrf
from bleu.metrics.chrf import counts as chrf_counts
from bleu.metrics.chrf import stats as chrf_stats
from bleu.metrics.chrf import text as chrf_text

VERSION = f"bleu-explorer-{__version__}"


# ----------------------------------------------------------------------------- the oracle


@dataclass(frozen=True)
class SacreParity:
    """What sacrebleu gives for one corpus and set of options: its rows, corpus score, every
    sentence score and signature."""

    rows: tuple[tuple[int, ...], ...]
    corpus: float
    sentences: tuple[float, ...]
    signature: str


@cache
def _sacrebleu_parity(hyps: tuple[str, ...], refs: tuple[tuple[str | None, ...], ...],
                      options: tuple[tuple[str, type, object], ...]) -> SacreParity:
    theirs = SacreCHRF(**{name: value for name, _, value in options})
    rows = theirs._extract_corpus_statistics(list(hyps), [list(stream) for stream in refs])
    return SacreParity(tuple(map(tuple, rows)), theirs._aggregate_and_compute(rows).score,
                       tuple(theirs._aggregate_and_compute([row]).score for row in rows),
                       str(theirs.get_signature()))


def sacrebleu_parity(hyps: list[str], refs: list[list[str | None]],
                     **options: object) -> SacreParity:
    """sacrebleu's side of :func:`assert_parity`, computed once per session for these texts
    and options (each value's type part of the key: 1 is not True): tests whose parameters
    change only our side (key bits, chunk sizes) and repeated corpora share it."""
    key = tuple((name, type(value), value) for name, value in sorted(options.items()))
    return _sacrebleu_parity(tuple(hyps), tuple(map(tuple, refs)), key)


def assert_parity(hyps: list[str], refs: list[list[str | None]], **options: object) -> None:
    """Statistics, corpus score and every sentence score equal sacrebleu's.

    sacrebleu's side takes the steps its ``corpus_score`` and ``sentence_score`` take
    (``_extract_corpus_statistics``, then ``_aggregate_and_compute`` of all rows or of one):
    extracting once keeps the full sweep affordable.
    """
    ours, expected = CHRF(**options), sacrebleu_parity(hyps, refs, **options)
    stats = ours.segment_stats(hyps, refs)
    assert stats.dtype == np.int64
    assert stats.tolist() == [list(row) for row in expected.rows]
    assert ours.corpus_score(hyps, refs).score == expected.corpus
    assert ours.sentence_scores(hyps, refs).tolist() == list(expected.sentences)
    assert ours.signature == expected.signature.replace("version:2.6.0", f"version:{VERSION}")


def assert_public_parity(hyps: list[str], refs: list[list[str | None]],
                         **options: object) -> None:
    """The public calls of both: corpus_score, and sentence_score of every segment."""
    ours, theirs = CHRF(**options), SacreCHRF(**options)
    assert ours.corpus_score(hyps, refs).score == theirs.corpus_score(hyps, refs).score
    for i, hyp in enumerate(hyps):
        segment_refs = [stream[i] for stream in refs]
        assert (ours.sentence_score(hyp, segment_refs).score
                == theirs.sentence_score(hyp, segment_refs).score), i


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
    path = REPO_DATA / folder
    systems = {p.name[len(f"{prefix}.hyp."): -len(lang) - 1]: p.name
               for p in sorted(path.glob(f"{prefix}.hyp.*.{lang}"))}
    return DataSet(folder, {k: f"{prefix}.ref.{k}.{lang}" for k in refs}, systems)


def _wmt17() -> DataSet:
    folder = "wmt17_newstest2017_en-de"
    ref = "newstest2017.en-de.ref.de"
    systems = {p.name[len("newstest2017."): -len(".en-de.de")]: p.name
               for p in sorted((REPO_DATA / folder).glob("newstest2017.*.de"))
               if p.name != ref}
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


def reference_choices(names: list[str]) -> list[list[str]]:
    """Each reference alone, then all together (when there are several)."""
    return [[name] for name in names] + ([names] if len(names) > 1 else [])


def test_every_folder_is_a_test_set() -> None:
    folders = {p.name for p in REPO_DATA.iterdir() if p.is_dir()}
    assert folders - {"sacrebleu_cases"} == {s.folder for s in TEST_SETS.values()}
    assert all(s.systems for s in TEST_SETS.values())


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize("name", TEST_SETS)
def test_test_set_parity(name: str, root: Path) -> None:
    """chrF and chrF++ of rotating systems against each reference alone and all together."""
    systems, refs = TEST_SETS[name].load(root)
    system_names = sorted(systems)
    combinations = itertools.product(reference_choices(sorted(refs)), (0, 2))
    for k, (chosen, word_order) in enumerate(combinations):
        hyps = systems[system_names[k % len(system_names)]]
        assert_parity(hyps, [refs[r] for r in chosen], word_order=word_order)


@pytest.mark.parametrize("name", TEST_SETS)
def test_test_set_public_calls(name: str) -> None:
    """On the cut: sacrebleu's public corpus_score and per-segment sentence_score, all refs."""
    systems, refs = TEST_SETS[name].load(REPO_DATA)
    hyps = systems[sorted(systems)[-1]][:40]
    assert_public_parity(hyps, [stream[:40] for stream in refs.values()], word_order=2)


@pytest.mark.parametrize("name", TEST_SETS)
def test_every_system_with_cached_references(name: str) -> None:
    """On the cut: references prepared once (both sides), every system scored with them."""
    systems, refs = TEST_SETS[name].load(REPO_DATA)
    streams = list(refs.values())
    ours, theirs = CHRF(references=streams), SacreCHRF(references=streams)
    for hyps in systems.values():
        assert ours.corpus_score(hyps).score == theirs.corpus_score(hyps, None).score
    assert ours.signature.startswith(f"nrefs:{len(streams)}|")


# ----------------------------------------------------------------------------- options


def _multi_reference_slice() -> tuple[list[str], list[list[str | None]]]:
    """40 segments of WMT22 en-de with references A and B, B missing on every 7th."""
    folder = REPO_DATA / "wmt22_generaltest2022_en-de"
    hyps = read_lines(folder / "generaltest2022.en-de.hyp.Online-B.de")[:40]
    ref_a = read_lines(folder / "generaltest2022.en-de.ref.A.de")[:40]
    ref_b = [None if i % 7 == 3 else r
             for i, r in enumerate(read_lines(folder / "generaltest2022.en-de.ref.B.de")[:40])]
    return hyps, [ref_a, ref_b]


FLAGS = list(itertools.product((False, True), repeat=3))  # lowercase, whitespace, eps


@pytest.mark.parametrize(("char_order", "word_order", "beta"),
                         list(itertools.product(range(1, 7), range(3), range(4))))
def test_option_grid(char_order: int, word_order: int, beta: int) -> None:
    """Every char order, word order and beta together, the three flags rotating through all
    their combinations."""
    lowercase, whitespace, eps = FLAGS[(char_order * 12 + word_order * 4 + beta) % len(FLAGS)]
    hyps, refs = _multi_reference_slice()
    assert_parity(hyps, refs, char_order=char_order, word_order=word_order, beta=beta,
                  lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps)


@pytest.mark.parametrize(("lowercase", "whitespace", "eps"), FLAGS)
@pytest.mark.parametrize("word_order", [0, 2])
def test_flags(lowercase: bool, whitespace: bool, eps: bool, word_order: int) -> None:
    hyps, refs = _multi_reference_slice()
    assert_parity(hyps, refs, word_order=word_order, lowercase=lowercase,
                  whitespace=whitespace, eps_smoothing=eps)


@pytest.mark.parametrize(("char_order", "word_order"), [(0, 1), (0, 2), (0, 4), (12, 0),
                                                        (9, 5), (20, 3)])
def test_orders_sacrebleu_accepts_beyond_the_usual(char_order: int, word_order: int) -> None:
    """Word n-grams alone (char_order 0), and high orders (keys then take several blocks)."""
    hyps, refs = _multi_reference_slice()
    assert_parity(hyps, refs, char_order=char_order, word_order=word_order)


@pytest.mark.parametrize("key_bits", [32, 41, 50])
@pytest.mark.parametrize("name", ["wmt22-en-de", "wmt22-en-zh"])
def test_keys_ranked_between_blocks(key_bits: int, name: str) -> None:
    """With fewer key bits, orders are counted in several blocks, ranks carried between."""
    systems, refs = TEST_SETS[name].load(REPO_DATA)
    with mock.patch.object(chrf_counts, "KEY_BITS", key_bits):
        assert_parity(systems[sorted(systems)[0]], list(refs.values()), word_order=2)


@pytest.mark.parametrize("chunk", [1, 3, 7])
def test_chunks_and_threads(chunk: int) -> None:
    """Small chunks (many of them, on the thread pool, and on one thread) change nothing."""
    hyps, refs = _multi_reference_slice()
    with mock.patch.object(chrf_stats, "CHUNK_SEGMENTS", chunk):
        assert_parity(hyps, refs, word_order=2)
        cached = CHRF(word_order=2, references=refs)
        threads.set_threads(1)
        try:
            single = cached.segment_stats(hyps)
        finally:
            threads.set_threads(None)
        assert (single == cached.segment_stats(hyps)).all()


# ----------------------------------------------------------------------------- generated text


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]], dict[str, object]]:
    """A few segments of generated text, 1-3 references with None gaps, random options."""
    n_segments = draw(st.integers(1, 4))
    n_refs = draw(st.integers(1, 3))
    hyps = draw(st.lists(segment_text, min_size=n_segments, max_size=n_segments))
    refs: list[list[str | None]] = [
        draw(st.lists(segment_text | st.none() if n_refs > 1 else segment_text,
                      min_size=n_segments, max_size=n_segments)) for _ in range(n_refs)]
    for i in range(n_segments):
        if all(stream[i] is None for stream in refs):
            refs[draw(st.integers(0, n_refs - 1))][i] = draw(segment_text)
    word_order = draw(st.integers(0, 3))
    options = {
        "char_order": draw(st.integers(0 if word_order else 1, 7)),
        "word_order": word_order,
        "beta": draw(st.integers(0, 3)),
        "lowercase": draw(st.booleans()),
        "whitespace": draw(st.booleans()),
        "eps_smoothing": draw(st.booleans()),
    }
    return hyps, refs, options


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from([2, 63]))
def test_generated_text(corpus: tuple, chunk: int) -> None:
    hyps, refs, options = corpus
    with mock.patch.object(chrf_stats, "CHUNK_SEGMENTS", chunk):
        assert_parity(hyps, refs, **options)


@settings(max_examples=100, deadline=None)
@given(segment_text, st.lists(segment_text | st.none(), min_size=1, max_size=3)
       .filter(lambda refs: any(r is not None for r in refs)), st.integers(0, 2))
def test_generated_sentences(hyp: str, refs: list[str | None], word_order: int) -> None:
    assert (CHRF(word_order=word_order).sentence_score(hyp, refs).score
            == SacreCHRF(word_order=word_order).sentence_score(hyp, refs).score)


SPECIAL_TEXTS = [
    "", " ", "\t\n ", "a", "Ab", "(hi)", "hi!", "!hi", "!!", "'", "a.b. c,d ,e", "...",
    "İstanbul İİ", "ΟΔΟΣ ΣΑΣ Σ", "Straße STRASSE ß", "ǅungla ǈ", "e\u0301e\u0301 é",
    "😀😀 👍🏽 🇩🇪 😀", "中文 你好，世界。", "日本語のテキスト", "한국어 텍스트", "\x00 a\x00b",
    "\ud800 lone \udfff", "\u200b zero\u200bwidth", "\xa0nbsp\u3000ideo\u2028ls\x85nel",
    "\x1c\x1d\x1e\x1f sep", "a " * 300, "xy" * 5000, "— « » ¿¡ … €",
]


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("whitespace", [False, True])
def test_special_texts(word_order: int, lowercase: bool, whitespace: bool) -> None:
    """Empty and whitespace-only lines, punctuation splits, case changes that change lengths,
    combining marks, astral characters, CJK, lone surrogates, C0/C1 separators, long lines."""
    hyps = SPECIAL_TEXTS
    refs = [SPECIAL_TEXTS[3:] + SPECIAL_TEXTS[:3], [t.upper() for t in SPECIAL_TEXTS]]
    assert_parity(hyps, refs, word_order=word_order, lowercase=lowercase, whitespace=whitespace)
    assert_parity(hyps, refs[:1], word_order=word_order, lowercase=lowercase,
                  whitespace=whitespace, eps_smoothing=True)


def test_no_pandas_altair_or_streamlit() -> None:
    """Scoring imports neither (pyarrow's own conversions to numpy would import pandas)."""
    code = ("import sys; from bleu.metrics.chrf import CHRF; "
            "CHRF(word_order=2).corpus_score(['a b. c', 'x'], [['a b c', 'y'], [None, 'x']]); "
            "print(sorted({'pandas', 'altair', 'streamlit'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO_DATA.parents[1])
    assert done.stdout.strip() == "[]"


def test_whitespace_table_is_str_split() -> None:
    """The whitespace table (up to U+3000) is exactly ``str.isspace``, which ``str.split``
    uses: no whitespace lies above U+3000."""
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    assert max(spaces) == chrf_text.LAST_SPACE
    assert np.flatnonzero(chrf_text._space_table()).tolist() == spaces


# ----------------------------------------------------------------------------- references


def test_none_gaps_and_variable_reference_counts() -> None:
    """None means "no reference here": the segment keeps its best present reference; nrefs
    becomes var, as sacrebleu's signature says."""
    folder = REPO_DATA / "wmt21_newstest2021_en-de"
    hyps = read_lines(folder / "newstest2021.en-de.hyp.UEdin.de")
    refs: list[list[str | None]] = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de")
                                    for k in "ACD"]
    for k, stream in enumerate(refs):
        for i in range(k, len(stream), 3 + k):
            stream[i] = None
    for i in range(len(hyps)):
        if all(stream[i] is None for stream in refs):
            refs[2][i] = "Ein Satz."
    for word_order in (0, 2):
        assert_parity(hyps, refs, word_order=word_order)
        assert_public_parity(hyps[:30], [stream[:30] for stream in refs], word_order=word_order)
    metric = CHRF()
    metric.corpus_score(hyps, refs)
    assert metric.signature.startswith("nrefs:var|")


def test_tied_references_take_the_first() -> None:
    """Equal F-scores: the first present reference wins (sacrebleu's strict ``>``)."""
    hyps = ["the cat", "x", "", "abc abd", "a"]
    refs = [["cat the", "y", "q", None, ""], ["the cat", "z", "", "abd abc", "b"],
            ["tac eht", "x", "w", "abc abd", "a"]]
    for eps in (False, True):
        assert_parity(hyps, refs, eps_smoothing=eps, word_order=2)


def test_cached_references_match_one_shot() -> None:
    hyps, refs = _multi_reference_slice()
    cached = CHRF(word_order=2, references=refs)
    assert cached.n_refs == -1
    assert (cached.segment_stats(hyps) == CHRF(word_order=2).segment_stats(hyps, refs)).all()
    assert cached.corpus_score(hyps).score == SacreCHRF(word_order=2).corpus_score(
        hyps, refs).score
    twin = CHRF(**cached.arguments, references=refs)
    assert twin.corpus_score(hyps) == cached.corpus_score(hyps)


# ----------------------------------------------------------------------------- scorers


def _real_stats(word_order: int = 0, **options: object) -> np.ndarray:
    folder = REPO_DATA / "wmt22_generaltest2022_en-de"
    hyps = read_lines(folder / "generaltest2022.en-de.hyp.Online-W.de")
    refs = [read_lines(folder / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]
    return CHRF(word_order=word_order, **options).segment_stats(hyps, refs)


SCORER_OPTIONS = [{}, {"word_order": 2}, {"eps_smoothing": True},
                  {"word_order": 2, "eps_smoothing": True, "beta": 3}, {"beta": 0},
                  {"beta": 0, "eps_smoothing": True}, {"beta": 1, "char_order": 4}]


@pytest.mark.parametrize("options", SCORER_OPTIONS)
def test_resample_scores_equal_sacrebleus_bootstrap(options: dict[str, object]) -> None:
    """sacrebleu's own ``_bootstrap_resample`` (float32 sums, seed 12345) against our scorer
    of the same resamples' sums."""
    stats = _real_stats(**options)
    theirs = SacreCHRF(**options)
    with mock.patch.dict(os.environ, {"SACREBLEU_SEED": "12345"}):
        _, expected = _bootstrap_resample(stats.tolist(), theirs, 300)
    indices = np.random.default_rng(12345).choice(len(stats), size=(300, len(stats)),
                                                  replace=True)
    sums = stats[indices].sum(axis=1)
    scorer = CHRF(**options).scorer
    theirs_array = np.array([s.score for s in expected])  # what sacrebleu's paired test keeps
    for ours in (scorer.resample_scores(sums), scorer.resample_scores(sums.astype(np.float32))):
        assert ours.tolist() == theirs_array.tolist()
        assert ours.dtype == theirs_array.dtype
        assert ours.mean() == theirs_array.mean()


@pytest.mark.parametrize("options", SCORER_OPTIONS)
def test_scores_of_integer_rows(options: dict[str, object]) -> None:
    """``scores`` of int64 rows (segments, and sums of random subsets) as sacrebleu's
    ``_compute_score_from_stats`` of them."""
    stats = _real_stats(**options)
    rng = np.random.default_rng(7)
    subsets = (rng.random((50, len(stats))) < 0.3).astype(np.int64) @ stats
    rows = np.concatenate((stats[:300], subsets))
    theirs = SacreCHRF(**options)
    scorer = CHRF(**options).scorer
    assert scorer.scores(rows).tolist() == [
        theirs._compute_score_from_stats(row).score for row in rows]
    assert [scorer.score(row) for row in rows[:20]] == [
        theirs._compute_score_from_stats(row.tolist()).score for row in rows[:20]]
    assert scorer.scores(rows.astype(np.float64)).tolist() == [
        theirs._compute_score_from_stats(row.tolist()).score for row in rows]


@st.composite
def stat_rows(draw: st.DrawFn) -> tuple[dict[str, object], np.ndarray]:
    """Rows like real ones (matches <= both counts; no hypothesis count without a
    reference's), small counts, zeros likely: every smoothing branch, both float types."""
    word_order = draw(st.integers(0, 2))
    options = {"char_order": draw(st.integers(1, 4)), "word_order": word_order,
               "beta": draw(st.integers(0, 3)), "eps_smoothing": draw(st.booleans())}
    order = options["char_order"] + word_order
    rows = []
    for _ in range(draw(st.integers(1, 5))):
        row = []
        for _ in range(order):
            ref = draw(st.integers(0, 6))
            hyp = draw(st.integers(0, 6)) if ref else 0
            row += [hyp, ref, draw(st.integers(0, min(hyp, ref)))]
        rows.append(row)
    return options, np.array(rows, np.int64)


@settings(max_examples=300, deadline=None)
@given(stat_rows())
def test_scorer_edge_rows(case: tuple[dict[str, object], np.ndarray]) -> None:
    options, rows = case
    theirs = SacreCHRF(**options)
    scorer = CHRF(**options).scorer
    assert scorer.scores(rows).tolist() == [
        theirs._compute_score_from_stats(row.tolist()).score for row in rows]
    expected = np.array([theirs._compute_score_from_stats(row).score
                         for row in rows.astype(np.float32)])
    assert scorer.resample_scores(rows).tolist() == expected.tolist()
    assert scorer.resample_scores(rows).dtype == expected.dtype


def test_scorer_protocol() -> None:
    scorer = CHRF(word_order=2, beta=3).scorer
    assert (scorer.name, scorer.higher_is_better, scorer.integer_stats) == ("chrF3++", True, True)
    assert scorer.columns == 24
    assert "word orders 1..2" in scorer.layout
    assert scorer.scores(np.zeros((0, 24))).shape == (0,)


# ----------------------------------------------------------------------------- recorded cases


def _cases(kind: str, data: bool) -> list[dict]:
    return [case for case in sacrebleu_cases()
            if case["kind"] == kind and (("data_file" in case or "data" in case) == data)]


def _ours(signature: str) -> str:
    return signature.replace("version:2.6.0", f"version:{VERSION}").replace(
        "v:2.6.0", f"v:{VERSION}")


def _check_recorded(metric: CHRF, score: CHRFScore, expected: dict) -> None:
    assert score.score == expected["score"]
    assert score.name == expected["name"]
    assert str(score) == expected["str"]
    assert score.format(width=4, score_only=True) == expected["score_w4"]
    assert metric.signature == _ours(expected["signature"])
    assert metric.get_signature().format(short=True) == _ours(expected["signature_short"])


@pytest.mark.parametrize("case", _cases("corpus_chrf", data=False), ids=lambda c: c["id"])
def test_recorded_corpus_cases(case: dict) -> None:
    metric = CHRF(**case["kwargs"])
    _check_recorded(metric, metric.corpus_score(case["hyps"], case["refs"]), case["expected"])


@pytest.mark.parametrize("case", _cases("sentence_chrf", data=False), ids=lambda c: c["id"])
def test_recorded_sentence_cases(case: dict) -> None:
    metric = CHRF(**case["kwargs"])
    _check_recorded(metric, metric.sentence_score(case["hyp"], case["refs"]), case["expected"])


@pytest.mark.parametrize("case", _cases("chrf_signature", data=False), ids=lambda c: c["id"])
def test_recorded_signatures(case: dict) -> None:
    metric = CHRF(**case["kwargs"])
    score = metric.corpus_score(["a b"], [["a b"]])
    expected = case["expected"]
    assert metric.signature == _ours(expected["long"])
    assert str(metric.get_signature()) == _ours(expected["long"])
    assert metric.get_signature().format(short=True) == _ours(expected["short"])
    assert (score.name, str(score)) == (expected["name"], expected["str"])


@pytest.mark.full_data
@pytest.mark.parametrize("case", _cases("corpus_chrf", data=True), ids=lambda c: c["id"])
def test_recorded_full_data_cases(case: dict) -> None:
    if "data_file" in case:
        data = wmt17_case_data()
        hyps, refs = data["systems"][case["system"]], [data["references"]]
    else:
        hyps, refs = ted_lines(case["system"]), [ted_lines("ref")]
    metric = CHRF(**case["kwargs"])
    _check_recorded(metric, metric.corpus_score(hyps, refs), case["expected"])


def test_every_chrf_case_is_tested() -> None:
    kinds = {"corpus_chrf", "sentence_chrf", "chrf_signature"}
    tested = sum(len(_cases(kind, data)) for kind in kinds for data in (False, True))
    assert tested == sum(1 for case in sacrebleu_cases() if case["kind"] in kinds) == 78


# ----------------------------------------------------------------------------- output


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"beta": 1, "word_order": 1},
                                     {"beta": 0}])
def test_format_as_sacrebleu(options: dict[str, object]) -> None:
    hyps, refs = _multi_reference_slice()
    ours = CHRF(**options).corpus_score(hyps, refs)
    theirs = SacreCHRF(**options).corpus_score(hyps, refs)
    signature = CHRF(**options, references=refs).signature
    assert str(ours) == str(theirs) == theirs.format()
    assert ours.name == theirs.name
    for width, score_only in itertools.product((0, 1, 2, 4), (False, True)):
        assert ours.format(width, score_only) == theirs.format(width, score_only)
        assert (ours.format(width, score_only, signature)
                == theirs.format(width, score_only, signature))
    assert (ours.format(signature=signature, is_json=True)
            == theirs.format(signature=signature, is_json=True))
    assert (ours.char_order, ours.word_order, ours.beta) == (
        theirs.char_order, theirs.word_order, theirs.beta)


def test_format_with_a_bootstrap_interval() -> None:
    """sacrebleu's ``(μ = mean ± ci)`` from its own bootstrap, in text and JSON."""
    hyps, refs = _multi_reference_slice()
    theirs = SacreCHRF(word_order=2)
    stats = theirs._extract_corpus_statistics(hyps, refs)
    expected = theirs._aggregate_and_compute(stats)
    with mock.patch.dict(os.environ, {"SACREBLEU_SEED": "12345"}):
        expected.estimate_ci(_bootstrap_resample(stats, theirs, 200)[1])
    ours = CHRF(word_order=2).corpus_score(hyps, refs)
    interval = SignificanceResult(ours.name, ours.score, mean=expected._mean, ci=expected._ci)
    signature = CHRF(word_order=2, references=refs).signature
    for width, is_json in itertools.product((1, 2, 3), (False, True)):
        assert (ours.format(width, signature=signature, is_json=is_json, interval=interval)
                == expected.format(width, signature=signature, is_json=is_json))


def test_json_without_signature_works() -> None:
    """A documented difference: sacrebleu raises ValueError on JSON without a signature."""
    score = CHRF().corpus_score(["a b"], [["a c"]])
    with pytest.raises(ValueError):
        SacreCHRF().corpus_score(["a b"], [["a c"]]).format(is_json=True)
    assert json.loads(score.format(is_json=True)) == {
        "name": "chrF2", "score": float(f"{score.score:.2f}"), "signature": ""}


def test_signatures() -> None:
    assert CHRF(references=[["a"], ["b"]]).signature == (
        f"nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{VERSION}")
    metric = CHRF(char_order=4, word_order=2, lowercase=True, whitespace=True,
                  eps_smoothing=True)
    theirs = SacreCHRF(char_order=4, word_order=2, lowercase=True, whitespace=True,
                       eps_smoothing=True)
    with pytest.raises(ValueError, match="score something first"):
        _ = metric.signature
    metric.sentence_score("a b", ["a b", None, "c"])
    theirs.sentence_score("a b", ["a b", None, "c"])
    assert metric.signature == _ours(str(theirs.get_signature()))
    assert metric.get_signature().format(short=True) == _ours(
        theirs.get_signature().format(short=True))


# ----------------------------------------------------------------------------- compat


@pytest.mark.parametrize("remove_whitespace", [True, False])
@pytest.mark.parametrize("word_order", [0, 2])
def test_compat_functions(remove_whitespace: bool, word_order: int) -> None:
    hyps, refs = _multi_reference_slice()
    kwargs = {"char_order": 5, "word_order": word_order, "beta": 3,
              "remove_whitespace": remove_whitespace, "eps_smoothing": word_order == 2}
    assert (corpus_chrf(hyps, refs, **kwargs).score
            == sacrebleu.corpus_chrf(hyps, refs, **kwargs).score)
    for i in range(5):
        segment = [stream[i] for stream in refs]
        assert (sentence_chrf(hyps[i], segment, **kwargs).score
                == sacrebleu.sentence_chrf(hyps[i], segment, **kwargs).score)


# ----------------------------------------------------------------------------- refusals


def test_mismatched_lengths_refused_where_sacrebleu_truncates() -> None:
    """A documented difference: sacrebleu's API zips the streams (dropping segments)."""
    hyps, refs = _multi_reference_slice()
    assert SacreCHRF().corpus_score(hyps[:30], refs).score > 0  # silently 30 segments
    with pytest.raises(LengthMismatchError, match="reference stream 1 has 40 segments, but "
                                                  "the hypotheses have 30"):
        CHRF().corpus_score(hyps[:30], refs)
    with pytest.raises(LengthMismatchError, match="reference stream 2 has 39"):
        CHRF().corpus_score(hyps, [refs[0], refs[1][:39]])
    with pytest.raises(LengthMismatchError, match="hypotheses have 39"):
        CHRF(references=refs).corpus_score(hyps[:39])


def test_empty_corpus_and_missing_references() -> None:
    with pytest.raises(InvalidTextError, match="corpus is empty"):
        CHRF().corpus_score([], [[]])
    with pytest.raises(InvalidTextError, match="non-empty list of reference streams"):
        CHRF().corpus_score(["a"], [])
    with pytest.raises(InvalidTextError, match="non-empty list of reference streams"):
        CHRF().sentence_score("a", [])
    with pytest.raises(IndexError):  # sacrebleu's failure, which we replace with a message
        SacreCHRF().corpus_score(["a", "b"], [["a", None], ["b", None]])
    with pytest.raises(MissingReferenceError, match="Segment 2 has no reference"):
        CHRF().corpus_score(["a", "b"], [["a", None], ["b", None]])
    with pytest.raises(MissingReferenceError, match="no reference"):
        CHRF().sentence_score("a", [None])
    with pytest.raises(MissingReferenceError, match=re.escape("CHRF(references=...)")):
        CHRF().corpus_score(["a"])


def test_refused_with_a_message_where_sacrebleu_fails() -> None:
    """An empty corpus or reference list: sacrebleu's IndexError becomes a message."""
    hyps, refs = _multi_reference_slice()
    for call in (lambda m: m.corpus_score(hyps, []), lambda m: m.corpus_score([], [[]])):
        with pytest.raises(IndexError):
            call(SacreCHRF(references=refs))
        with pytest.raises(InvalidTextError, match=r"non-empty list|corpus is empty"):
            call(CHRF(references=refs))


def test_non_strings_refused() -> None:
    with pytest.raises(InvalidTextError, match="hypotheses: segment 2 is int"):
        CHRF().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(InvalidTextError, match="hypotheses: segment 1 is NoneType"):
        CHRF().corpus_score([None], [["a"]])
    with pytest.raises(InvalidTextError, match="reference stream 1: segment 1 is bytes"):
        CHRF().corpus_score(["a"], [[b"a"]])
    with pytest.raises(InvalidTextError, match="must be a list of strings, got str"):
        CHRF().corpus_score("abc", [["a", "b", "c"]])
    with pytest.raises(InvalidTextError, match="hypothesis"):
        CHRF().sentence_score(None, ["a"])


@pytest.mark.parametrize(("options", "message"), [
    ({"char_order": -1}, "char_order must be an integer >= 0, got -1"),
    ({"word_order": -2}, "word_order must be an integer >= 0, got -2"),
    ({"char_order": 2.5}, "char_order must be an integer >= 0, got 2.5"),
    ({"word_order": True}, "word_order must be an integer >= 0, got True"),
    ({"char_order": 0}, "char_order and word_order are both 0"),
    ({"char_order": 0, "word_order": 0}, "at least one n-gram order"),
    ({"beta": -1}, "beta must be a finite number >= 0"),
    ({"beta": float("nan")}, "got nan"),
    ({"beta": "2"}, "beta must be"),
    ({"lowercase": "yes"}, "lowercase must be True or False"),
    ({"eps_smoothing": 2}, "eps_smoothing must be True or False"),
])
def test_options_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownOptionError, match=re.escape(message)):
        CHRF(**options)


def test_what_sacrebleu_does_with_refused_orders() -> None:
    """Why those are refused: with both orders 0 sacrebleu scores 0 whatever the input (or
    divides by zero with eps smoothing); a negative beta works as its absolute value."""
    assert SacreCHRF(char_order=0).corpus_score(["abc"], [["abc"]]).score == 0.0
    with pytest.raises(ZeroDivisionError):
        SacreCHRF(char_order=0, eps_smoothing=True).corpus_score(["abc"], [["abc"]])
    negative = SacreCHRF(beta=-2).corpus_score(["abc d"], [["abd c"]])
    assert negative.name == "chrF-2"
    assert negative.score == SacreCHRF(beta=2).corpus_score(["abc d"], [["abd c"]]).score


def test_beta_as_float_and_numpy_values() -> None:
    hyps, refs = _multi_reference_slice()
    assert_parity(hyps, refs, beta=0.5)
    assert CHRF(beta=np.int64(3), char_order=np.int32(4)).scorer.name == "chrF3"
    assert CHRF(beta=0.5).scorer.name == SacreCHRF(beta=0.5).corpus_score(
        ["a"], [["a"]]).name

"""The fast paths of the engine against the slow reference paths.

- Tokenizers: ``words(lines)`` (Arrow, byte/code-point classes) against the line-by-line
  ``__call__`` and against sacrebleu's tokenizer, on real data and generated text.
- Statistics: ``ReferenceTable.segment_stats`` (a table that keeps its counted references and
  one that counts them on each call) and ``segment_stats_once``, with chunk boundaries
  everywhere, against ``conftest.counter_segment_stats`` (Counters).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA_ROOTS, REPO_DATA, counter_segment_stats, read_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar as SacreTokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International as SacreTokenizerIntl
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh as SacreTokenizerZh

from bleu.errors import InvalidTextError
from bleu.metrics.bleu import engine as stats
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.checks import check_text_stream
from bleu.metrics.tokenizers import get_tokenizer
from bleu.metrics.tokenizers.words import PY_WHITESPACE, Words, split_words

SACRE = {
    "13a": SacreTokenizer13a(),
    "intl": SacreTokenizerIntl(),
    "zh": SacreTokenizerZh(),
    "char": SacreTokenizerChar(),
}
# Real files per tokenizer: German, English with C1 control characters, Chinese, Japanese.
REAL_FILES = {
    "13a": ["wmt17_newstest2017_en-de/newstest2017.en-de.ref.de",
            "compare-mt_ted_sk-en/ted.ref.detok.eng",
            "wmt22_generaltest2022_en-zh/generaltest2022.en-zh.ref.A.zh"],
    "intl": ["wmt17_newstest2017_en-de/newstest2017.en-de.ref.de",
             "wmt22_generaltest2022_en-zh/generaltest2022.en-zh.ref.A.zh"],
    "zh": ["wmt22_generaltest2022_en-zh/generaltest2022.en-zh.ref.A.zh",
           "wmt21_newstest2021_zh-en/newstest2021.zh-en.ref.A.en"],
    "char": ["wmt22_generaltest2022_en-ja/generaltest2022.en-ja.ref.A.ja"],
}
# Characters where the rules have edge cases: marks, digits, dashes, rule-1 punctuation,
# entities, every kind of whitespace, CJK and fullwidth forms, symbols, a BOM.
EDGE_ALPHABET = [
    *".,-0123456789a( )&;<>'\"_/", "&amp;", "&quot;", "<skipped>", "\t", "\r", "\x0b",
    "\x1c", "\x1f", "\x85", "\xa0",
    "\u1680", "\u2000", "\u2009", "\u2028", "\u202f", "\u3000", "中", "，", "。", "０",
    "\u2026", "“", "€", "ä", "\ufeff", "\U0001d7ce", "\U00020000", "$", "+", "^", "ⅷ", "½",
    "٣", "«", "—", "¿",
]
edge_text = st.lists(st.sampled_from(EDGE_ALPHABET), max_size=14).map("".join)


def word_lists(name: str, lines: list[str]) -> list[list[str]]:
    """The fast path's words, regrouped per line (checked the same as Arrow sees them)."""
    words = get_tokenizer(name).words(lines)
    flat, offsets = words.strings(), words.offsets
    assert [w.decode("utf-8", "surrogatepass") for w in words.to_arrow().to_pylist()] == flat
    assert len(offsets) == len(lines) + 1
    return [flat[offsets[i] : offsets[i + 1]] for i in range(len(lines))]


def test_python_whitespace_table_is_complete() -> None:
    every = [chr(code) for code in range(0x110000)]
    assert "".join(c for c in every if c.isspace()) == PY_WHITESPACE


def test_split_words_splits_on_exactly_python_whitespace() -> None:
    text = "x".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and c != 10)
    words = split_words(text, 1)
    assert words.strings() == text.split()
    assert words.offsets.tolist() == [0, len(words)]


# Runs of whitespace among long lines: where Arrow's own utf8_split_whitespace goes wrong.
spaced_line = st.lists(st.sampled_from(["the", " ", "\t", "\x1f", "$", "\u3000", "≥", ""]),
                       max_size=8).map("".join)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.one_of(spaced_line, st.tuples(spaced_line, st.integers(1, 200)).map(
    lambda pair: " ".join([pair[0]] * pair[1]))), max_size=10))
def test_split_words_equals_str_split(lines: list[str]) -> None:
    words = split_words("\n".join(lines), len(lines))
    flat, offsets = words.strings(), words.offsets
    assert [flat[offsets[i] : offsets[i + 1]] for i in range(len(lines))] == [
        line.split() for line in lines]


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize(("name", "relative"),
                         [(name, path) for name, paths in REAL_FILES.items() for path in paths])
def test_words_match_sacrebleu_on_real_data(root: Path, name: str, relative: str) -> None:
    lines = read_lines(root / relative)
    expected = [SACRE[name](line.rstrip()).split() for line in lines]
    assert word_lists(name, lines) == expected


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@settings(max_examples=200, deadline=None)
@given(lines=st.lists(edge_text, max_size=6))
def test_words_match_line_path_on_generated_text(name: str, lines: list[str]) -> None:
    tokenizer = get_tokenizer(name)
    expected = [tokenizer(line.rstrip()).split() for line in lines]
    assert word_lists(name, lines) == expected
    if name in SACRE:
        assert expected == [SACRE[name](line.rstrip()).split() for line in lines]


@pytest.mark.parametrize("name", ["13a", "zh", "char"])
def test_words_fall_back_on_newlines_and_surrogates(name: str) -> None:
    lines = ["a.b -\nc 3.5", "x\ud800y 1,2 ", "", "  "]
    expected = [SACRE[name](line.rstrip()).split() for line in lines]
    assert word_lists(name, lines) == expected


# Words as the Words buffer may hold them: any non-whitespace code points (NUL, multi-byte,
# surrogate-passing), so that to_list's join-and-split cannot meet a space inside a word.
word_bytes = st.text(st.characters(blacklist_characters=PY_WHITESPACE, codec=None),
                     min_size=1, max_size=6).map(lambda w: w.encode("utf-8", "surrogatepass"))


@settings(max_examples=300, deadline=None)
@given(words=st.lists(word_bytes, max_size=30), prefix=st.binary(max_size=3),
       suffix=st.binary(max_size=3))
def test_words_to_list_equals_slicing(words: list[bytes], prefix: bytes, suffix: bytes) -> None:
    """Each word is its bytes between its bounds, also when the bounds do not start at 0."""
    lengths = np.array([len(w) for w in words], np.int64)
    bounds = len(prefix) + np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    data = prefix + b"".join(words) + suffix
    buffer = Words(data, bounds, np.array([0, len(words)], np.int64))
    sliced = [data[int(a) : int(b)] for a, b in itertools.pairwise(bounds)]
    assert buffer.to_list() == sliced == words


def test_split_words_keeps_empty_lines() -> None:
    words = split_words("a  b\n\n  \n c ", 4)
    assert words.strings() == ["a", "b", "c"]
    assert words.offsets.tolist() == [0, 2, 2, 2, 3]


def test_tokenized_period_count() -> None:
    assert stats.tokenized_period_count([]) == 0
    assert stats.tokenized_period_count(["a .", "b.", " .", ".", "a . b"]) == 2
    assert stats.tokenized_period_count(["a .\nb", "x ."]) == 1  # a newline inside a line
    assert stats.tokenized_period_count(["x", "a ."]) == 1  # the last line counts too


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", " ", ".", " .", "\n", "x ."]), max_size=6)
                .map("".join), max_size=8))
def test_tokenized_period_count_counts_lines_ending_in_a_spaced_period(lines: list[str]) -> None:
    """The joined-text count equals sacrebleu's test, ``line.endswith(" .")`` line by line."""
    assert stats.tokenized_period_count(lines) == sum(line.endswith(" .") for line in lines)


# Keys small enough to pack with their places (the usual case), and keys too big for that
# (up to 2**62 - 1), where a stable argsort and a plain searchsorted take over.
small_keys = st.lists(st.integers(0, 60), max_size=300)
big_keys = st.lists(st.integers(0, 2**62 - 1) | st.sampled_from([0, 7, 2**62 - 1]),
                    min_size=1, max_size=300)


@settings(max_examples=200, deadline=None)
@given(keys=small_keys | big_keys)
def test_unique_inverse_equals_numpy(keys: list[int]) -> None:
    array = np.array(keys, np.int64)
    unique, inverse = stats._unique_inverse(array)
    expected_unique, expected_inverse = np.unique(array, return_inverse=True)
    assert unique.tolist() == expected_unique.tolist()
    assert inverse.tolist() == expected_inverse.tolist()


@settings(max_examples=200, deadline=None)
@given(table=small_keys | big_keys, wanted=small_keys | big_keys)
def test_ranks_in_equals_searchsorted(table: list[int], wanted: list[int]) -> None:
    sorted_table = np.unique(np.array(table, np.int64))
    needles = np.array(wanted, np.int64)
    assert stats._ranks_in(sorted_table, needles).tolist() == np.searchsorted(
        sorted_table, needles).tolist()


def _rank_of(orders: tuple, key_base: int, segment: int, ids: np.ndarray) -> int:
    """The rank of the n-gram ``ids`` of ``segment`` in the table of its order, each prefix
    found by a binary search of its own order's whole table; -1 where one is missing."""
    rank = int(segment)
    for order, token in zip(orders, ids, strict=False):
        key = rank * key_base + int(token)
        rank = int(np.searchsorted(order.keys, key))
        if rank == len(order.keys) or order.keys[rank] != key:
            return -1
    return rank


def test_ranks_among_children_equal_a_search_of_the_whole_table() -> None:
    """Order 2 and up, a hypothesis n-gram is looked for among its prefix's n-grams first: the
    ranks equal a binary search of the whole table, for n-grams found at a stretch's first
    place, further on in it (three references: stretches of several), and nowhere."""
    folder = REPO_DATA / "wmt21_newstest2021_en-de" / "newstest2021.en-de"
    refs: list[list[str | None]] = [read_lines(f"{folder}.ref.{k}.de") for k in "ACD"]
    hyps = read_lines(f"{folder}.hyp.Online-W.de")
    table = stats.ReferenceTable(refs, BLEUOptions())
    chunk, orders = table._chunks[0], table._counted[0]
    tokens = stats.words(hyps[chunk.start : chunk.stop], BLEUOptions())
    ids = chunk.vocabulary.lookup(tokens)
    line = np.repeat(np.arange(len(tokens.offsets) - 1), np.diff(tokens.offsets))
    for n in range(2, len(orders) + 1):
        prefixes, last = [], []
        for start in range(len(ids) - n + 1):
            gram = ids[start : start + n]
            if line[start] != line[start + n - 1] or (gram < 0).any():
                continue
            prefix = _rank_of(orders, chunk.key_base, line[start], gram[:-1])
            if prefix >= 0:
                prefixes.append(prefix)
                last.append(int(gram[-1]))
        order, prefix_ranks = orders[n - 1], np.array(prefixes, np.int64)
        wanted = prefix_ranks * chunk.key_base + np.array(last, np.int64)
        expected = np.minimum(np.searchsorted(order.keys, wanted), len(order.keys) - 1)
        expected = np.where(order.keys[expected] == wanted, expected, -1)
        found = stats._ranks_among_children(order, prefix_ranks, wanted)
        assert found.tolist() == expected.tolist()
        first = order.prefix_bounds[prefix_ranks]
        assert (found == first).any() and (found > first).any() and (found == -1).any()


def test_packed_sort_is_a_stable_argsort_or_declines() -> None:
    keys = np.array([5, 3, 5, 0, 3, 5], np.int64)
    ordered, places = stats._packed_sort(keys)
    assert ordered.tolist() == [0, 3, 3, 5, 5, 5] and places.tolist() == [3, 1, 4, 0, 2, 5]
    assert stats._packed_sort(np.array([2**62, 1], np.int64)) is None  # 63 bits + 1 place
    assert stats._packed_sort(np.zeros(0, np.int64)) is None


def reference_stats(hyps: list[str], refs: list[list[str | None]],
                    options: BLEUOptions) -> list[list[int]]:
    """The Counter-based statistics, segment by segment."""
    rows = []
    for i, hyp in enumerate(hyps):
        refs_tokens = [stats.tokenize_line(stream[i], options) for stream in refs
                       if stream[i] is not None]
        rows.append(counter_segment_stats(stats.tokenize_line(hyp, options),
                                                  refs_tokens, options.max_ngram_order))
    return rows


#: the engine's three ways to the same matrix: a table that keeps its counted references, one
#: too big to keep them (it counts each chunk's on every call), and references used once
#: (``segment_stats_once``)
WAYS = ("counted table", "uncounted table", "once")


def fast_stats(hyps: list[str], refs: list[list[str | None]], options: BLEUOptions,
               chunk: int, way: str, arrow: bool) -> list[list[int]]:
    """The engine's statistics, the ``way`` given, words given ids by Arrow (``arrow``) or by
    their numeric keys (``_KeyVocabulary``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats, "REFERENCE_CACHE_NGRAMS", 0 if way == "uncounted table" else 1 << 40)
        patch.setattr(stats, "arrow_pays", lambda reference_lines: arrow)
        if way == "once":
            return stats.segment_stats_once(refs, hyps, options, chunk_segments=chunk)[0].tolist()
        table = stats.ReferenceTable(refs, options, chunk_segments=chunk)
    assert (table._counted is not None) == (way == "counted table")
    return table.segment_stats(hyps).tolist()


words = st.sampled_from(["a", "b", "c", "a.", "1,5", "-", "x-1", "(", "中", "é"])
segment = st.lists(words, max_size=9).map(" ".join)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(1, 7))
    hyps = draw(st.lists(segment, min_size=n, max_size=n))
    n_refs = draw(st.integers(1, 3))
    refs: list[list[str | None]] = [draw(st.lists(segment, min_size=n, max_size=n))
                                    for _ in range(n_refs)]
    for i in range(n):  # some references missing (None), never all of one segment
        for k in range(1, n_refs):
            if draw(st.booleans()):
                refs[k][i] = None
    return hyps, refs


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("way", WAYS)
@settings(max_examples=150, deadline=None)
@given(corpus=corpora(), chunk=st.integers(1, 4), order=st.integers(1, 5),
       tokenize=st.sampled_from(["13a", "zh", "char", "none"]), lowercase=st.booleans())
def test_segment_stats_match_reference_on_generated(
        way: str, arrow: bool, corpus: tuple[list[str], list[list[str | None]]], chunk: int,
        order: int, tokenize: str, lowercase: bool) -> None:
    hyps, refs = corpus
    options = BLEUOptions(tokenize=tokenize, lowercase=lowercase, max_ngram_order=order)
    expected = reference_stats(hyps, refs, options)
    assert fast_stats(hyps, refs, options, chunk, way, arrow) == expected


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("way", WAYS)
def test_segment_stats_match_reference_on_real_data(way: str, arrow: bool) -> None:
    folder = REPO_DATA / "wmt21_newstest2021_en-de" / "newstest2021.en-de"
    refs: list[list[str | None]] = [read_lines(f"{folder}.ref.{k}.de") for k in "ACD"]
    hyps = read_lines(f"{folder}.hyp.Online-W.de")
    hyps[33] = ""  # an empty hypothesis and an empty reference, at chunk boundaries
    refs[1][65] = ""  # (chunks of 33: a boundary at 66)
    options = BLEUOptions()
    expected = reference_stats(hyps, refs, options)
    assert fast_stats(hyps, refs, options, 33, way, arrow) == expected


def words_of(items: list[bytes]) -> Words:
    """``Words`` holding ``items`` (one line)."""
    bounds = np.concatenate(([0], np.cumsum([len(w) for w in items], dtype=np.int64)))
    return Words(b"".join(items), bounds.astype(np.int64), np.array([0, len(items)], np.int64))


#: words that share their length and first and last 8 bytes (so their keys) but differ in the
#: middle, short words, words of 7, 8, 9, 16 and 17 bytes, and bytes that are not UTF-8 (never
#: a space: a word is a run of non-whitespace)
word_bytes_no_space = st.binary(min_size=1, max_size=20).filter(lambda word: b" " not in word)
clashing = st.builds(lambda middle: b"abcdefgh" + middle.replace(b" ", b"_") + b"stuvwxyz",
                     st.binary(min_size=0, max_size=3))
vocabulary_word = st.one_of(clashing, word_bytes_no_space,
                            st.sampled_from([b"a", b"ab", b"abcdefg", b"abcdefgh", b"abcdefghi",
                                             b"\xff\xfe", b"abcdefghijklmnop",
                                             b"abcdefghijklmnopq"]))


@settings(max_examples=300, deadline=None)
@given(references=st.lists(vocabulary_word, max_size=40),
       hypotheses=st.lists(vocabulary_word, max_size=40))
def test_numeric_keys_give_exact_ids(references: list[bytes], hypotheses: list[bytes]) -> None:
    """Equal words get equal ids and different words different ones, and a hypothesis word
    gets the id of the equal reference word or -1: also for words whose keys clash (the
    vocabulary then falls back to a Python dict)."""
    vocabulary = stats._vocabulary(words_of(references), arrow=False)
    ids = dict(zip(references, vocabulary.ids.tolist(), strict=True))
    assert len(set(ids.values())) == len(ids)
    assert all(0 <= i < vocabulary.size for i in ids.values())
    found = vocabulary.lookup(words_of(hypotheses)).tolist()
    assert found == [ids.get(word, -1) for word in hypotheses]


def test_clashing_keys_fall_back_to_a_dict_and_score_exactly() -> None:
    """Two reference words with one key (17 bytes, the same ends): the chunk takes a dict, the
    hypothesis word with that key but other bytes matches nothing, and the statistics equal the
    Counter oracle's."""
    one, other, third = "abcdefghXstuvwxyz", "abcdefghYstuvwxyz", "abcdefghZstuvwxyz"
    refs = [[f"{one} {other} a", f"{one} b"]]
    assert isinstance(stats._vocabulary(words_of([one.encode(), other.encode()]), False),
                      stats._DictVocabulary)
    assert isinstance(stats._vocabulary(words_of([one.encode(), b"a"]), False),
                      stats._KeyVocabulary)
    hyps = [f"{third} {other} a", f"{one} {third}"]
    options = BLEUOptions(max_ngram_order=2)
    expected = reference_stats(hyps, refs, options)
    for way in WAYS:
        assert fast_stats(hyps, refs, options, 1, way, arrow=False) == expected


def test_check_text_stream_still_names_the_culprit() -> None:
    check_text_stream(["a", "b"], "hypotheses")
    check_text_stream(["a", None], "reference stream 1", allow_none=True)
    with pytest.raises(InvalidTextError, match="segment 2 is NoneType"):
        check_text_stream(["a", None], "hypotheses")
    with pytest.raises(InvalidTextError, match="segment 3 is int"):
        check_text_stream(["a", "b", 3], "hypotheses")


def test_arrow_is_used_when_loaded_or_when_the_corpus_repays_loading_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "pyarrow.compute", raising=False)
    assert not stats.arrow_pays(stats.ARROW_MIN_LINES - 1)
    assert stats.arrow_pays(stats.ARROW_MIN_LINES)
    monkeypatch.setitem(sys.modules, "pyarrow.compute", object())
    assert stats.arrow_pays(1)


def test_one_clipping_rule_for_engine_and_explain() -> None:
    """The engine's matches and explain's credited counts both come from the clipping module:
    "the the the the" against "the cat is on the mat" credits 2 of 4, the most one reference
    holds (Papineni et al.'s example, computed by hand)."""
    import bleu
    from bleu.metrics.bleu.clipping import credited, credited_occurrences, reference_max

    explained = bleu.explain("the the the the", ["the cat is on the mat"])
    unigram = explained.ngrams[0][0]
    assert (unigram.count, unigram.max_ref_count, unigram.credited) == (4, 2, 2)
    assert unigram.credited_positions == credited_occurrences((0, 1, 2, 3), 2) == (0, 1)
    stats = bleu.segment_stats(["the the the the"], [["the cat is on the mat"]])
    assert stats[0, 2] == int(credited(4, 2)) == 2
    keys, maxima = reference_max(np.array([7, 3, 7, 3]), np.array([1, 2, 3, 1]))
    assert keys.tolist() == [3, 7] and maxima.tolist() == [2, 3]

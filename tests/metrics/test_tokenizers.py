"""Our tokenizers give sacrebleu's tokens: line by line (``__call__``) and many lines at once
(``words``, the path the engine uses).

``words`` works on the lines joined by newlines and falls back to the line path when a line
holds a newline itself or a lone surrogate; generated text holds both, so the fallback is
exercised as well as the fast path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from conftest import DATA_ROOTS, FRAGMENTS, read_lines, segment_text
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import bleu
from bleu.metrics.bleu.engine import BLEUOptions, tokenize_line
from bleu.metrics.tokenizers import TOKENIZER_NAMES, get_tokenizer

SACREBLEU = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "zh": TokenizerZh(),
    "char": TokenizerChar(),
    "none": NoneTokenizer(),
}
NAMES = list(SACREBLEU)
#: fragments with no newline: the fast path of ``words`` takes these
PLAIN = [f for f in FRAGMENTS if "\n" not in f]


def _assert_words_match(name: str, lines: list[str]) -> None:
    """``words``' words of line i are sacrebleu's tokens of line i (right-stripped)."""
    words = get_tokenizer(name).words(lines)
    offsets = words.offsets
    assert len(offsets) == len(lines) + 1
    tokens = words.strings()
    theirs = SACREBLEU[name]
    for i, line in enumerate(lines):
        assert tokens[offsets[i] : offsets[i + 1]] == theirs(line.rstrip()).split(), (name, i)


def test_every_rule_tokenizer_is_compared() -> None:
    assert set(NAMES) | {"ja-mecab", "ko-mecab"} == set(TOKENIZER_NAMES)


def test_generated_text_holds_newlines() -> None:
    """The fallback for a line holding a newline is only tested if the generator makes one."""
    assert "\n" in FRAGMENTS and "-\n" in FRAGMENTS


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=200, deadline=None)
@given(lines=st.lists(segment_text, min_size=1, max_size=8))
def test_words_equal_sacrebleu_on_generated_text(name: str, lines: list[str]) -> None:
    _assert_words_match(name, lines)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=200, deadline=None)
@given(line=segment_text)
def test_line_call_equals_sacrebleu(name: str, line: str) -> None:
    """Our one-line call gives sacrebleu's string (up to spacing) on the right-stripped line."""
    assert get_tokenizer(name)(line.rstrip()).split() == SACREBLEU[name](line.rstrip()).split()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=100, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(PLAIN), max_size=12).map("".join),
                      min_size=1, max_size=10))
def test_words_fast_path_on_newline_free_text(name: str, lines: list[str]) -> None:
    """Text without newlines: the array formulation must hold alone."""
    assert "\n" not in "".join(lines)
    _assert_words_match(name, lines)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("odd", ["\n", "-\n", "\ud800", "<skipped>\n"])
def test_newline_or_surrogate_in_a_line_falls_back(name: str, odd: str) -> None:
    lines = [f"a{odd}b 3{odd}.5 x.", f"{odd}", "1,000. --", f"end{odd}"]
    _assert_words_match(name, lines)


@pytest.mark.parametrize(("name", "lowercase"), [(n, lc) for n in NAMES for lc in (False, True)])
@settings(max_examples=100, deadline=None)
@given(line=segment_text)
def test_tokenize_line_is_bleu_preprocessing(name: str, lowercase: bool, line: str) -> None:
    """tokenize_line = sacrebleu's BLEU preprocessing: lowercase, rstrip, tokenize, split."""
    text = line.lower() if lowercase else line
    expected = SACREBLEU[name](text.rstrip()).split()
    assert tokenize_line(line, BLEUOptions(tokenize=name, lowercase=lowercase)) == expected


# Real data: each test set's references with its own tokenizer, and every tokenizer on one
# reference per target language.
PROPER = {
    "wmt17_newstest2017_en-de/newstest2017.en-de.ref.de": "13a",
    "wmt21_newstest2021_en-de/newstest2021.en-de.ref.A.de": "13a",
    "wmt21_newstest2021_zh-en/newstest2021.zh-en.ref.A.en": "13a",
    "wmt22_generaltest2022_en-de/generaltest2022.en-de.ref.B.de": "13a",
    "wmt22_generaltest2022_en-zh/generaltest2022.en-zh.ref.B.zh": "zh",
    "wmt22_generaltest2022_en-ja/generaltest2022.en-ja.ref.A.ja": "char",
    "compare-mt_ted_sk-en/ted.ref.detok.eng": "13a",
    "compare-mt_ted_sk-en/ted.ref.eng": "none",
    "compare-mt_multited_ja/multited.ref.jpn": "none",
}
ONE_PER_LANGUAGE = [
    "wmt21_newstest2021_en-de/newstest2021.en-de.ref.A.de",
    "compare-mt_ted_sk-en/ted.ref.detok.eng",
    "wmt22_generaltest2022_en-zh/generaltest2022.en-zh.ref.A.zh",
    "wmt22_generaltest2022_en-ja/generaltest2022.en-ja.ref.A.ja",
]


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize(("file", "name"), [
    *PROPER.items(), *((f, n) for f in ONE_PER_LANGUAGE for n in NAMES if PROPER.get(f) != n),
])
def test_real_data_tokens_equal_sacrebleu(root: Path, file: str, name: str) -> None:
    _assert_words_match(name, read_lines(root / file))


def test_mecab_tagger_is_never_entered_by_two_threads_at_once() -> None:
    """MeCab's Tagger is not thread-safe and the engine scores chunks on threads: the wrapper
    must serialise its calls (a stand-in tagger detects an overlap)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from bleu.metrics.tokenizers.mecab import _MecabTokenizer

    class OverlapDetectingTagger:
        inside, overlaps = 0, 0
        guard = threading.Lock()

        def parse(self, text: str) -> str:
            with self.guard:
                self.inside += 1
                self.overlaps += self.inside > 1
            time.sleep(0.002)
            with self.guard:
                self.inside -= 1
            return " ".join(text)

    tagger = OverlapDetectingTagger()
    tokenizer = _MecabTokenizer(tagger)
    with ThreadPoolExecutor(4) as pool:
        out = list(pool.map(tokenizer, [f"line {k}" for k in range(40)]))
    assert out[3] == " ".join("line 3")
    assert tagger.overlaps == 0


def test_skipped_is_removed_before_a_broken_word_is_joined() -> None:
    """sacrebleu's 13a drops ``<skipped>`` first, then joins "-\\n": "a-<skipped>\\nb" is "ab"
    (we once joined first, and scored 39.76 where sacrebleu gives 100)."""
    assert get_tokenizer("13a")("a-<skipped>\nb c d e") == Tokenizer13a()("a-<skipped>\nb c d e")
    hyps, refs = ["a-<skipped>\nb c d e"], [["ab c d e"]]
    assert bleu.corpus_bleu(hyps, refs).score == sacrebleu.corpus_bleu(hyps, refs).score


#: lines made of the pieces 13a's language-independent rules act on, in every order
rule_pieces = st.lists(st.sampled_from(["-", "<skipped>", "\n", "a", " ", "&amp;", "lt;"]),
                      min_size=1, max_size=10).map("".join)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(rule_pieces, min_size=1, max_size=5))
def test_13a_order_of_unescaping_rules_on_generated_text(lines: list[str]) -> None:
    _assert_words_match("13a", lines)

"""An n-gram in context: occurrences, the plain-text window with ⟦marks⟧, and the escaped HTML
with every occurrence marked; texts tokenized as BLEU tokenizes them."""

from __future__ import annotations

import re

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu.explore.concordance import concordance, marked_html, occurrences, snippet
from bleu.metrics.bleu.score import BLEUOptions


def test_occurrences_by_hand():
    tokens = ["the", "cat", "and", "the", "cat", "and", "the", "dog"]
    assert occurrences(tokens, ["the", "cat"]) == [0, 3]
    assert occurrences(tokens, ["dog", "x"]) == [] and occurrences(tokens, []) == []
    assert occurrences(["a", "a", "a"], ["a", "a"]) == [0, 1]  # overlapping


def test_snippet_windows_and_marks():
    tokens = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"]
    assert snippet(tokens, ["h", "i"], context=3) == "… e f g ⟦h i⟧ j k l …"
    assert snippet(tokens, ["a"], context=2) == "⟦a⟧ b c …"
    assert snippet(tokens, ["zz"], context=2) == "a b …"  # absent: the text's start
    assert snippet(["x", "y", "x", "y"], ["x", "y"]) == "⟦x y x y⟧"  # adjacent ones merge


def test_marked_html_escapes_and_marks_every_occurrence():
    html = marked_html("<b>", {"A <i>": ["<b>", "x", "<b>"], "reference 1": ["y"]})
    assert html.count('<mark class="ngram-mark">&lt;b&gt;</mark>') == 2
    assert "<i>" not in html and "A &lt;i&gt;" in html
    assert "\n" not in html  # one line: Streamlit's markdown keeps an HTML block whole


def test_concordance_tokenizes_as_bleu():
    lines = ["He said: \"the cat's mat.\"", None, "No match here."]
    frame = concordance([1, 2, 3], {"A": lines}, "mat .", BLEUOptions())
    tokens = Tokenizer13a()(lines[0]).split()
    assert "mat" in tokens and tokens[tokens.index("mat") + 1] == "."
    assert list(frame["segment"]) == [1, 2, 3]
    assert "⟦mat .⟧" in frame["A"].iloc[0]
    assert frame["A"].iloc[1] == ""
    assert not re.search("[⟦⟧]", frame["A"].iloc[2])


def test_marked_html_runs_hebrew_and_arabic_right_to_left():
    """Each text starts at its own side: Hebrew and Arabic ``dir="rtl"``, English ``ltr``; the
    mark stays around the same tokens (the markup keeps the text's order)."""
    hebrew = ["החתול", "ישב", "על", "השטיח"]
    html = marked_html("ישב על", {"A": hebrew, "reference 1": ["the", "cat"],
                                  "B": ["القط", "جلس"]})
    assert re.findall(r'<div class="ngram-text" dir="(rtl|ltr)">', html) == ["rtl", "ltr", "rtl"]
    assert 'dir="rtl">החתול <mark class="ngram-mark">ישב על</mark> השטיח</div>' in html

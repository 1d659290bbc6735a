"""Highlighting from explain(): hand-worked statuses, tooltips, and escaping of user text."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

import bleu
from bleu.display.escaping import escape_html
from bleu.explore.highlight import legend_html, reference_html, segment_html


class Spans(HTMLParser):
    """Collects every n-gram span: its classes, attributes and decoded text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.spans: list[dict] = []
        self.tags: list[str] = []
        self._open: dict | None = None
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attrs = dict(attrs)
        self.in_style = tag == "style"
        if tag == "span" and "ngram" in attrs.get("class", "").split():
            self._open = {"classes": attrs["class"].split(), "title": attrs.get("title", ""),
                          "pos": int(attrs["data-pos"]), "text": ""}

    def handle_endtag(self, tag):
        self.in_style = False
        if tag == "span" and self._open is not None:
            self.spans.append(self._open)
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def hypothesis_part(html: str) -> str:
    """The hypothesis block of ``segment_html`` (what comes before the first reference)."""
    return html.split('<div class="ref')[0]


def parse(html: str) -> Spans:
    parser = Spans()
    parser.feed(html)
    return parser


def statuses(spans, order):
    return [(s["text"], next(c for c in s["classes"] if c in ("match", "clip", "miss")))
            for s in spans if f"n{order}" in s["classes"]]


def test_clipping_by_hand():
    # hypothesis "the the the cat", reference "the cat on the mat": "the" occurs 3 times but at
    # most twice in the reference -> two credited, the third clipped; "cat" credited.
    explanation = bleu.explain("the the the cat", ["the cat on the mat"], tokenize="none")
    spans = parse(hypothesis_part(segment_html(explanation))).spans
    assert statuses(spans, 1) == [("the", "match"), ("the", "match"), ("the", "clip"),
                                  ("cat", "match")]
    # bigrams: "the the" (x2) is in no reference, "the cat" is
    assert statuses(spans, 2) == [("the the", "miss"), ("the the", "miss"), ("the cat", "match")]
    clipped = next(s for s in spans if "clip" in s["classes"])
    assert "3× in the hypothesis" in clipped["title"]
    assert "at most 2× in one reference (reference 1)" in clipped["title"]
    assert "only 2 of 3 credited" in clipped["title"]


def test_a_reference_copy_past_the_outputs_count_is_clipped_and_the_legend_says_so():
    # output "the cat", reference "the cat on the mat": the reference's second "the" is a copy
    # the output has no more of; "on" and "mat" are not in the output
    explanation = bleu.explain("the cat", ["the cat on the mat"], tokenize="none")
    spans = parse(reference_html(explanation, 0)).spans
    assert statuses(spans, 1) == [("the", "match"), ("cat", "match"), ("on", "miss"),
                                  ("the", "clip"), ("mat", "miss")]
    legend = {status: html.unescape(text) for status, text in
              re.findall(r'<span class="ngram ([a-z ]+) legend">([^<]*)</span>', legend_html())}
    assert set(legend) == {"match", "clip", "miss", "miss differs"}
    assert "in a reference, a copy past the output's count" in legend["clip"]
    assert "not in the output" in legend["miss"]


def test_multiple_references_name_the_supplier():
    # "a" is once in ref 1 and twice in ref 2: the max count 2 comes from reference 2
    explanation = bleu.explain("a a b", ["a b c", "a x a"], tokenize="none")
    html = segment_html(explanation)
    spans = parse(html).spans
    hyp_a = [s for s in spans if s["text"] == "a" and "n1" in s["classes"]][:2]
    assert all("match" in s["classes"] for s in hyp_a)
    assert "at most 2× in one reference (reference 2)" in hyp_a[0]["title"]
    # reference 2 marks the n-gram it supplied with "best"; reference 1 does not for "a"
    ref_blocks = re.findall(r'<div class="ref[^"]*" data-ref="(\d)">(.*?)</div></div>',
                            html)
    assert [k for k, _ in ref_blocks] == ["1", "2"]
    ref2 = parse(reference_html(explanation, 1)).spans
    assert [("best" in s["classes"]) for s in ref2 if s["text"] == "a"] == [True, True]
    ref1 = parse(reference_html(explanation, 0)).spans
    a_in_ref1 = next(s for s in ref1 if s["text"] == "a")
    assert "best" not in a_in_ref1["classes"] and "match" in a_in_ref1["classes"]
    # "x" is in reference 2 only, not in the hypothesis
    assert next(s for s in ref2 if s["text"] == "x")["classes"][1] == "miss"


def test_brevity_penalty_reference_is_marked():
    # hypothesis of 3 tokens; references of 5 and 2 tokens: closest is 2 (reference 2)
    explanation = bleu.explain("a b c", ["a b c d e", "a b"], tokenize="none")
    assert explanation.ref_len == 2
    assert 'class="bp-ref"' not in reference_html(explanation, 0)
    marked = reference_html(explanation, 1)
    assert 'class="ref bp"' in marked and "BP reference length 2" in marked


def test_order_layers_and_contrast():
    one = bleu.explain("a b c", ["a b d"], tokenize="none")
    other = bleu.explain("a b e", ["a b d"], tokenize="none")
    html = hypothesis_part(segment_html(one, orders=[2], contrast=other))
    spans = parse(html).spans
    assert {c for s in spans for c in s["classes"] if c.startswith("n")} - {"ngram"} == {"n2"}
    differs = [s["text"] for s in spans if "differs" in s["classes"]]
    assert differs == ["b c"]  # "a b" is in both outputs, "b c" only in this one


HOSTILE = ['<script>alert("x")</script>', "<img src=x onerror=alert(1)>", "$x$", "*a*", "_b_",
           "`code`", "a & b", "[link](http://e.x)", "~~s~~", "|t|", "\\(y\\)"]


@pytest.mark.parametrize("text", HOSTILE)
def test_user_text_is_escaped_and_shown_literally(text):
    explanation = bleu.explain(text, [text + " tail"], tokenize="none")
    html = segment_html(explanation)
    # no tag but ours, no markdown or LaTeX character left raw, one line (no blank line ends
    # the HTML block in Streamlit's markdown)
    parsed = parse(html)
    assert set(parsed.tags) <= {"div", "span", "style"}
    assert "<script" not in html and "<img" not in html
    for char in "$*_`~|[]\\":
        assert char not in html, char
    assert "\n" not in html
    # the decoded text of the unigram layer gives back the tokens exactly
    words = [s["text"] for s in parsed.spans if "n1" in s["classes"]]
    assert words[: len(text.split())] == text.split()
    titles = " ".join(s["title"] for s in parsed.spans)
    assert text.split()[0] in titles


def test_quotes_are_escaped_once() -> None:
    """An apostrophe becomes one entity, never an entity whose '#' was escaped again."""
    escaped = escape_html("the system's \"output\" & more")
    assert "&#35;" not in escaped
    assert html.unescape(escaped) == "the system's \"output\" & more"


# ------------------------------------------------------------------------------ right to left

#: a short Hebrew sentence and a shorter output ("the cat sat on the green mat")
HEBREW_REF = "החתול ישב על השטיח הירוק"
HEBREW_HYP = "החתול ישב על השטיח"


def _chip_directions(html_text: str) -> list[str]:
    return re.findall(r'<div class="ngrams" dir="(rtl|ltr)">', html_text)


def test_hebrew_chips_are_laid_out_right_to_left_in_the_texts_order():
    """Every layer of a Hebrew output and reference runs right to left (``dir="rtl"``), the
    chips in the markup still in the text's order; each chip isolates its own direction."""
    explanation = bleu.explain(HEBREW_HYP, [HEBREW_REF])
    html_text = segment_html(explanation)
    assert _chip_directions(html_text) == ["rtl"] * 8  # 4 orders, output and reference
    spans = parse(hypothesis_part(html_text)).spans
    unigrams = [s for s in spans if "n1" in s["classes"]]
    assert [s["text"] for s in unigrams] == HEBREW_HYP.split()
    assert [s["pos"] for s in unigrams] == [0, 1, 2, 3]
    assert html_text.count('dir="auto"') == len(spans) + len(parse(reference_html(
        explanation, 0)).spans)
    english = segment_html(bleu.explain("the cat sat", ["the cat sat down"]))
    assert set(_chip_directions(english)) == {"ltr"}
    arabic = segment_html(bleu.explain("القط جلس", ["the cat", "القط جلس هنا"]))
    assert _chip_directions(arabic) == ["rtl"] * 4 + ["ltr"] * 4 + ["rtl"] * 4


@pytest.mark.browser
def test_chromium_draws_hebrew_chips_and_words_right_to_left():
    """In Chromium: the first unigram chip of a Hebrew output is the rightmost one, and inside
    a bigram chip the first word stands right of the second (English: the other way)."""
    from playwright.sync_api import sync_playwright

    measure = """() => [...document.querySelectorAll('.hyp .bleu-layer')].slice(0, 2).map(
        layer => [...layer.querySelectorAll('.ngram')].map(chip => {
            const text = chip.firstChild, first = text.data.indexOf(' ');
            const word = (start, end) => { const r = document.createRange();
                r.setStart(text, start); r.setEnd(text, end);
                return r.getBoundingClientRect().left; };
            return first < 0 ? [chip.getBoundingClientRect().left]
                : [word(0, first), word(first + 1, text.data.length)]; }))"""
    hebrew = segment_html(bleu.explain(HEBREW_HYP, [HEBREW_REF]))
    english = segment_html(bleu.explain("the cat sat on", ["the cat sat on the mat"]))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            page = browser.new_page()
            page.set_content(f'<html><body style="width:900px">{hebrew}</body></html>')
            unigrams, bigrams = page.evaluate(measure)
            page.set_content(f'<html><body style="width:900px">{english}</body></html>')
            en_unigrams, en_bigrams = page.evaluate(measure)
        finally:
            browser.close()
    lefts = [left for (left,) in unigrams]
    assert len(lefts) == 4 and lefts == sorted(lefts, reverse=True)  # first chip at the right
    assert all(first > second for first, second in bigrams)  # words right to left in a chip
    en_lefts = [left for (left,) in en_unigrams]
    assert en_lefts == sorted(en_lefts) and all(a < b for a, b in en_bigrams)

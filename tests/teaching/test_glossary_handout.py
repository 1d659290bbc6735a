"""The glossary covers the terms the teaching pages' help names; the handout is one
self-contained, printable HTML page holding the worked example's numbers, user text escaped;
the Dutch handout and worksheet, checked as files: no English words, no literal control
characters, the article's terms, and a worksheet that leaves every step blank."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
import sacrebleu

from bleu.i18n import in_language
from bleu.teaching.breakdown import (
    ARTICLE_FORMULA,
    SENTENCE_DEFAULTS,
    BLEUOptions,
    preset_of,
    presets,
    walkthrough_with,
)
from bleu.teaching.glossary import glossary, term, tip
from bleu.teaching.handout import handout_html

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "i18n"))
from catalog import tool  # noqa: E402

#: the Dutch example of the issue: c = 7 tokens against references of 11 and 13 (r = 11, BP =
#: 0.5647)
DUTCH_PAIR = ("De kat zat op de mat.", ["De kat zat de hele middag stil op de mat.",
                                        "Op de mat zat de hele middag een grijze kat te slapen."])


def _text(page: str) -> str:
    """What a reader reads in a page: no style sheet, no tags, entities decoded."""
    body = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _dutch(worksheet: bool, options=ARTICLE_FORMULA) -> str:
    hyp, refs = DUTCH_PAIR
    with in_language("nl"):
        return handout_html(walkthrough_with(hyp, refs, options), hyp, refs,
                            worksheet=worksheet)


def test_every_term_the_pages_name_is_in_the_glossary():
    keys = {t.key for t in glossary()}
    used = set()
    for page in ("how_bleu_works", "brevity_penalty"):
        source = (REPO / "bleu_app" / "views" / f"{page}.py").read_text(encoding="utf-8")
        for call in re.findall(r"glossary\.tip\(([^)]*)\)", source):
            used.update(re.findall(r'"(\w+)"', call))
    assert used and used <= keys, used - keys
    assert len(keys) == len(glossary())  # no key twice
    assert tip("bp").startswith("**brevity penalty** (BP): ")
    assert "1/N" in term("weights").meaning
    with pytest.raises(KeyError):
        term("nope")


def test_presets_say_which_they_are():
    article, sacre = presets()
    assert article.options == ARTICLE_FORMULA and sacre.options == SENTENCE_DEFAULTS
    assert (ARTICLE_FORMULA.smooth_method, ARTICLE_FORMULA.effective_order,
            ARTICLE_FORMULA.max_ngram_order) == ("none", False, 4)
    assert preset_of(BLEUOptions(smooth_method="none")) == article
    assert preset_of(BLEUOptions(smooth_method="exp", effective_order=True)) == sacre
    assert preset_of(BLEUOptions(smooth_method="exp")) is None
    assert preset_of(BLEUOptions(smooth_method="none"), [1, 0, 0, 0]) is None
    assert preset_of(BLEUOptions(smooth_method="none"), [2, 2, 2, 2]) == article
    # the article's formula gives the classic example 0; sacrebleu's sentence BLEU 7.81
    hyp, refs = "the the the the the the the", ["the cat is on the mat",
                                                 "there is a cat on the mat"]
    assert walkthrough_with(hyp, refs, article.options).score == 0.0
    assert f"{walkthrough_with(hyp, refs, sacre.options).score:.2f}" == \
        f"{sacrebleu.sentence_bleu(hyp, refs).score:.2f}" == "7.81"


def test_handout_is_self_contained_and_holds_the_numbers():
    hyp, refs = "Entschuldigung für die Unannehmlichkeiten.", [
        "Ich entschuldige mich für die Unannehmlichkeiten."]
    walk = walkthrough_with(hyp, refs, ARTICLE_FORMULA)
    page = handout_html(walk, hyp, refs)
    assert page.startswith("<!DOCTYPE html>") and "@media print" in page
    for forbidden in ("<script", "<link", "<img", "src=", "href=", "http://", "https://",
                      "@import", "url("):
        assert forbidden not in page.lower()
    theirs = sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(hyp, refs)
    # c = 5, r = 7: BP = exp(1 − 7/5) = 0.6703; p_1 = 4/5
    assert f"{theirs.score:.2f}" in page and f"{theirs.score / 100:.4f}" in page
    assert f"{theirs.bp:.4f}" in page and "p_1 = 4/5 = 80.00%" in page
    assert "Preset: The article&#x27;s formula" in page


def test_handout_escapes_user_text_and_the_worksheet_is_blank():
    evil = "<script>alert(1)</script> & $x$"
    walk = walkthrough_with(evil, ["a <b>b</b>"], SENTENCE_DEFAULTS)
    for worksheet in (False, True):
        page = handout_html(walk, evil, ["a <b>b</b>"], worksheet=worksheet)
        assert "<script>" not in page and "<b>b</b>" not in page
        assert "&lt;script&gt;" in page
    blank = handout_html(walk, evil, ["a <b>b</b>"], worksheet=True)
    assert "BP = ______" in blank and f"{walk.score:.2f}" not in blank.split("Glossary")[0]


#: English words a Dutch handout must not show (the BP line had "if ... else", the settings
#: "smoothing: none"; the rest are the English words of the handout's own texts)
ENGLISH = re.compile(r"\b(?:if|else|none|on|off|the|and|worked|worksheet|candidate|"
                     r"references?|settings|brevity|penalty|score is|used|"
                     r"lowercased|case-sensitive|weights|effective order|geometric|mean|"
                     r"Made with|Glossary|Preset|Custom)\b")


@pytest.mark.parametrize("worksheet", [False, True], ids=["handout", "worksheet"])
def test_the_dutch_handout_has_no_english_no_control_characters_and_the_articles_terms(
        worksheet):
    page = _dutch(worksheet)
    text = _text(page)
    hyp, refs = DUTCH_PAIR
    readable = text
    for user in (hyp, *refs):  # the pair is the user's text, not the handout's words
        readable = readable.replace(user, " ")
    assert ENGLISH.findall(readable) == []
    assert "⟨U+" not in text and "\\n" not in text  # line breaks are <br>, not escapes
    assert tool().drifting(text, "nl") == []
    assert '<html lang="nl">' in page
    assert "BP = 1 als c > r, anders e^(1 − r/c)" in text
    assert re.search(r"smoothing\s+geen\s", text)  # the settings table's smoothing row
    assert "log is de natuurlijke logaritme ln" in text


def test_the_dutch_handout_writes_every_number_and_breaks_its_lines():
    page = _dutch(worksheet=False)
    text = _text(page)
    walk = walkthrough_with(*DUTCH_PAIR, ARTICLE_FORMULA)
    assert (walk.brevity.c, walk.brevity.r) == (7, 11)  # by hand: 13a splits the final "."
    assert walk.brevity.ref_lengths == (11, 13)
    assert "BP = exp(1 − r/c) = exp(1 − 11/7) = 0,5647" in text  # e^(−0.5714) = 0.5647
    score = f"{walk.score:.2f}".replace(".", ",")
    assert score in text and "Op de schaal 0–1 van het artikel" in text
    formula = re.search(r"<br>(BLEU = BP[^<]*)<br>(Op de schaal[^<]*)</p>", page)
    assert formula is not None  # the formula and the 0–1 line: two lines, a real <br>


def test_the_worksheet_leaves_every_step_blank_and_has_lines_for_r_and_the_mean():
    walk = walkthrough_with(*DUTCH_PAIR, ARTICLE_FORMULA)
    text = _text(_dutch(worksheet=True)).split("Woordenlijst")[0]
    assert "c = ______" in text and "r = ______" in text and "BP = ______" in text
    assert "meetkundig gemiddelde = exp(Σ w_n·log p_n) = ______" in text
    assert "Σ w_n·log p_n = ______" in text
    assert "BLEU = BP × meetkundig gemiddelde = ______ (0–1) = ______ (× 100)" in text
    assert text.count("= ____ / ____ = ______") == 4  # p_1 .. p_4
    # no computed number of any step: c, r, the lengths, any count, p_n, BP, the mean, BLEU
    assert not re.search(r"\bc = \d|\br = \d|referenties: \d", text)
    cells = re.findall(r'<td class="num">([^<]*)</td>', _dutch(worksheet=True))
    assert cells == []  # count, max. in one reference and credited are all blank cells
    for number in (f"{walk.brevity.bp:.4f}", f"{walk.geometric_mean:.4f}",
                   f"{walk.score:.2f}"):
        assert number.replace(".", ",") not in text
    assert "______" in text and "0,5647" not in text

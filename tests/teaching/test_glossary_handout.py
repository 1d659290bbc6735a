"""The glossary covers the terms the teaching pages' help names; the handout is one
self-contained, printable HTML page holding the worked example's numbers, user text escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sacrebleu

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

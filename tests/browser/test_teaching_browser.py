"""In a real browser, 1400 px wide: the teaching pages show what AppTest cannot see, namely
every chart drawing marks (none empty), nothing cut off sideways, and the typed-in texts
(Ctrl+Enter) changing the numbers as sacrebleu / ``bleu.corpus_bleu`` say."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from harness import REPO, goto_page, wait_all_charts, wait_idle
from playwright.sync_api import Locator, Page, expect

import bleu

SAMPLE = REPO / "sample_data"
#: how long a number may take to follow a typed-in text (a rerun under load)
WAIT_MS = 30_000
#: the main area's content wider than the main area itself: something is cut off or scrolls
OVERFLOW = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    return [...main.querySelectorAll('[data-testid="stElementContainer"]')]
        .filter(e => e.getBoundingClientRect().right > main.getBoundingClientRect().right + 1)
        .map(e => e.getAttribute('data-testid') + ' ' + (e.className || '')).slice(0, 5);
}"""


def _lines(path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _type(page: Page, key: str, text: str) -> None:
    """Fill the ``st.text_area`` with widget key ``key`` and send it (Ctrl+Enter)."""
    area = page.locator(f".st-key-{key} textarea")
    area.fill(text)
    area.press("Control+Enter")
    wait_idle(page)


def _metric(page: Page, label: str) -> Locator:
    """The value of the ``st.metric`` with this label: asserted with ``expect``, which waits for
    a rerun that has not reached the page yet."""
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue")


def _chart(page: Page, title: str):
    """The Altair chart with this title."""
    return page.locator('[data-testid="stVegaLiteChart"]').filter(has_text=title).first


def _no_empty_chart_nothing_cut_off(page: Page, charts: int = 1) -> None:
    assert page.get_by_test_id("stException").all_inner_texts() == []
    marks = wait_all_charts(page, at_least=charts)
    assert len(marks) >= charts and all(count > 0 for count in marks), marks
    assert page.evaluate(OVERFLOW) == []


@pytest.mark.browser
def test_how_bleu_works_three_token_candidate(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "How BLEU works")
    _type(page, "teach_candidate", "the cat sat")
    _type(page, "teach_references", "the cat sat on the mat")
    expect(page.get_by_role("tab", name="n = 4: p = 0/0, undefined")).to_have_count(
        1, timeout=WAIT_MS)
    expected = sacrebleu.sentence_bleu("the cat sat", ["the cat sat on the mat"])
    assert f"{expected.score:.2f}" == f"{100 * math.exp(-1):.2f}"
    expect(_metric(page, "BLEU")).to_have_text(f"{expected.score:.2f}", timeout=WAIT_MS)
    _no_empty_chart_nothing_cut_off(page)
    # the log-terms chart labels its zero terms and the dropped order
    log_chart = _chart(page, "Terms of the weighted log sum")
    expect(log_chart.locator("g.mark-text.role-mark text")).to_have_text(
        ["0.0000", "0.0000", "0.0000", "dropped"], timeout=WAIT_MS)


@pytest.mark.browser
def test_brevity_penalty_own_sentence_and_zoom(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Brevity penalty")
    hyp, ref = "Der Hund bellt.", "Der Hund bellt laut im Garten."
    _type(page, "bp_candidate", hyp)
    _type(page, "bp_references", ref)
    expected = sacrebleu.sentence_bleu(hyp, [ref])
    expect(_metric(page, "Your BP")).to_have_text(f"{expected.bp:.4f}", timeout=WAIT_MS)
    _no_empty_chart_nothing_cut_off(page)
    slider = page.locator(".st-key-bp_percent input[type=range]")
    slider.focus()
    slider.press("ArrowLeft")  # -5 %
    wait_idle(page)
    expect(slider).to_have_attribute("aria-valuetext", "-5", timeout=WAIT_MS)
    _no_empty_chart_nothing_cut_off(page)


@pytest.mark.browser
def test_blind_spots_page_draws_every_metric(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Blind spots")
    _no_empty_chart_nothing_cut_off(page, charts=2)  # the case's scores, the comparability
    case_chart = _chart(page, "The same pair under every metric")
    labels = case_chart.locator("g.mark-text.role-mark text").all_text_contents()
    assert len(labels) == 2 * 5  # two candidates (real, negation dropped) x five metrics
    grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="METEOR").first
    headers = grid.locator('table[role="grid"] th').all_text_contents()
    assert {"BLEU", "chrF", "TER", "ROUGE-L", "METEOR", "MQM (human)"} <= set(headers)


@pytest.mark.browser
def test_sentences_live_whatif_changes_corpus_bleu(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Sentences")
    system = page.locator(".st-key-sentences_a").get_by_role("combobox").input_value()
    hyps = _lines(SAMPLE / f"generaltest2022.en-de.hyp.{system}.de")
    refs = [_lines(SAMPLE / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]
    segment = int(page.locator(".st-key-open_segment input").input_value())
    text = "Das ist ein ganz anderer Satz."
    _type(page, "sentences_edit_text", text)
    edited = [*hyps[: segment - 1], text, *hyps[segment:]]
    expect(_metric(page, f"Corpus BLEU of {system}")).to_have_text(
        f"{bleu.corpus_bleu(edited, refs).score:.2f}", timeout=WAIT_MS)
    expect(page.locator("div.bleu-hl").filter(has_text=f"{system} (edited)").first
           ).to_be_attached(timeout=WAIT_MS)
    page.locator(".st-key-sentences_edit_reset button").click()
    wait_idle(page)
    expect(_metric(page, f"Corpus BLEU of {system}")).to_have_text(
        f"{bleu.corpus_bleu(hyps, refs).score:.2f}", timeout=WAIT_MS)

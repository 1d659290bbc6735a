"""In a real browser: the teaching pages show what AppTest cannot see, namely every chart
drawing marks (none empty), nothing cut off sideways, the typed-in texts (Ctrl+Enter) changing
the numbers as sacrebleu / ``bleu.corpus_bleu`` say; an exercise answered wrong, then right;
the step-by-step view moving back and forth; the teacher's link opening the same example in a
fresh browser context; and screenshots at 1280x720 in presentation mode and at 390x844 (a
phone), saved under tests/browser/artifacts/ for a person to look at."""

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


def _click(page: Page, key: str) -> None:
    """Click the button with widget key ``key`` and wait for the rerun."""
    page.locator(f".st-key-{key} button").first.click()
    wait_idle(page)


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
    _click(page, "teach_use_sacrebleu")  # the page starts at the article's formula
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
    cells = grid.locator('table[role="grid"]').all_text_contents()[0]
    for name in ("BLEU", "chrF", "TER", "ROUGE-L", "METEOR", "MQM (human)", "SMU's output"):
        assert name in cells


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


def _settle(page: Page) -> None:
    """Idle, and every lazily loaded element drawn (no skeleton placeholders left)."""
    wait_idle(page)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)


def _fill(page: Page, key: str, text: str) -> None:
    """Type into the ``st.text_input`` with widget key ``key`` (inside a form: no rerun)."""
    page.locator(f".st-key-{key} input").fill(text)


@pytest.mark.browser
def test_exercise_answered_wrong_then_right(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/how_bleu_works")
    _settle(page)
    page.get_by_test_id("stRadio").get_by_text("Exercises", exact=True).click()
    wait_idle(page)
    # "Tippen Sie oben auf dem Bildschirm auf das Menüsymbol ." against reference A: "auf"
    # is there once, so 8 of the 10 unigrams are credited (9 without clipping)
    _fill(page, "teach_ex_clipping_matches_1", "9")
    _fill(page, "teach_ex_clipping_total_1", "10")
    _click(page, "teach_ex_check_clipping")
    alert = page.get_by_test_id("stAlert").filter(has_text="the first step to fix")
    expect(alert).to_contain_text("1 of 12 right", timeout=WAIT_MS)
    expect(page.get_by_text("without clipping", exact=False)).to_be_visible(timeout=WAIT_MS)
    _fill(page, "teach_ex_clipping_matches_1", "8")
    _fill(page, "teach_ex_clipping_p_1", "0,8")
    _click(page, "teach_ex_check_clipping")
    expect(page.get_by_test_id("stAlert").filter(has_text="3 of 12 right")).to_be_visible(
        timeout=WAIT_MS)
    assert page.get_by_text("without clipping", exact=False).count() == 0
    expect(page.get_by_text("Worked solution", exact=True)).to_be_visible()


@pytest.mark.browser
def test_step_by_step_next_and_previous(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/how_bleu_works")
    _settle(page)
    page.get_by_test_id("stRadio").get_by_text("Step by step", exact=True).click()
    wait_idle(page)
    progress = page.get_by_test_id("stProgress")
    expect(progress).to_contain_text("Step 1 of 8: The candidate's tokens", timeout=WAIT_MS)
    _click(page, "teach_step_next")
    expect(progress).to_contain_text("Step 2 of 8: 1-gram precision p_1", timeout=WAIT_MS)
    # the formula with the sentence's numbers: p_1 = 2/7 = 0.2857 (KaTeX writes 0.2857)
    expect(page.locator(".katex").filter(has_text="0.2857").first).to_be_visible()
    _click(page, "teach_step_next")
    expect(progress).to_contain_text("Step 3 of 8", timeout=WAIT_MS)
    _click(page, "teach_step_previous")
    _click(page, "teach_step_previous")
    expect(progress).to_contain_text("Step 1 of 8", timeout=WAIT_MS)
    assert page.locator(".st-key-teach_step_previous button").is_disabled()


@pytest.mark.browser
def test_teachers_link_opens_the_example_in_a_fresh_context(browser, app_url: str) -> None:
    hyp, ref = "Der Hund bellt laut.", "Der Hund bellt sehr laut im Garten."
    teacher = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = teacher.new_page()
    page.goto(f"{app_url}/how_bleu_works")
    _settle(page)
    _type(page, "teach_candidate", hyp)
    _type(page, "teach_references", ref)
    _click(page, "teach_use_sacrebleu")
    page.wait_for_function("() => location.search.includes('ex_smooth=exp')", timeout=WAIT_MS)
    link = page.url
    teacher.close()
    expected = sacrebleu.sentence_bleu(hyp, [ref])  # exp smoothing, effective order
    student = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        fresh = student.new_page()
        fresh.goto(link)
        _settle(fresh)
        assert fresh.locator(".st-key-teach_candidate textarea").input_value() == hyp
        assert fresh.locator(".st-key-teach_references textarea").input_value() == ref
        expect(_metric(fresh, "BLEU")).to_have_text(f"{expected.score:.2f}", timeout=WAIT_MS)
    finally:
        student.close()


SCREENSHOTS = {"How BLEU works": "how_bleu_works", "Brevity penalty": "brevity_penalty",
               "Blind spots": "blind_spots"}
#: something wider than the window: cut off, or the page scrolls sideways
SIDEWAYS = """() => document.documentElement.scrollWidth > window.innerWidth + 1"""


def _shoot(page: Page, path) -> None:
    """The whole page (Streamlit scrolls inside its main area: grow the window first)."""
    width = page.viewport_size["width"]
    height = page.evaluate("""() => document.querySelector('[data-testid="stMain"]')
                              .scrollHeight""")
    page.set_viewport_size({"width": width, "height": min(max(height, 720), 9000)})
    _settle(page)
    page.wait_for_timeout(500)
    page.screenshot(path=str(path))


@pytest.mark.browser
@pytest.mark.parametrize(("mode", "size"), [("present", (1280, 720)), ("phone", (390, 844))])
def test_teaching_pages_in_the_room_and_on_a_phone(browser, app_url: str, artifacts, mode,
                                                   size) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        for title, name in SCREENSHOTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{app_url}/{name}" + ("?present=1" if mode == "present" else ""))
            _settle(page)
            assert page.get_by_test_id("stException").all_inner_texts() == []
            heading = page.get_by_test_id("stHeading").filter(has_text=title).first
            box = heading.bounding_box()
            assert box is not None and box["y"] >= 0, (name, box)  # the title is not covered
            if mode == "present":
                assert not page.get_by_test_id("stSidebar").is_visible()
                assert page.locator('[class*="st-key-present_hide"]').evaluate_all(
                    "els => els.every(e => e.offsetParent === null)")  # options hidden
            else:
                tabs = page.locator('[data-testid="stTabs"] [role="tablist"]')
                for k in range(tabs.count()):  # the tabs wrap: every tab inside the window
                    for tab in tabs.nth(k).get_by_test_id("stTab").all():
                        right = tab.bounding_box()
                        assert right is None or right["x"] + right["width"] <= width + 1
            assert not page.evaluate(SIDEWAYS), name
            assert page.evaluate(OVERFLOW) == [], name
            _shoot(page, artifacts / f"teaching_{name}_{mode}.png")
    finally:
        context.close()

"""In a real browser: the teaching pages show what AppTest cannot see, namely every chart
drawing marks (none empty), nothing cut off sideways, the typed-in texts (Ctrl+Enter) changing
the numbers as sacrebleu / ``bleu.corpus_bleu`` say; an exercise answered wrong, then right;
the step-by-step view moving back and forth; the teacher's link opening the same example in a
fresh browser context. In Dutch, presentation mode at 1280x720 on every teaching page (type
of at least 18 px and dark, captions and chart text included; what a lecturer does not show
hidden; each step's numbers and an exercise's form above the fold; links that look like
links; no English, no drifting term), the phone layout at 390x844, and labels not cut at
1280 px with the sidebar; screenshots saved under tests/browser/artifacts/."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from dutch import MAIN_TEXT, drifting_terms, english_left, nl, page_lines
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
    log_chart = _chart(page, "Terms of the weighted sum of logarithms")
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
    expect(_metric(page, "BP of your sentence")).to_have_text(f"{expected.bp:.4f}",
                                                              timeout=WAIT_MS)
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



# --- in Dutch: presentation mode at 1280x720, a phone, the sidebar at 1280 ------------------------

PROJECTOR, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}
#: every piece of text in the main area (charts' SVG text included) whose type is under 18 px,
#: not dark (WCAG relative luminance over 0.2: less than 4.5:1 on white) or faded; text that is
#: not shown (opacity 0: Vega's hidden overlapping labels), math (KaTeX sizes its own sub- and
#: superscripts), a data grid's hidden accessible table and a disabled button are left out, and a
#: chosen value's tag (white on colour) out of the colour check
SMALL_OR_PALE = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const lum = (rgb) => {
    const m = (rgb || '').match(/[\\d.]+/g); if (!m) return 0;
    const [r, g, b] = m.slice(0, 3).map(v => { v = v / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const bad = [];
  for (const e of main.querySelectorAll('*')) {
    if (e.closest('.katex, [data-testid="stDataFrame"], [data-testid="stTooltipIcon"], '
                  + 'button[disabled], style, script')) continue;
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    let opacity = 1;
    for (let x = e; x && x !== main; x = x.parentElement)
      opacity *= parseFloat(getComputedStyle(x).opacity);
    if (opacity === 0) continue;
    const style = getComputedStyle(e);
    const color = e.tagName === 'text' ? style.fill : style.color;
    const tag = !!e.closest('[data-tag]');
    if (parseFloat(style.fontSize) < 18 || opacity < 0.95 || (!tag && lum(color) > 0.2))
      bad.push([e.tagName, e.textContent.trim().slice(0, 40), style.fontSize, color, opacity]);
  }
  return bad;
}"""
#: labels and buttons whose text is cut (an ellipsis, or text wider than its box)
CUT = """() => [...document.querySelector('[data-testid="stMain"]').querySelectorAll(
      '[data-testid="stWidgetLabel"] p, button p, [data-testid="stMetricLabel"] p, '
      + '[data-testid="stTab"] p')]
    .filter(e => e.getBoundingClientRect().width > 0 && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent)"""
#: the links to the other teaching pages, and how they look
LINKS = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stPageLink"] a')].map(a => {
    const text = a.querySelector('p, span'); const style = getComputedStyle(text);
    return [text.textContent, style.textDecorationLine, style.color,
            a.getBoundingClientRect().bottom];
})"""
#: page, extra query, a selector and its text that must end above the fold (None: no check)
PRESENTED = {
    "how_bleu_works": ("", '[data-testid="stMain"] [role="tablist"]'),
    "how_bleu_works-steps": ("&ex_view=steps&ex_step=1", ".katex-display"),
    "how_bleu_works-exercises": ("&ex_view=exercises", '[data-testid="stForm"] input'),
    "brevity_penalty": ("", '[data-testid="stMetricValue"]'),
    "brevity_penalty-exercises": ("&bp_view=exercises", '[data-testid="stForm"] input'),
    "blind_spots": ("", '[data-testid="stAlert"]'),
    "background": ("", '[data-testid="stMain"] h2'),
    "sensitivity": ("", '[data-testid="stMain"] h2'),
}
#: what a lecturer does not show, in Dutch: the notes about other pages and the COMET note
NOT_ON_A_PROJECTOR = (
    "A learned metric (COMET, BERTScore) shows here once a model is loaded under Compute a "
    "learned metric on Metrics & human scores (the 'learned' extra and a model on this "
    "machine).",
    "Learned metrics (COMET, BLEURT) and human scores are not computed here: upload their "
    "segment scores on the Metrics & human scores page, and this section finds the segments "
    "where they and BLEU differ most.",
    "Link to this example",
)


def _open(page: Page, url: str) -> None:
    page.goto(url)
    _settle(page)
    if page.locator('[data-testid="stVegaLiteChart"]').count():
        wait_all_charts(page)


@pytest.mark.browser
@pytest.mark.parametrize("target", list(PRESENTED))
def test_each_teaching_page_presented_in_dutch_at_1280x720(browser, app_url: str, artifacts,
                                                            target: str) -> None:
    name = target.split("-")[0]
    query, first = PRESENTED[target]
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        _open(page, f"{app_url}/{name}?lang=nl&present=1{query}")
        assert page.get_by_test_id("stException").all_inner_texts() == []
        assert page.evaluate(SMALL_OR_PALE) == [], target  # 18 px and dark, charts included
        # tables are HTML in the presentation type (a data grid's canvas text is 14 px)
        assert page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').count() == 0
        # hidden: the sidebar, the options, downloads, the link box, notes about other pages
        assert not page.get_by_test_id("stSidebar").is_visible()
        assert page.locator('[class*="st-key-present_hide"]').evaluate_all(
            "els => els.every(e => e.offsetParent === null)")
        assert page.get_by_test_id("stDownloadButton").count() == 0
        shown = page.evaluate(MAIN_TEXT)
        assert [note for note in map(nl, NOT_ON_A_PROJECTOR) if note in shown] == []
        # above the fold: the title, the links, and the part the lecturer came for
        assert page.locator("h1").first.bounding_box()["y"] >= 0
        links = page.evaluate(LINKS)
        assert len(links) == 4 and all(
            "underline" in decoration and bottom <= PROJECTOR["height"]
            for _, decoration, _, bottom in links), links
        assert all(color == "rgb(11, 87, 208)" for _, _, color, _ in links), links
        fold = page.locator(first).last if target.endswith("steps") else \
            page.locator(first).first
        box = fold.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PROJECTOR["height"], (target, box)
        # Dutch only, in one terminology
        lines = page_lines(page, MAIN_TEXT)
        assert english_left(lines) == [], target
        assert drifting_terms("\n".join(lines)) == [], target
        assert page.evaluate(OVERFLOW) == [], target
        _shoot(page, artifacts / f"teaching_{target}_present.png")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", ["how_bleu_works", "brevity_penalty", "sensitivity",
                                  "blind_spots", "background"])
def test_each_teaching_page_on_a_phone_in_dutch(browser, app_url: str, artifacts,
                                                name: str) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        _open(page, f"{app_url}/{name}?lang=nl")
        assert page.get_by_test_id("stException").all_inner_texts() == []
        assert not page.evaluate(SIDEWAYS) and page.evaluate(OVERFLOW) == [], name
        for tab in page.get_by_test_id("stTab").all():  # the tabs wrap inside the window
            right = tab.bounding_box()
            assert right is None or right["x"] + right["width"] <= PHONE["width"] + 1
        # a table's toolbar (always shown on a touch screen) has room above the table
        gaps = page.locator('[data-testid="stElementContainer"]:has([data-testid='
                            '"stDataFrame"])').evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).paddingTop))")
        assert all(gap >= 30 for gap in gaps), gaps
        assert english_left(page_lines(page, MAIN_TEXT)) == [], name
        _shoot(page, artifacts / f"teaching_{name}_phone.png")
    finally:
        context.close()


@pytest.mark.browser
def test_the_step_buttons_are_on_a_phones_first_screen(browser, app_url: str) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        _open(page, f"{app_url}/how_bleu_works?lang=nl&ex_view=steps")
        following = page.locator(".st-key-teach_step_next button").bounding_box()
        assert following is not None and following["y"] + following["height"] <= PHONE["height"]
    finally:
        context.close()


@pytest.mark.browser
def test_no_label_is_cut_at_1280_with_the_sidebar(browser, app_url: str) -> None:
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        found = {}
        for target in ("how_bleu_works", "how_bleu_works?ex_view=exercises", "brevity_penalty",
                       "sensitivity", "blind_spots", "background"):
            join = "&" if "?" in target else "?"
            _open(page, f"{app_url}/{target}{join}lang=nl")
            assert page.get_by_test_id("stSidebar").is_visible()
            if cut := page.evaluate(CUT):
                found[target] = cut
        assert found == {}
    finally:
        context.close()

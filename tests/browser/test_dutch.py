"""In a real browser, the Dutch interface (``?lang=nl``): every page's rendered text holds no
English interface text (each line compared with the English catalog's msgids, as
tests/i18n does for AppTest's tree, and the Blind spots cases' English texts) and writes
numbers with a decimal comma; a CSV made in it keeps the decimal point; an exercise answered
wrong, then right; step-by-step next and previous; the teacher's link opening the example, in
Dutch, in a fresh browser context."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest
import sacrebleu
from harness import REPO, wait_idle
from playwright.sync_api import Browser, Page, expect

from bleu.i18n import in_language, tr

sys.path.insert(0, str(REPO / "tests" / "i18n"))
from catalog import untranslatable_english

from bleu_app.app import PAGES
from bleu_app.session._state import SMOOTH_METHODS

#: how long a number may take to follow an input (a rerun under load)
WAIT_MS = 30_000
#: a decimal point after 1 to 3 digits, 1, 2 or 4 decimals (3 digits after a point are Dutch
#: thousands: 2.037 segments)
POINT_DECIMAL = re.compile(r"(?<![\w.])\d{1,3}\.(?:\d{1,2}|\d{4})(?![\w.])")
COMMA_DECIMAL = re.compile(r"(?<![\w,])\d{1,3},\d{1,4}(?![\w,])")
#: lines where a point is a name's, not a number's (WordNet 3.0, a version)
POINT_NAMES = re.compile(r"WordNet 3\.0|version:|\bv\d")
#: sacrebleu's option names, shown as its command line takes them (smoothing none, floor)
CODE_NAMES = {*SMOOTH_METHODS, "none", "13a", "intl", "char", "zh", "ja-mecab", "ko-mecab",
              "flores101", "flores200", "spm"}
#: the pages that show numbers on the bundled sample
WITH_NUMBERS = {"dashboard", "sentences", "compare", "how_bleu_works", "brevity_penalty",
                "sensitivity", "blind_spots"}
#: literature the Background page cites by its English title
CITED = re.compile(r"\(\d{4}\)\.")


def nl(message: str) -> str:
    """``message`` as the Dutch interface writes it."""
    with in_language("nl"):
        return tr(message)


def _normal(text: str) -> str:
    """Markdown as the page shows it: links' text, no emphasis or code marks, one space."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(re.sub(r"[*`]", "", text).split())


@cache
def english_lines() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each English msgid that the Dutch interface translates otherwise, as a pattern of a
    whole rendered line (a placeholder matches any text); msgids whose own words are fewer
    than 6 letters ("{count} {severity}", "{a} or {b}") would match Dutch lines and are left
    to tests/i18n."""
    found = []
    for message in untranslatable_english():
        parts = re.split(r"\{[^{}]*\}|%[sd]", _normal(message))
        if sum(ch.isalpha() for part in parts for ch in part) < 6 and len(parts) > 1:
            continue
        found.append((message, re.compile(".+?".join(re.escape(part) for part in parts))))
    return tuple(found)


@cache
def case_english() -> frozenset[str]:
    """The Blind spots cases' English texts (title, lesson, candidates' labels and origins)."""
    cases = json.loads((REPO / "sample_data" / "blind_spots" / "cases.json").read_text(
        encoding="utf-8"))["cases"]
    texts = set()
    for case in cases:
        texts.update((case["title"], case["lesson"], case["data"]))
        for candidate in case["candidates"]:
            texts.update((candidate["label"], candidate["origin"]))
    return frozenset(texts)


#: the text of the page (a data grid is drawn on a canvas: not in it)
PAGE_TEXT = "() => document.querySelector('[data-testid=\"stApp\"]').innerText"
#: the data grids' header and cell texts, from their accessible tables (which hold the raw
#: numbers, not the drawn ones: for words only)
GRID_TEXT = """() => [...document.querySelectorAll(
    '[data-testid="stDataFrame"] table[role="grid"] th, '
    + '[data-testid="stDataFrame"] table[role="grid"] td')].map(cell => cell.innerText)"""


def _lines(page: Page) -> list[str]:
    text = page.evaluate(PAGE_TEXT)
    return [" ".join(line.split()) for line in text.split("\n") if line.strip()]


def _grid_words(page: Page) -> list[str]:
    return [" ".join(cell.split()) for cell in page.evaluate(GRID_TEXT) if cell.strip()]


def english_left(lines: list[str]) -> list[str]:
    """The lines of a page that are English interface text."""
    patterns = english_lines()
    cases = case_english()
    left = {line for line in lines if line not in CODE_NAMES and not CITED.search(line)
            and any(pattern.fullmatch(line) for _, pattern in patterns)}
    left |= {line for line in lines if any(text in line for text in cases)}
    return sorted(left)


def _settle(page: Page) -> None:
    """Idle, and every lazily loaded element drawn (no skeleton placeholders left)."""
    wait_idle(page)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)


def _type(page: Page, key: str, text: str) -> None:
    area = page.locator(f".st-key-{key} textarea")
    area.fill(text)
    area.press("Control+Enter")
    wait_idle(page)


def _click(page: Page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    wait_idle(page)


def _fill(page: Page, key: str, text: str) -> None:
    page.locator(f".st-key-{key} input").fill(text)


def _metric(page: Page, label: str):
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue")


@pytest.mark.browser
def test_every_page_in_dutch_shows_no_english_and_decimal_commas(page: Page,
                                                                 app_url: str) -> None:
    found = {}
    for script, _, _ in PAGES:
        page.goto(f"{app_url}/{script}?lang=nl")
        _settle(page)
        page.locator("h1").first.wait_for()
        lines = _lines(page)
        assert len(lines) > 20, script
        problems = [f"English: {line}" for line in english_left(lines + _grid_words(page))]
        points = [line for line in lines
                  if POINT_DECIMAL.search(line) and not POINT_NAMES.search(line)]
        problems += [f"decimal point: {line[:120]}" for line in points]
        if script in WITH_NUMBERS and not any(COMMA_DECIMAL.search(line) for line in lines):
            problems.append("no decimal comma")
        if problems:
            found[script] = problems
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.browser
def test_a_csv_export_in_dutch_keeps_decimal_points(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/?lang=nl")
    _settle(page)
    assert any(COMMA_DECIMAL.search(line) for line in _lines(page))  # the page: commas
    button = page.get_by_test_id("stDownloadButton").filter(has_text=nl("Table (CSV)"))
    with page.expect_download() as download:
        button.click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert "BLEU" in header and "p-value" in header  # the file's names stay English
    cells = [cell for row in rows for cell in row]
    assert any(re.fullmatch(r"\d{1,3}\.\d+", cell) for cell in cells), rows[:2]
    assert not any(COMMA_DECIMAL.fullmatch(cell) for cell in cells)


@pytest.mark.browser
def test_an_exercise_in_dutch_answered_wrong_then_right(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/how_bleu_works?lang=nl")
    _settle(page)
    page.get_by_test_id("stRadio").get_by_text(nl("Exercises"), exact=True).click()
    wait_idle(page)
    # as tests/browser/test_teaching_browser.py: 8 of the 10 unigrams are credited (9 unclipped)
    _fill(page, "teach_ex_clipping_matches_1", "9")
    _fill(page, "teach_ex_clipping_total_1", "10")
    _click(page, "teach_ex_check_clipping")
    first_fix = nl("; the first step to fix: {label}.").split("{")[0].strip("; ")
    alert = page.get_by_test_id("stAlert").filter(has_text=first_fix)
    expect(alert).to_contain_text(nl("{right} of {asked} right").format(right=1, asked=12),
                                  timeout=WAIT_MS)
    unclipped = nl("That is the count without clipping: {example}. m_{n} = {truth}.")
    expect(page.get_by_text(unclipped.split(":")[0], exact=False)).to_be_visible(
        timeout=WAIT_MS)
    _fill(page, "teach_ex_clipping_matches_1", "8")
    _fill(page, "teach_ex_clipping_p_1", "0,8")  # a Dutch decimal comma, read as 0.8
    _click(page, "teach_ex_check_clipping")
    expect(page.get_by_test_id("stAlert").filter(
        has_text=nl("{right} of {asked} right").format(right=3, asked=12))).to_be_visible(
        timeout=WAIT_MS)
    assert page.get_by_text(unclipped.split(":")[0], exact=False).count() == 0
    expect(page.get_by_text(nl("Worked solution"), exact=True)).to_be_visible()
    assert english_left(_lines(page)) == []


@pytest.mark.browser
def test_step_by_step_in_dutch_next_and_previous(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/how_bleu_works?lang=nl")
    _settle(page)
    page.get_by_test_id("stRadio").get_by_text(nl("Step by step"), exact=True).click()
    wait_idle(page)
    progress = page.get_by_test_id("stProgress")
    step = nl("Step {k} of {count}: {title}")
    expect(progress).to_contain_text(step.format(k=1, count=8, title=nl(
        "The candidate's tokens")), timeout=WAIT_MS)
    _click(page, "teach_step_next")
    expect(progress).to_contain_text(step.format(k=2, count=8, title=nl(
        "{n}-gram precision p_{n}").format(n=1)), timeout=WAIT_MS)
    # the formula with the sentence's numbers and a decimal comma: p_1 = 2/7 = 0,2857
    expect(page.locator(".katex").filter(has_text="0,2857").first).to_be_visible()
    assert page.locator(".katex").filter(has_text="0.2857").count() == 0
    _click(page, "teach_step_next")
    expect(progress).to_contain_text(step.split(":")[0].format(k=3, count=8), timeout=WAIT_MS)
    _click(page, "teach_step_previous")
    _click(page, "teach_step_previous")
    expect(progress).to_contain_text(step.split(":")[0].format(k=1, count=8), timeout=WAIT_MS)
    assert page.locator(".st-key-teach_step_previous button").is_disabled()
    assert english_left(_lines(page)) == []


@pytest.mark.browser
def test_the_teachers_link_opens_the_example_in_dutch_in_a_fresh_context(
        browser: Browser, app_url: str) -> None:
    hyp, ref = "De hond blaft luid.", "De hond blaft heel luid in de tuin."
    teacher = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = teacher.new_page()
        page.goto(f"{app_url}/how_bleu_works?lang=nl")
        _settle(page)
        _type(page, "teach_candidate", hyp)
        _type(page, "teach_references", ref)
        _click(page, "teach_use_sacrebleu")
        page.wait_for_function("() => location.search.includes('ex_smooth=exp')",
                               timeout=WAIT_MS)
        link = page.url
    finally:
        teacher.close()
    assert "lang=nl" in link
    expected = sacrebleu.sentence_bleu(hyp, [ref])  # exp smoothing, effective order
    student = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        fresh = student.new_page()
        fresh.goto(link)
        _settle(fresh)
        fresh.get_by_role("heading", name=nl("How BLEU works")).first.wait_for()
        assert fresh.locator(".st-key-teach_candidate textarea").input_value() == hyp
        assert fresh.locator(".st-key-teach_references textarea").input_value() == ref
        expect(_metric(fresh, "BLEU")).to_have_text(
            f"{expected.score:.2f}".replace(".", ","), timeout=WAIT_MS)
        assert english_left(_lines(fresh)) == []
    finally:
        student.close()

"""In a real browser: every page renders on the bundled sample with no exception, no error box,
no script error, and every chart draws data marks (not just axes)."""

from __future__ import annotations

import contextlib

import pytest
from harness import PAGES, VIEWPORT, goto_page, running_app, wait_all_charts, wait_idle
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

#: pages that draw at least one chart on the sample (the others: Data, and pages that wait for
#: an upload of their own)
WITH_CHARTS = {"Corpus dashboard", "Sentences", "Compare A vs B", "How BLEU works",
               "Brevity penalty", "Sensitivity", "Blind spots"}


def _problems(page: Page, title: str) -> list[str]:
    """What is wrong on the page now: exception or error boxes, no chart, charts without marks."""
    if title in WITH_CHARTS:  # a slow page may still be on its way to its first chart
        with contextlib.suppress(PlaywrightTimeoutError):  # then reported below as "no chart"
            page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=60_000)
    marks = wait_all_charts(page)
    found = [f"exception: {text[:300]}"
             for text in page.get_by_test_id("stException").all_text_contents()]
    found += [f"error box: {text[:300]}"
              for text in page.get_by_test_id("stAlertContentError").all_text_contents()]
    if page.locator("h1").count() == 0:
        found.append("no title")
    if title in WITH_CHARTS and not marks:
        found.append("no chart")
    found += [f"chart {k + 1} of {len(marks)} draws no marks"
              for k, count in enumerate(marks) if count == 0]
    return found


@pytest.mark.browser
def test_every_page_renders_on_the_sample(page: Page, app_url: str) -> None:
    """One user's session walks the sidebar navigation through every page of app.py."""
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    page.goto(app_url)
    wait_idle(page)
    texts = page.get_by_test_id("stSidebarNavLink").all_text_contents()  # icon name + title
    assert len(texts) == len(PAGES)
    assert all(text.endswith(title) for text, title in zip(texts, PAGES, strict=True)), texts
    assert set(PAGES) >= WITH_CHARTS

    problems = {}
    for title in PAGES:
        goto_page(page, title)
        found = _problems(page, title) + [f"script error: {e}" for e in script_errors]
        script_errors.clear()
        if found:
            problems[title] = found
    assert problems == {}


@pytest.mark.browser
def test_a_page_opened_by_its_url_runs_inside_the_app(browser: Browser) -> None:
    """A bookmarked or reloaded page (``/sentences``) on a server no one has visited yet gets
    the app's sidebar (data and options) and navigation, not the bare page script."""
    with running_app() as url:
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(f"{url}/sentences")
        wait_idle(page)
        page.get_by_role("heading", name="Sentences").wait_for()
        sidebar = page.get_by_test_id("stSidebar")
        nav = page.get_by_test_id("stSidebarNavLink").all_text_contents()
        found = {"Data header": sidebar.get_by_role("heading", name="Data").count(),
                 "tokenize option": page.locator(".st-key-tokenize").count(),
                 "navigation": len(nav) == len(PAGES) and nav[0].endswith("Corpus dashboard")}
        context.close()
    assert found == {"Data header": 1, "tokenize option": 1, "navigation": True}, nav

"""In Chromium: computing COMET (the tiny model tests/metrics/learned/learned_models.py builds)
for the bundled sample, which takes minutes on this machine: the plan shows before the run; the
progress bar moves on its own while the thread computes (the fragment's poll, no click); another
page answers meanwhile (the run goes on); Cancel stops the run between batches and says how much
is kept, and the next plan counts it as cached."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from harness import goto_page, wait_idle
from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "tests" / "metrics" / "learned") not in sys.path:
    sys.path.insert(0, str(REPO / "tests" / "metrics" / "learned"))

from learned_models import (  # noqa: E402 -- found through the folder added above
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

DONE = re.compile(r"([\d,]+) of ([\d,]+) segments computed")


def _done(page: Page) -> int:
    text = page.get_by_test_id("stProgress").first.inner_text()
    found = DONE.search(text)
    assert found, text
    return int(found.group(1).replace(",", ""))


@pytest.mark.browser
@pytest.mark.learned
def test_the_progress_moves_by_itself_and_cancel_stops_the_run(
        page: Page, app_url: str, tiny_models: TinyModels) -> None:
    page.goto(f"{app_url}/scores")
    wait_idle(page)
    page.locator(".st-key-learned_model input").fill(str(tiny_models.comet))
    page.locator(".st-key-learned_model input").press("Enter")
    wait_idle(page)
    page.locator(".st-key-learned_load button").click()
    page.get_by_text(re.compile(r"segments to compute \(0 in the cache\)")).wait_for()
    wait_idle(page)
    page.locator(".st-key-learned_compute button").click()
    page.wait_for_function(
        "() => /[1-9][\\d,]* of [\\d,]+ segments computed/.test("
        "document.querySelector('[data-testid=\"stProgress\"]')?.innerText || '')",
        timeout=120_000, polling=200)
    first = _done(page)
    page.wait_for_function(
        f"() => {{ const m = (document.querySelector('[data-testid=\"stProgress\"]')"
        f"?.innerText || '').match(/([\\d,]+) of/); "
        f"return m && Number(m[1].replace(/,/g, '')) > {first}; }}",
        timeout=120_000, polling=200)  # no click in between: the fragment redraws itself
    assert _done(page) > first
    goto_page(page, "Data")  # another page answers meanwhile; the run goes on
    assert page.get_by_test_id("stException").count() == 0
    goto_page(page, "Metrics & human scores")
    page.get_by_test_id("stProgress").first.wait_for()
    assert _done(page) > first
    page.locator(".st-key-learned_cancel button").first.click()  # (its tooltip has one too)
    stopped = page.get_by_text(re.compile(r"COMET \(comet\): Stopped after [\d,]+ of [\d,]+ "
                                          r"segments; those are kept in the cache\."))
    stopped.wait_for(timeout=120_000)
    assert page.get_by_test_id("stException").count() == 0
    assert page.get_by_test_id("stProgress").count() == 0
    wait_idle(page)
    assert page.get_by_text(re.compile(r"segments to compute \([1-9][\d,]* in the cache\)")
                            ).count() == 1

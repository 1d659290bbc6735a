"""The test net over every page in Chromium (issue 36; tests/app/test_page_net.py is the same net
in AppTest): uploaded files with a segment-score file (a workspace link, which opens them with
their COMET scores) and every "Also compute" metric at once, each page in a fresh session, in
English or Dutch: no exception box, no error box, no script error, every chart drawing marks.
One server for all (the session's), one page a test."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest
from harness import PAGES, REPO, VIEWPORT, wait_all_charts, wait_idle
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bleu.io import read_any
from bleu.io.dataset import assemble
from bleu.workspace import SavedScores, Workspace, WorkspaceStore, new_edit_token

WMT21 = REPO / "tests" / "data" / "wmt21_newstest2021_en-de"
SYSTEMS = ("Facebook-AI", "Online-W", "UEdin")
METRICS = "chrF,chrF%2B%2B,TER"
#: pages that draw at least one chart with this data (Data and Background draw none)
WITH_CHARTS = {"dashboard", "sentences", "compare", "how_bleu_works", "brevity_penalty",
               "sensitivity", "blind_spots", "scores"}


@pytest.fixture(scope="module")
def workspace() -> Iterator[str]:
    """The uploaded files and their COMET scores, saved where the session's server reads."""
    def read(name: str):
        return read_any((WMT21 / name).read_bytes(), name)

    data = assemble([read(f"newstest2021.en-de.hyp.{name}.de") for name in SYSTEMS],
                    [read("newstest2021.en-de.ref.A.de")], names=list(SYSTEMS),
                    label="Uploaded files")
    comet = SavedScores("COMET", {name: tuple(None if i % 11 == 0 else ((i * 7 + k) % 100) / 100
                                              for i in range(data.n_segments))
                                  for k, name in enumerate(SYSTEMS)}, True, "comet.tsv")
    store = WorkspaceStore(os.environ["BLEU_EXPLORER_DB"])
    yield store.save(Workspace.new(data, "page net", segment_scores=(comet,)),
                     token=new_edit_token()).id


@pytest.mark.browser
@pytest.mark.parametrize(("number", "script"), list(enumerate(PAGES.values())),
                         ids=list(PAGES.values()))
def test_every_page_with_every_metric_and_scores(number: int, script: str, browser: Browser,
                                                 app_url: str, workspace: str) -> None:
    language = ("en", "nl")[number % 2]
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(120_000)
    page = context.new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    try:
        page.goto(f"{app_url}/?ws={workspace}&page={script}&lang={language}"
                  f"&other_metrics={METRICS}")
        wait_idle(page, 180_000)
        if script in WITH_CHARTS:  # a slow page may still be on its way to its first chart
            with contextlib.suppress(PlaywrightTimeoutError):
                page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=120_000)
        marks = wait_all_charts(page, timeout=120_000)
        found = [f"exception: {text[:300]}"
                 for text in page.get_by_test_id("stException").all_text_contents()]
        found += [f"error box: {text[:300]}"
                  for text in page.get_by_test_id("stAlertContentError").all_text_contents()]
        found += [f"script error: {error}" for error in script_errors]
        if script in WITH_CHARTS and not marks:
            found.append("no chart")
        found += [f"chart {k + 1} of {len(marks)} draws no marks"
                  for k, count in enumerate(marks) if count == 0]
        # the multiselect's front-end code loads on its own: on a page without charts (Data,
        # Background) the run can end before the sidebar's widget shows its choices
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function("() => (document.querySelector('.st-key-other_metrics')"
                                   "?.textContent || '').includes('TER')", timeout=30_000)
        metrics = page.locator(".st-key-other_metrics").text_content() or ""
    finally:
        context.close()
    assert found == []
    assert all(name in metrics for name in ("chrF", "chrF++", "TER")), metrics

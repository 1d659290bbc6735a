"""In a real browser: an upload survives a page reload (the URL's ``?ws=<id>`` reopens the saved
workspace), with the same scores. The app server saves into the test session's temporary
database (BLEU_EXPLORER_DB, set by tests/conftest.py before the server starts)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness import WMT17, open_uploaders, results_grid, upload, wait_charts_drawn, wait_idle
from playwright.sync_api import Page

from bleu.workspace import WorkspaceStore

SYSTEMS = [WMT17 / "newstest2017.KIT.4950.en-de.de", WMT17 / "newstest2017.xmu.4910.en-de.de"]
REFERENCE = WMT17 / "newstest2017.en-de.ref.de"


@pytest.mark.browser
def test_an_upload_survives_a_reload(page: Page, app_url: str, artifacts: Path) -> None:
    database = os.environ["BLEU_EXPLORER_DB"]
    assert "pytest" in database, "the server must save into the tests' temporary database"
    page.goto(app_url)
    wait_idle(page)
    wait_charts_drawn(page)  # first run done: see test_url_state for uploads during it
    open_uploaders(page)
    upload(page, "systems_upload", SYSTEMS)
    upload(page, "references_upload", [REFERENCE])
    page.get_by_text("Loaded 2 system(s) and 1 reference(s)").wait_for()
    wait_idle(page)
    before = results_grid(page)
    assert set(before) == {path.stem for path in SYSTEMS}

    page.wait_for_url(lambda url: "ws=" in url)
    workspace_id = page.url.split("ws=")[1].split("&")[0]
    saved = WorkspaceStore(database).load(workspace_id)
    assert list(saved.dataset.systems) == [path.stem for path in SYSTEMS]

    page.reload()  # a new session: only the link and the database remain
    wait_idle(page)
    page.get_by_text("Reopened workspace").wait_for()
    assert results_grid(page) == before
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=str(artifacts / "workspace_reloaded.png"))

"""In a real browser: an upload survives a page reload (the URL's ``?ws=<id>`` reopens the saved
workspace), with the same scores; the owner's browser keeps the edit secret in a cookie the
server sets (HttpOnly: no script reads it; SameSite=Strict; sent to Streamlit's own paths only;
90 days; never in the URL or the page), so a reload without ``?ws`` lists its workspaces again;
another browser opening the link gets a read-only view that it can copy. The app server saves
into the test session's temporary database (BLEU_EXPLORER_DB, set by tests/conftest.py before
the server starts)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from harness import WMT17, open_uploaders, results_grid, upload, wait_charts_drawn, wait_idle
from playwright.sync_api import Browser, BrowserContext, Page

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import Workspace, WorkspaceStore, new_edit_token
from bleu_app.session.cookies import MAX_AGE

SYSTEMS = [WMT17 / "newstest2017.KIT.4950.en-de.de", WMT17 / "newstest2017.xmu.4910.en-de.de"]
REFERENCE = WMT17 / "newstest2017.en-de.ref.de"
SIDEBAR = '[data-testid="stSidebar"]'


def workspace_cookie(context: BrowserContext, workspace_id: str,
                     timeout: float = 30.0) -> dict:
    """The ``bleu_ws_<id>`` cookie, once the sidebar's script has set it (bounded wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [c for c in context.cookies() if c["name"] == f"bleu_ws_{workspace_id}"]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no cookie for workspace {workspace_id} after {timeout:.0f} s: "
                         f"{[c['name'] for c in context.cookies()]}")


def url_workspace(page: Page) -> str:
    page.wait_for_url(lambda url: "ws=" in url)
    return page.url.split("ws=")[1].split("&")[0]


def small_dataset() -> Dataset:
    def read(path: Path) -> TextFile:
        return TextFile(path.name, tuple(path.read_text(encoding="utf-8").split("\n")[:-1]))

    return Dataset({path.stem: read(path) for path in SYSTEMS}, (read(REFERENCE),),
                   label="saved elsewhere")


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

    workspace_id = url_workspace(page)
    store = WorkspaceStore(database)
    saved = store.load(workspace_id)
    assert list(saved.dataset.systems) == [path.stem for path in SYSTEMS]
    cookie = workspace_cookie(page.context, workspace_id)
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["path"], cookie["secure"]) == (
        True, "Strict", "/_stcore/", False)  # http here: Secure only on https
    assert MAX_AGE == 90 * 24 * 3600  # the lifetime README.md states
    assert time.time() + MAX_AGE - 600 < cookie["expires"] <= time.time() + MAX_AGE + 5
    assert store.editable({workspace_id: cookie["value"]}) == {workspace_id}
    assert cookie["value"] not in page.url  # the secret never goes in the URL
    assert cookie["value"] not in page.content()  # nor into the page
    assert "bleu_ws_" not in page.evaluate("document.cookie")  # no script can read it

    page.reload()  # a new session: only the link, the cookie and the database remain
    wait_idle(page)
    page.get_by_text("Reopened workspace").wait_for()
    assert results_grid(page) == before
    assert page.get_by_test_id("stException").count() == 0
    page.locator(f"{SIDEBAR} .st-key-workspace_name").wait_for()  # the owner may change it
    page.locator(f"{SIDEBAR} .st-key-workspace_pick").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "workspace_reloaded.png"))

    page.goto(app_url)  # back without ?ws: the browser's own workspaces are listed again
    wait_idle(page)
    picker = page.locator(f"{SIDEBAR} .st-key-workspace_pick").get_by_role("combobox")
    picker.wait_for()
    assert picker.input_value().startswith("newstest2017.en-de · 2 systems · ")
    assert "view only" not in picker.input_value()


@pytest.mark.browser
def test_a_shared_link_is_read_only_and_can_be_copied(browser: Browser, app_url: str,
                                                     artifacts: Path) -> None:
    store = WorkspaceStore(os.environ["BLEU_EXPLORER_DB"])
    secret = new_edit_token()
    saved = store.save(Workspace.new(small_dataset(), "the owner's evaluation"), token=secret)
    visitor = browser.new_context(viewport={"width": 1400, "height": 1000})
    visitor.set_default_timeout(60_000)
    try:
        page = visitor.new_page()
        page.goto(f"{app_url}/?ws={saved.id}")
        wait_idle(page)
        page.get_by_text("Reopened workspace").wait_for()
        assert set(results_grid(page)) == {path.stem for path in SYSTEMS}  # every page works
        sidebar = page.locator(SIDEBAR)
        sidebar.get_by_text("read-only").first.wait_for()
        assert sidebar.locator(".st-key-workspace_name").count() == 0
        assert sidebar.locator(".st-key-workspace_add_systems").count() == 0
        assert sidebar.get_by_role("button", name="Delete", exact=True).is_disabled()
        assert not [c for c in visitor.cookies() if c["name"].startswith("bleu_ws_")]
        sidebar.locator(".st-key-workspace_pick").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "workspace_read_only.png"))

        sidebar.get_by_role("button", name="Copy to my workspaces").click()
        page.wait_for_url(lambda url: "ws=" in url and saved.id not in url)
        copy_id = url_workspace(page)
        cookie = workspace_cookie(visitor, copy_id)
        assert store.editable({copy_id: cookie["value"], saved.id: cookie["value"]}) == {copy_id}
        assert store.load(copy_id).dataset == saved.dataset
        sidebar.locator(".st-key-workspace_name").wait_for()  # the copy is theirs to change
        assert store.load(saved.id) == saved  # the original is as it was
    finally:
        visitor.close()

"""The app never reaches the internet: a browser that opens every page of app.py sends no request
(page, script, font, icon, websocket) to any host but the app's own 127.0.0.1."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from harness import PAGES, goto_page, wait_all_charts, wait_idle
from playwright.sync_api import Page

pytestmark = pytest.mark.browser
#: URL schemes that never leave the browser
LOCAL_SCHEMES = ("data", "blob", "about", "chrome-extension")


def test_no_request_leaves_localhost(page: Page, app_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("websocket", lambda socket: requested.append(socket.url))
    page.goto(app_url)
    wait_idle(page)
    for title in PAGES:
        goto_page(page, title)
        wait_all_charts(page)
    outside = sorted({url for url in requested if urlparse(url).scheme not in LOCAL_SCHEMES
                      and urlparse(url).hostname != "127.0.0.1"})
    assert outside == []
    assert any(urlparse(url).path.endswith("/_stcore/stream") for url in requested)  # seen

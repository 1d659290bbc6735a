"""Browser-test fixtures: one app server and one headless Chromium for the whole session.

Plain Playwright (not pytest-playwright). Chromium is Debian's /usr/bin/chromium; when it is
missing the tests fail with a message saying how to install it (they never skip).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import CHROMIUM, VIEWPORT, launch_chromium, running_app
from playwright.sync_api import Browser, Page, sync_playwright

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The base URL of ``streamlit run app.py`` on a free port (stopped after the session)."""
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium driven by Playwright's sync API."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's Chromium "
                    "(apt-get install -y chromium chromium-driver; never `playwright install`).",
                    pytrace=False)
    playwright = sync_playwright().start()
    try:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()
    finally:
        playwright.stop()


@pytest.fixture
def page(browser: Browser, app_url: str) -> Iterator[Page]:
    """A fresh browser context (own session state in the app) with a 1400 px wide viewport."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(60_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """tests/browser/artifacts/ (gitignored): screenshots the tests save for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS

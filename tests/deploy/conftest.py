"""Deployment tests: the app as a user installs and serves it (a wheel in a fresh venv, replicas
behind nginx on one PostgreSQL). They start real processes and a browser, about a minute each,
and run in CI like every other test (marked ``deploy`` so that ``-m "not deploy"`` can leave
them out of a quick local run).

Chromium runs in a thread of its own (``chromium`` below): Playwright's sync API allows one
instance per thread, and tests/browser keeps one open in the main thread for the whole session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest

HERE = Path(__file__).resolve().parent
# the shared helpers of the browser and workspace tests: harness (Chromium, waits) and
# workspace_backends (a throwaway PostgreSQL)
for folder in (HERE.parent / "browser", HERE.parent / "workspace"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from deploy_servers import PROXY_HOST  # noqa: E402 -- needs the path above
from harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import Browser, Playwright, sync_playwright  # noqa: E402

T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "deploy: installs or serves the app as a deployment does (a wheel in a fresh "
        "venv, replicas behind nginx); about a minute each, run in CI")


class BrowserThread:
    """Headless Debian Chromium owned by one worker thread: ``run(fn)`` calls ``fn(browser)``
    there and returns its result (or raises its exception) here."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="chromium")
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def _start(self) -> None:
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {PROXY_HOST} 127.0.0.1"])

    def run(self, fn: Callable[[Browser], T]) -> T:
        def call() -> T:
            if self._browser is None:
                self._start()
            assert self._browser is not None
            return fn(self._browser)

        return self._pool.submit(call).result()

    def close(self) -> None:
        def stop() -> None:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()

        self._pool.submit(stop).result()
        self._pool.shutdown()


@pytest.fixture(scope="module")
def chromium() -> Iterator[BrowserThread]:
    """Chromium for this module's tests, in its own thread; fails (never skips) when missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the deployment tests need Debian's Chromium "
                    "(apt-get install -y chromium chromium-driver).", pytrace=False)
    thread = BrowserThread()
    yield thread
    thread.close()

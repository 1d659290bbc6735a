"""Run the app and drive Debian's Chromium: shared by the browser tests, screenshots and benchmark.

Plain Playwright (sync API), the launch flags and the server start that ../shared/TESTING.md
found reliable here: a port checked to be free, stdin from /dev/null, a process group of its own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Browser, Page, Playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO = Path(__file__).resolve().parents[2]
DATA_DIR = REPO / "tests" / "data"  # the first 100 segments of each real test set
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
#: the browser window of every test, screenshot and benchmark
VIEWPORT = {"width": 1400, "height": 1000}
#: a drawn Altair chart without selections (SVG in Streamlit 1.67; with a selection: canvas)
CHART_DRAWN = '[data-testid="stVegaLiteChart"] svg.marks'


def app_pages() -> dict[str, str]:
    """The pages the app gives ``st.navigation``, in order: title -> script stem (the name
    their screenshots are saved under), from ``bleu_app.app.PAGES``."""
    from bleu_app.app import PAGES as LISTED

    return {title: script for script, title, _ in LISTED}


#: the sidebar navigation's page titles -> the names their screenshots are saved under
PAGES = app_pages()


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            return False  # something already answers there
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as bind:
        try:
            bind.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port nothing listens on (asked from the OS, then checked), so no old server answers."""
    for _ in range(20):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if _port_is_free(port):
            return port
    raise RuntimeError("no free TCP port found on 127.0.0.1")


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except OSError:
        return False


@contextmanager
def running_app(timeout: float = 60.0) -> Iterator[str]:
    """``streamlit run app.py`` on a free port; yields its base URL; kills its process group."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
               "--server.address", "127.0.0.1", "--server.headless", "true"]
    log = open(os.devnull, "wb")  # noqa: SIM115 -- closed below, after the process ends
    process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not _healthy(url):
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with {process.returncode} before it was "
                                   f"ready on {url}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit not healthy on {url} after {timeout:.0f} s")
            time.sleep(0.2)
        if process.poll() is not None:  # the health check answered, but not from our server
            raise RuntimeError(f"streamlit exited with {process.returncode}; {url} is another's")
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless (never a downloaded browser); fails clearly when missing."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} not found: install Debian's chromium "
                           "(apt-get install -y chromium chromium-driver); the browser tests "
                           "need it and do not download browsers")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


#: a rerun has finished: the app says its script is not running, no "Running..." widget, no
#: stale element, something in the main area
IDLE = """() => document.querySelector('[data-testid="stApp"]')
        ?.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]')
    && !document.querySelector('[data-stale="true"]')
    && !!document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')"""


def wait_idle(page: Page, timeout: float = 60_000) -> None:
    """Wait until Streamlit's rerun has finished, and still has 0.4 s later (a rerun just asked
    for may not have shown its status widget yet)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        left = max(deadline - time.monotonic(), 0.001) * 1000
        page.wait_for_function(IDLE, timeout=left, polling=100)
        page.wait_for_timeout(400)
        if page.evaluate(IDLE):
            return


def wait_charts_drawn(page: Page, timeout: float = 60_000) -> None:
    """Wait until every chart on the page has drawn SVG marks (charts without selections)."""
    page.wait_for_function(
        """() => {
            const charts = document.querySelectorAll('[data-testid="stVegaLiteChart"]');
            return charts.length > 0 && [...charts].every(c => c.querySelector('svg.marks'));
        }""", timeout=timeout)


def open_uploaders(page: Page) -> None:
    """Expand the sidebar's "Upload by role" expander so that its file inputs exist."""
    expander = page.get_by_test_id("stSidebar").get_by_text("Upload by role", exact=True)
    expander.click()
    page.get_by_test_id("stFileUploaderDropzoneInput").first.wait_for(state="attached")


def upload(page: Page, key: str, files: list[Path] | list[dict]) -> None:
    """Give files to the ``st.file_uploader`` with widget key ``key`` through its file input."""
    uploader = page.locator(f".st-key-{key}")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(files)


def results_grid(page: Page, timeout: float = 60_000) -> dict[str, float]:
    """System -> BLEU from the main area's first data grid that has both, its first column
    headed "system" (the dashboard's scores), read from its accessible table (the canvas draws
    the same cells) in one step in the page. A page's grids attach one by one, in any order;
    each holds only the columns in view (a cell names its column in ``aria-colindex``), and a
    grid being drawn has half rows: read once every row has its system and its BLEU."""
    table = page.wait_for_function("""() => {
        for (const grid of document.querySelectorAll(
                '[data-testid="stMain"] [data-testid="stDataFrame"] table[role="grid"]')) {
            const rows = [...grid.querySelectorAll('tr')].map(row => Object.fromEntries(
                [...row.querySelectorAll('td, th')].map(
                    cell => [cell.getAttribute('aria-colindex'), cell.textContent])));
            if (rows.length < 2 || rows[0]['1'] !== 'system') continue;
            const bleu = Object.keys(rows[0]).find(column => rows[0][column] === 'BLEU');
            if (!bleu) continue;
            const found = rows.slice(1).map(cells => [cells['1'], cells[bleu]]);
            return found.every(([system, score]) => system && score !== undefined
                && score.trim() !== '' && !Number.isNaN(Number(score))) ? found : null;
        }
        return null;
    }""", timeout=timeout).json_value()
    return {system: float(score) for system, score in table}


def full_page_height(page: Page) -> int:
    """The page's content height: Streamlit scrolls inside the main area and the sidebar, not
    the body (inner scrollers such as a data grid's are left out)."""
    return int(page.evaluate("""() => Math.max(document.documentElement.clientHeight,
        ...[...document.querySelectorAll(
            '[data-testid="stMain"], [data-testid="stSidebarContent"]')].map(e => e.scrollHeight))
    """))


def goto_page(page: Page, title: str, timeout: float = 60_000) -> None:
    """Open a page through the sidebar's navigation, as a user does, and wait for it to finish."""
    link = page.get_by_test_id("stSidebarNavLink").filter(has_text=title)
    target = urlparse(link.get_attribute("href") or "/").path.rstrip("/")
    link.click()
    page.wait_for_url(lambda url: urlparse(url).path.rstrip("/") == target, timeout=timeout)
    wait_idle(page, timeout)


#: per chart on the page: how many data marks it draws (SVG: items of Vega's ``role-mark``
#: groups, not axes, legends or titles; canvas: strongly coloured pixels, as axes are grey)
COUNT_MARKS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(c => {
    const svg = c.querySelector('svg.marks');
    if (svg) return svg.querySelectorAll('g.role-mark > :not(g)').length;
    const canvas = c.querySelector('canvas.marks');
    if (!canvas || !canvas.width) return 0;
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let coloured = 0;
    for (let i = 0; i < d.length; i += 4)
        if (d[i + 3] > 100 && Math.max(d[i], d[i + 1], d[i + 2])
                               - Math.min(d[i], d[i + 1], d[i + 2]) > 60) coloured++;
    return coloured;
})"""


#: how long a drawn chart's frame may wait for its marks
MARKS_MS = 15_000


def wait_all_charts(page: Page, at_least: int = 0, timeout: float = 60_000) -> list[int]:
    """Wait until ``at_least`` charts are there (Streamlit attaches a page's first chart only once
    its chart code has loaded, after the rerun ends) and every chart is drawn (SVG or, for
    charts with selections, canvas); mark counts."""
    page.wait_for_function(
        """atLeast => {
            const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
            return charts.length >= atLeast
                && charts.every(c => c.querySelector('svg.marks, canvas.marks'));
        }""", arg=at_least, timeout=timeout)
    # marks come just after a chart's frame is attached (a canvas is painted a moment later,
    # later still on a loaded machine): wait for every chart to draw some, for a while, and
    # report the counts then, so that a chart that stays empty shows as 0
    with suppress(PlaywrightTimeoutError):
        page.wait_for_function(f"() => ({COUNT_MARKS})().every(count => count > 0)",
                               timeout=MARKS_MS, polling=250)
    return page.evaluate(COUNT_MARKS)

"""Load test: N users at once (default 20), each uploading 3 systems x 3000 segments and
switching pages, against a Streamlit server of our own on 127.0.0.1; stops by itself.

Run: ``python benchmarks/load_test.py [--sessions 20] [--segments 3000] [--deadline 900]``.
Each user is a Playwright browser context (one headless Debian Chromium, async API). Every
user's text is unique (a per-user word is appended to each line), so no user is served from
another's cache. Reported: time from the upload to the drawn dashboard (p50, p95, max), the time
of each page switch, lost uploads (a reference given milliseconds after the systems that never
reaches its uploader; must be 0), errors (exceptions shown, timeouts; must be 0), and the server's
peak RSS (VmHWM of the server process and its children, from /proc). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.async_api import Browser, Page, async_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
from corpora import WMT17  # noqa: E402  (the whole test set, in ../shared/data)
from harness import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402
from timing import percentile  # noqa: E402

import bleu  # noqa: E402
from bleu.io.dataset import system_name  # noqa: E402

SYSTEMS = ["newstest2017.uedin-nmt.4722.en-de.de", "newstest2017.C-3MA.4959.en-de.de",
           "newstest2017.FBK.4870.en-de.de"]
REFERENCE = "newstest2017.en-de.ref.de"
#: the pages a user visits after the dashboard, by their link text in the sidebar
TOUR = ["Data", "Sentences", "Compare A vs B", "Corpus dashboard"]
CHARTS_DRAWN = """() => {
    const charts = document.querySelectorAll('[data-testid="stVegaLiteChart"]');
    return charts.length > 0 && [...charts].every(c => c.querySelector('svg.marks'));
}"""


@dataclass
class Result:
    """One user's timings (seconds) and errors."""

    user: int
    to_dashboard: float | None = None
    pages: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lost_upload: bool = False


def lines(name: str, n: int) -> list[str]:
    text = (WMT17 / name).read_text(encoding="utf-8").split("\n")
    return text[:n]


def payload(name: str, segments: list[str], user: int) -> dict:
    """A file for set_input_files: each line gets the user's own word, so content is unique."""
    body = "".join(f"{line} u{user}x\n" for line in segments)
    return {"name": name, "mimeType": "text/plain", "buffer": body.encode("utf-8")}


async def wait_idle(page: Page, timeout: float) -> None:
    await page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    await page.wait_for_timeout(300)
    await page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached",
                                 timeout=timeout)


async def check_no_exception(page: Page, where: str, result: Result) -> None:
    shown = await page.get_by_test_id("stException").count()
    if shown:
        result.errors.append(f"{where}: {shown} exception(s) shown")


class Gate:
    """Lets every user through at once: when all have arrived, or when the wait runs out."""

    def __init__(self, users: int) -> None:
        self.users, self.arrived, self.open = users, 0, asyncio.Event()

    async def arrive(self) -> None:
        self.arrived += 1
        if self.arrived >= self.users:
            self.open.set()
        await self.open.wait()


async def user(browser: Browser, url: str, index: int, data: dict[str, list[str]],
               expected: dict[str, float], timeout_ms: float, gate: Gate) -> Result:
    """One user: open the app, upload, wait for the dashboard, then visit every page."""
    result = Result(index)
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(timeout_ms)
    try:
        page = await context.new_page()
        await page.goto(url)
        await wait_idle(page, timeout_ms)
        sidebar = page.get_by_test_id("stSidebar")
        await sidebar.get_by_text("Upload by role", exact=True).click()
        await page.get_by_test_id("stFileUploaderDropzoneInput").first.wait_for(state="attached")
        await gate.arrive()  # every user uploads at the same moment
        began = time.perf_counter()
        systems = [payload(name, data[name], index) for name in SYSTEMS]
        await page.locator(".st-key-systems_upload").get_by_test_id(
            "stFileUploaderDropzoneInput").set_input_files(systems)
        await page.locator(".st-key-references_upload").get_by_test_id(
            "stFileUploaderDropzoneInput").set_input_files(
            [payload(REFERENCE, data[REFERENCE], index)])  # milliseconds after the systems
        chip = page.locator(f'.st-key-references_upload [data-testid="stFileChipName"]'
                            f'[title="{REFERENCE}"]')
        try:
            await chip.wait_for(timeout=min(timeout_ms, 120_000))
        except Exception:
            result.lost_upload = True
            raise
        await page.get_by_text("Loaded 3 system(s)").first.wait_for()
        await wait_idle(page, timeout_ms)
        await page.wait_for_function(CHARTS_DRAWN, timeout=timeout_ms)
        result.to_dashboard = time.perf_counter() - began
        await check_no_exception(page, "dashboard", result)
        shown = await results_table(page)
        if {name: round(value, 2) for name, value in shown.items()} != expected:
            result.errors.append(f"dashboard: shows {shown}, expected this user's {expected}")
        nav = page.get_by_test_id("stSidebarNav")
        for title in TOUR:
            began = time.perf_counter()
            await nav.get_by_text(title, exact=True).click()
            await wait_idle(page, timeout_ms)
            result.pages[title] = time.perf_counter() - began
            await check_no_exception(page, title, result)
    except Exception as error:  # a timeout or a crash counts as this user's error
        result.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0][:160]}")
    finally:
        await context.close()
    return result


async def results_table(page: Page) -> dict[str, float]:
    """System -> BLEU from the results grid's accessible table."""
    grid = page.get_by_test_id("stDataFrame").first.locator('table[role="grid"]')
    await grid.locator("th", has_text="BLEU").first.wait_for(state="attached")
    rows = grid.locator("tr")
    header = await rows.nth(0).locator("th").all_text_contents()
    column = header.index("BLEU")
    found = {}
    for index in range(1, await rows.count()):
        cells = await rows.nth(index).locator("td, th").all_text_contents()
        found[cells[0]] = float(cells[column])
    return found


def server_pids(port: int) -> list[int]:
    """The streamlit process serving ``port`` and its children, found through /proc."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(cmdline) and str(port).encode() in cmdline:
            found.append(int(proc.name))
    children = []
    for pid in found:
        with contextlib.suppress(OSError):
            children += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text()
                         .split()]
    return found + children


def status_kb(pid: int, field_name: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class RSSSampler(threading.Thread):
    """Samples the server tree's summed VmRSS every 0.2 s; also reads each VmHWM at the end."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids, self.peak_kb, self.stop = pids, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak_kb = max(self.peak_kb, sum(status_kb(p, "VmRSS") for p in self.pids))
            self.stop.wait(0.2)

    def hwm_kb(self) -> int:
        return sum(status_kb(p, "VmHWM") for p in self.pids)



async def run(sessions: int, segments: int, deadline_s: float) -> int:
    data = {name: lines(name, segments) for name in [*SYSTEMS, REFERENCE]}
    expected = {}  # each user's own scores, to check that a user sees nothing of another's
    for index in range(sessions):
        refs = [[f"{line} u{index}x" for line in data[REFERENCE]]]
        expected[index] = {system_name(name): round(bleu.corpus_bleu(
            [f"{line} u{index}x" for line in data[name]], refs).score, 2) for name in SYSTEMS}
    with running_app() as url:
        port = urlparse(url).port
        assert port is not None
        pids = server_pids(port)
        idle_kb = sum(status_kb(p, "VmRSS") for p in pids)
        sampler = RSSSampler(pids)
        sampler.start()
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                       args=CHROMIUM_ARGS)
            gate = Gate(sessions)
            tasks = [asyncio.create_task(user(browser, url, i, data, expected[i],
                                              deadline_s * 1000, gate))
                     for i in range(sessions)]
            began = time.perf_counter()
            try:
                results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=deadline_s)
            except TimeoutError:
                for task in tasks:
                    task.cancel()
                print(f"stopped: the deadline of {deadline_s:.0f} s passed")
                results = [Result(i, errors=["deadline"]) for i in range(sessions)]
            wall = time.perf_counter() - began
            await browser.close()
        sampler.stop.set()
        sampler.join()
        hwm_kb = sampler.hwm_kb()
    report(results, sessions, segments, wall, idle_kb, sampler.peak_kb, hwm_kb, pids)
    return 0 if all(not r.errors for r in results) else 1


def report(results: list[Result], sessions: int, segments: int, wall: float, idle_kb: int,
           peak_kb: int, hwm_kb: int, pids: list[int]) -> None:
    loaded = [r.to_dashboard for r in results if r.to_dashboard is not None]
    errors = [(r.user, e) for r in results for e in r.errors]
    print(f"{sessions} concurrent users, 3 systems x {segments:,} segments each "
          f"(unique content), pages after the dashboard: {', '.join(TOUR)}")
    if loaded:
        print(f"time to dashboard: p50 {percentile(loaded, 0.5):.1f} s, "
              f"p95 {percentile(loaded, 0.95):.1f} s, max {max(loaded):.1f} s "
              f"({len(loaded)} of {sessions} users reached it)")
    for title in TOUR:
        times = [r.pages[title] for r in results if title in r.pages]
        if times:
            print(f"  switch to {title:<18s} p50 {percentile(times, 0.5):.1f} s, "
                  f"p95 {percentile(times, 0.95):.1f} s")
    print(f"lost uploads: {sum(r.lost_upload for r in results)}")
    print(f"errors: {len(errors)}")
    for who, error in errors[:20]:
        print(f"  user {who}: {error}")
    print(f"server RSS: idle {idle_kb / 1024:.0f} MiB, peak sampled {peak_kb / 1024:.0f} MiB, "
          f"VmHWM {hwm_kb / 1024:.0f} MiB (processes {pids})")
    print(f"wall time: {wall:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--segments", type=int, default=3000)
    parser.add_argument("--deadline", type=float, default=900.0,
                        help="seconds after which the test stops, whatever is still running")
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args.sessions, args.segments, args.deadline)))


if __name__ == "__main__":
    main()

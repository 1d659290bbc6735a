"""In the browser: one step of the Brevity penalty page's resize slider, from the key press to
the page idle with the new BLEU shown (target: under 0.5 s once the system's sweep is cached).

Run: ``python benchmarks/bench_teaching_browser.py [--steps 8]``. One Streamlit server of our
own on a free port, headless Debian Chromium, the bundled sample (WMT22 en-de, 2037 segments).
The first step of a system computes its whole resize sweep (reported apart); every later step
only picks a point of the cached sweep and reruns the what-if fragment, not the page. Each
step's BLEU is checked against ``bleu.teaching.brevity.length_whatif`` on the same text.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO))
from harness import (  # noqa: E402 -- the browser-test harness lives with the tests
    VIEWPORT,
    goto_page,
    launch_chromium,
    running_app,
    wait_idle,
)

from bleu.teaching.brevity import SWEEP, length_whatif  # noqa: E402

SAMPLE = REPO / "sample_data"


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _bleu(page: Page) -> str:
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text("BLEU", exact=True))
    return box.get_by_test_id("stMetricValue").inner_text().strip()


def step(page: Page, key: str, expected: str) -> float:
    """Press ``key`` on the slider; seconds until idle with ``expected`` as BLEU."""
    slider = page.locator(".st-key-bp_percent input[type=range]")
    start = time.perf_counter()
    slider.press(key)
    page.wait_for_function(
        """expected => [...document.querySelectorAll('[data-testid="stMetric"]')].some(m =>
            m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === 'BLEU'
            && m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === expected)
            && !document.querySelector('[data-testid="stStatusWidget"]')""",
        arg=expected, polling=20, timeout=60_000)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8)
    args = parser.parse_args()
    with running_app() as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        wait_idle(page)
        start = time.perf_counter()
        goto_page(page, "Brevity penalty")
        print(f"page opened (first sweep included): {time.perf_counter() - start:.2f} s")
        system = page.locator(".st-key-bp_system").get_by_role("combobox").input_value()
        hyps = _lines(SAMPLE / f"generaltest2022.en-de.hyp.{system}.de")
        refs = [_lines(SAMPLE / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]
        sweep = {p.percent: f"{p.score:.2f}" for p in length_whatif(hyps, refs, SWEEP).points}
        page.locator(".st-key-bp_percent input[type=range]").focus()
        times, percent = [], 0
        for _ in range(args.steps):
            percent -= 5
            times.append(step(page, "ArrowLeft", sweep[percent]))
        wait_idle(page)
        browser.close()
    print(f"{len(times)} slider steps of {system}: median {statistics.median(times):.3f} s, "
          f"max {max(times):.3f} s (each BLEU checked against length_whatif)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

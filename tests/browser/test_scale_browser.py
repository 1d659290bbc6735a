"""A thousand systems in Chromium: 1,000 system outputs x 300 segments dropped on the Data page,
loaded, and the dashboard drawn. The timings and the tab's memory are printed (run with -s);
the bound asserted is the "never settles" failure of issue 26, not a speed target."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest
from harness import REPO, goto_page, wait_idle
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

SYSTEMS, SEGMENTS = 1000, 300
#: seconds each step may take before the page counts as stuck (issue 26 saw 420 s)
STUCK_S = 300


def _renderer_mb() -> float:
    """The largest Chromium renderer (a tab) started by this test process, in MiB."""
    largest = 0
    for process in psutil.Process().children(recursive=True):
        try:
            if "--type=renderer" in " ".join(process.cmdline()):
                largest = max(largest, process.memory_info().rss)
        except psutil.Error:
            pass
    return largest / 2**20


def _files(folder: Path) -> list[Path]:
    """Reference A of WMT22's sample and SYSTEMS outputs, each a mix of Online-A and it."""
    sample = REPO / "sample_data"
    ref = (sample / "generaltest2022.en-de.ref.A.de").read_text("utf-8").split("\n")[:SEGMENTS]
    hyp = (sample / "generaltest2022.en-de.hyp.Online-A.de").read_text("utf-8").split(
        "\n")[:SEGMENTS]
    paths = [folder / "t.en-de.ref.A.de"]
    paths[0].write_text("\n".join(ref) + "\n", encoding="utf-8")
    for k in range(SYSTEMS):
        path = folder / f"t.en-de.hyp.s{k:04d}.de"
        path.write_text("\n".join(h if (i + k) % 3 else r for i, (h, r) in
                                  enumerate(zip(hyp, ref, strict=True))) + "\n", "utf-8")
        paths.append(path)
    return paths


def test_a_thousand_systems_reach_the_dashboard(page: Page, app_url: str,
                                                tmp_path: Path) -> None:
    page.goto(app_url)
    wait_idle(page, 120_000)
    goto_page(page, "Data", 120_000)
    paths = _files(tmp_path)
    start = time.monotonic()
    page.locator(".st-key-files_upload [data-testid=stFileUploaderDropzoneInput]"
                 ).set_input_files(paths)
    wait_idle(page, STUCK_S * 1000)
    staged = time.monotonic() - start
    page.locator(".st-key-files_commit button").click()
    wait_idle(page, STUCK_S * 1000)
    loaded = time.monotonic() - start
    banner = " ".join(page.get_by_test_id("stAlert").all_inner_texts())
    goto_page(page, "Corpus dashboard", STUCK_S * 1000)
    shown = time.monotonic() - start
    print(f"\n{SYSTEMS} systems x {SEGMENTS} segments: staged {staged:.1f} s, loaded "
          f"{loaded:.1f} s, dashboard {shown:.1f} s; tab {_renderer_mb():.0f} MiB")
    assert f"Loaded {SYSTEMS:,} system(s)" in banner and "Reopened" not in banner, banner
    main = page.get_by_test_id("stMain").inner_text()
    assert f"{SYSTEMS:,} systems" in main, main[:300]

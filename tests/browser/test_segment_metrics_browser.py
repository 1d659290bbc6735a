"""In Chromium: a segment-score file uploaded on Metrics & human scores becomes a metric beside
BLEU: its column on the dashboard (with the core's score), the all-pairs matrix drawn for it,
and Compare's p-value for it; screenshots saved for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from harness import full_page_height, goto_page, upload, wait_all_charts, wait_idle
from playwright.sync_api import Page

from bleu.io.dataset import load_folder
from bleu.metrics.segment import SegmentScorer, segment_stats
from bleu.metrics.significance import paired_bootstrap_from_stats

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def _grid(page: Page, *headers: str) -> list[list[str]]:
    """The rows of the main area's first data grid with a column of each of ``headers``."""
    grid = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"] table[role="grid"]')
    for header in headers:
        grid = grid.filter(has=page.locator("th", has_text=re.compile(f"^{re.escape(header)}$")))
    grid = grid.first
    grid.wait_for(state="attached")
    rows = grid.locator("tr")
    return [rows.nth(k).locator("td, th").all_text_contents() for k in range(rows.count())]


def _shot(page: Page, artifacts: Path, name: str) -> None:
    page.set_viewport_size({"width": 1400, "height": min(full_page_height(page), 6000)})
    page.screenshot(path=str(artifacts / name))
    page.set_viewport_size({"width": 1400, "height": 1000})


@pytest.mark.browser
def test_an_uploaded_score_file_is_a_metric_on_every_page(page: Page, app_url: str,
                                                         artifacts: Path, tmp_path: Path) -> None:
    data = load_folder(SAMPLE, "sample")
    rng = np.random.default_rng(7)
    scores = {name: np.round(rng.random(data.n_segments), 4) for name in data.systems}
    lines = ["system\tseg_id\tCOMET"] + [f"{name}\t{i + 1}\t{value}"
                                         for name, values in scores.items()
                                         for i, value in enumerate(values)]
    path = tmp_path / "comet.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    page.goto(f"{app_url}/scores?n_bootstrap=200")
    wait_idle(page)
    upload(page, "scores_upload", [path])
    page.get_by_text("COMET from comet.tsv").first.wait_for()
    wait_idle(page)
    assert page.get_by_test_id("stException").count() == 0

    goto_page(page, "Corpus dashboard")
    table = _grid(page, "COMET", "p-value")
    header, rows = table[0], table[1:]
    shown = {row[header.index("system")]: float(row[header.index("COMET")]) for row in rows
             if row[header.index("system")] in scores}
    assert shown == pytest.approx({name: float(v.mean()) for name, v in scores.items()},
                                  abs=0.005)
    _shot(page, artifacts, "segment_metric_dashboard.png")

    picker = page.locator(".st-key-pairs_metric").get_by_role("combobox")
    picker.click()
    page.keyboard.type("COMET")
    page.keyboard.press("Enter")
    wait_idle(page)
    assert picker.input_value() == "COMET"
    marks = wait_all_charts(page)
    assert all(marks), "every chart, the COMET all-pairs matrix among them, draws marks"
    assert page.get_by_text("COMET: row − column").count() >= 1
    _shot(page, artifacts, "segment_metric_all_pairs.png")

    goto_page(page, "Compare A vs B")
    tests = _grid(page, "metric", "p (bootstrap)")
    head = tests[0]
    comet = next(row for row in tests if row[head.index("metric")] == "COMET")
    a = page.locator(".st-key-compare_a").get_by_role("combobox").input_value()
    b = page.locator(".st-key-compare_b").get_by_role("combobox").input_value()
    stats = {name: segment_stats(scores[name]) for name in (a, b)}
    expected = paired_bootstrap_from_stats(stats, SegmentScorer("COMET"), baseline=a,
                                           n_samples=200)[b].p_value
    assert float(comet[head.index("p (bootstrap)")]) == pytest.approx(expected, abs=5e-5)
    _shot(page, artifacts, "segment_metric_compare.png")

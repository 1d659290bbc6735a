"""The dashboard's HTML report opens offline in headless Chromium: no request leaves the file,
and every chart is drawn (SVG marks)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route

from bleu.charts.report import html_report
from bleu.evaluation import Evaluation

pytestmark = pytest.mark.browser
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def lines(name: str, n: int = 150) -> list[str]:
    return (SAMPLE / name).read_text("utf-8").split("\n")[:n]


def test_report_opens_offline_with_its_charts(browser: Browser, tmp_path: Path):
    refs = [lines(f"generaltest2022.en-de.ref.{k}.de") for k in ("A", "B")]
    systems = {name: lines(f"generaltest2022.en-de.hyp.{name}.de")
               for name in ("Online-B", "PROMT")}
    systems["<script>alert(1)</script>"] = systems["PROMT"][::-1]
    evaluation = Evaluation(systems, refs)
    evaluation.add_metric("chrF")
    results = evaluation.dashboard(baseline="Online-B", n_samples=100)
    page_html = html_report(results, data_label="WMT22 excerpt")
    assert "<script>alert(1)" not in page_html  # escaped in the tables and in the chart spec
    path = tmp_path / "report.html"
    path.write_text(page_html, encoding="utf-8")

    requested: list[str] = []

    def handle(route: Route) -> None:
        requested.append(route.request.url)
        if route.request.url == path.as_uri():
            route.continue_()
        else:
            route.abort()

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        context.route("**/*", handle)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri())
        page.wait_for_selector("#dashboard svg.marks g.mark-rect path", state="attached",
                               timeout=20_000)
        assert page.locator("#dashboard svg").count() >= 1
        assert page.locator("#dashboard svg.marks g.mark-rect path").count() >= 9
        assert page.locator("table.scores").count() == 3  # every metric, BLEU, chrF
        assert page.get_by_text("<script>alert(1)</script>").count() >= 1  # shown as text
        assert not errors
    finally:
        context.close()
    assert requested == [path.as_uri()]

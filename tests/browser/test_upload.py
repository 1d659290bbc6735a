"""In a real browser: upload two WMT17 systems and the reference, as a user would, and check the
dashboard's numbers and points against ``bleu.corpus_bleu`` on the same files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import (
    WMT17,
    open_uploaders,
    results_grid,
    upload,
    wait_all_charts,
    wait_charts_drawn,
    wait_idle,
)
from playwright.sync_api import Page

import bleu
from bleu.io.dataset import system_name

SYSTEMS = [WMT17 / "newstest2017.uedin-nmt.4722.en-de.de",
           WMT17 / "newstest2017.PROMT-Rule-based.4735.en-de.de"]
REFERENCE = WMT17 / "newstest2017.en-de.ref.de"
#: a point's description (its aria-label) names the system and its BLEU, in Vega's field order
BLEU_LABEL = re.compile(r"^(?=.*\bsystem: (?P<system>[^;]+))(?=.*\bBLEU: (?P<bleu>[-0-9.]+))")


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


@pytest.mark.browser
def test_upload_two_systems_shows_their_bleu(page: Page, app_url: str, artifacts: Path) -> None:
    references = [_lines(REFERENCE)]
    expected = {system_name(path.name): bleu.corpus_bleu(_lines(path), references).score
                for path in SYSTEMS}
    assert len(set(expected)) == len(SYSTEMS)

    page.goto(app_url)
    wait_idle(page)
    wait_charts_drawn(page)  # first run done: see test_url_state for uploads during it
    open_uploaders(page)
    upload(page, "systems_upload", SYSTEMS)
    upload(page, "references_upload", [REFERENCE])
    chips = page.get_by_test_id("stFileChipName")  # the chip shows a shortened name; title: all
    page.locator(f'[data-testid="stFileChipName"][title="{REFERENCE.name}"]').wait_for()
    assert sorted(chips.nth(i).get_attribute("title") for i in range(chips.count())) == sorted(
        path.name for path in [*SYSTEMS, REFERENCE])

    page.get_by_text("Loaded 2 system(s) and 1 reference(s)").wait_for()
    wait_idle(page)
    assert all(wait_all_charts(page)), "every chart draws marks"
    assert page.get_by_test_id("stException").count() == 0

    shown = results_grid(page)
    assert set(shown) == set(expected)
    for name, score in expected.items():
        assert round(shown[name], 2) == round(score, 2), name

    bleu_chart = page.locator('[data-testid="stVegaLiteChart"]').filter(
        has_text="BLEU per system").first
    points = bleu_chart.locator("svg.marks g.mark-symbol path")  # intervals are g.mark-rule
    assert points.count() == len(SYSTEMS)
    described = [points.nth(i).get_attribute("aria-label") or "" for i in range(points.count())]
    labels = [BLEU_LABEL.match(text) for text in described]
    assert all(labels), f"every point describes its system and BLEU: {described}"
    drawn = {m["system"]: float(m["bleu"]) for m in labels if m}
    assert {name: round(v, 2) for name, v in drawn.items()} == {
        name: round(v, 2) for name, v in expected.items()}

    page.set_viewport_size({"width": 1400, "height": 2400})
    page.screenshot(path=str(artifacts / "upload_dashboard.png"))

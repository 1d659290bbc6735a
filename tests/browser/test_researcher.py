"""In a real browser, a researcher's path on the bundled sample (WMT22 en-de, 9 systems): Compare
A vs B shows the p-values of ``bleu.paired_bootstrap`` and ``bleu.paired_approximate_
randomization``; the dashboard's all-pairs view shows the core's differences, Holm-corrected
significance and ranking clusters; clicking an n-gram opens a segment with the n-gram marked.
"""

from __future__ import annotations

import re

import pytest
from harness import REPO, goto_page, wait_idle
from playwright.sync_api import Locator, Page

import bleu
from bleu.display.formatting import DELTA, P_VALUE, SCORE
from bleu.evaluation.ranking import all_pairs
from bleu.explore.compare import ngram_differences
from bleu.metrics.bleu.score import BLEUOptions

pytestmark = pytest.mark.browser
SAMPLE = REPO / "sample_data"
#: Streamlit's data grid: header row and body rows are this many pixels high
ROW_HEIGHT = 35


def lines(path) -> list[str]:
    found = path.read_text(encoding="utf-8").split("\n")
    return found[:-1] if found and found[-1] == "" else found


def hypotheses(system: str) -> list[str]:
    return lines(SAMPLE / f"generaltest2022.en-de.hyp.{system}.de")


def references() -> list[list[str]]:
    return [lines(path) for path in sorted(SAMPLE.glob("generaltest2022.en-de.ref.*.de"))]


def grid(page: Page, key: str) -> Locator:
    """The data grid of the ``st.dataframe`` with widget key ``key`` (a table with row
    selection), or else the first whose header has a column named ``key``."""
    if re.fullmatch(r"\w+", key):
        return page.locator(f".st-key-{key} [data-testid='stDataFrame']").first
    return page.locator("[data-testid='stDataFrame']").filter(
        has=page.locator("th", has_text=re.compile(f"^{re.escape(key)}$"))).first


def grid_rows(page: Page, key: str) -> list[dict[str, str]]:
    """The grid's rows in view (its accessible table holds the rows the canvas draws, numbers
    at full precision: the canvas writes them by the app's rule)."""
    table = grid(page, key).locator('table[role="grid"]')
    table.locator("th").first.wait_for(state="attached")
    rows = table.locator("tr")
    header = [text.strip() for text in rows.nth(0).locator("th").all_text_contents()]
    found = []
    for k in range(1, rows.count()):
        cells = [text.strip() for text in rows.nth(k).locator("td, th").all_text_contents()]
        found.append(dict(zip(header[-len(cells):], cells, strict=True)))
    return found


def click_row(page: Page, key: str, row: int) -> None:
    """Select body row ``row`` (0-based) of a single-row-selection grid: its checkbox cell."""
    grid(page, key).scroll_into_view_if_needed()
    box = grid(page, key).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 18, box["y"] + ROW_HEIGHT * (row + 1) + ROW_HEIGHT / 2)
    wait_idle(page)


def test_compare_shows_the_paired_tests_of_the_core(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Compare A vs B")
    a = page.locator(".st-key-compare_a").get_by_role("combobox").input_value()
    b = page.locator(".st-key-compare_b").get_by_role("combobox").input_value()
    [shown] = grid_rows(page, "p (bootstrap)")

    systems = {a: hypotheses(a), b: hypotheses(b)}
    refs = references()
    bootstrap = bleu.paired_bootstrap(systems, refs, baseline=a, n_samples=1000)
    randomized = bleu.paired_approximate_randomization(systems, refs, baseline=a,
                                                       n_samples=10000)
    assert shown["metric"] == "BLEU"
    assert float(shown["p (bootstrap)"]) == pytest.approx(bootstrap[b].p_value, abs=1e-12)
    assert float(shown["p (AR)"]) == pytest.approx(randomized[b].p_value, abs=1e-12)
    assert shown[a] == SCORE.text(bootstrap[a].score)  # each metric's row by the number rule
    assert shown[b] == SCORE.text(bootstrap[b].score)
    delta = bootstrap[a].score - bootstrap[b].score
    assert shown["A − B"] == DELTA.text(delta)
    low, high = (float(x) for x in re.findall(r"[+-]\d+\.\d+", shown["95% CI"]))
    assert low <= delta <= high
    # the metric above the table says the same
    values = page.get_by_test_id("stMetricValue").all_text_contents()
    assert P_VALUE.text(bootstrap[b].p_value) in values


def test_all_pairs_view_matches_the_core(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    refs = references()
    names = sorted(path.name.split(".")[3] for path in SAMPLE.glob("generaltest2022.en-de.hyp.*"))
    metric = bleu.BLEU(references=refs)
    stats = {name: metric.segment_stats(hypotheses(name)) for name in names}
    expected = bleu.pairwise_significance(stats, metric.options, method="bs", n_samples=1000)
    scores = {name: bleu.corpus_bleu(hypotheses(name), refs).score for name in names}

    ranked = grid_rows(page, "cluster rank")
    assert [row["system"] for row in ranked] == sorted(names, key=lambda n: -scores[n])
    assert [float(row["BLEU"]) for row in ranked] == pytest.approx(
        [scores[row["system"]] for row in ranked], abs=1e-9)
    clusters = all_pairs(stats, BLEUOptions(), n_samples=1000).ranks
    assert {row["system"]: row["cluster rank"] for row in ranked} == clusters
    # the matrix: row − column, starred where the core's Holm-adjusted p-value is < 0.05
    order = [row["system"] for row in ranked]
    chart = page.locator("[data-testid='stVegaLiteChart']").filter(has_text="row − column")
    labels = chart.locator("g.mark-text.role-mark text").all_text_contents()
    index = {name: k for k, name in enumerate(expected.names)}
    wanted = []
    for row in order:
        for column in order:
            if row == column:
                wanted.append("")
                continue
            star = "*" if expected.adjusted[index[row], index[column]] < 0.05 else ""
            wanted.append(DELTA.text(scores[row] - scores[column]) + star)
    assert labels == wanted
    # the table's rank column is the same clustering
    table = {row["system"]: row["rank"] for row in grid_rows(page, "Δ vs baseline")}
    assert table == clusters


def test_an_ngram_click_opens_its_segment_with_the_ngram_marked(page: Page,
                                                                app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Compare A vs B")
    a = page.locator(".st-key-compare_a").get_by_role("combobox").input_value()
    b = page.locator(".st-key-compare_b").get_by_role("combobox").input_value()
    gram = grid_rows(page, "ngrams_a")[2]["n-gram"]  # "der": a word, not punctuation
    click_row(page, "ngrams_a", 2)

    diffs = ngram_differences(hypotheses(a), hypotheses(b), references(), BLEUOptions())
    row = diffs.a_better.set_index("ngram").loc[gram]
    listed = grid_rows(page, "ngram_segments_a_2")  # the rows in view
    assert [int(entry["segment"]) for entry in listed] == list(row["segments"][:len(listed)])
    assert all(f"⟦{gram}⟧" in entry["A"] + entry["B"] for entry in listed)

    def opened() -> int:
        heads = page.get_by_text(re.compile(r"^Segment \d+$")).all_text_contents()
        return int(heads[0].split()[1])

    def marks() -> list[str]:
        return page.locator("mark.ngram-mark").all_text_contents()

    assert opened() == row["segments"][0]
    assert marks() and all(gram in text for text in marks())
    # another segment of the list, clicked, opens with the n-gram marked too
    click_row(page, "ngram_segments_a_2", 1)
    assert opened() == row["segments"][1]
    assert marks() and all(gram in text for text in marks())

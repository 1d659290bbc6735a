"""Chart builders, checked through ``to_dict()``: the plotted numbers, the bars, the encodings."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines

import bleu
from bleu import charts
from bleu.charts.palette import PALETTE
from bleu.evaluation.ranking import all_pairs
from bleu.metrics.bleu.score import BLEUOptions

FOLDER = DATA_DIR / "wmt17_newstest2017_en-de"
SYSTEMS = ("uedin-nmt.4722", "PROMT-Rule-based.4735", "online-F.0")


@pytest.fixture(scope="module")
def ref() -> list[str]:
    return read_lines(FOLDER / "newstest2017.en-de.ref.de")


@pytest.fixture(scope="module")
def hyps() -> dict[str, list[str]]:
    return {name: read_lines(FOLDER / f"newstest2017.{name}.en-de.de") for name in SYSTEMS}


@pytest.fixture(scope="module")
def scores(hyps, ref) -> dict[str, bleu.BLEUScore]:
    return {name: bleu.corpus_bleu(lines, [ref]) for name, lines in hyps.items()}


def plotted(spec: dict, layer: dict | None = None) -> list[dict]:
    """The rows a chart (or one of its layers) draws: its own data, else the top-level data."""
    data = (layer or {}).get("data") or spec["data"]
    return spec["datasets"][data["name"]]


def test_bleu_chart_plots_each_score_with_its_interval(scores, hyps, ref):
    intervals = {"uedin-nmt.4722": (27.4, 28.9), "PROMT-Rule-based.4735": (15.9, 17.1)}
    results = {name: bleu.SignificanceResult(name, score.score, None,
                                             low=intervals.get(name, (None, None))[0],
                                             high=intervals.get(name, (None, None))[1])
               for name, score in scores.items()}
    spec = charts.bleu_chart(results).to_dict()
    errors, points = spec["layer"]
    assert points["mark"]["type"] == "point"
    assert errors["mark"]["type"] == "rule"
    rows = plotted(spec, points)
    assert [row["system"] for row in rows] == list(SYSTEMS)
    best_first = sorted(SYSTEMS, key=lambda name: -scores[name].score)
    assert points["encoding"]["y"]["sort"] == best_first
    for row in rows:
        expected = sacrebleu.corpus_bleu(hyps[row["system"]], [ref]).score
        assert row["BLEU"] == pytest.approx(expected, abs=1e-9)
        if row["system"] in intervals:
            assert (row["low"], row["high"]) == pytest.approx(intervals[row["system"]])
        else:
            assert row["low"] is None and row["high"] is None
    assert points["encoding"]["x"]["field"] == "BLEU"
    assert points["encoding"]["x"]["scale"]["zero"] is False  # zoomed to the scores
    assert errors["encoding"]["x"]["field"] == "low"
    assert errors["encoding"]["x2"]["field"] == "high"


def test_precisions_chart_has_one_dot_per_system_and_order(scores, hyps, ref):
    spec = charts.precisions_chart(scores).to_dict()
    rows = plotted(spec)
    assert len(rows) == len(SYSTEMS) * 4
    assert spec["spec"]["mark"]["type"] == "point"
    assert spec["facet"]["column"]["field"] == "order"
    assert spec["resolve"]["scale"]["x"] == "independent"  # each order on its own zoomed axis
    assert spec["spec"]["encoding"]["x"]["scale"]["zero"] is False
    axis = spec["spec"]["encoding"]["x"]["axis"]  # the precision rule, ticks >= 0.1 apart
    assert (axis["format"], axis["tickMinStep"], axis["labelOverlap"]) == (".1f", 0.1, True)
    for name in SYSTEMS:
        expected = sacrebleu.corpus_bleu(hyps[name], [ref]).precisions
        got = [row["precision"] for row in rows if row["system"] == name]
        assert got == pytest.approx(expected, abs=1e-9)
        assert [row["order"] for row in rows if row["system"] == name] == [
            "1-gram", "2-gram", "3-gram", "4-gram"]


def test_decomposition_parts_sum_to_log_bleu(scores):
    options = BLEUOptions()
    spec = charts.decomposition_chart(scores, options).to_dict()
    rows = plotted(spec)
    assert len(rows) == len(SYSTEMS) * 5  # four orders and the brevity penalty
    assert spec["encoding"]["x"]["aggregate"] == "sum"
    for name, score in scores.items():
        parts = {row["part"]: row["log"] for row in rows if row["system"] == name}
        assert sum(parts.values()) == pytest.approx(math.log(score.score / 100), abs=1e-9)
        # by hand: each order weighs 1/4, the BP enters as its log
        assert parts["2-gram"] == pytest.approx(math.log(score.precisions[1] / 100) / 4)
        assert parts["brevity penalty"] == pytest.approx(math.log(score.bp))


def test_decomposition_with_effective_order_weighs_present_orders():
    # "a b" vs "a b": only 1- and 2-grams exist, so with effective order each weighs 1/2.
    options = BLEUOptions(effective_order=True)
    score = bleu.sentence_bleu("a b", ["a b"])
    rows = plotted(charts.decomposition_chart({"s": score}, options).to_dict())
    parts = {row["part"]: row["log"] for row in rows}
    assert parts["1-gram"] == pytest.approx(0.0) and parts["2-gram"] == pytest.approx(0.0)
    assert parts["3-gram"] == 0.0 and parts["4-gram"] == 0.0
    assert score.score == pytest.approx(100.0)


def test_decomposition_leaves_out_infinite_parts():
    score = bleu.corpus_bleu(["x y z"], [["a b c"]], smooth_method="none")
    assert score.score == 0.0
    rows = plotted(charts.decomposition_chart({"zero": score}, BLEUOptions(
        smooth_method="none")).to_dict())
    assert [row["part"] for row in rows] == ["brevity penalty"]


def test_length_chart_has_ratio_and_bp_per_system(scores, hyps, ref):
    spec = charts.length_chart(scores).to_dict()
    one, points, labels = spec["layer"]
    rows = plotted(spec, points)
    assert plotted(spec, one) == [{"ratio": 1.0}] and one["mark"]["type"] == "rule"
    assert len(rows) == len(SYSTEMS)
    assert points["encoding"]["x"]["field"] == "ratio"
    assert points["encoding"]["x"]["scale"]["zero"] is False
    for row in rows:
        expected = sacrebleu.corpus_bleu(hyps[row["system"]], [ref])
        assert row["ratio"] == pytest.approx(expected.sys_len / expected.ref_len)
        assert row["BP"] == pytest.approx(expected.bp)
        # the brevity penalty is written beside the dots of outputs shorter than the refs
        assert row["label"] == (f"BP {expected.bp:.3f}" if expected.bp < 1 else "")
    assert labels["encoding"]["text"]["field"] == "label"


def color_scales(spec: object) -> list[dict]:
    """Every colour scale with a domain anywhere in a chart's spec (layers, facets, concats)."""
    if isinstance(spec, list):
        return [scale for item in spec for scale in color_scales(item)]
    if not isinstance(spec, dict):
        return []
    found = [spec["color"]["scale"]] if isinstance(spec.get("color"), dict) and \
        "domain" in spec["color"].get("scale", {}) else []
    return found + [scale for key, value in spec.items() if key != "datasets"
                    for scale in color_scales(value)]


def test_same_color_for_a_system_in_every_chart(scores):
    results = {name: bleu.SignificanceResult(name, score.score) for name, score in scores.items()}
    everyone = ["other", *SYSTEMS]  # all loaded systems: colours by place among them
    for chart in (charts.bleu_chart(results, everyone), charts.precisions_chart(scores, everyone),
                  charts.length_chart(scores, everyone)):
        scales = color_scales(chart.to_dict())
        assert scales and all(scale == {"domain": list(SYSTEMS), "range": list(PALETTE[1:4])}
                              for scale in scales)


def test_pairs_chart_cells(hyps, ref):
    metric = bleu.BLEU(references=[ref])
    stats = {name: metric.segment_stats(lines) for name, lines in hyps.items()}
    pairs = all_pairs(stats, metric.options, n_samples=100)
    spec = charts.pairs_chart(pairs).to_dict()
    rows = plotted(spec)
    assert len(rows) == len(SYSTEMS) ** 2
    for row in rows:
        i, j = pairs.names.index(row["row"]), pairs.names.index(row["column"])
        assert row["delta"] == pytest.approx(pairs.scores[i] - pairs.scores[j])
        if i == j:
            assert row["label"] == "" and row["verdict"] == ""
            continue
        significant = pairs.adjusted[i, j] < 0.05
        assert row["label"] == f"{row['delta']:+.2f}" + ("*" if significant else "")
        assert row["verdict"] == ("not significant" if not significant else
                                  "row better" if row["delta"] > 0 else "row worse")


def test_png_and_svg_export(scores):
    chart = charts.precisions_chart(scores)
    png = charts.to_png(chart)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    svg = charts.to_svg(chart)
    assert svg.lstrip().startswith("<svg") and "</svg>" in svg
    assert "n-gram precisions" in svg
    # the exported file has the app's colours: the palette is in the spec, not in a theme
    assert all(color in svg for color in PALETTE[:len(SYSTEMS)])


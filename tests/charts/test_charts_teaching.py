"""The teaching pages' chart builders, through ``to_dict()``: the plotted numbers are the core's."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from bleu.charts import teaching as charts
from bleu.explore.sensitivity import mqm_correlation, segmentation_compare, tokenizer_grid
from bleu.io.scores.mqm import parse_mqm
from bleu.teaching.breakdown import (
    CLASSIC_CANDIDATE,
    CLASSIC_REFERENCES,
    order_sweep,
    smoothing_comparison,
    walkthrough,
)
from bleu.teaching.brevity import (
    SystemLength,
    length_buckets,
    length_whatif,
    sentence_brevity,
    zoom_window,
)

REFS = [["the cat is on the mat", "a dog sat on the rug", "it rains today in town"]]
SYSTEMS = {"A": ["the cat is on a mat", "a dog sat on a rug", "it rains in town"],
           "B": ["cat on mat", "the dog sat on the rug", "today it rains in the town"]}


def _values(chart) -> list[dict]:
    """Every row of every dataset in the chart's spec."""
    spec = chart.to_dict()
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


def test_smoothing_and_sweep_charts():
    rows = smoothing_comparison("the cat sat on the mat", ["the cat is on the mat"])
    plotted = _values(charts.smoothing_chart(rows))
    assert [r["BLEU"] for r in plotted] == pytest.approx([r.score for r in rows])
    sweep = order_sweep("the cat sat on the mat", ["the cat is on the mat"])
    plotted = _values(charts.order_sweep_chart(sweep))
    assert [r["N"] for r in plotted] == [n for n, _ in sweep]
    assert [r["BLEU"] for r in plotted] == pytest.approx([score for _, score in sweep])


def test_score_charts_keep_an_axis_when_every_score_is_0():
    """An empty candidate scores 0 everywhere: the axis still runs from 0 up (not one tick)."""
    charts_of_zeros = (charts.smoothing_chart(smoothing_comparison("", ["the cat"])),
                       charts.order_sweep_chart(order_sweep("", ["the cat"])))
    for chart in charts_of_zeros:
        assert {r["BLEU"] for r in _values(chart)} == {0.0}
        spec = chart.to_dict()
        layers = spec.get("layer", [spec])
        low, high = layers[0]["encoding"]["y"]["scale"]["domain"]
        assert low == 0 and high >= 1
    scores = [r.score for r in smoothing_comparison("the cat sat", ["the cat sat on"])]
    domain = charts.smoothing_chart(smoothing_comparison(
        "the cat sat", ["the cat sat on"])).to_dict()["layer"][0]["encoding"]["y"]["scale"]
    assert domain["domain"][1] > max(scores)


def test_precisions_chart_plots_both_precisions():
    walk = walkthrough(CLASSIC_CANDIDATE, list(CLASSIC_REFERENCES))
    rows = _values(charts.precisions_chart(walk))
    raw = {r["n"]: r["percent"] for r in rows if r["kind"] == "credited/total"}
    used = {r["n"]: r["percent"] for r in rows if r["kind"] == "used in the score"}
    assert raw == pytest.approx({1: 100 * 2 / 7, 2: 0.0, 3: 0.0, 4: 0.0})
    assert used == pytest.approx({1: 100 * 2 / 7, 2: 100 / 12, 3: 100 / 20, 4: 100 / 32})
    # the labels are the table's texts: 1/32 = 3.125 % shows as 3.12 (half to even), everywhere
    assert {r["label"] for r in rows} >= {"1/32 = 3.12%", "0/4 = 0.00%"}


def test_precisions_chart_of_a_three_token_candidate_says_undefined():
    # "the cat sat": no 4-grams, p_4 = 0/0: no bar, a text mark instead
    walk = walkthrough("the cat sat", ["the cat sat on the mat"])
    chart = charts.precisions_chart(walk)
    rows = _values(chart)
    assert [r["percent"] for r in rows if r["n"] == 4] == [None, None]
    spec = chart.to_dict()
    texts = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert texts and texts[0]["encoding"]["text"] == {"value": "undefined"}


def test_log_terms_chart_draws_minus_infinity_at_minus_20():
    walk = walkthrough(CLASSIC_CANDIDATE, list(CLASSIC_REFERENCES), smooth_method="none")
    rows = _values(charts.log_terms_chart(walk))
    assert rows[0]["w_n·log p_n"] == pytest.approx(0.25 * math.log(2 / 7))
    assert [r["w_n·log p_n"] for r in rows[1:]] == [-20.0] * 3
    assert [r["label"] for r in rows] == [f"{0.25 * math.log(2 / 7):.4f}", "−∞", "−∞", "−∞"]


def test_log_terms_chart_is_never_blank():
    # p1 = p2 = p3 = 1: every term is 0; p4 is dropped. Labels still show, the axis spans [-1, 0]
    walk = walkthrough("the cat sat", ["the cat sat on the mat"])
    chart = charts.log_terms_chart(walk)
    rows = _values(chart)
    assert [r["label"] for r in rows] == ["0.0000", "0.0000", "0.0000", "dropped"]
    bars = next(layer for layer in chart.to_dict()["layer"] if layer["mark"]["type"] == "bar")
    low, high = bars["encoding"]["y"]["scale"]["domain"]
    assert low <= -1 and high == 0


def test_bp_curve_chart_places_the_systems():
    positions = (SystemLength("A", 90, 100, 0.9, math.exp(1 - 1 / 0.9), 20.0),
                 SystemLength("B", 110, 100, 1.1, 1.0, 25.0))
    spec = charts.bp_curve_chart(positions).to_dict()
    rows = _values(charts.bp_curve_chart(positions))
    dots = [r for r in rows if "system" in r]
    assert [(d["system"], d["ratio"], d["bp"]) for d in dots] == [
        ("A", 0.9, pytest.approx(math.exp(1 - 1 / 0.9))), ("B", 1.1, 1.0)]
    curve = [r for r in rows if "bp" in r and "system" not in r]
    assert all(r["bp"] == pytest.approx(math.exp(1 - 1 / r["ratio"]) if r["ratio"] < 1 else 1)
               for r in curve)
    zoom = [r for r in rows if "from" in r]  # the shaded zoom window holds both systems
    assert zoom[0]["from"] < 0.9 and zoom[0]["to"] > 1.1
    assert len(spec["layer"]) == 3


def test_bp_curve_zoom_and_own_sentence():
    positions = (SystemLength("A", 1003, 1000, 1.003, 1.0, 20.0),
                 SystemLength("B", 1010, 1000, 1.01, 1.0, 25.0))
    low, high = zoom_window(positions)
    assert low < 1.0 < 1.003 < 1.01 < high and high - low < 0.1  # the bend at 1 is in view
    zoomed = charts.bp_curve_chart(positions, window=(low, high)).to_dict()
    assert zoomed["layer"][0]["encoding"]["x"]["scale"]["domain"] == [low, high]
    # "the cat sat" against a 6-token reference: c/r = 1/2, BP = exp(1 - 6/3)
    own = sentence_brevity("the cat sat", ["the cat sat on the mat"])
    rows = _values(charts.bp_curve_chart(positions, sentence=own))
    marked = [r for r in rows if "label" in r]
    assert marked == [{"ratio": 0.5, "bp": pytest.approx(math.exp(-1)),
                       "label": "your sentence: c/r = 3/6, BP = 0.3679"}]


def test_whatif_and_bucket_charts():
    whatif = length_whatif(SYSTEMS["A"], REFS, percents=[-20, 0, 20])
    rows = _values(charts.whatif_chart(whatif))
    scores = {r["percent"]: r["value"] for r in rows if r.get("measure") == "score"}
    assert scores == pytest.approx({p.percent: p.score for p in whatif.points})
    best = [r for r in rows if "measure" not in r]
    assert best[0]["score"] == whatif.best.score
    spec = charts.whatif_chart(whatif).to_dict()
    marked = charts.mark_resize(spec, whatif, -20)
    assert len(marked["layer"]) == 4 and len(spec["layer"]) == 2  # the spec is not changed
    point = next(p for p in whatif.points if p.percent == -20)
    assert marked["layer"][2]["data"]["values"] == [{"ratio": point.ratio, "percent": -20}]
    assert marked["layer"][3]["data"]["values"] == [
        {"ratio": point.ratio, "value": point.score},
        {"ratio": point.ratio, "value": 100 * point.bp}]
    rule = charts.mark_resize(charts.whatif_precisions_chart(whatif).to_dict(), whatif, 20)
    assert rule["layer"][-1]["data"]["values"] == [{"percent": 20}]
    prec = _values(charts.whatif_precisions_chart(whatif))
    assert {(r["percent"], r["order"]) for r in prec} == {
        (p, f"p{n}") for p in (-20, 0, 20) for n in range(1, 5)}
    buckets = length_buckets(SYSTEMS, REFS, edges=(0, 5))
    plotted = _values(charts.buckets_chart(buckets))
    # an empty bucket has no ratio: NaN in the frame, null in the chart's JSON
    assert [r["ratio"] for r in plotted] == [
        None if math.isnan(v) else pytest.approx(v) for v in buckets.ratio]


def test_sensitivity_charts():
    grid = tokenizer_grid(SYSTEMS, REFS, tokenizers=("13a", "none"))
    rows = _values(charts.tokenizer_grid_chart(grid))
    assert [r["score"] for r in rows] == pytest.approx(list(grid.cells.score))
    assert all(r["signature"].startswith("nrefs:1|") for r in rows)
    mqm = parse_mqm("system mqm_avg_score seg_id\nA\t-1 1\nA\t-2 2\nA\t0 3\n"
                    "B\t-3 1\nB\tNone 2\nB\t-1 3\n")
    corr = mqm_correlation(SYSTEMS, REFS, mqm)
    seg = _values(charts.mqm_segments_chart(corr))
    assert pd.DataFrame(seg)[["system", "segment", "mqm"]].values.tolist() == \
        corr.segments[["system", "segment", "mqm"]].values.tolist()
    systems = charts.mqm_systems_chart(corr)
    assert [r["mqm"] for r in _values(systems)] == pytest.approx([-1.0, -2.0])
    assert "Kendall" in systems.to_dict()["title"]
    table = segmentation_compare(["你好世界"], [["你好，世界"]])
    assert [r["tokenize"] for r in _values(charts.segmentation_chart(table))] == [
        "zh", "char", "none"]


def test_a_bleu_axis_leaves_room_for_the_labels_and_takes_one_of_few_tops():
    references = ["the cat is on the mat", "there is a cat on the mat"]
    for candidate in ("the cat is on the mat", "the cat", "a cat is on a mat today", "mat",
                      "the cat is on the mat s1", "there is a cat on the mat"):
        rows = smoothing_comparison(candidate, references)
        sweep = order_sweep(candidate, references)
        for chart, scores in ((charts.smoothing_chart(rows), [r.score for r in rows]),
                              (charts.order_sweep_chart(sweep), [score for _, score in sweep])):
            spec = chart.to_dict()
            top = spec.get("layer", [spec])[0]["encoding"]["y"]["scale"]["domain"][1]
            assert top >= 1.15 * max(scores) and top in charts.SCORE_TOPS

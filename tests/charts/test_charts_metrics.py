"""bleu.charts holds every chart builder; dashboard(results) is one chart; the metric charts plot
the numbers they are given."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np

import bleu
from bleu import charts
from bleu.charts import segments as charts_segments
from bleu.charts import teaching as charts_teaching
from bleu.charts.text import visible_text
from bleu.evaluation import Evaluation
from bleu.explore.correlation import Correlation, correlation_table

HYPS = {"A": ["the cat sat on the mat", "a dog"], "B": ["the cat is on a mat", "dogs"]}
REFS = [["the cat sat on the mat", "a dog barked"]]


def test_builders_of_every_page_are_in_bleu_charts():
    assert charts.scatter_chart is charts_segments.scatter_chart
    assert charts.bp_curve_chart is charts_teaching.bp_curve_chart
    assert charts.walkthrough_precisions_chart is charts_teaching.precisions_chart
    assert all(callable(getattr(charts, name)) for name in charts.__all__)


def test_dashboard_is_one_chart_with_every_part():
    evaluation = Evaluation(HYPS, REFS)
    results = evaluation.dashboard(baseline="A", n_samples=50)
    spec = charts.dashboard(results).to_dict()
    assert len(spec["vconcat"]) == 3  # BLEU and length; precisions and log parts; all pairs
    evaluation.add_metric("chrF")
    results = evaluation.dashboard(baseline="A", n_samples=50)
    spec = charts.dashboard(results).to_dict()
    assert len(spec["vconcat"]) == 4
    plotted = [row for data in spec["datasets"].values() for row in data if "direction" in row]
    assert {(row["system"], row["score"]) for row in plotted} == {
        (name, score) for name, score in evaluation.scores("chrF").scores.items()}


def test_metrics_chart_is_dots_best_first_per_metric():
    found = {"chrF": ({"A": bleu.SignificanceResult("A", 50.0, low=49.0, high=51.0),
                       "B": bleu.SignificanceResult("B", 55.0, low=54.0, high=56.0)}, True),
             "TER": ({"A": bleu.SignificanceResult("A", 40.0),
                      "B": bleu.SignificanceResult("B", 45.0)}, False)}
    results = {metric: SimpleNamespace(significance=by_system, higher_is_better=higher)
               for metric, (by_system, higher) in found.items()}
    spec = charts.metrics_chart(results).to_dict()
    errors, points = spec["spec"]["layer"]
    assert points["mark"]["type"] == "point" and errors["mark"]["type"] == "rule"
    assert spec["resolve"]["scale"] == {"x": "independent", "y": "independent"}
    rows = next(iter(spec["datasets"].values()))
    position = {(row["metric"], row["system"]): row["position"] for row in rows}
    assert position == {("chrF", "B"): 0, ("chrF", "A"): 1,  # higher chrF first
                        ("TER", "A"): 0, ("TER", "B"): 1}  # lower TER first


def test_scatter_plots_rated_segments_only():
    data = charts.external_scatter_chart({"A": np.array([10.0, 20.0])},
                                         {"A": np.array([np.nan, -1.5])}).to_dict()
    rows = next(iter(data["datasets"].values()))
    assert rows == [{"system": "A", "segment": 2, "metric": 20.0, "external": -1.5}]
    assert data["encoding"]["x"]["scale"] == {"domain": [0, 100.0], "nice": False}  # not 110
    ter = charts.external_scatter_chart({"A": np.array([130.0])}, {"A": np.array([-1.0])},
                                        metric="TER").to_dict()
    assert ter["encoding"]["x"]["scale"]["domain"] == [0, 130.0]  # TER may pass 100


def test_correlation_chart_cells():
    table = correlation_table([Correlation("BLEU", "segment", 10, 0.5, 0.25, 0.125)])
    rows = next(iter(charts.correlation_chart(table).to_dict()["datasets"].values()))
    assert sorted(row["value"] for row in rows) == [0.125, 0.25, 0.5]


def test_shown_charts_make_control_characters_visible_everywhere():
    """Data, the palette's domain and titles all change together (colours still match)."""
    name = "gnp\u202eexe"
    results = Evaluation({name: HYPS["A"], "B": HYPS["B"]}, REFS).dashboard(baseline="B",
                                                                            n_samples=50)
    chart = charts.dashboard(results)
    shown = json.dumps(visible_text(chart).to_dict(), ensure_ascii=False)
    assert "\u202e" not in shown and "gnp⟨U+202E⟩exe" in shown
    assert "\u202e" in json.dumps(chart.to_dict(), ensure_ascii=False)  # the chart is unchanged

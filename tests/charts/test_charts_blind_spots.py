"""The Blind spots page's charts, through ``to_dict()``: the plotted numbers are the frames'."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bleu.charts import blind_spots as charts
from bleu.teaching.blind_spots import METRIC_COLUMNS, disagreements
from bleu.teaching.interpretation import BANDS


def _values(chart) -> list[dict]:
    spec = chart.to_dict()
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


def test_case_chart_plots_every_metric_of_every_candidate():
    frame = pd.DataFrame([{"candidate": "real", "BLEU": 100.0, "chrF": 100.0, "TER": 0.0,
                           "ROUGE-L": 100.0, "METEOR": 99.99},
                          {"candidate": "edited", "BLEU": 80.52, "chrF": 90.97, "TER": 7.69,
                           "ROUGE-L": 96.0, "METEOR": 93.82}])
    rows = _values(charts.case_chart(frame))
    assert len(rows) == 2 * len(METRIC_COLUMNS)
    got = {(r["candidate"], r["metric"]): (r["score"], r["label"]) for r in rows}
    assert got[("edited", "BLEU")] == (80.52, "80.5")
    assert got[("real", "TER ↓")] == (0.0, "0.0")  # a 0 still has a label
    assert charts.case_chart(frame).to_dict()["title"]["subtitle"] == "TER: lower is better"


def test_comparability_chart_draws_bands_and_settings():
    frame = pd.DataFrame({"setting": ["as chosen", "tokenize char"], "BLEU": [48.4, 61.2],
                          "band": ["40–50", "> 60"], "signature": ["a", "b"]})
    rows = _values(charts.comparability_chart(frame))
    shaded = [r for r in rows if "from" in r]
    assert [(r["from"], r["to"]) for r in shaded] == [(b.low, min(b.high, 100)) for b in BANDS]
    points = [r for r in rows if "setting" in r]
    assert [(r["setting"], r["label"]) for r in points] == [("as chosen", "48.40"),
                                                           ("tokenize char", "61.20")]


def test_disagreement_chart_rings_the_picked_segments():
    bleu_scores = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    other = np.array([5.0, 4.0, 3.0, 2.0, 1.0, np.nan])
    picked = disagreements(bleu_scores, other, k=1)
    rows = _values(charts.disagreement_chart(bleu_scores, other, picked, "MQM"))
    everything = [r for r in rows if "direction" not in r]
    assert [r["segment"] for r in everything] == [1, 2, 3, 4, 5]  # the unrated 6th left out
    ringed = [r for r in rows if "direction" in r]
    assert [(r["segment"], r["external"]) for r in ringed] == [(1, 5.0), (5, 1.0)]
    layer = charts.disagreement_chart(bleu_scores, other, picked, "MQM").to_dict()["layer"][0]
    assert layer["encoding"]["y"]["title"] == "MQM"
    assert layer["encoding"]["x"]["scale"] == {"domain": [0, 100], "nice": False}
    assert pytest.approx(ringed[0]["sentence BLEU"]) == 10.0

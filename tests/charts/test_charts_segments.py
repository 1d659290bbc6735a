"""Chart builders of the explorer pages, through to_dict()."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bleu.charts import segments as cs
from bleu.explore.compare import SWAP
from bleu.explore.segments import DIFF


@pytest.fixture()
def table():
    return pd.DataFrame({
        "id": [1, 2, 3, 4], "source": ["s1", "s2", "s3", "x" * 400],
        "reference": ["r1", "r2", "r3", "r4"], "A.v1": ["a1", "a2", "a3", "a4"],
        "B": ["b1", "b2", "b3", "b4"], "BLEU A.v1": [0.0, 12.5, 100.0, 47.0],
        "BLEU B": [3.0, 4.0, 99.0, 51.0], "len A.v1": [1, 2, 3, 4], "len B": [1, 2, 3, 4],
        DIFF: [3.0, -8.5, -1.0, 4.0],
    })


def test_histogram_counts(table):
    spec = cs.histogram_chart(table, ["A.v1", "B"]).to_dict()
    data = cs.histogram_data(table, ["A.v1", "B"])
    a = data[data["system"] == "A.v1"].set_index("start")["segments"]
    assert a[0.0] == 1 and a[10.0] == 1 and a[45.0] == 1 and a[95.0] == 1  # 100 in last bin
    assert data["segments"].sum() == 8
    assert spec["facet"]["field"] == "system" and spec["columns"] == cs.HISTOGRAM_COLUMNS
    assert spec["spec"]["encoding"]["x"]["bin"] == "binned"


def test_scatter_selection_and_tooltips(table):
    spec = cs.scatter_chart(table, "A.v1", "B").to_dict()
    params = spec["params"]
    assert params[0]["name"] == cs.SEGMENT_SELECTION
    assert params[0]["select"] == {"type": "point", "fields": ["id"], "on": "click",
                                   "clear": "dblclick"}
    points = spec["layer"][0]
    titles = [t["title"] for t in points["encoding"]["tooltip"]]
    assert titles == ["segment", "BLEU A.v1", "BLEU B", "source", "reference", "A.v1", "B"]
    values = spec["datasets"][points["data"]["name"]] if "name" in points.get("data", {}) \
        else next(iter(spec["datasets"].values()))
    assert [row["a"] for row in values] == [0.0, 12.5, 100.0, 47.0]
    assert len(values[3]["source"]) == cs.TOOLTIP_CHARS  # cut, with an ellipsis
    assert values[3]["source"].endswith("…")
    opacity = points["encoding"]["opacity"]  # selected points; the others at half
    assert (opacity["condition"]["value"], opacity["value"]) == (0.8, 0.4)  # four: near opaque
    many = pd.concat([table] * 1000, ignore_index=True)  # thousands: faint, density shows
    faint = cs.scatter_chart(many, "A.v1", "B").to_dict()["layer"][0]["encoding"]["opacity"]
    assert faint["condition"]["value"] == 0.15
    assert "width" not in spec  # follows its column: the title is never cut


def test_bucket_chart_has_error_bars_and_sizes():
    frame = pd.DataFrame({"system": ["A", "A", "B"], "bucket": [1, 0, 0],
                          "label": ["[10,20)", "<10", "<10"], "segments": [5, 3, 3],
                          "score": [30.0, 20.0, 25.0], "low": [28.0, 15.0, 20.0],
                          "high": [33.0, 26.0, 27.0], "mean": [30.0, 20.0, 25.0],
                          "ci": [2.5, 5.5, 3.5]})
    spec = cs.bucket_chart(frame, "BLEU by length").to_dict()
    scores, sizes = spec["vconcat"]
    rules, points = scores["layer"]
    assert rules["mark"]["type"] == "rule"
    assert rules["encoding"]["y"]["field"] == "low" and rules["encoding"]["y2"]["field"] == "high"
    assert points["encoding"]["x"]["sort"] == ["<10", "[10,20)"]
    assert sizes["mark"]["type"] == "bar" and sizes["encoding"]["y"]["field"] == "count"
    assert sizes["encoding"]["y"]["title"] == "segments"
    rows = next(iter(spec["datasets"].values()))
    assert [row["count"] for row in rows] == [5, 3, 3]
    assert spec["title"] == "BLEU by length"


def test_contribution_and_document_charts():
    frame = pd.DataFrame({"id": [7, 3], SWAP: [-0.2, 0.1]})
    spec = cs.contribution_chart(frame, "A", "B").to_dict()
    values = next(iter(spec["datasets"].values()))
    assert [row["better"] for row in values] == ["A", "B"]
    assert spec["encoding"]["y"]["sort"] == ["7", "3"]
    docs = pd.DataFrame({"document": ["d1", "d2"], "segments": [2, 3], "first": [1, 3],
                         "A": [10.0, 20.0], "B": [12.0, 15.0]})
    spec = cs.document_chart(docs, "A", "B").to_dict()
    values = next(iter(spec["datasets"].values()))
    assert np.allclose([row["diff"] for row in values], [2.0, -5.0])

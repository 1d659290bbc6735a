"""Segment scores in a workspace (``bleu.workspace.scores``): every metric goes to the saved form
and back unchanged (NaN as None, direction and source kept), the session's sets are collected
in order with their systems named as loaded, and both JSON forms the database has held are
read."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.metrics.segment.scores import SegmentScores
from bleu.workspace import SavedScores
from bleu.workspace.scores import EARLIER_SOURCE, collect, decode, encode, from_saved, to_saved

SCORE = st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=64), st.just(math.nan))


@st.composite
def segment_scores(draw: st.DrawFn) -> SegmentScores:
    n_systems, n_segments = draw(st.integers(1, 4)), draw(st.integers(1, 12))
    systems = draw(st.lists(st.text(min_size=1, max_size=8), min_size=n_systems,
                            max_size=n_systems, unique=True))
    rows = draw(st.lists(st.lists(SCORE, min_size=n_segments, max_size=n_segments),
                         min_size=n_systems, max_size=n_systems))
    return SegmentScores(draw(st.text(min_size=1, max_size=10)), tuple(systems),
                         np.array(rows, dtype=float), draw(st.text(max_size=10)),
                         draw(st.booleans()))


@settings(deadline=None)
@given(segment_scores())
def test_scores_survive_saving_and_the_database(scores: SegmentScores) -> None:
    saved = to_saved(scores)
    assert all(value is None or isinstance(value, float)
               for values in saved.scores.values() for value in values)
    through_json = decode(json.loads(json.dumps(encode([saved]))))
    assert through_json == (saved,)
    back = from_saved(through_json[0])
    assert (back.label, back.systems, back.source, back.higher_is_better) == (
        scores.label, scores.systems, scores.source, scores.higher_is_better)
    np.testing.assert_array_equal(back.matrix, scores.matrix)  # NaN where NaN
    assert not back.matrix.flags.writeable
    assert back.key == scores.key


def test_aliases_name_systems_as_loaded() -> None:
    scores = SegmentScores("COMET", ("Nemo", "Online-B"), np.array([[0.5, np.nan], [0.25, 1.0]]),
                           "comet.tsv")
    saved = to_saved(scores, {"Nemo": "NVIDIA-NeMo"})
    assert saved == SavedScores("COMET", {"NVIDIA-NeMo": (0.5, None), "Online-B": (0.25, 1.0)},
                                True, "comet.tsv")


def test_collect_keeps_every_metric_in_order_named_as_loaded() -> None:
    def one(label: str, value: float, source: str) -> SegmentScores:
        return SegmentScores(label, ("Nemo", "B"), np.array([[value], [value]]), source,
                             label != "MetricX")

    session = {"COMET": one("COMET", 0.9, "comet.tsv"), "MQM": one("MQM", -1.0, "mqm.tsv"),
               "MetricX": one("MetricX", 3.0, "metricx.jsonl")}
    found = collect(session, {"MQM": {"Nemo": "NVIDIA-NeMo"}})
    assert [(s.label, s.source, s.higher_is_better) for s in found] == [
        ("COMET", "comet.tsv", True), ("MQM", "mqm.tsv", True),
        ("MetricX", "metricx.jsonl", False)]
    assert [list(s.scores) for s in found] == [["Nemo", "B"], ["NVIDIA-NeMo", "B"],
                                               ["Nemo", "B"]]
    assert collect({}) == ()


def test_scores_saved_before_version_4_guess_their_direction() -> None:
    earlier = {"COMET": {"A": [0.5, None]}, "MQM penalty": {"A": [2.0, 1.0]}}
    assert decode(earlier) == (
        SavedScores("COMET", {"A": (0.5, None)}, True, EARLIER_SOURCE),
        SavedScores("MQM penalty", {"A": (2.0, 1.0)}, False, EARLIER_SOURCE))
    assert decode({}) == () and decode([]) == ()


@pytest.mark.parametrize("widths", [(3, 1), (0,)])
def test_rows_of_unequal_length_are_padded_with_unrated(widths: tuple[int, ...]) -> None:
    saved = SavedScores("m", {f"s{k}": (1.0,) * width for k, width in enumerate(widths)})
    matrix = from_saved(saved).matrix
    assert matrix.shape == (len(widths), max(widths))
    assert int(np.isnan(matrix).sum()) == max(widths) * len(widths) - sum(widths)

"""Every metric on the dashboard's one path: chrF and a segment-score metric (the WMT21 MQM
scores of sample_data) get the same numbers as a direct call of the significance module, rank
the table when chosen, and go into every export (CSV read back with pandas, LaTeX, JSON)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bleu.evaluation import Evaluation
from bleu.evaluation.ranking import all_pairs
from bleu.explore import disagreement
from bleu.explore.dashboard import export_table, json_report, summary_table, table_csv, table_latex
from bleu.io.dataset import load_folder
from bleu.metrics.significance import paired_bootstrap_from_stats

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "wmt21_en-de_mqm"
SYSTEMS = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")


@pytest.fixture(scope="module")
def data():
    return load_folder(SAMPLE, "mqm sample")


@pytest.fixture(scope="module")
def dashboard(data):
    refs = data.reference_streams
    hyps = {name: list(data.systems[name].segments) for name in SYSTEMS}
    evaluation = Evaluation(hyps, refs)
    evaluation.add_metric("chrF")
    evaluation.add_scores(SAMPLE / "mqm_newstest2021_ende.avg_seg_scores.tsv")
    return evaluation.dashboard(baseline="UEdin", n_samples=200, ranking="MQM")


def test_every_metric_is_tested_as_the_significance_module_tests_it(dashboard):
    for name in ("chrF", "MQM"):
        found = dashboard.metrics[name]
        direct = paired_bootstrap_from_stats(found.scores.stats, found.scores.scorer,
                                             baseline="UEdin", n_samples=200, seed=12345)
        assert dict(found.significance) == {system: direct[system] for system in SYSTEMS}
        pairs = all_pairs(found.scores.stats, found.scores.scorer, n_samples=200)
        assert found.pairs.names == pairs.names
        np.testing.assert_array_equal(found.pairs.adjusted, pairs.adjusted)
    mqm = dashboard.metrics["MQM"]
    assert mqm.pairs.tested_segments == (527,)  # rated for both systems of every pair
    assert mqm.scores.scores["UEdin"] == pytest.approx(-1.51, abs=0.005)  # Google's table


def test_the_ranking_metric_orders_the_summary(dashboard):
    table = summary_table(dashboard)
    mqm = dashboard.metrics["MQM"].scores.scores
    assert list(table["system"]) == sorted(SYSTEMS, key=lambda name: -mqm[name])
    assert list(table["rank"]) == [dashboard.metrics["MQM"].ranks[name]
                                   for name in table["system"]]
    assert {"BLEU", "chrF", "MQM", "BLEU rank", "chrF rank", "MQM rank"} <= set(table.columns)


def test_csv_holds_every_metric_and_reads_back(dashboard):
    frame = pd.read_csv(io.StringIO(table_csv(dashboard)))
    assert len(frame) == len(SYSTEMS)
    by_system = frame.set_index("system")
    for name in ("chrF", "MQM"):
        scores = dashboard.metrics[name].scores.scores
        assert by_system[name].to_dict() == pytest.approx(scores, abs=1e-12)
        assert set(frame[f"{name} signature"]) == {dashboard.metrics[name].tested_signature}
    assert set(frame["MQM segments"].dropna()) == {527}
    assert set(frame["chrF signature"]) == {
        dashboard.metrics["chrF"].scores.sign.with_resampling(bs=200, seed=12345).format()}
    assert list(export_table(dashboard).columns[:3]) == ["system", "rank", "BLEU"]


def test_latex_and_json_hold_every_metric(dashboard):
    latex = table_latex(dashboard)
    assert "& chrF & MQM" in latex and "% MQM: bs:200|seed:12345" in latex
    report = json.loads(json_report(dashboard))
    assert report["ranking"] == "MQM" and list(report["metrics"]) == ["BLEU", "chrF", "MQM"]
    mqm = report["metrics"]["MQM"]
    assert mqm["higher_is_better"] is True and mqm["baseline"] == "UEdin"
    entry = next(e for e in mqm["systems"] if e["name"] == "Online-W")
    result = dashboard.metrics["MQM"].significance["Online-W"]
    assert entry["p_value"] == result.p_value and entry["n_segments"] == result.n_segments
    assert mqm["all_pairs"]["segments"][0][1] == 527


def test_system_and_segment_disagreement(dashboard):
    ranking = disagreement.system_disagreement(dashboard.metrics["BLEU"].scores,
                                               dashboard.metrics["MQM"].scores)
    assert sorted(ranking["system"]) == sorted(SYSTEMS)
    assert ranking["place difference"].abs().is_monotonic_decreasing
    # by hand: BLEU 50, 40, 10 and a metric 0.1, 0.9, 0.5 (higher better): segment 1 is BLEU's
    # best (place 1) and the metric's worst (place 0): gap -1; segment 2: 0.5 -> 1: +0.5
    found = disagreement.segment_disagreement(np.array([50.0, 40.0, 10.0]),
                                              np.array([0.1, 0.9, 0.5]), second_name="m", k=2)
    assert list(found["id"]) == [1, 2]
    assert list(found["gap"]) == [-1.0, 0.5]
    penalties = disagreement.segment_disagreement(np.array([50.0, 40.0, 10.0]),
                                                  np.array([0.1, 0.9, 0.5]), second_name="m",
                                                  second_higher=False, k=1)
    assert list(penalties["id"]) == [2] and list(penalties["gap"]) == [-0.5]


def test_many_systems_keep_the_work_bounded(monkeypatch) -> None:
    """Beyond MAX_PAIRED_SYSTEMS no all-pairs test runs (ranks are left out) and charts show
    the best CHART_SYSTEMS systems and the baseline."""
    from bleu.evaluation import results as module

    monkeypatch.setattr(module, "MAX_PAIRED_SYSTEMS", 4)
    refs = [["a b c d", "e f g h"]]
    hyps = {f"s{k}": ["a b c d" if k % 2 else "a b x y", "e f g h"] for k in range(6)}
    found = Evaluation(hyps, refs).dashboard(baseline="s0", n_samples=50)
    assert found.pairs is None and found.bleu.ranks == {}
    assert set(summary_table(found)["rank"]) == {"–"}
    shown = found.chart_systems(limit=2)
    assert shown[:2] == found.ranked[:2] and shown[-1] == "s0" and len(shown) == 3

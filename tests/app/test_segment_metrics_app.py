"""Segment scores as metrics on every page (AppTest): an uploaded COMET-style file and the MQM
sample show on the dashboard (their own table and column, a ranking by them), in the all-pairs
matrix, in Compare's tests (with the t-test and the segments tested) and Sentences, with the
numbers of the core; a bad file is refused naming file and line, keeping what was loaded."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from streamlit.testing.v1 import AppTest

from bleu.evaluation.ranking import all_pairs
from bleu.evaluation.systems import match_scores
from bleu.io.scores.read import read_scores
from bleu.metrics.segment import SegmentScorer, segment_stats
from bleu.metrics.significance import paired_bootstrap_from_stats

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
MQM_DIR = REPO / "sample_data" / "wmt21_en-de_mqm"
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def _app(**params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params.update({"n_bootstrap": "200", **params})
    return at.run()


def _frame(at: AppTest, *columns: str):
    return next(d.value for d in at.dataframe if set(columns) <= set(d.value.columns))


def _mqm() -> dict[str, np.ndarray]:
    scores = read_scores(MQM_DIR / "mqm_newstest2021_ende.avg_seg_scores.tsv", n_segments=1002)
    names = [p.name.split(".hyp.")[1][:-3] for p in sorted(MQM_DIR.glob("*.hyp.*"))]
    return match_scores(scores, names, {"Nemo": "NVIDIA-NeMo"}).scores.by_system()


@pytest.fixture(scope="module")
def mqm_dashboard() -> AppTest:
    at = _app(page="scores", sample="wmt21-en-de-mqm")
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_mqm_gets_a_dashboard_table_with_the_cores_numbers(mqm_dashboard: AppTest) -> None:
    at = mqm_dashboard
    table = _frame(at, "MQM", "p-value").set_index("system")
    systems = _mqm()
    baseline = at.session_state["baseline"]
    stats = {name: segment_stats(values) for name, values in systems.items()}
    expected = paired_bootstrap_from_stats(stats, SegmentScorer("MQM"), baseline=baseline,
                                           n_samples=200)
    for name, result in expected.items():
        assert float(table.loc[name, "MQM"]) == pytest.approx(result.score, abs=0.005)
        if name != baseline:
            assert table.loc[name, "p-value"] == f"{result.p_value:.4f}"
    assert list(table.index) == sorted(systems, key=lambda n: -np.nanmean(systems[n]))
    summary = _frame(at, "MQM", "MQM rank", "BLEU rank")
    assert len(summary) == len(systems)
    signatures = [c.proto.code_text for c in at.get("code")]
    assert any(s.startswith("bs:200|seed:12345") for s in signatures)  # MQM's tested signature


def test_ranking_by_mqm_and_its_all_pairs_matrix(mqm_dashboard: AppTest) -> None:
    at = mqm_dashboard
    at.selectbox(key="ranking_metric").set_value("MQM").run()
    summary = _frame(at, "MQM", "MQM rank", "BLEU rank")
    systems = _mqm()
    assert list(summary["system"]) == sorted(systems, key=lambda n: -np.nanmean(systems[n]))
    at.selectbox(key="pairs_metric").set_value("MQM").run()
    assert not at.exception
    ranking = _frame(at, "rank", "system", "MQM")
    stats = {name: segment_stats(values) for name, values in systems.items()}
    core = all_pairs(stats, SegmentScorer("MQM"), n_samples=200)
    assert list(ranking["system"]) == list(core.names)
    assert dict(zip(ranking["system"], ranking["rank"], strict=True)) == core.ranks
    assert any("rated for both systems" in c.value for c in at.caption)
    assert at.query_params["ranking_metric"] in ("MQM", ["MQM"])
    again = _app(page="dashboard", sample="wmt21-en-de-mqm", ranking_metric="MQM")
    assert again.selectbox(key="ranking_metric").value == "MQM"  # a link ranks as it says


def test_compare_tests_mqm_with_the_t_test(mqm_dashboard: AppTest) -> None:
    at = mqm_dashboard
    at.switch_page("bleu_app/views/compare.py").run()
    assert not at.exception, [e.value for e in at.exception]
    a, b = at.selectbox(key="compare_a").value, at.selectbox(key="compare_b").value
    table = _frame(at, "p (t-test)", "segments").set_index("metric")
    systems = _mqm()
    joint = ~np.isnan(systems[a]) & ~np.isnan(systems[b])
    expected = scipy.stats.ttest_rel(systems[a][joint], systems[b][joint]).pvalue
    assert table.loc["MQM", "p (t-test)"] == f"{expected:.4f}"
    assert table.loc["MQM", "segments"] == joint.sum()
    assert table.loc["BLEU", "p (t-test)"] == "–"
    at.selectbox(key="deciding_metric").set_value("MQM").run()
    assert not at.exception


def scores_of(rows: list[str], system: str) -> list[float]:
    """One system's scores in a generated TSV's rows (header first), in segment order."""
    return [float(line.split("\t")[2]) for line in rows[1:] if line.split("\t")[0] == system]


def test_an_uploaded_score_file_joins_every_page() -> None:
    at = _app()
    names = list(at.session_state["dataset"].systems)
    rng = np.random.default_rng(0)
    n = at.session_state["dataset"].n_segments
    rows = ["system\tseg_id\tCOMET"] + [f"{name}\t{i + 1}\t{rng.random():.6f}"
                                        for name in names for i in range(n)]
    at.switch_page("bleu_app/views/scores.py").run()
    at.file_uploader(key="scores_upload").set_value(
        [("comet.tsv", "\n".join(rows).encode(), "text/tab-separated-values")]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "COMET" in at.session_state["segment_scores"]
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert "COMET" in _frame(at, "COMET", "p-value").columns
    at.switch_page("bleu_app/views/sentences.py").run()
    a = at.selectbox(key="sentences_a").value
    table = next(d.value for d in at.dataframe if f"COMET {a}" in d.value.columns)
    assert len(table) > 0
    segment = int(at.number_input(key="open_segment").value)
    expected = f"COMET {scores_of(rows, a)[segment - 1]:.4f}"
    assert any(expected in c.value.replace("\\", "") for c in at.caption), [
        c.value for c in at.caption]  # the segment detail's line
    # a bad file is refused, naming it and its line; the COMET scores stay
    at.switch_page("bleu_app/views/scores.py").run()
    at.file_uploader(key="scores_upload").set_value(
        [("bad.tsv", b"system\tseg_id\tBLEURT\nA\t1\tnan\n", "text/plain")]).run()
    assert any("bad.tsv, line 2: expected a finite number" in re.sub(r"\\(.)", r"\1", e.value)
               for e in at.error)
    assert list(at.session_state["segment_scores"]) == ["COMET"]


def test_sentences_tests_the_filtered_segments() -> None:
    at = _app(page="sentences")
    a = at.selectbox(key="sentences_a").value
    at.select_slider(key=f"filter_score_range_BLEU {a}").set_value((40.0, 100.0)).run()
    at.toggle(key="filter_test").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    table = _frame(at, "p (bootstrap)", "segments")
    shown = next(d.value for d in at.dataframe if "id" in d.value.columns)
    assert table["segments"].iloc[0] == len(shown)

"""One data set through the evaluation service, the app (AppTest) and the command line: BLEU,
chrF and an uploaded MQM file, each system's score and its paired-bootstrap p-value against the
baseline are the same numbers everywhere (the app shows them rounded, as it writes them)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu.cli import main as command_line
from bleu.evaluation import Evaluation
from bleu.io.dataset import load_folder

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
SAMPLE = REPO / "sample_data" / "wmt21_en-de_mqm"
MQM = SAMPLE / "mqm_newstest2021_ende.avg_seg_scores.tsv"
N_SAMPLES = 200
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="module")
def app() -> AppTest:
    """The app on the bundled WMT21 sample with its MQM scores, chrF added in the sidebar."""
    at = AppTest.from_file(str(APP), default_timeout=300)
    at.query_params.update({"page": "scores", "sample": "wmt21-en-de-mqm",
                            "other_metrics": "chrF", "n_bootstrap": str(N_SAMPLES)})
    at.run()
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture(scope="module")
def service(app: AppTest) -> tuple[Evaluation, dict]:
    """The same data through the service, with the app's baseline."""
    data = load_folder(SAMPLE, "WMT21 en-de")
    evaluation = Evaluation({name: file.segments for name, file in data.systems.items()},
                            data.reference_streams)
    evaluation.add_metric("chrF")
    label = evaluation.add_scores(MQM)
    assert label == "MQM"
    baseline = app.session_state["baseline"]
    return evaluation, evaluation.results(baseline=baseline, n_samples=N_SAMPLES)


def _table(at: AppTest, metric: str):
    return next(d.value for d in at.dataframe
                if {metric, "p-value"} <= set(d.value.columns)).set_index("system")


def test_the_app_shows_what_the_service_returns(app: AppTest, service) -> None:
    evaluation, results = service
    assert app.session_state["dataset"].systems.keys() == evaluation.systems.keys()
    for metric in ("BLEU", "chrF", "MQM"):
        table = _table(app, metric)
        found = results[metric]
        for name, result in found.significance.items():
            shown = table.loc[name, metric]
            assert float(str(shown)) == pytest.approx(result.score, abs=0.005)
            if result.p_value is not None:
                assert table.loc[name, "p-value"] == f"{result.p_value:.4f}"


def test_the_command_line_prints_what_the_service_returns(service) -> None:
    evaluation, results = service
    baseline = next(name for name, found in results["BLEU"].significance.items()
                    if found.p_value is None)
    order = [baseline, *(name for name in evaluation.systems if name != baseline)]
    data = load_folder(SAMPLE, "WMT21 en-de")
    files = {name: data.systems[name].name for name in order}
    refs = [str(SAMPLE / ref.name) for ref in data.references]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = command_line([*refs, "-i", *(str(SAMPLE / files[name]) for name in order),
                               "-m", "bleu", "chrf", "--scores", str(MQM), "--paired-bs",
                               "--paired-bs-n", str(N_SAMPLES), "-f", "json", "-q"])
    assert status == 0
    rows = json.loads(out.getvalue())
    assert len(rows) == len(order)
    for name, row in zip(order, rows, strict=True):
        for metric, column in (("BLEU", "BLEU"), ("chrF", "chrF2"), ("MQM", "MQM")):
            expected = results[metric].significance[name]
            assert row[column]["score"] == pytest.approx(expected.score, abs=1e-12)
            assert row[column]["p_value"] == expected.p_value
            assert row[column]["ci"] == pytest.approx(expected.ci, abs=1e-9)

"""AppTest for issue 9: chrF/TER on demand, external score uploads, correlations, URL state."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from sacrebleu.metrics import CHRF
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
MQM_DIR = REPO / "sample_data" / "wmt21_en-de_mqm"
MQM_FILE = MQM_DIR / "mqm_newstest2021_ende.avg_seg_scores.tsv"

if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))




def plain(text: str) -> str:
    """A message without the Markdown escapes the app adds around user text."""
    return re.sub(r"\\(.)", r"\1", text)


def correlations(at: AppTest):
    """The correlation table of the scores page (its one dataframe with a Kendall column)."""
    return next(d.value for d in at.dataframe if "Kendall" in d.value.columns)


def app(**params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update(params)
    return at.run()


def test_url_state_opens_page_and_options():
    at = app(page="sentences", tokenize="intl", lowercase="true", max_ngram_order="3",
             sentences_a="Online-B", sentences_b="PROMT", n_bootstrap="200")
    assert not at.exception
    assert at.selectbox(key="tokenize").value == "intl"
    assert at.checkbox(key="lowercase").value is True
    assert at.number_input(key="max_ngram_order").value == 3
    assert at.selectbox(key="sentences_a").value == "Online-B"
    assert at.selectbox(key="sentences_b").value == "PROMT"
    assert at.title[0].value == "Sentences"
    # the state is written back for a shareable link
    assert at.query_params["page"] == ["sentences"] or at.query_params["page"] == "sentences"


@pytest.mark.parametrize(("method", "text", "kept"), [
    ("floor", "0.5", 0.5), ("floor", "5", 0.1), ("add-k", "50", 1.0), ("add-k", "-1", 1.0),
    ("add-k", "nan", 1.0), ("floor", "x", 0.1)])
def test_url_smoothing_value_outside_the_sidebar_bounds_is_ignored(method, text, kept):
    at = app(smooth_method=method, smooth_value=text)
    assert not at.exception
    assert at.number_input(key=f"smooth_value_{method}").value == pytest.approx(kept)


SAMPLE = REPO / "sample_data"


def sample_lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text("utf-8").split("\n")[:-1]


def test_upload_scores_gives_correlations_with_sentence_bleu():
    import sacrebleu

    refs = [sample_lines(f"generaltest2022.en-de.ref.{k}.de") for k in ("A", "B")]
    systems = {name: sample_lines(f"generaltest2022.en-de.hyp.{name}.de")
               for name in ("Online-B", "PROMT")}
    rows = ["system,seg_id,COMET"]
    external = {}
    for name, hyps in systems.items():
        values = np.full(len(hyps), np.nan)
        for i in range(0, 300):
            if i % 7 == 3:
                rows.append(f"{name},{i + 1},None")
                continue
            values[i] = (len(hyps[i]) % 13) / 10 - (i % 5) / 3
            rows.append(f"{name},{i + 1},{float(values[i])!r}")
        external[name] = values
    rows.append("online-a,1,0.5")
    at = app()
    at.switch_page("bleu_app/views/scores.py").run()
    at.file_uploader(key="scores_upload").set_value(
        [("comet.csv", "\n".join(rows).encode(), "text/csv")]).run()
    assert not at.exception
    assert any("online-a" in plain(w.value) and "case-sensitively" in plain(w.value)
               for w in at.warning)
    table = correlations(at)
    segment = table[(table.metric == "BLEU") & (table.level == "segment")].iloc[0]
    x, y = [], []
    for name, hyps in systems.items():
        for i in np.flatnonzero(~np.isnan(external[name])):
            x.append(sacrebleu.sentence_bleu(hyps[i], [r[i] for r in refs]).score)
            y.append(external[name][i])
    assert segment.n == len(x)
    assert segment.Pearson == pytest.approx(scipy.stats.pearsonr(x, y).statistic, abs=1e-9)
    assert segment.Spearman == pytest.approx(scipy.stats.spearmanr(x, y).statistic, abs=1e-9)
    assert segment.Kendall == pytest.approx(scipy.stats.kendalltau(x, y).statistic, abs=1e-9)
    system = table[(table.metric == "BLEU") & (table.level == "system")].iloc[0]
    assert system.n == 2 and abs(system.Pearson) == pytest.approx(1.0)
    # two systems: the system-level row gets its caveat
    assert any("from 2 systems" in plain(w.value) and "fewer than 5" in plain(w.value)
               for w in at.warning)


def test_bad_score_file_keeps_what_was_loaded():
    at = app(page="scores")
    at.button(key="load_mqm_sample").click().run()
    assert correlations(at).shape[0] == 2
    assert not any("fewer than 5" in plain(w.value) for w in at.warning)  # 8 systems
    shown = [plain(e.value) for e in (*at.caption, *at.warning, *at.info, *at.markdown)]
    assert any("mqm_newstest2021_ende.avg_seg_scores.tsv" in text for text in shown)
    assert not any(str(REPO) in text or "sample_data/" in text for text in shown)  # no paths
    at.file_uploader(key="scores_upload").set_value(
        [("bad.csv", b"system,seg_id,COMET\nUEdin,x,1\n", "text/csv")]).run()
    assert any("line 2: expected an integer segment id" in plain(e.value) for e in at.error)
    assert correlations(at).shape[0] == 2


def test_mqm_sample_from_url_with_chrf_beside_bleu():
    at = app(page="scores", sample="wmt21-en-de-mqm", other_metrics="chrF")
    assert not at.exception
    table = correlations(at)
    assert set(table.metric) == {"BLEU", "chrF"}
    assert table[(table.level == "system")].n.tolist() == [8, 8]
    at.switch_page("bleu_app/views/dashboard.py").run()
    other = next(d.value for d in at.dataframe if {"chrF", "p-value"} <= set(d.value.columns)
                 ).set_index("system")
    hyps = (MQM_DIR / "newstest2021.en-de.hyp.UEdin.de").read_text("utf-8").split("\n")[:-1]
    refs = [(MQM_DIR / f"newstest2021.en-de.ref.{k}.de").read_text("utf-8").split("\n")[:-1]
            for k in ("A", "C", "D")]
    expected = CHRF().corpus_score(hyps, refs).score
    assert other.loc["UEdin", "chrF"] == expected
    assert list(other["chrF"]) == sorted(other["chrF"], reverse=True)  # best first
    assert at.query_params["sample"] in ("wmt21-en-de-mqm", ["wmt21-en-de-mqm"])
    baseline = at.session_state["baseline"]
    assert other.loc[baseline, "p-value"] == "–"  # the baseline's, written as a dash
    assert re.fullmatch(r"\d\.\d{4}", other.loc["UEdin", "p-value"])  # by the rule
    # the all-pairs view on chrF: its ranks are the table's
    at.selectbox(key="pairs_metric").set_value("chrF").run()
    ranking = next(d.value for d in at.dataframe if list(d.value.columns) == [
        "rank", "system", "chrF"])  # the sidebar's name, not sacrebleu's chrF2
    assert dict(zip(ranking["system"], ranking["rank"], strict=True)) == dict(other["rank"])


def test_uploaded_data_stays_out_of_the_url():
    at = app(tokenize="none", baseline="PROMT")
    assert at.query_params["baseline"] in ("PROMT", ["PROMT"])
    ref = "\n".join(f"reference line {i}" for i in range(20)).encode()
    hyp = "\n".join(f"secret hypothesis {i}" for i in range(20)).encode()
    at.file_uploader(key="references_upload").set_value([("ref.txt", ref, "text/plain")])
    at.file_uploader(key="systems_upload").set_value([("my_system.txt", hyp, "text/plain")]).run()
    assert list(at.session_state["dataset"].systems) == ["my_system"]
    text = repr(at.query_params)
    assert "secret" not in text and "my_system" not in text and "sample" not in at.query_params
    assert "baseline" not in at.query_params

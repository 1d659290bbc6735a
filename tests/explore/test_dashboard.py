"""The dashboard numbers and downloads (bleu.dashboard); the loaded-data model (bleu.dataset)."""

from __future__ import annotations

import io
import json
import math

import pandas as pd
import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu
from bleu.errors import InputError, LengthMismatchError
from bleu.evaluation import Evaluation
from bleu.explore.dashboard import (
    comparison_table,
    json_report,
    latex_escape,
    log_decomposition,
    results_table,
    table_csv,
    table_latex,
)
from bleu.io import TextFile
from bleu.io.dataset import assemble, load_folder
from bleu.metrics.base import SignificanceResult
from bleu.metrics.bleu.score import BLEUOptions

WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
NAMES = ("C-3MA.4959", "FBK.4870", "online-F.0")


@pytest.fixture(scope="module")
def ref() -> list[str]:
    return read_lines(WMT17 / "newstest2017.en-de.ref.de")


@pytest.fixture(scope="module")
def hyps() -> dict[str, list[str]]:
    return {name: read_lines(WMT17 / f"newstest2017.{name}.en-de.de") for name in NAMES}


@pytest.fixture(scope="module")
def dashboard(hyps, ref):
    return Evaluation(hyps, [ref]).dashboard(baseline="FBK.4870", n_samples=200)


def test_scores_equal_sacrebleu(dashboard, hyps, ref):
    assert dashboard.baseline == "FBK.4870"
    assert list(dashboard.scores) == list(dashboard.significance) == list(NAMES)
    for name, score in dashboard.scores.items():
        expected = sacrebleu.corpus_bleu(hyps[name], [ref])
        assert score.score == pytest.approx(expected.score, abs=1e-9)
        assert dashboard.significance[name].score == pytest.approx(expected.score, abs=1e-9)
        assert score.precisions == pytest.approx(expected.precisions, abs=1e-9)
        assert (score.sys_len, score.ref_len) == (expected.sys_len, expected.ref_len)
    assert dashboard.signature == bleu.signature(BLEUOptions(), 1)
    assert "bs:200|seed:12345" in dashboard.bootstrap_signature


def test_single_system_ci_is_sacrebleus_bootstrap(hyps, ref):
    found = Evaluation({"C-3MA.4959": hyps["C-3MA.4959"]}, [ref]).dashboard(
        baseline="C-3MA.4959")
    result = found.significance["C-3MA.4959"]
    expected = SacreBLEU().corpus_score(hyps["C-3MA.4959"], [ref], n_bootstrap=1000)
    assert result.p_value is None and found.baseline is None
    assert result.mean == pytest.approx(expected._mean, abs=1e-9)
    assert result.ci == pytest.approx(expected._ci, abs=1e-9)


def test_table_is_best_first_with_rank_delta_and_direction(dashboard):
    table = results_table(dashboard)
    assert list(table.columns) == ["system", "rank", "BLEU", "Δ vs baseline", "humans agree",
                                   "95% CI ±",
                                   "bootstrap mean", "p-value", "vs baseline", "p1", "p2", "p3",
                                   "p4", "BP", "ratio", "hyp len", "ref len"]
    scores = {name: score.score for name, score in dashboard.scores.items()}
    assert list(table["system"]) == sorted(scores, key=lambda name: -scores[name])
    baseline = table[table["system"] == "FBK.4870"].iloc[0]
    assert math.isnan(baseline["p-value"]) and math.isnan(baseline["Δ vs baseline"])
    assert baseline["vs baseline"] == "baseline"
    for _, row in table.iterrows():
        result = dashboard.significance[row["system"]]
        assert row["BLEU"] == scores[row["system"]]
        if row["system"] == "FBK.4870":
            continue
        delta = scores[row["system"]] - scores["FBK.4870"]
        assert row["Δ vs baseline"] == pytest.approx(delta)
        # MT-Thresholds' BLEU curve, a / (1 + exp(-b |delta|)) % with the published a, b
        assert row["humans agree"] == pytest.approx(
            0.8833333333333225 / (1 + math.exp(-0.9663926931178954 * abs(delta))))
        assert row["p-value"] == result.p_value
        expected = ("not significant" if result.p_value >= 0.05 else
                    "better" if result.score > scores["FBK.4870"] else "worse")
        assert row["vs baseline"] == expected
    assert dict(zip(table["system"], table["rank"], strict=True)) == dashboard.pairs.ranks


def test_dashboard_pairs_are_the_all_pairs_bootstrap(dashboard, hyps, ref):
    metric = bleu.BLEU(references=[ref])
    stats = {name: metric.segment_stats(lines) for name, lines in hyps.items()}
    core = bleu.pairwise_significance(stats, metric.options, n_samples=200)
    pairs = dashboard.pairs
    assert (pairs.method, pairs.n_samples, pairs.seed) == ("bs", 200, 12345)
    where = {name: k for k, name in enumerate(core.names)}
    for i, row in enumerate(pairs.names):
        for j, column in enumerate(pairs.names):
            if i != j:
                assert pairs.adjusted[i, j] == core.adjusted[where[row], where[column]]


def test_comparison_table_for_a_lower_is_better_metric():
    results = {"A": SignificanceResult("A", 60.0, None, 60.1, 1.0),
               "B": SignificanceResult("B", 55.0, 0.01, 55.2, 1.1),
               "C": SignificanceResult("C", 62.0, 0.2, 62.0, 0.9)}
    table = comparison_table(results, metric="TER", higher_is_better=False, baseline="A",
                             ranks={"A": "2–3", "B": "1", "C": "2–3"})
    assert list(table["system"]) == ["B", "A", "C"]  # lowest TER first
    assert list(table["vs baseline"]) == ["better", "baseline", "not significant"]
    assert list(table["Δ vs baseline"].fillna(0)) == [-5.0, 0.0, 2.0]
    assert list(table["rank"]) == ["1", "2–3", "2–3"]
    no_baseline = comparison_table(results, metric="TER", higher_is_better=False)
    assert no_baseline["Δ vs baseline"].isna().all() and set(no_baseline["rank"]) == {"–"}


def test_csv_reads_back_with_pandas_as_it_is(dashboard):
    frame = pd.read_csv(io.StringIO(table_csv(dashboard)))
    assert len(frame) == len(dashboard.scores)  # one row per system, no comment row
    assert dict(zip(frame["system"], frame["BLEU"], strict=True)) == pytest.approx(
        {name: s.score for name, s in dashboard.scores.items()}, abs=1e-12)
    assert set(frame["signature"]) == {dashboard.bootstrap_signature}
    assert frame["hyp len"].dtype.kind == "i" and frame["ref len"].dtype.kind == "i"
    assert frame["rank"].dtype.kind in "iO"


def test_latex_table_escapes_names_and_writes_by_the_rule(hyps, ref):
    systems = {"sys_1 & #2": hyps["C-3MA.4959"], "FBK": hyps["FBK.4870"]}
    latex = table_latex(Evaluation(systems, [ref]).dashboard(baseline="FBK", n_samples=100))
    c3ma = sacrebleu.corpus_bleu(hyps["C-3MA.4959"], [ref])
    fbk = sacrebleu.corpus_bleu(hyps["FBK.4870"], [ref]).score
    assert rf"sys\_1 \& \#2 & {c3ma.score:.2f} & {c3ma.score - fbk:+.2f} & $\pm$" in latex
    assert rf"FBK & {fbk:.2f} & -- & $\pm$" in latex  # the baseline: no difference, no p
    assert f" & {c3ma.bp:.4f} & {c3ma.ratio:.3f} & {c3ma.sys_len // 1000}{{,}}" in latex
    lines = latex.splitlines()
    assert lines.index(next(x for x in lines if x.startswith("1"))) < lines.index(
        next(x for x in lines if "sys" in x))  # FBK scores higher: first
    assert latex.startswith(r"\begin{tabular}{llrr") and r"\bottomrule" in latex
    assert latex_escape("50% of $x^2$ ~ {a}") == (r"50\% of \$x\textasciicircum{}2\$ "
                                                  r"\textasciitilde{} \{a\}")


def test_json_report_holds_every_number(dashboard, ref):
    report = json.loads(json_report(dashboard, data="WMT17"))
    assert report["data"] == "WMT17"
    assert report["signature"] == dashboard.signature
    assert report["options"]["tokenize"] == "13a" and report["n_segments"] == len(ref)
    assert [entry["name"] for entry in report["systems"]] == dashboard.ranked
    base = dashboard.scores["FBK.4870"].score
    for entry in report["systems"]:
        name = entry["name"]
        score, result = dashboard.scores[name], dashboard.significance[name]
        assert entry["score"] == score.score and entry["ci"] == result.ci
        assert entry["counts"] == list(score.counts) and entry["totals"] == list(score.totals)
        assert entry["p_value"] == result.p_value
        assert entry["rank"] == dashboard.pairs.ranks[name]
        assert entry["delta"] == (None if name == "FBK.4870" else score.score - base)
        parts = entry["log_decomposition"]
        assert sum(parts.values()) == pytest.approx(math.log(score.score / 100))
    pairs = report["all_pairs"]
    assert pairs["systems"] == list(dashboard.pairs.names)
    assert pairs["holm_adjusted"][0][0] is None
    assert pairs["holm_adjusted"][0][1] == dashboard.pairs.adjusted[0, 1]
    assert [tuple(group) for group in pairs["clusters"]] == list(dashboard.pairs.clusters)


def test_log_decomposition_by_hand():
    # BP = exp(1 - 4/2) for a 2-token hypothesis "a b" against the 4-token "a b c d";
    # precisions 100, 100, and exp smoothing for orders 3 and 4 with zero totals.
    score = bleu.corpus_bleu(["a b"], [["a b c d"]])
    parts = log_decomposition(score, BLEUOptions())
    assert parts["1-gram"] == pytest.approx(0.0) and parts["2-gram"] == pytest.approx(0.0)
    assert parts["brevity penalty"] == pytest.approx(1 - 4 / 2)


# ----------------------------------------------------------------------------- bleu.dataset

def text_file(name: str, lines: list[str]) -> TextFile:
    return TextFile(name, tuple(lines))


# system names from file names and the language guess: tests/io/test_names.py and
# tests/io/test_languages.py


def test_assemble_refuses_misaligned_and_missing_files():
    ref = text_file("ref.txt", ["a", "b"])
    with pytest.raises(LengthMismatchError, match=r"short.txt: 1 \(differs\)"):
        assemble([text_file("short.txt", ["a"])], [ref])
    with pytest.raises(InputError, match="No reference"):
        assemble([text_file("s.txt", ["a", "b"])], [])
    with pytest.raises(InputError, match="No system output"):
        assemble([], [ref])


def test_assemble_notes_duplicates_copies_and_file_repairs():
    ref = TextFile("ref.txt", ("a b", "c d"), None, ("A UTF-8 byte-order mark was removed.",))
    data = assemble([text_file("x/out.txt", ["a b", "c d"]), text_file("out.txt", ["e", "f"])],
                    [ref])
    assert list(data.systems) == ["out", "out (2)"]
    notes = " ".join(data.notes)
    assert "ref.txt: A UTF-8 byte-order mark was removed." in notes
    assert "2 systems are named 'out'" in notes
    assert "System 'out' (x/out.txt) is identical to reference ref.txt on 100%" in notes


def test_rename_and_add_keep_content_keys():
    ref = text_file("ref.txt", ["a b", "c d"])
    data = assemble([text_file("s1.txt", ["a", "c"])], [ref])
    key = data.system_keys["s1"]
    renamed = data.renamed("s1", " mine ")
    assert list(renamed.systems) == ["mine"] and renamed.system_keys["mine"] == key
    with pytest.raises(InputError, match="cannot be empty"):
        data.renamed("s1", "  ")
    bigger = renamed.with_system(text_file("s2.txt", ["a b", "d"]), "s2")
    assert list(bigger.systems) == ["mine", "s2"]
    assert bigger.references_key == data.references_key
    with pytest.raises(InputError, match="already a system called 'mine'"):
        bigger.renamed("s2", "mine")
    with pytest.raises(LengthMismatchError):
        bigger.with_system(text_file("s3.txt", ["x"]), "s3")


def test_the_sample_is_wmt22_en_de():
    from pathlib import Path

    data = load_folder(Path(__file__).resolve().parents[2] / "sample_data", "sample")
    assert len(data.systems) == 9 and data.n_refs == 2 and data.n_segments == 2037
    assert data.target_language == "de" and data.source is not None
    assert data.notes == ()

"""The command line's segment-score metrics (``--scores FILE``): the WMT21 English-German MQM
file of sample_data with its 8 systems, and generated COMET-style scores in every format the
readers take. System scores are checked against means computed here from the raw rows (and the
MQM means against Google's published table); paired tests against a direct call of the core on
the same statistics; the shapes of text and JSON; and each refusal: one line, exit status 1,
naming the file (and the line, where there is one)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu.cli import command as cli
from bleu.metrics.segment import SegmentScorer, segment_stats
from bleu.metrics.significance import (
    DEFAULT_SEED,
    bootstrap_ci_from_stats,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
)

REPO = Path(__file__).resolve().parents[2]
MQM_DIR = REPO / "sample_data" / "wmt21_en-de_mqm"
MQM_FILE = "mqm_newstest2021_ende.avg_seg_scores.tsv"
MQM_SYSTEMS = ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
               "VolcTrans-GLAT", "eTranslation")
REF_A = "newstest2021.en-de.ref.A.de"
#: the generated set: the first N_LINES segments of three WMT21 systems
SYSTEMS = ("Facebook-AI", "Online-W", "UEdin")
N_LINES = 40
SEED = DEFAULT_SEED


def hyp(system: str) -> str:
    return f"newstest2021.en-de.hyp.{system}.de"


def run(args: list[str], folder: Path) -> tuple[int, str, str]:
    """``bleu-explorer`` in ``folder``: exit status, stdout, stderr (no fixture, so that
    hypothesis can call it)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = cli.main(args)
    return status, out.getvalue(), err.getvalue()


def mqm_rows() -> dict[str, list[float]]:
    """The MQM file read here, by hand: ``system<TAB>score<SPACE>seg_id``, ``None`` unrated."""
    rows: dict[str, list[float]] = {}
    lines = (MQM_DIR / MQM_FILE).read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        system, score, seg_id = line.split()
        values = rows.setdefault(system, [math.nan] * 1002)
        values[int(seg_id) - 1] = math.nan if score == "None" else float(score)
    return rows


def rated_mean(values: list[float]) -> float:
    rated = [v for v in values if not math.isnan(v)]
    return sum(rated) / len(rated)


# --------------------------------------------------------------------------- WMT21 MQM


@pytest.fixture(scope="module")
def mqm_json() -> tuple[list[dict], str]:
    """The 8 systems with MQM, paired bootstrap (100 resamples), JSON, and stderr."""
    args = [REF_A, "-i", *map(hyp, MQM_SYSTEMS), "--scores", MQM_FILE, "--paired-bs",
            "--paired-bs-n", "100"]
    status, out, err = run(args, MQM_DIR)
    assert status == 0, err
    return json.loads(out), err


def test_mqm_system_scores_are_the_means_over_rated_segments(mqm_json) -> None:
    records, _ = mqm_json
    rows = mqm_rows()
    names = {"NVIDIA-NeMo": "Nemo"}  # the MQM file's own name for it
    for record, system in zip(records, MQM_SYSTEMS, strict=True):
        assert record["MQM"]["score"] == pytest.approx(
            rated_mean(rows[names.get(system, system)]), abs=1e-12)
    by_system = {system: record["MQM"]["score"]
                 for system, record in zip(MQM_SYSTEMS, records, strict=True)}
    # Google's published system-level table (wmt-mqm-human-evaluation README, newstest2021 en-de)
    assert round(by_system["VolcTrans-GLAT"], 2) == -1.04
    assert round(by_system["Facebook-AI"], 2) == -1.05
    assert round(by_system["UEdin"], 2) == -1.51


def test_mqm_paired_bootstrap_equals_the_core(mqm_json) -> None:
    records, _ = mqm_json
    rows = mqm_rows()
    stats = {system: segment_stats(rows["Nemo" if system == "NVIDIA-NeMo" else system])
             for system in MQM_SYSTEMS}
    expected = paired_bootstrap_from_stats(stats, SegmentScorer("MQM", True), n_samples=100,
                                           seed=SEED)
    for record, result in zip(records, expected.values(), strict=True):
        assert record["MQM"] == {"score": result.score, "p_value": result.p_value,
                                 "mean": result.mean, "ci": result.ci,
                                 "n_segments": result.n_segments}
    rated_both = sum(1 for a, b in zip(rows["Facebook-AI"], rows["UEdin"], strict=True)
                     if not math.isnan(a) and not math.isnan(b))
    assert records[4]["MQM"]["n_segments"] == rated_both
    assert records[0]["system"] == f"Baseline: {hyp('Facebook-AI')}"


def test_mqm_names_nemo_and_leaves_out_what_is_not_scored(mqm_json) -> None:
    """MQM calls NVIDIA-NeMo ``Nemo``: matched with a note; the references and metric systems
    that MQM also rates are left out, named."""
    _, err = mqm_json
    assert f"the system 'Nemo' is taken as {hyp('NVIDIA-NeMo')} (WMT's MQM name" in err
    assert "9 system(s) with MQM scores are not scored here and are left out: metricsystem1, " \
        "metricsystem2, metricsystem3, metricsystem4, metricsystem5, ref-A, ref-B, ref-C, " \
        "ref-D." in err


def test_an_explicit_alias_gives_the_same_numbers_without_the_note(mqm_json) -> None:
    records, _ = mqm_json
    args = [REF_A, "-i", *map(hyp, MQM_SYSTEMS), "--scores", MQM_FILE, "--paired-bs",
            "--paired-bs-n", "100", "--scores-alias", f"Nemo={hyp('NVIDIA-NeMo')}"]
    status, out, err = run(args, MQM_DIR)
    assert status == 0 and json.loads(out) == records
    assert "taken as" not in err


def test_mqm_approximate_randomization_text() -> None:
    systems = ("Facebook-AI", "NVIDIA-NeMo", "UEdin")
    args = [REF_A, "-i", *map(hyp, systems), "--scores", MQM_FILE, "--paired-ar",
            "--paired-ar-n", "200", "-f", "text", "-q"]
    status, out, err = run(args, MQM_DIR)
    assert status == 0 and err == ""
    rows = mqm_rows()
    stats = {s: segment_stats(rows["Nemo" if s == "NVIDIA-NeMo" else s]) for s in systems}
    expected = paired_ar_from_stats(stats, SegmentScorer("MQM", True), n_samples=200, seed=SEED)
    header = out.splitlines()[1]  # AR: no bootstrap, so no "(μ ± 95% CI)"
    assert re.fullmatch(r"│\s+System │\s+BLEU\s+│\s+MQM\s+│", header), header
    for result in expected.values():
        assert f"{result.score:.4f}" in out
    for result in list(expected.values())[1:]:
        star = "" if result.p_value > 0.05 else "*"
        assert f"(p = {result.p_value:.4f}){star}" in out
    rated = sum(1 for v in rows["UEdin"] if not math.isnan(v))
    assert " - MQM        ar:200|seed:12345\n" in out
    assert out.rstrip("\n").endswith(
        f" - MQM        {MQM_FILE}, higher is better: each system's mean over its rated "
        f"segments ({rated} of 1002); each system tested against the baseline on the segments "
        f"rated for both ({rated})")


# ------------------------------------------------------------ generated COMET-style scores


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first N_LINES lines of reference A and three systems, named ``SYSTEM.de``."""
    made = tmp_path_factory.mktemp("scores")
    for name, target in [(REF_A, "ref.de"), *((hyp(s), f"{s}.de") for s in SYSTEMS)]:
        lines = (MQM_DIR / name).read_text(encoding="utf-8").split("\n")[:N_LINES]
        (made / target).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return made


def generated(seed: int = 0, unrated: float = 0.2) -> dict[str, np.ndarray]:
    """COMET-like scores (0 to 1, 4 decimals, so with ties), some segments unrated (NaN)."""
    rng = np.random.default_rng(seed)
    out = {}
    for system in SYSTEMS:
        values = np.round(rng.uniform(0.3, 0.95, N_LINES), 2)
        values[rng.random(N_LINES) < unrated] = np.nan
        values[0] = 0.5  # every system rated somewhere in common
        out[system] = values
    return out


def write_table(path: Path, scores: dict[str, np.ndarray], label: str = "COMET",
                names: dict[str, str] | None = None) -> None:
    lines = [f"system\tseg_id\t{label}"]
    for system, values in scores.items():
        name = (names or {}).get(system, system)
        lines += [f"{name}\t{i}\t{'' if math.isnan(v) else repr(float(v))}"
                  for i, v in enumerate(values, start=1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def direct(scores: dict[str, np.ndarray], method: str, n: int, higher: bool = True) -> dict:
    stats = {system: segment_stats(values) for system, values in scores.items()}
    test = paired_bootstrap_from_stats if method == "bs" else paired_ar_from_stats
    return test(stats, SegmentScorer("COMET", higher), n_samples=n, seed=SEED)


@pytest.mark.parametrize(("flag", "method"), [("--paired-bs", "bs"), ("--paired-ar", "ar")])
def test_generated_scores_json_equals_the_core(flag: str, method: str, folder: Path) -> None:
    scores = generated()
    write_table(folder / "comet.tsv", scores)
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores", "comet.tsv", flag,
            f"{flag}-n", "150", "-q"]
    status, out, err = run(args, folder)
    assert status == 0, err
    records = json.loads(out)
    expected = direct(scores, method, 150)
    assert [r["system"] for r in records] == ["Baseline: Facebook-AI.de", "Online-W.de",
                                              "UEdin.de"]
    for record, result in zip(records, expected.values(), strict=True):
        assert list(record) == ["system", "BLEU", "COMET"]
        assert record["COMET"] == {"score": result.score, "p_value": result.p_value,
                                   "mean": result.mean, "ci": result.ci,
                                   "n_segments": result.n_segments}
        assert list(record["BLEU"]) == ["score", "p_value", "mean", "ci"]
    for record, values in zip(records, scores.values(), strict=True):
        assert record["COMET"]["score"] == pytest.approx(float(np.nanmean(values)), abs=1e-12)


def test_generated_scores_text_table(folder: Path) -> None:
    scores = generated(1)
    write_table(folder / "comet_text.tsv", scores)
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores", "comet_text.tsv",
            "--paired-bs", "--paired-bs-n", "120", "-f", "text", "-q"]
    status, out, _ = run(args, folder)
    assert status == 0
    expected = direct(scores, "bs", 120)
    assert "COMET (μ ± 95% CI)" in out.splitlines()[1]
    for result in expected.values():
        assert f"{result.score:.4f} ({result.mean:.4f} ± {result.ci:.4f})" in out
    for result in list(expected.values())[1:]:
        star = "" if result.p_value > 0.05 else "*"
        assert f"(p = {result.p_value:.4f}){star}" in out
    assert " - COMET      bs:120|seed:12345\n" in out
    rated = [int((~np.isnan(v)).sum()) for v in scores.values()]
    tested = [int((~np.isnan(scores[SYSTEMS[0]]) & ~np.isnan(scores[s])).sum())
              for s in SYSTEMS[1:]]
    rated_text = (f"{min(rated)}" if min(rated) == max(rated)
                  else f"{min(rated)} to {max(rated)}")
    tested_text = (f"{min(tested)}" if min(tested) == max(tested)
                   else f"{min(tested)} to {max(tested)}")
    assert out.splitlines()[-1] == (
        f" - COMET      comet_text.tsv, higher is better: each system's mean over its rated "
        f"segments ({rated_text} of {N_LINES}); each system tested against the baseline on the "
        f"segments rated for both ({tested_text})")


def test_without_a_test_the_table_has_four_decimals_and_no_signature(folder: Path) -> None:
    scores = generated(2)
    write_table(folder / "plain.tsv", scores)
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores", "plain.tsv", "-q"]
    records = json.loads(run(args, folder)[1])
    assert [r["COMET"] for r in records] == [f"{np.nanmean(v):.4f}" for v in scores.values()]
    text = run([*args, "-f", "text"], folder)[1]
    assert f"│ {np.nanmean(scores['UEdin']):.4f}  │" in text
    signatures = text.split("Metric signatures\n-----------------\n")[1].split("\n-----")[0]
    assert signatures.startswith(" - BLEU ") and "COMET" not in signatures
    wide = json.loads(run([*args, "-w", "6"], folder)[1])
    assert [r["COMET"] for r in wide] == [f"{np.nanmean(v):.6f}" for v in scores.values()]


def test_bleu_is_unchanged_beside_the_scores(folder: Path) -> None:
    """The other metrics print what they print without --scores (which tests/cli/test_cli.py
    compares with sacrebleu)."""
    write_table(folder / "beside.tsv", generated(3))
    base = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "chrf",
            "--paired-bs", "--paired-bs-n", "60", "-q"]
    alone = json.loads(run(base, folder)[1])
    beside = json.loads(run([*base, "--scores", "beside.tsv"], folder)[1])
    assert [{k: v for k, v in r.items() if k != "COMET"} for r in beside] == alone
    text_alone = run([*base, "-f", "text"], folder)[1]
    text_beside = run([*base, "-f", "text", "--scores", "beside.tsv"], folder)[1]
    under_alone = text_alone.split("\n\n", 1)[1]  # the explanation and the signatures
    assert text_beside.split("\n\n", 1)[1].startswith(under_alone.rstrip("\n") + "\n - COMET ")
    one = ["ref.de", "-i", "UEdin.de", "-f", "text", "-q"]
    line = run(one, folder)[1]
    assert run([*one, "--scores", "beside.tsv"], folder)[1].startswith(line)


def test_single_system_line_and_confidence(folder: Path) -> None:
    scores = generated(4)
    write_table(folder / "single.tsv", scores)
    values = scores["UEdin"]
    rated = int((~np.isnan(values)).sum())
    args = ["ref.de", "-i", "UEdin.de", "--scores", "single.tsv", "-q"]
    text = run([*args, "-f", "text"], folder)[1].splitlines()
    assert len(text) == 2 and text[0].startswith("BLEU|")
    assert text[1].strip() == (f"COMET = {np.nanmean(values):.4f} ({rated} of {N_LINES} "
                               "segments rated, higher is better)")
    interval = bootstrap_ci_from_stats(segment_stats(values), SegmentScorer("COMET"),
                                       n_samples=200, seed=SEED)
    ci_text = run([*args, "-f", "text", "--confidence", "-cin", "200"], folder)[1].splitlines()
    assert ci_text[1].strip() == (
        f"COMET|bs:200|seed:12345 = {np.nanmean(values):.4f} (μ = {interval.mean:.4f} ± "
        f"{interval.ci:.4f}) ({rated} of {N_LINES} segments rated, higher is better)")
    bleu, comet = json.loads(run([*args, "--confidence", "-cin", "200"], folder)[1])
    assert bleu["name"] == "BLEU" and bleu["bs"] == "200"
    assert comet == {"name": "COMET", "score": round(float(np.nanmean(values)), 4),
                     "signature": "bs:200|seed:12345",
                     "confidence_mean": round(interval.mean, 4),
                     "confidence_var": round(interval.ci, 4),
                     "confidence": f"μ = {interval.mean:.4f} ± {interval.ci:.4f}",
                     "bs": "200", "seed": "12345", "rated_segments": rated,
                     "n_segments": N_LINES, "higher_is_better": True, "source": "single.tsv"}
    score_only = run([*args, "-b", "-f", "text"], folder)[1].split()
    assert score_only == [text[0].split(" = ")[1].split()[0], f"{np.nanmean(values):.4f}"]


def test_a_negative_interval_is_shown(folder: Path) -> None:
    """sacrebleu's own line drops an interval whose mean is not above 0; MQM's are negative."""
    scores = {s: -np.abs(v) for s, v in generated(5).items()}
    write_table(folder / "negative.tsv", scores, label="MQM")
    out = run(["ref.de", "-i", "UEdin.de", "--scores", "negative.tsv", "--confidence", "-cin",
               "50", "-f", "text", "-q"], folder)[1]
    assert "MQM|bs:50|seed:12345 = -" in out and "(μ = -" in out


def test_direction_is_guessed_and_can_be_set(folder: Path) -> None:
    scores = generated(6)
    write_table(folder / "metricx.tsv", scores, label="MetricX-23")
    write_table(folder / "comet_dir.tsv", scores)
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-f", "text", "-q"]
    out = run([*args, "--scores", "metricx.tsv"], folder)[1]
    assert " - MetricX-23 metricx.tsv, lower is better:" in out
    out = run([*args, "--scores", "comet_dir.tsv", "--scores-lower-is-better", "COMET"],
              folder)[1]
    assert " - COMET      comet_dir.tsv, lower is better:" in out
    out = run([*args, "--scores", "metricx.tsv", "--scores-higher-is-better", "MetricX-23"],
              folder)[1]
    assert " - MetricX-23 metricx.tsv, higher is better:" in out
    single = json.loads(run(["ref.de", "-i", "UEdin.de", "--scores", "metricx.tsv", "-q"],
                            folder)[1])
    assert single[1]["higher_is_better"] is False


def comet_printout(scores: dict[str, np.ndarray]) -> str:
    """What comet-score prints for the systems' files (segments counted from 0)."""
    lines = []
    for system, values in scores.items():
        lines += [f"{hyp(system)}\tSegment {i}\tscore: {v:.4f}" for i, v in enumerate(values)]
        lines.append(f"{hyp(system)}\tscore: {np.mean(values):.4f}")
    return "\n".join(lines) + "\n"


def test_every_format_gives_the_same_numbers(folder: Path) -> None:
    """A table, comet-score's printout and --to_json file, JSON Lines and one file per system,
    for systems named by path, base name or guessed name."""
    scores = {s: np.round(v, 4) for s, v in generated(7, unrated=0).items()}
    write_table(folder / "all.tsv", scores)
    (folder / "printout.txt").write_text(comet_printout(scores), encoding="utf-8")
    (folder / "comet.json").write_text(json.dumps(
        {hyp(s): [{"src": "", "mt": "", "ref": "", "COMET": float(v)} for v in values]
         for s, values in scores.items()}), encoding="utf-8")
    (folder / "lines.jsonl").write_text("".join(
        json.dumps({"system": f"{s}.de" if s == "UEdin" else s, "seg_id": i, "COMET": float(v)})
        + "\n" for s, values in scores.items() for i, v in enumerate(values, start=1)),
        encoding="utf-8")
    singles = []
    for system, values in scores.items():
        (folder / f"{system}.de.comet").write_text(
            "".join(f"{v}\n" for v in values), encoding="utf-8")
        singles += ["--scores", f"{system}.de.comet"]
    base = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--paired-bs", "--paired-bs-n", "40",
            "-q"]
    results = {name: json.loads(run([*base, *given], folder)[1]) for name, given in (
        ("table", ["--scores", "all.tsv"]), ("printout", ["--scores", "printout.txt"]),
        ("json", ["--scores", "comet.json"]), ("jsonl", ["--scores", "lines.jsonl"]),
        ("singles", singles))}
    expected = direct(scores, "bs", 40)
    for name, records in results.items():
        assert [r["COMET"]["p_value"] for r in records] == \
            [r.p_value for r in expected.values()], name
        assert [r["COMET"]["score"] for r in records] == \
            pytest.approx([r.score for r in expected.values()], abs=1e-12), name


def test_two_metrics_and_a_label(folder: Path) -> None:
    """Two comet-score printouts (COMET-22 and xCOMET) are both called COMET: the second is
    named with --scores-label; both join the table in the order given."""
    first, second = generated(8, unrated=0), generated(9, unrated=0)
    (folder / "comet22.txt").write_text(comet_printout(first), encoding="utf-8")
    (folder / "xcomet.txt").write_text(comet_printout(second), encoding="utf-8")
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores", "comet22.txt",
            "--scores", "xcomet.txt", "-q"]
    status, _, err = run(args, folder)
    assert status == 1 and "--scores-label xcomet.txt=LABEL" in err
    status, out, _ = run([*args, "--scores-label", "xcomet.txt=xCOMET"], folder)
    assert status == 0
    records = json.loads(out)
    assert list(records[0]) == ["system", "BLEU", "COMET", "xCOMET"]
    assert [float(r["xCOMET"]) for r in records] == \
        pytest.approx([np.mean(v) for v in second.values()], abs=5.1e-5)
    assert [float(r["COMET"]) for r in records] == \
        pytest.approx([np.mean(v) for v in first.values()], abs=5.1e-5)


def test_an_alias_maps_another_name(folder: Path) -> None:
    scores = generated(10)
    write_table(folder / "aliased.tsv", scores, names={"UEdin": "Edinburgh"})
    args = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores", "aliased.tsv", "-q"]
    status, _, err = run(args, folder)
    assert status == 1 and "no COMET scores for UEdin.de" in err
    status, out, _ = run([*args, "--scores-alias", "Edinburgh=UEdin"], folder)
    assert status == 0 and json.loads(out)[2]["COMET"] == f"{np.nanmean(scores['UEdin']):.4f}"


def test_stdin_systems_are_named_as_in_the_table(folder: Path) -> None:
    """Systems piped in as tab-separated columns are ``System 1``, ``System 2``."""
    scores = generated(11)
    write_table(folder / "stdin.tsv", scores,
                names={s: f"System {k}" for k, s in enumerate(SYSTEMS, start=1)})
    columns = [(folder / f"{s}.de").read_text(encoding="utf-8").splitlines() for s in SYSTEMS]
    piped = "".join("\t".join(row) + "\n" for row in zip(*columns, strict=True))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        saved, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(piped.encode()))
        try:
            status = cli.main(["ref.de", "--scores", "stdin.tsv", "-q"])
        finally:
            sys.stdin = saved
    assert status == 0, err.getvalue()
    assert [r["COMET"] for r in json.loads(out.getvalue())] == \
        [f"{np.nanmean(v):.4f}" for v in scores.values()]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generated_edge_cases_equal_the_core(data: st.DataObject) -> None:
    """Ties, all scores equal, unrated segments, negative scores: the paired tests of the
    command line are the core's on the same statistics."""
    folder = _edge_folder()
    value = st.one_of(st.just(math.nan), st.sampled_from([0.0, 0.5, -1.0]),
                      st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 3)))
    scores = {}
    for system in SYSTEMS:
        values = np.array(data.draw(st.lists(value, min_size=N_LINES, max_size=N_LINES)))
        values[0] = data.draw(st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 3)))
        scores[system] = values
    write_table(folder / "edge.tsv", scores)
    method = data.draw(st.sampled_from(["bs", "ar"]))
    flag = "--paired-bs" if method == "bs" else "--paired-ar"
    status, out, err = run(["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS), "--scores",
                            "edge.tsv", flag, f"{flag}-n", "30", "-q"], folder)
    assert status == 0, err
    expected = direct(scores, method, 30)
    for record, result in zip(json.loads(out), expected.values(), strict=True):
        assert record["COMET"] == {"score": result.score, "p_value": result.p_value,
                                   "mean": result.mean, "ci": result.ci,
                                   "n_segments": result.n_segments}


_EDGE: list[Path] = []


def _edge_folder() -> Path:
    """One folder for every hypothesis example (the module fixture is not available there)."""
    if not _EDGE:
        import tempfile

        made = Path(tempfile.mkdtemp(prefix="bleu_scores_edge_"))
        for name, target in [(REF_A, "ref.de"), *((hyp(s), f"{s}.de") for s in SYSTEMS)]:
            lines = (MQM_DIR / name).read_text(encoding="utf-8").split("\n")[:N_LINES]
            (made / target).write_text("\n".join(lines) + "\n", encoding="utf-8")
        _EDGE.append(made)
    return _EDGE[0]


# -------------------------------------------------------------------------------- refusals


@pytest.fixture(scope="module")
def bad_files(folder: Path) -> Path:
    """Score files that must be refused, beside the generated set."""
    scores = generated(12)
    write_table(folder / "good.tsv", scores)
    good = (folder / "good.tsv").read_text(encoding="utf-8").splitlines()

    def variant(name: str, line: int, text: str) -> None:
        lines = list(good)
        lines[line - 1] = text
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")

    variant("word.tsv", 5, "Facebook-AI\t4\tgood")
    variant("nan.tsv", 7, "Facebook-AI\t6\tnan")
    variant("twice.tsv", 8, "Facebook-AI\t2\t0.5")
    variant("zero.tsv", 3, "Facebook-AI\t0\t0.5")
    variant("short_row.tsv", 4, "Facebook-AI\t3")
    (folder / "longer.tsv").write_text("\n".join([*good, f"UEdin\t{N_LINES + 1}\t0.5"]) + "\n",
                                       encoding="utf-8")
    (folder / "two_systems.tsv").write_text(
        "\n".join(line for line in good if not line.startswith("UEdin")) + "\n", encoding="utf-8")
    (folder / "strangers.tsv").write_text(
        "\n".join([good[0], "A\t1\t0.5", "B\t1\t0.5"]) + "\n", encoding="utf-8")
    (folder / "unrated.tsv").write_text("\n".join(
        [line for line in good if not line.startswith("Online-W")]
        + [f"Online-W\t{i}\t" for i in range(1, N_LINES + 1)]) + "\n", encoding="utf-8")
    (folder / "apart.tsv").write_text("\n".join(
        [good[0]] + [f"{s}\t{i}\t0.5" for s in SYSTEMS for i in range(1, N_LINES + 1)
                     if (s == "Facebook-AI") == (i <= 10)]) + "\n", encoding="utf-8")
    (folder / "UEdin.de.comet").write_text("0.5\n" * (N_LINES - 10), encoding="utf-8")
    (folder / "bleu.tsv").write_text((folder / "good.tsv").read_text().replace("COMET", "BLEU"),
                                     encoding="utf-8")
    (folder / "binary.tsv").write_bytes(b"system\tseg_id\tCOMET\n\x00\x00\x00")
    (folder / "latin1.tsv").write_bytes("system\tseg_id\tCOMET\nStraße\t1\t0.5\n"
                                        .encode("latin-1"))
    return folder


ALL = ["ref.de", "-i", *(f"{s}.de" for s in SYSTEMS)]
REFUSED = [
    ([*ALL, "--scores", "missing.tsv"], "missing.tsv: no such file."),
    ([*ALL, "--scores", "word.tsv"],
     "word.tsv, line 5: expected a number (or None for unrated), found 'good'"),
    ([*ALL, "--scores", "nan.tsv"], "nan.tsv, line 7: expected a finite number, found 'nan'"),
    ([*ALL, "--scores", "twice.tsv"], "twice.tsv, line 8: system 'Facebook-AI' has segment 2 "
     "twice"),
    ([*ALL, "--scores", "zero.tsv"], "zero.tsv, line 3: segment ids start at 1"),
    ([*ALL, "--scores", "short_row.tsv"], "short_row.tsv, line 4: expected 3 fields, found 2"),
    ([*ALL, "--scores", "binary.tsv"], "binary.tsv, line 2: a NUL byte"),
    ([*ALL, "--scores", "latin1.tsv"], "latin1.tsv, line 2: not valid utf-8 text"),
    ([*ALL, "--scores", "longer.tsv"], f"longer.tsv: scores segment {N_LINES + 1}, but the "
     f"loaded test set has {N_LINES} segments: the file is for another test set."),
    ([*ALL, "--scores", MQM_DIR.joinpath(MQM_FILE).as_posix()], "scores segment 1002, but the "
     f"loaded test set has {N_LINES} segments: the file is for another test set."),
    (["ref.de", "-i", "UEdin.de", "--scores", "UEdin.de.comet"], "UEdin.de.comet: scores "
     f"{N_LINES - 10} segments, one a line, but the test set has {N_LINES}: the file is for "
     "another test set."),
    ([*ALL, "--scores", "two_systems.tsv"], "two_systems.tsv: no COMET scores for UEdin.de; the "
     "file scores Facebook-AI, Online-W; map a file's name to a system with --scores-alias "
     "FILE_NAME=SYSTEM."),
    ([*ALL, "--scores", "strangers.tsv"], "strangers.tsv: none of its systems is scored here. "
     "The file has A, B; given with -i: Facebook-AI.de, Online-W.de, UEdin.de;"),
    ([*ALL, "--scores", "unrated.tsv"], "unrated.tsv: no segment of Online-W.de has a COMET "
     "score (all are unrated); a system score needs one."),
    ([*ALL, "--scores", "apart.tsv", "--paired-bs"], "apart.tsv: no segment has COMET scores "
     "for both Online-W.de and the baseline Facebook-AI.de; a paired test needs some."),
    ([*ALL, "--scores", "bleu.tsv"], "bleu.tsv: its scores are named 'BLEU', as a metric of -m "
     "is; name them with --scores-label bleu.tsv=LABEL."),
    ([*ALL, "--scores", "good.tsv", "--scores-alias", "Nemo=UEdin"],
     "--scores-alias Nemo=UEdin: no score file has a system 'Nemo'."),
    ([*ALL, "--scores", "good.tsv", "--scores-alias", "UEdin=Nobody"],
     "--scores-alias UEdin=Nobody: 'Nobody' is not a system given with -i"),
    ([*ALL, "./UEdin.de", "--scores", "good.tsv"], "good.tsv: 'UEdin' fits 2 systems "
     "(UEdin.de, ./UEdin.de); map it to one with --scores-alias UEdin=SYSTEM"),
    ([*ALL, "--scores", "good.tsv", "--scores-label", "other.tsv=X"],
     "--scores-label other.tsv=X: 'other.tsv' is not given with --scores (good.tsv)."),
    ([*ALL, "--scores", "good.tsv", "--scores-lower-is-better", "BLEURT"],
     "--scores-lower-is-better BLEURT: no score file gives 'BLEURT'; the scores read are COMET."),
    ([*ALL, "--scores", "good.tsv", "--scores-lower-is-better", "COMET",
      "--scores-higher-is-better", "COMET"], "'COMET' is given with both"),
    ([*ALL, "--scores-alias", "Nemo=UEdin"], "--scores-alias, --scores-label and the "
     "--scores-*-is-better flags describe --scores files; none was given."),
    (["ref.de", "-i", "UEdin.de", "--scores", "good.tsv", "-sl"],
     "--scores is not available with --sentence-level"),
]


@pytest.mark.parametrize(("args", "message"), REFUSED, ids=lambda x: " ".join(x)[-60:])
def test_bad_score_input_gives_one_line_and_status_1(args: list[str], message: str,
                                                     bad_files: Path) -> None:
    status, out, err = run(args, bad_files)
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bleu-explorer: error: "), err
    assert message in lines[0]
    assert "Traceback" not in err


def test_a_badly_written_alias_is_a_usage_error(bad_files: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        run([*ALL, "--scores", "good.tsv", "--scores-alias", "UEdin"], bad_files)
    assert stop.value.code == 2


# ----------------------------------------------------------------------- help, import cost


def test_help_names_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for flag in ("--scores FILE", "--scores-alias FILE_NAME=SYSTEM", "--scores-label FILE=LABEL",
                 "--scores-lower-is-better LABEL", "--scores-higher-is-better LABEL"):
        assert flag in text
    assert "segment-score metrics (BLEU Explorer's addition)" in text


def loaded_after(code: str, folder: Path) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` in ``folder``."""
    probe = (f"{code}\nimport json, sys\n"
             "sys.__stderr__.write('MODULES' + json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=folder, capture_output=True,
                          text=True, timeout=120, check=True)
    return set(json.loads(done.stderr.rsplit("MODULES", 1)[1]))


def _score_modules(modules: set[str]) -> set[str]:
    return {name for name in modules if name.startswith(("bleu.io.scores", "bleu.cli.scores",
                                                         "bleu.evaluation.systems"))}


def test_score_modules_load_only_with_scores(bad_files: Path) -> None:
    run_plain = "from bleu.cli import main\nmain(['ref.de', '-i', 'UEdin.de', 'Online-W.de'])"
    assert _score_modules(loaded_after(run_plain, bad_files)) == set()
    with_scores = ("from bleu.cli import main\nmain(['ref.de', '-i', 'Facebook-AI.de', "
                   "'Online-W.de', 'UEdin.de', '--scores', 'good.tsv'])")
    modules = loaded_after(with_scores, bad_files)
    assert {"bleu.cli.scores", "bleu.io.scores.read"} <= modules
    assert not modules & {"pandas", "scipy", "sacrebleu", "altair", "streamlit", "pyarrow"}


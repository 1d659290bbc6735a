"""The command line's learned metrics (``-m comet``, ``-m bertscore``, ``-m metricx``) with the
tiny models tests/metrics/learned/learned_models.py builds: rows and paired tests equal a direct
computation (the core's scores, then its paired tests on them), a second run takes every score
from the workspace database; MetricX's direction comes from its declaration; the refusals are one
line with exit status 1 (a missing model with the command that fetches it, a missing extra, flags
that do not go together); progress on a terminal. Those that need no model run without one."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bleu.cli import command as cli
from bleu.metrics.learned import Estimate, Progress
from bleu.metrics.segment import SegmentScorer, segment_stats
from bleu.metrics.significance import (
    DEFAULT_SEED,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
)

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "tests" / "metrics" / "learned") not in sys.path:
    sys.path.insert(0, str(REPO / "tests" / "metrics" / "learned"))

from learned_models import (  # noqa: E402 -- found through the folder added above
    REFERENCE_A,
    REFERENCE_B,
    SOURCES,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

NAMES = [f"{name}.de" for name in SYSTEMS]


def run(args: list[str], folder: Path) -> tuple[int, str, str]:
    """``bleu-explorer`` in ``folder``: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = cli.main(args)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(name="folder")
def folder_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample's first 40 segments as files, and a workspace database of this test's own."""
    for name, lines in {"src.en": SOURCES, "ref.A.de": REFERENCE_A, "ref.B.de": REFERENCE_B,
                        **{f"{name}.de": SYSTEMS[name] for name in SYSTEMS}}.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("BLEU_EXPLORER_DB", str(tmp_path / "workspaces.sqlite3"))
    return tmp_path


def _comet(tiny_models: TinyModels, *extra: str, metrics: tuple[str, ...] = ("comet",),
           ) -> list[str]:
    return ["ref.A.de", "-i", *NAMES, "-m", *metrics, "--comet-model", str(tiny_models.comet),
            "--source", "src.en", *extra]


def _direct_comet(tiny_models: TinyModels) -> dict[str, list[float]]:
    from bleu.metrics.learned import CometScorer, score

    found = score(CometScorer(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
                  references=[REFERENCE_A])
    return {f"{s.name}.de": s.scores.tolist() for s in found.systems}


@pytest.mark.learned
def test_comet_rows_equal_the_cores_scores_and_a_second_run_takes_them_from_the_cache(
        tiny_models: TinyModels, folder: Path) -> None:
    status, out, err = run([*_comet(tiny_models), "-w", "6"], folder)
    assert status == 0, err
    expected = _direct_comet(tiny_models)
    records = json.loads(out)
    for record, name in zip(records, NAMES, strict=True):
        assert record["system"] == name
        mean = sum(expected[name]) / len(expected[name])
        assert float(record["COMET (comet)"]) == pytest.approx(mean, abs=1.5e-6)
    assert "COMET (comet): 80 segments to compute (0 in the cache)" in err
    assert "COMET (comet): 80 segments computed, 0 taken from the cache." in err
    # another process: the scores come from the workspace database; each message is printed
    # once (COMET's import adds a handler of its own to the root logger, which is undone)
    again = subprocess.run([sys.executable, "-m", "bleu", *_comet(tiny_models), "-w", "6"],
                           cwd=folder, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == records
    lines = [line for line in again.stderr.splitlines() if "COMET (comet)" in line]
    assert lines[:2] == ["bleu-explorer: COMET (comet): Every segment is in the cache (80 in "
                         "the cache): nothing to compute.",
                         "bleu-explorer: COMET (comet): 0 segments computed, 80 taken from the "
                         "cache."]
    assert len(lines) == 3 and lines[2].startswith(
        "bleu-explorer: COMET (comet): signature COMET|model:comet|model_version:")
    assert "|precision:fp32|ref:first" in lines[2]


@pytest.mark.learned
def test_a_reduced_precision_is_said_with_its_shift_in_the_signature(
        tiny_models: TinyModels, folder: Path) -> None:
    status, out, err = run([*_comet(tiny_models, "--comet-precision", "bf16"), "-w", "6"],
                           folder)
    assert status == 0, err
    expected = _direct_comet(tiny_models)
    for record, name in zip(json.loads(out), NAMES, strict=True):  # close to fp32, not equal
        mean = sum(expected[name]) / len(expected[name])
        assert float(record["COMET (comet)"]) == pytest.approx(mean, abs=0.05)
    assert "COMET (comet): 80 segments to compute (0 in the cache)" in err
    assert "|precision:bf16(shift<=" in err


@pytest.mark.learned
@pytest.mark.parametrize(("flag", "method"), [("--paired-bs", "bs"), ("--paired-ar", "ar")])
def test_comet_paired_tests_equal_the_cores_on_its_scores(tiny_models: TinyModels,
                                                          folder: Path, flag: str,
                                                          method: str) -> None:
    n = 200
    status, out, err = run(_comet(tiny_models, flag, f"{flag}-n", str(n),
                                  metrics=("bleu", "comet")), folder)
    assert status == 0, err
    expected = _direct_comet(tiny_models)
    stats = {name: segment_stats(values) for name, values in expected.items()}
    test = paired_bootstrap_from_stats if method == "bs" else paired_ar_from_stats
    results = test(stats, SegmentScorer("COMET (comet)", True), n_samples=n, seed=DEFAULT_SEED)
    records = json.loads(out)
    assert list(records[0]) == ["system", "BLEU", "COMET (comet)"]
    for record, result in zip(records, results.values(), strict=True):
        found = record["COMET (comet)"]
        assert found["score"] == pytest.approx(result.score, abs=1e-6)
        assert found["p_value"] == pytest.approx(result.p_value, abs=1e-12)
        assert found["n_segments"] == result.n_segments


@pytest.mark.learned
def test_bertscore_row_equals_the_cores_f1_over_both_references(tiny_models: TinyModels,
                                                                folder: Path) -> None:
    from bleu.metrics.learned import BertScoreScorer, score

    args = ["ref.A.de", "ref.B.de", "-i", NAMES[0], "-m", "bertscore", "--bertscore-model",
            str(tiny_models.encoder), "--bertscore-layers", "2", "-w", "6"]
    status, out, err = run(args, folder)
    assert status == 0, err
    record = json.loads(out)
    expected = score(BertScoreScorer(tiny_models.encoder, num_layers=2, device="cpu"),
                     {NAMES[0]: SYSTEMS["PROMT"]}, references=[REFERENCE_A, REFERENCE_B])
    assert record["name"] == "BERTScore (encoder, layer 2)" and record["higher_is_better"]
    assert record["score"] == pytest.approx(expected.systems[0].system_score, abs=1.5e-6)


@pytest.mark.learned
def test_a_missing_model_is_one_line_with_the_command_that_fetches_it(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(folder / "hub"))
    args = ["ref.A.de", "-i", NAMES[0], "-m", "comet", "--comet-model", "Unbabel/wmt22-comet-da",
            "--source", "src.en", "-q"]
    status, out, err = run(args, folder)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("bleu-explorer: error: COMET model "
                                                   "'Unbabel/wmt22-comet-da' is not on this")
    assert "huggingface-cli download Unbabel/wmt22-comet-da" in err


@pytest.mark.learned
def test_metricx_is_better_lower_and_its_row_equals_the_cores(tiny_models: TinyModels,
                                                              folder: Path) -> None:
    from bleu.metrics.learned import MetricXScorer, score

    args = ["ref.A.de", "-i", NAMES[0], "-m", "metricx", "--metricx-model",
            str(tiny_models.metricx), "--source", "src.en", "-w", "6"]
    status, out, err = run(args, folder)
    assert status == 0, err
    record = json.loads(out)
    expected = score(MetricXScorer(tiny_models.metricx, device="cpu"),
                     {NAMES[0]: SYSTEMS["PROMT"]}, sources=SOURCES, references=[REFERENCE_A])
    assert record["name"] == "MetricX (metricx)" and record["higher_is_better"] is False
    assert record["score"] == pytest.approx(expected.systems[0].system_score, rel=1e-6)
    assert "MetricX (metricx): signature MetricX|model:metricx|" in err


def test_a_missing_extra_is_one_line_naming_it(folder: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)  # what an absent module's import meets
    args = ["ref.A.de", "-i", NAMES[0], "-m", "comet", "--comet-model", "any", "--source",
            "src.en", "-q"]
    status, out, err = run(args, folder)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert err == ("bleu-explorer: error: COMET needs the 'learned' extra, which is not "
                   "installed: pip install 'bleu-explorer[learned]' (missing module: "
                   "transformers).\n")


@pytest.mark.parametrize(("given", "message"), [
    (["-m", "comet"], "-m comet needs its model: --comet-model PATH_OR_NAME"),
    (["-m", "bleu", "--comet-model", "m"], "--comet-model is for -m comet, which is not asked"),
    (["-m", "bertscore"], "-m bertscore needs its model: --bertscore-model PATH_OR_NAME"),
    (["--bertscore-layers", "3"], "--bertscore-layers is for -m bertscore"),
    (["--source", "src.en"], "--source is read by -m comet and -m metricx only"),
    (["-m", "metricx"], "-m metricx needs its model: --metricx-model PATH_OR_NAME"),
    (["--metricx-tokenizer", "t"], "--metricx-tokenizer is for -m metricx"),
    (["--comet-precision", "bf16"], "--comet-precision is for -m comet, which is not asked"),
    (["-m", "metricx", "--metricx-model", "m"], "-m metricx reads the source segments"),
    (["-m", "comet", "--comet-model", "m", "-sl"], "-m comet is not available with "
                                                   "--sentence-level"),
    (["-m", "comet", "--comet-model", "m"], "-m comet reads the source segments: give them "
                                            "with --source FILE"),
])
def test_flags_that_do_not_go_together_are_one_line(folder: Path, given: list[str],
                                                     message: str) -> None:
    status, out, err = run(["ref.A.de", "-i", NAMES[0], *given, "-q"], folder)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert message in err


def test_a_layer_is_a_number_from_one() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exited:
        cli.main(["ref.A.de", "-i", NAMES[0], "-m", "bertscore", "--bertscore-model", "m",
                  "--bertscore-layers", "0"])
    assert exited.value.code == 2 and err.getvalue().count("\n") == 1
    assert "--bertscore-layers: must be a layer number, 1 or more; got '0'" in err.getvalue()


def test_a_source_of_another_length_is_refused(folder: Path) -> None:
    (folder / "short.en").write_text("one line\n", encoding="utf-8")
    status, _, err = run(["ref.A.de", "-i", NAMES[0], "-m", "comet", "--comet-model", "m",
                          "--source", "short.en"], folder)
    assert status == 1
    assert "short.en has 1 lines, but the systems have 40; --source needs one line per " \
        "segment." in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_line_rewritten_on_a_terminal_only(caplog: pytest.LogCaptureFixture,
                                                         ) -> None:
    from bleu.cli.learned import _gpu_name, terminal_progress
    from bleu.metrics.learned import Plan
    from bleu.metrics.learned.describe import plan_text

    estimate = Estimate(30.0, "cpu", 100, 1.0, 1.0)
    reports = [Progress(0, 80, 20, 0.0, estimate), Progress(40, 80, 20, 10.0, estimate),
               Progress(80, 80, 20, 20.0, estimate)]
    terminal = _Terminal()
    with caplog.at_level("INFO", logger="bleu.cli"):
        show = terminal_progress("COMET (m)", terminal, quiet=False)
        for report in reports:
            show(report)
    assert terminal.getvalue() == (
        "\rbleu-explorer: COMET (m): 0 of 80 segments computed (20 from the cache); about 30 s "
        "left.\rbleu-explorer: COMET (m): 40 of 80 segments computed (20 from the cache); about "
        "10 s left.\rbleu-explorer: COMET (m): 80 of 80 segments computed (20 from the cache); "
        "less than a second left.\n")
    planned = plan_text(Plan(80, 20, estimate), _gpu_name())
    assert planned.startswith("80 segments to compute (20 in the cache): about 30 s on the CPU")
    assert [r.getMessage() for r in caplog.records] == [f"COMET (m): {planned}"]
    piped = io.StringIO()
    for report in reports:
        terminal_progress("COMET (m)", piped, quiet=False)(report)
    assert piped.getvalue() == ""
    quiet = _Terminal()
    for report in reports:
        terminal_progress("COMET (m)", quiet, quiet=True)(report)
    assert quiet.getvalue() == ""


def test_the_command_lines_learned_flags_are_those_the_registry_declares():
    """The parser writes the learned metrics' flags out (parsing imports no registry): every
    learned entry with a command name has its -m name, --NAME-model and its own flags, and the
    parser offers no learned metric or flag the registry does not declare."""
    from bleu.cli.parser import LEARNED_FLAGS, LEARNED_METRICS, build_parser
    from bleu.evaluation import registry
    from bleu.evaluation.registry import LEARNED
    from bleu.metrics.learned.offered import COMET_MODEL, ENCODER_MODEL, MT5_MODEL

    specs = [spec for spec in registry.declared() if spec.family == LEARNED and spec.command_name]
    assert set(LEARNED_METRICS) == {spec.command_name for spec in specs}
    flags = {option for action in build_parser()._actions for option in action.option_strings}
    declared = {"--source"}
    for spec in specs:
        own = [spec.model_flag, *spec.model_flags]
        own += [spec.reference_free_flag] if spec.reference_free_flag else []
        assert set(own) <= flags, spec.name
        declared.update(own)
        assert spec.model_kind in (COMET_MODEL, ENCODER_MODEL, MT5_MODEL) and spec.example_model
    assert {"--" + name.replace("_", "-") for name in LEARNED_FLAGS} == declared

"""The command line against sacrebleu 2.6's own command line, on real WMT files.

Each test runs ``bleu.cli.main`` in-process (and once ``python -m bleu`` in a subprocess) and
``python -m sacrebleu`` in a subprocess on the same files, in the same folder, and compares what
they print. The only difference allowed is the signature's ``version`` field (ours names this
package). Paired tests and confidence intervals use small sample counts and 100 segments to stay
fast; the full default runs belong to benchmarks/.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_lines
from sacrebleu_once import MEMO_VARIABLE

from bleu.cli import command as cli

WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"
WMT22_ZH = DATA_DIR / "wmt22_generaltest2022_en-zh"
SYSTEMS = ("Facebook-AI", "Online-W", "UEdin")
N_LINES = 100
_VERSION = re.compile(r'(version|v|"version"): ?"?(bleu-explorer-[0-9.]+|2\.6\.[0-9]+)"?')


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the first 100 lines of WMT21 en-de (refs A, C; three systems) and more."""
    folder = tmp_path_factory.mktemp("cli")

    def write(name: str, lines: list[str], newline: str = "\n", final: bool = True) -> None:
        text = newline.join(lines) + (newline if final else "")
        (folder / name).write_bytes(text.encode("utf-8"))

    for ref in "AC":
        write(f"ref{ref}.de", read_lines(WMT21 / f"newstest2021.en-de.ref.{ref}.de")[:N_LINES])
    for name in SYSTEMS:
        write(f"{name}.de", read_lines(WMT21 / f"newstest2021.en-de.hyp.{name}.de")[:N_LINES])
    ref_a, ref_c = (read_lines(folder / f"ref{k}.de") for k in "AC")
    write("refAC.tsv", [f"{a}\t{c}" for a, c in zip(ref_a, ref_c, strict=True)])
    write("refA.crlf.de", ref_a, newline="\r\n", final=False)
    write("Facebook-AI.crlf.de", read_lines(folder / "Facebook-AI.de"), newline="\r\n")
    write("short.de", ref_a[:10])
    write("ref.zh", read_lines(WMT22_ZH / "generaltest2022.en-zh.ref.A.zh")[:N_LINES])
    write("Online-B.zh", read_lines(WMT22_ZH / "generaltest2022.en-zh.hyp.Online-B.zh")[:N_LINES])
    (folder / "refA.de.gz").write_bytes(gzip.compress((folder / "refA.de").read_bytes()))
    for name in ("refA", "UEdin"):
        text = (folder / f"{name}.de").read_text(encoding="utf-8")
        (folder / f"{name}.utf16.de").write_bytes(text.encode("utf-16"))
    (folder / "latin1.de").write_bytes("Stra\xdfe\n".encode("latin-1"))
    # stray NULs inside lines are text, as sacrebleu reads them (issue 36); mostly NUL is not
    with_nul = [line.replace(" ", "\x00", 1) if k % 7 == 2 else line
                for k, line in enumerate(ref_a)]
    write("nul.de", with_nul)
    write("UEdin.nul.de", [line.replace("e", "\x00e", 1) if k % 5 == 1 else line
                           for k, line in enumerate(read_lines(folder / "UEdin.de"))])
    (folder / "zeros.de").write_bytes(b"\x00" * 3000 + b"\n")
    # a Latin-1 line 73 among UTF-8 ones, all in the first block the decoder reads
    late = [line.encode("utf-8") for line in ref_a]
    late[72] = "Stra\xdfe".encode("latin-1")
    (folder / "latin1_line73.de").write_bytes(b"\n".join(late) + b"\n")
    (folder / "latin1_line73.de.gz").write_bytes(gzip.compress(b"\n".join(late) + b"\n"))
    return folder


def _environment(seed: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")}
    env["NO_COLOR"] = "1"
    if seed is not None:
        env["SACREBLEU_SEED"] = seed
    return env


#: sacrebleu's command line, its TER search run once per session (see the file)
SACREBLEU_ONCE = Path(__file__).with_name("sacrebleu_once.py")


@pytest.fixture(scope="module", autouse=True)
def sacrebleu_ter_memo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The file where this module's sacrebleu runs keep TER searches: the same system against
    the same reference (most cases here) is searched by sacrebleu once."""
    path = tmp_path_factory.mktemp("sacrebleu") / "ter-memo.pickle"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(MEMO_VARIABLE, str(path))
        yield path


def sacrebleu(args: list[str], cwd: Path, stdin: str | None = None,
              seed: str | None = None) -> str:
    """What sacrebleu 2.6's command line prints (it must succeed)."""
    done = subprocess.run([sys.executable, str(SACREBLEU_ONCE), *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, encoding="utf-8", env=_environment(seed),
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _memo_size(path: Path) -> int:
    with path.open("rb") as handle:
        return len(pickle.load(handle))


def test_sacrebleu_with_the_ter_memo_prints_what_sacrebleu_prints(
        workdir: Path, tmp_path: Path, sacrebleu_ter_memo: Path) -> None:
    """The memo changes no number: the same output as plain ``python -m sacrebleu``; new
    pairs are searched and kept, known ones are not searched again."""
    ref = read_lines(workdir / "refA.de")[:12]
    hyp = [f"{line} (memo)" for line in read_lines(workdir / "UEdin.de")[:12]]  # new words
    for name, lines in (("ref.de", ref), ("hyp.de", hyp)):
        (tmp_path / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    args = ["ref.de", "-i", "hyp.de", "-m", "ter", "-sl"]
    plain = subprocess.run([sys.executable, "-m", "sacrebleu", *args], cwd=tmp_path,
                           capture_output=True, text=True, encoding="utf-8",
                           env={k: v for k, v in _environment(None).items()
                                if k != MEMO_VARIABLE}, check=True)
    before = _memo_size(sacrebleu_ter_memo) if sacrebleu_ter_memo.exists() else 0
    assert sacrebleu(args, tmp_path) == plain.stdout
    assert _memo_size(sacrebleu_ter_memo) == before + 12
    saved = sacrebleu_ter_memo.stat().st_mtime_ns
    assert sacrebleu(args, tmp_path) == plain.stdout
    assert sacrebleu_ter_memo.stat().st_mtime_ns == saved  # nothing new was searched


@pytest.fixture
def ours(workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Run ``cli.main`` in ``workdir``: returns (exit status, stdout, stderr)."""
    monkeypatch.chdir(workdir)
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)

    def run(args: list[str], stdin: str | bytes = "", seed: str | None = None,
            ) -> tuple[int, str, str]:
        if seed is None:
            monkeypatch.delenv("SACREBLEU_SEED", raising=False)
        else:
            monkeypatch.setenv("SACREBLEU_SEED", seed)
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        capsys.readouterr()
        status = cli.main(args)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def same_output(ours_out: str, theirs: str) -> None:
    """Equal text, the signature's version field aside."""
    assert _VERSION.sub(r"\1:X", ours_out) == _VERSION.sub(r"\1:X", theirs)


SINGLE_SYSTEM_CASES = [
    ["refA.de", "-i", "Facebook-AI.de"],
    ["refA.de", "-i", "Facebook-AI.de", "-f", "text"],
    ["refA.de", "refC.de", "-i", "UEdin.de", "-f", "text", "-w", "4"],
    ["refA.de", "-i", "Online-W.de", "-lc", "-tok", "intl", "-s", "floor", "-sv", "0.2"],
    ["refA.de", "-i", "Online-W.de", "-f", "text", "-s", "add-k", "-tok", "char"],
    ["refA.de", "-i", "Online-W.de", "-f", "text", "-s", "none", "-tok", "none", "--force"],
    ["refA.de", "-i", "Facebook-AI.de", "-b"],
    ["refA.de", "-i", "Facebook-AI.de", "-b", "-f", "text", "-w", "3"],
    ["refA.de", "-i", "Facebook-AI.de", "--short", "-f", "text"],
    ["refA.de", "-i", "Facebook-AI.de", "--short"],
    ["-nr", "2", "refAC.tsv", "-i", "Facebook-AI.de", "-f", "text"],
    ["refA.crlf.de", "-i", "Facebook-AI.crlf.de", "-f", "text"],
    ["refA.de.gz", "-i", "UEdin.de", "-f", "text"],
    ["refA.utf16.de", "-i", "UEdin.utf16.de", "-e", "utf-16", "-f", "text"],
    ["ref.zh", "-i", "Online-B.zh", "-l", "en-zh", "-f", "text"],
    ["refA.de", "-i", "Facebook-AI.de", "-f", "latex"],
    ["nul.de", "-i", "UEdin.nul.de", "-f", "text"],  # stray NULs: text, as sacrebleu reads it
]


@pytest.mark.parametrize("args", SINGLE_SYSTEM_CASES, ids=" ".join)
def test_single_system_as_sacrebleu(args: list[str], ours, workdir: Path) -> None:
    status, out, _ = ours(args)
    assert status == 0
    same_output(out, sacrebleu(args, workdir))


def test_json_is_sacrebleus_json(ours, workdir: Path) -> None:
    args = ["refA.de", "refC.de", "-i", "Facebook-AI.de", "-w", "2"]
    mine, theirs = json.loads(ours(args)[1]), json.loads(sacrebleu(args, workdir))
    assert mine.pop("version").startswith("bleu-explorer-") and theirs.pop("version") == "2.6.0"
    for record in (mine, theirs):
        record["signature"] = _VERSION.sub(r"\1:X", record["signature"])
    assert list(mine) == list(theirs) and mine == theirs


OTHER_METRIC_CASES = [
    ["refA.de", "-i", "Facebook-AI.de", "-m", "bleu", "chrf", "ter"],
    ["nul.de", "-i", "UEdin.nul.de", "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["refA.de", "refC.de", "-i", "UEdin.de", "-m", "chrf", "ter", "bleu", "-f", "text"],
    ["refA.de", "-i", "UEdin.de", "-m", "chrf", "-cw", "2", "-f", "text", "-w", "3"],
    ["refA.de", "-i", "UEdin.de", "-m", "chrf", "--chrf-lowercase", "--chrf-whitespace",
     "-cc", "4", "--chrf-beta", "1", "--chrf-eps-smoothing", "-f", "text"],
    ["refA.de", "-i", "UEdin.de", "-m", "ter", "--ter-case-sensitive", "--ter-no-punct",
     "--ter-normalized", "-f", "text", "--short"],
    ["refA.de", "-i", "Facebook-AI.de", "-m", "ter", "chrf", "-b"],
    ["refA.de", "-i", "Facebook-AI.de", "-m", "bleu", "chrf", "ter", "--confidence",
     "--confidence-n", "200", "-f", "text"],
    ["refA.de", "-i", "Facebook-AI.de", "-m", "chrf", "ter", "--confidence",
     "--confidence-n", "200"],
    ["refA.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["refA.de", "refC.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "ter", "chrf"],
    ["refA.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "bleu", "chrf", "ter",
     "--paired-bs", "--paired-bs-n", "200", "-f", "text"],
    ["refA.de", "refC.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-m", "chrf", "ter",
     "--paired-ar", "--paired-ar-n", "300"],
    ["refA.de", "-i", "Online-W.de", "-m", "chrf", "-sl", "-w", "3"],
    ["refA.de", "refC.de", "-i", "Online-W.de", "-m", "ter", "-sl", "-f", "text"],
]


@pytest.mark.parametrize("args", OTHER_METRIC_CASES, ids=" ".join)
def test_chrf_and_ter_as_sacrebleu(args: list[str], ours, workdir: Path) -> None:
    """``-m bleu chrf ter`` with their options, single system, tables, paired tests and sentence
    level: sacrebleu's exact output (the version field aside)."""
    status, out, _ = ours(args)
    assert status == 0
    same_output(out, sacrebleu(args, workdir))


MULTI_SYSTEM_CASES = [
    ["refA.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-f", "text"],
    ["refA.de", "-i", *(f"{s}.de" for s in SYSTEMS)],
    ["refA.de", "refC.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-f", "latex", "-w", "2"],
    ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "-b", "-f", "text", "--short"],
]


@pytest.mark.parametrize("args", MULTI_SYSTEM_CASES, ids=" ".join)
def test_multi_system_table_as_sacrebleu(args: list[str], ours, workdir: Path) -> None:
    status, out, _ = ours(args)
    assert status == 0
    same_output(out, sacrebleu(args, workdir))


@pytest.mark.parametrize("extra", [[], ["-b", "-w", "3"], ["--short", "-lc"]], ids=" ".join)
def test_sentence_level_line_by_line(extra: list[str], ours, workdir: Path) -> None:
    args = ["refA.de", "refC.de", "-i", "Online-W.de", "-sl", *extra]
    mine = ours(args)[1].splitlines()
    theirs = sacrebleu(args, workdir).splitlines()
    assert len(mine) == len(theirs) == N_LINES
    for number, (line, expected) in enumerate(zip(mine, theirs, strict=True), start=1):
        assert _VERSION.sub(r"\1:X", line) == _VERSION.sub(r"\1:X", expected), f"line {number}"


def test_stdin_one_system_and_tab_separated_systems(ours, workdir: Path) -> None:
    one = (workdir / "UEdin.de").read_text(encoding="utf-8")
    same_output(ours(["refA.de", "-f", "text"], stdin=one)[1],
                sacrebleu(["refA.de", "-f", "text"], workdir, stdin=one))
    columns = [read_lines(workdir / f"{s}.de") for s in SYSTEMS]
    tabbed = "".join("\t".join(row) + "\n" for row in zip(*columns, strict=True))
    same_output(ours(["refA.de", "-f", "text"], stdin=tabbed)[1],
                sacrebleu(["refA.de", "-f", "text"], workdir, stdin=tabbed))
    crlf = tabbed.replace("\n", "\r\n")  # stdin takes any line ending, as in sacrebleu
    same_output(ours(["refA.de", "-f", "text"], stdin=crlf)[1],
                sacrebleu(["refA.de", "-f", "text"], workdir, stdin=crlf))


def test_stdin_with_stray_nuls_scores_as_sacrebleu(ours, workdir: Path) -> None:
    """A NUL inside a line is text (issue 36): refusing the whole input as binary made the
    drop-in fail where sacrebleu answers."""
    text = (workdir / "UEdin.nul.de").read_text(encoding="utf-8")
    assert text.count("\x00") >= 20
    args = ["nul.de", "-m", "bleu", "chrf", "ter", "-f", "text"]
    status, out, _ = ours(args, stdin=text)
    assert status == 0
    same_output(out, sacrebleu(args, workdir, stdin=text))


def test_stdin_first_line_keeps_its_fields_whitespace_as_sacrebleu(ours, workdir: Path) -> None:
    """sacrebleu strips the first stdin line, not its fields (later lines' fields are stripped):
    with --chrf-whitespace a space before a tab on line 1 counts, and scores as sacrebleu's."""
    rows = [line.split(" ", 3) for line in read_lines(workdir / "UEdin.de")]
    tabbed = "".join(" ".join(words[:2]) + "  \t" + " ".join(words[2:]) + " \n" for words in rows)
    args = ["refA.de", "-m", "chrf", "--chrf-whitespace", "-w", "4", "-f", "text"]
    status, out, _ = ours(args, stdin=tabbed)
    assert status == 0
    same_output(out, sacrebleu(args, workdir, stdin=tabbed))
    stripped = tabbed.replace("  \t", "\t", 1)  # what stripping line 1's fields would score
    assert ours(args, stdin=stripped)[1] != out


def test_python_dash_m_bleu_in_a_subprocess(workdir: Path) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "Online-W.de", "-f", "text"]
    done = subprocess.run([sys.executable, "-m", "bleu", *args], cwd=workdir, capture_output=True,
                          text=True, encoding="utf-8", env=_environment(None), check=False)
    assert done.returncode == 0, done.stderr
    same_output(done.stdout, sacrebleu(args, workdir))


def test_output_piped_into_head_stops_quietly(workdir: Path) -> None:
    ref, hyp = WMT21 / "newstest2021.en-de.ref.A.de", WMT21 / "newstest2021.en-de.hyp.UEdin.de"
    command = f"{sys.executable} -m bleu {ref} -i {hyp} -sl | head -n 1"
    done = subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True,
                          check=False)
    assert done.stdout.startswith("BLEU|nrefs:1|") and done.stdout.count("\n") == 1
    assert done.stderr == ""


def test_confidence_interval_as_sacrebleu(ours, workdir: Path) -> None:
    for fmt in ("text", "json"):
        args = ["refA.de", "-i", "Facebook-AI.de", "--confidence", "-cin", "200", "-w", "2",
                "-f", fmt]
        same_output(ours(args)[1], sacrebleu(args, workdir))


PAIRED_CASES = [
    ["--paired-bs", "--paired-bs-n", "100"],
    ["--paired-ar", "--paired-ar-n", "100"],
    ["-pbs", "-pbsn", "50", "-w", "2", "--short"],
]


@pytest.mark.parametrize("test", PAIRED_CASES, ids=" ".join)
def test_paired_test_table_as_sacrebleu(test: list[str], ours, workdir: Path) -> None:
    args = ["refA.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-f", "text", *test]
    status, out, _ = ours(args)
    assert status == 0
    same_output(out, sacrebleu(args, workdir))


@pytest.mark.parametrize("test", PAIRED_CASES[:2], ids=" ".join)
def test_paired_test_json_three_systems(test: list[str], ours, workdir: Path) -> None:
    """Valid JSON with plain floats (sacrebleu's can fail on NumPy floats), equal to sacrebleu's."""
    args = ["refA.de", "refC.de", "-i", *(f"{s}.de" for s in SYSTEMS), "-f", "json", *test]
    mine, theirs = json.loads(ours(args)[1]), json.loads(sacrebleu(args, workdir))
    assert [r["system"] for r in mine] == [r["system"] for r in theirs]
    assert mine[0]["system"] == "Baseline: Facebook-AI.de"
    for record, expected in zip(mine, theirs, strict=True):
        assert list(record["BLEU"]) == ["score", "p_value", "mean", "ci"]
        for key, value in record["BLEU"].items():
            want = expected["BLEU"][key]
            if want is None:
                assert value is None, key
            else:
                assert type(value) is float and value == want, key  # to the last digit


def test_seed_from_sacrebleu_seed(ours, workdir: Path) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "-f", "text", "-pbs", "-pbsn", "100"]
    status, out, _ = ours(args, seed="7")
    assert status == 0 and "seed:7|" in out
    same_output(out, sacrebleu(args, workdir, seed="7"))
    assert out != ours(args)[1]  # the default seed 12345 gives other resamples


def test_paired_jobs_is_accepted_and_ignored(ours) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "-pbs", "-pbsn", "20", "-j", "0"]
    status, out, err = ours(args)
    assert status == 0 and "--paired-jobs is ignored" in err
    assert ours(args[:-2])[1] == out


def test_baseline_repeated_in_a_paired_test_is_skipped(ours) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "Facebook-AI.de", "-pbs", "-pbsn",
            "20", "-f", "json"]
    status, out, err = ours(args)
    assert status == 0 and "Ignoring 'Facebook-AI.de'" in err
    assert [r["system"] for r in json.loads(out)] == ["Baseline: Facebook-AI.de", "UEdin.de"]


def test_confidence_of_every_metric_is_sacrebleus_to_the_last_digit(ours, workdir: Path) -> None:
    """sacrebleu's single-system interval takes the exact ``statistics.mean`` (a float32 for
    chrF and TER): the JSON numbers are equal, not merely close."""
    args = ["refA.de", "-i", "UEdin.de", "-m", "bleu", "chrf", "ter", "--confidence", "-cin",
            "300", "-f", "json", "-w", "12"]
    mine, theirs = json.loads(ours(args)[1]), json.loads(sacrebleu(args, workdir))
    def numbers(records: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k not in ("signature", "version")}
                for r in records]

    assert numbers(mine) == numbers(theirs)


def test_width_must_be_zero_or_more(ours) -> None:
    with pytest.raises(SystemExit) as stop:  # sacrebleu crashes with a traceback
        ours(["refA.de", "-i", "UEdin.de", "-w", "-1"])
    assert stop.value.code == 2


def test_language_warnings_come_once_and_say_what_to_do(ours) -> None:
    status, _, err = ours(["ref.zh", "-i", "Online-B.zh", "-l", "en-zh", "-tok", "13a"])
    assert status == 0 and err.count("Consider using the 'zh' tokenizer") == 1
    status, _, err = ours(["ref.zh", "-i", "Online-B.zh", "-l", "en-zh", "-tok", "13a",
                           "-m", "chrf"])
    assert status == 0 and "Consider using" not in err  # a BLEU tokenizer: BLEU's warning
    status, _, err = ours(["refA.de", "-i", "UEdin.de", "-l", "de"])
    assert status == 0 and "-l expects a source-target pair such as en-de" in err



def test_tokenized_text_warning_names_the_flag(ours, workdir: Path) -> None:
    lines = "".join(f"line {k} .\n" for k in range(100))
    (workdir / "tokenized.txt").write_text(lines, encoding="utf-8")
    status, _, err = ours(["tokenized.txt", "-i", "tokenized.txt"])
    assert status == 0 and "100 hypothesis lines end in a tokenized period" in err
    assert "(--force on the command line)" in err
    assert "tokenized period" not in ours(["tokenized.txt", "-i", "tokenized.txt",
                                           "--force"])[2]


def test_quiet_keeps_stderr_free_of_information(ours) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "-f", "text"]
    assert "Found 2 systems" in ours(args)[2]
    assert ours([*args, "-q"])[2] == ""


def test_sacrebleu_format_environment_variable(ours, monkeypatch: pytest.MonkeyPatch) -> None:
    text = ours(["refA.de", "-i", "Facebook-AI.de", "-f", "text"])[1]
    monkeypatch.setenv("SACREBLEU_FORMAT", "text")
    assert ours(["refA.de", "-i", "Facebook-AI.de"])[1] == text
    assert text.startswith("BLEU|nrefs:1|")


def test_max_ngram_order_extension_matches_sacrebleus_api(ours) -> None:
    from sacrebleu.metrics import BLEU

    hyps, refs = read_lines(Path("Online-W.de")), [read_lines(Path("refA.de"))]
    expected = BLEU(max_ngram_order=2).corpus_score(hyps, refs)
    status, out, _ = ours(["refA.de", "-i", "Online-W.de", "--max-ngram-order", "2", "-b",
                           "-w", "6"])
    assert status == 0 and out.strip() == f"{expected.score:.6f}"


BAD_INPUT = [
    # read no further than the references allow (issue 36): the count cannot match any more
    (["short.de", "-i", "Facebook-AI.de"], "short.de has 10 lines, but Facebook-AI.de has more"),
    (["short.de", "-i", "Facebook-AI.de", "UEdin.de", "-m", "chrf"],
     "short.de has 10 lines, but Facebook-AI.de has more"),
    (["short.de", "refA.de", "-i", "UEdin.de", "-m", "chrf"],
     "refA.de has more lines than short.de (10)"),
    (["refA.de", "short.de", "-i", "UEdin.de"], "short.de has 10 lines, but UEdin.de has 100"),
    (["refA.de", "-i", "missing.de"], "missing.de: no such file"),
    (["missing.de", "-i", "UEdin.de"], "missing.de: no such file"),
    (["refA.de", "-i", "UEdin.de", "-tok", "foo"], "Unknown tokenizer 'foo'"),
    (["refA.de", "-i", "UEdin.de", "-tok", "spm"], "downloaded from the internet"),
    (["refA.de", "-i", "UEdin.de", "-s", "bar"], "Unknown smoothing method 'bar'"),
    (["refA.de", "-i", "UEdin.de", "--max-ngram-order", "0"], "max_ngram_order must be"),
    (["-i", "UEdin.de"], "No reference files given"),
    (["-t", "wmt21", "-l", "en-de", "-i", "UEdin.de"], "--test-set needs sacrebleu's online"),
    (["refA.de", "-i", "UEdin.de", "-m", "bleu", "chrf", "-sl"], "Only one metric can be used"),
    (["refA.de", "-i", "UEdin.de", "-m", "chrf", "-cc", "0"], "char_order"),
    (["refA.de", "-i", "UEdin.de", "--paired-bs"], "need two or more systems"),
    (["refA.de", "-i", "UEdin.de", "Online-W.de", "--confidence"], "--confidence is for one"),
    (["refA.de", "-i", "UEdin.de", "Online-W.de", "-sl"], "Only one system can be scored"),
    (["refA.de", "-i", "UEdin.de", "UEdin.de"], "'UEdin.de' is given twice"),
    (["-nr", "3", "refAC.tsv", "-i", "UEdin.de"], "refAC.tsv, line 1: expected 3 tab-separated"),
    (["refA.de", "-i", "latin1.de"], "latin1.de, line 1: not valid utf-8 text"),
    (["refA.de", "-i", "latin1_line73.de"], "latin1_line73.de, line 73: not valid utf-8 text"),
    (["refA.de", "-i", "latin1_line73.de.gz"], "latin1_line73.de.gz, line 73: not valid utf-8"),
    (["refA.de", "-i", "UEdin.de", "Online-W.de", "-e", "utf-16"],
     "refA.de, line 1: not valid utf-16 text (UTF-16 stream does not start with BOM)"),
    (["refA.de", "-i", "UEdin.de", "-e", "no-such-codec"], "Unknown encoding 'no-such-codec'"),
    (["zeros.de", "-i", "UEdin.de"], "zeros.de, line 1: mostly NUL bytes (UTF-16 text needs -e "
     "utf-16), so this is binary data or text that is not line-based"),
    (["refA.de", "-i", "UEdin.utf16.de"], "UEdin.utf16.de, line 1: not valid utf-8 text"),
    (["refA.de", "-i", "UEdin.de", "Online-W.de", "--line-limit", "40"],
     "refA.de, line 1: longer than 40 characters, the line limit (--line-limit), so this is "
     "binary data or text that is not line-based"),
    (["refA.de", "-i", "UEdin.de", "--line-limit", "40"], "UEdin.de, line 1: longer than 40 "
     "characters"),  # one system and BLEU: read while scoring, in chunks, the system first
    (["-nr", "2", "refAC.tsv", "-i", "UEdin.de", "--line-limit", "200"],
     "refAC.tsv, line 1: longer than 200 characters"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT, ids=lambda x: " ".join(x))
def test_bad_input_gives_one_line_and_status_1(args: list[str], message: str, ours) -> None:
    status, out, err = ours(args)
    assert status == 1 and out == ""
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0], err
    assert "Traceback" not in err


def test_bad_stdin(ours) -> None:
    status, _, err = ours(["refA.de"], stdin="a\tb\nc\n")
    assert status == 1 and "stdin, line 2: expected 2 tab-separated system outputs" in err
    status, _, err = ours(["refA.de"], stdin="")
    assert status == 1 and "stdin: no input" in err
    status, _, err = ours(["refA.de"], stdin="one line\n")
    assert status == 1 and "refA.de has 100 lines, but stdin has 1" in err
    status, _, err = ours(["refA.de"], stdin=b"one\r\ntwo\r" + b"\x00" * 20 + b"\n")
    assert status == 1 and "stdin, line 3: mostly NUL bytes (UTF-16 text needs -e utf-16), so " \
        "this is binary data or text that is not line-based; expected text with one segment " \
        "per line." in err
    status, _, err = ours(["refA.de"], stdin=b"one\ntwo\nStra\xdfe\n")
    assert status == 1 and "stdin, line 3: not valid utf-8 text (invalid continuation byte)" in err
    status, _, err = ours(["refA.de", "--line-limit", "500"], stdin="short\n" + "x" * 501)
    assert status == 1 and "stdin, line 2: longer than 500 characters, the line limit" in err


@pytest.mark.parametrize("limit", ["0", "-3", "many"])
def test_line_limit_must_be_one_or_more(limit: str, ours) -> None:
    with pytest.raises(SystemExit) as stop:
        ours(["refA.de", "-i", "UEdin.de", "--line-limit", limit])
    assert stop.value.code == 2


def test_line_limit_is_stated_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--line-limit CHARS Refuse input with a line longer than this as binary or not " \
        "line-based, naming the file (or stdin) and line (default: 1,000,000 characters" \
        in help_text


def test_bad_seed_and_unknown_flag(ours) -> None:
    args = ["refA.de", "-i", "Facebook-AI.de", "UEdin.de", "-pbs", "-pbsn", "20"]
    status, _, err = ours(args, seed="lucky")
    assert status == 1 and "SACREBLEU_SEED must be an integer or 'none'" in err
    with pytest.raises(SystemExit) as stop:
        ours(["refA.de", "--no-such-flag"])
    assert stop.value.code == 2


def test_unknown_flag_message_is_one_line(workdir: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bleu", "refA.de", "--no-such-flag"],
                          cwd=workdir, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "unrecognized arguments: --no-such-flag" in done.stderr

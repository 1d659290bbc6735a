"""The command line as a user runs it: whole processes, start-up included, ours against
sacrebleu's, the two alternating run by run; median wall time and peak memory of several runs.

    python benchmarks/bench_cli.py [--runs 5] [--big] [--only TEXT]

Cases: ``--help``; one system file of 1k, 30k (and with ``--big`` 300k) segments against 1 and
4 references; ``--paired-bs`` and ``--paired-ar`` with 4 systems x 1k x 3 references;
``-m bleu chrf ter`` on one system. Every case first checks that both print the same scores
(the signature's version field aside). Files are written to a temporary folder; each process
is timed from the outside (``os.wait4``: wall clock, and the child's own peak RSS).

Both commands run as a user who installed them runs them: from a throwaway virtual environment
whose path holds our package and this environment's packages, each started by pip's
console-script launcher. A development checkout's editable install would otherwise load its
import hook (and pathlib) into every Python process of this environment, sacrebleu's included:
about 9 ms that no installed copy pays.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from corpora import WMT21, corpus, read_lines

import bleu

#: the entry points of both commands (``[project.scripts]`` of each package)
ENTRY_POINTS = {"bleu-explorer": "bleu.cli:main", "sacrebleu": "sacrebleu.sacrebleu:main"}
#: pip's console-script launcher
_CONSOLE_SCRIPT = """#!{python}
import re
import sys
from {module} import {function}
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit({function}())
"""
_VERSION = re.compile(r"(bleu-explorer-[0-9.]+|2\.6\.[0-9]+)")


@dataclass(frozen=True)
class Measure:
    """Median wall seconds and median peak RSS (MiB) of several runs of one command."""

    wall: float
    peak_mib: float


#: run in a bare interpreter (a few MiB) that starts the measured command: a child forked from
#: this script would inherit its peak RSS as a floor (Linux counts the pre-exec memory)
_LAUNCHER = """
import os, sys, time
out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
null = os.open(os.devnull, os.O_RDWR)
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out, 1),
                                   (os.POSIX_SPAWN_DUP2, null, 2)])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def installed_commands(folder: Path) -> dict[str, list[str]]:
    """Both commands in a throwaway virtual environment, as installed (see the module's doc)."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    repository = Path(bleu.__file__).parent.parent
    Path(site.stdout.strip(), "installed.pth").write_text(
        f"{repository}\n{sysconfig.get_paths()['purelib']}\n", encoding="utf-8")
    commands = {}
    for name, entry in ENTRY_POINTS.items():
        module, function = entry.split(":")
        script = venv / "bin" / name
        script.write_text(_CONSOLE_SCRIPT.format(python=python, module=module,
                                                  function=function), encoding="utf-8")
        script.chmod(0o755)
        commands[name] = [str(script)]
    return commands


def run_once(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, the process's peak RSS in MiB, and what it printed."""
    env = {**os.environ, "NO_COLOR": "1", "SACREBLEU_SEED": "12345"}
    with tempfile.NamedTemporaryFile() as out:
        report = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, out.name, *command],
                                cwd=cwd, env=env, capture_output=True, text=True, check=True)
        wall, peak_kib, code = report.stdout.split()
        if int(code):
            raise RuntimeError(f"{' '.join(command)} exited {code}")
        return float(wall), int(peak_kib) / 1024, Path(out.name).read_text(encoding="utf-8")


def compare(args: list[str], cwd: Path, runs: int, ours: list[str], theirs: list[str],
            ) -> tuple[Measure, Measure]:
    """Both commands ``runs`` times after a warm-up each, alternating; same output asserted."""
    ours_out = run_once([*ours, *args], cwd)[2]
    theirs_out = run_once([*theirs, *args], cwd)[2]
    if args != ["--help"] and _VERSION.sub("V", ours_out) != _VERSION.sub("V", theirs_out):
        raise AssertionError(f"outputs differ for {args}:\n{ours_out}\n---\n{theirs_out}")
    samples: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    for _ in range(runs):
        for side, command in (("ours", ours), ("theirs", theirs)):
            wall, peak, _ = run_once([*command, *args], cwd)
            samples[side].append((wall, peak))
    return tuple(Measure(statistics.median(w for w, _ in found),  # type: ignore[return-value]
                         statistics.median(p for _, p in found))
                 for found in (samples["ours"], samples["theirs"]))


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path.name


def cases(folder: Path, big: bool) -> list[tuple[str, list[str]]]:
    """(description, arguments) of every case, its files written into ``folder``."""
    found: list[tuple[str, list[str]]] = [("--help", ["--help"])]
    sizes = [1_000, 30_000, *([300_000] if big else [])]
    for n in sizes:
        for n_refs in (1, 4):
            hyps, refs = corpus(n, n_refs)
            hyp = write(folder / f"hyp.{n}.{n_refs}", hyps)
            ref_files = [write(folder / f"ref.{n}.{n_refs}.{k}", ref)
                         for k, ref in enumerate(refs)]
            found.append((f"one file, {n:,} segments x {n_refs} ref", [*ref_files, "-i", hyp]))
    refs = [write(folder / f"wmt21.ref.{k}", read_lines(WMT21 / f"newstest2021.en-de.ref.{k}.de"))
            for k in "ACD"]
    systems = [write(folder / f"wmt21.{name}", read_lines(
        WMT21 / f"newstest2021.en-de.hyp.{name}.de"))
        for name in ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")]
    found.append(("--paired-bs, 4 systems x 1,002 x 3 refs", [*refs, "-i", *systems,
                                                              "--paired-bs"]))
    found.append(("--paired-ar, 4 systems x 1,002 x 3 refs", [*refs, "-i", *systems,
                                                              "--paired-ar"]))
    found.append(("-m bleu chrf ter, 1 system x 1,002 x 3 refs",
                  [*refs, "-i", systems[0], "-m", "bleu", "chrf", "ter"]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each side (median)")
    parser.add_argument("--big", action="store_true", help="add 300k-segment files (slow)")
    parser.add_argument("--only", default="", help="run only the cases whose name has this text")
    options = parser.parse_args()
    # byte-compile our package as pip does for an installed one (sacrebleu's came compiled);
    # an editable install under PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module
    # from source in every run (about 30 ms here)
    compileall.compile_dir(Path(bleu.__file__).parent, quiet=1)
    print("| case | ours (s) | sacrebleu (s) | ratio | ours peak (MiB) | sacrebleu peak (MiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = installed_commands(folder)
        for description, args in cases(folder, options.big):
            if options.only not in description:
                continue
            ours, theirs = compare(args, folder, options.runs, commands["bleu-explorer"],
                                   commands["sacrebleu"])
            print(f"| {description} | {ours.wall:.3f} | {theirs.wall:.3f} | "
                  f"{theirs.wall / ours.wall:.1f}x | {ours.peak_mib:.0f} | "
                  f"{theirs.peak_mib:.0f} |", flush=True)


if __name__ == "__main__":
    main()

"""Run every speed benchmark against sacrebleu and write benchmarks/RESULTS.md.

    python benchmarks/run_all.py [--sacrebleu-300k]

Each benchmark first checks that our scores (or words) equal sacrebleu's; the table gives the
best-of-N wall time of both and the ratio, plus the CPU-time ratio (steadier when the machine
is shared). See benchmarks/README.md for what each case measures.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from importlib.metadata import version
from multiprocessing import get_context
from pathlib import Path

import bench_chrf
import bench_corpus
import bench_systems
import bench_ter
import bench_tokenizers
from timing import Row

HERE = Path(__file__).resolve().parent


def cpu_model() -> str:
    """The CPU's model name, from /proc/cpuinfo where there is one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine() -> str:
    """One line describing where the numbers were measured."""
    versions = ", ".join(f"{name} {version(name)}" for name in
                         ("numpy", "pandas", "pyarrow", "regex", "sacrebleu"))
    return (f"{cpu_model()}, {os.cpu_count()} cores; {platform.system()} "
            f"{platform.release()}; Python {platform.python_version()}; {versions}")


def table(rows: list[Row]) -> str:
    lines = ["| benchmark | case | ours wall (s) | sacrebleu wall (s) | ratio | ours CPU (s) | "
             "sacrebleu CPU (s) | CPU ratio | note |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {r.benchmark} | {r.case} | {r.ours.wall:.3f} | {r.sacrebleu.wall:.3f} | "
              f"{r.ratio:.1f}x | {r.ours.cpu:.3f} | {r.sacrebleu.cpu:.3f} | {r.cpu_ratio:.1f}x | "
              f"{r.note} |" for r in rows]
    return "\n".join(lines)

#: where the sections of benchmarks that are not run here begin in RESULTS.md
OTHERS = "## A class on one server"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sacrebleu-300k", action="store_true",
                        help="measure sacrebleu at 300k segments (minutes) instead of "
                             "extrapolating from 30k")
    args = parser.parse_args()
    rows: list[Row] = []
    jobs = ((bench_corpus.rows, (args.sacrebleu_300k,)), (bench_systems.rows, ()),
            (bench_tokenizers.rows, ()), (bench_chrf.rows, ()), (bench_ter.rows, ()))
    for job, job_args in jobs:
        # each benchmark in a fresh interpreter, so that none inherits another's heap
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
            found = pool.submit(job, *job_args).result()
        for row in found:
            print(row.line(), flush=True)
        rows += found
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = "\n".join([
        "# Speed against sacrebleu", "",
        f"Measured {stamp} by `python benchmarks/run_all.py` on: {machine()}.", "",
        "Ratio: sacrebleu's wall time over ours, best of N runs on unique inputs (the two "
        "sides alternating, so both see the same machine), every run's "
        "score checked identical to sacrebleu's first. CPU ratio: the same with process CPU "
        "time, steadier when other work shares the machine.", "",
        table(rows), "",
    ])
    results = HERE / "RESULTS.md"
    kept = results.read_text(encoding="utf-8") if results.exists() else ""
    if OTHERS in kept:  # sections other benchmarks wrote (bench_sessions.py): kept as they are
        text += "\n" + kept[kept.index(OTHERS):]
    results.write_text(text, encoding="utf-8")
    print(f"wrote {HERE / 'RESULTS.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()

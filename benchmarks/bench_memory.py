"""Peak memory of significance on big corpora: the paired bootstrap of two systems (BLEU) for
200k, 1M and 2M segments with 1,000 and 10,000 resamples, each case in its own process.

    python benchmarks/bench_memory.py [--sizes 200000 1000000 2000000] [--resamples 1000 10000]

Each case tokenizes and counts the corpus, then runs ``paired_bootstrap_from_stats``; the table
gives the process's peak RSS (read by a bare launcher, so this script's own memory is not a
floor), the wall time of the statistics and of the test, and what ``bleu.evaluation.budget``
estimates the app would hold for such a data set. Resamples are drawn in blocks, so the peak
should not grow with the resample count.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: what runs in the measured process: build the corpus, count, test; print timings as JSON
_CASE = """
import json, sys, time
sys.path.insert(0, {here!r})
from corpora import corpus
from bleu.metrics.bleu import BLEU
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.significance import paired_bootstrap_from_stats
n, resamples = {n}, {resamples}
hyps, refs = corpus(n, 1)
other = hyps[1:] + hyps[:1]
start = time.perf_counter()
metric = BLEU(references=refs)
stats = {{"A": metric.segment_stats(hyps), "B": metric.segment_stats(other)}}
counted = time.perf_counter()
paired_bootstrap_from_stats(stats, BLEUOptions(), baseline="A", n_samples=resamples)
done = time.perf_counter()
print(json.dumps({{"stats": counted - start, "test": done - counted}}))
"""

#: a bare interpreter that runs one case and reports its peak RSS (KiB)
_LAUNCHER = """
import os, sys
pid = os.posix_spawn(sys.executable, [sys.executable, "-c", sys.argv[1]], os.environ)
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def measure(n: int, resamples: int) -> tuple[float, dict[str, float]]:
    """Peak RSS (MiB) and the case's own timings."""
    code = _CASE.format(here=str(HERE), n=n, resamples=resamples)
    with subprocess.Popen([sys.executable, "-S", "-c", _LAUNCHER, code],
                          stdout=subprocess.PIPE, text=True) as launcher:
        output = launcher.communicate()[0].strip().splitlines()
    peak_kib, code_exit = output[-1].split()
    if int(code_exit):
        raise RuntimeError(f"case {n} x {resamples} exited {code_exit}")
    return int(peak_kib) / 1024, json.loads(output[0])


def app_estimate_mb(n: int) -> float:
    """``bleu.evaluation.budget``'s estimate for two systems and one reference of ``n`` lines."""
    from corpora import corpus

    from bleu.evaluation.budget import estimate_memory_mb
    from bleu.io import TextFile
    from bleu.io.dataset import Dataset

    hyps, refs = corpus(n, 1)
    hyp = TextFile("hyp", tuple(hyps))
    data = Dataset({"A": hyp, "B": hyp}, (TextFile("ref", tuple(refs[0])),))
    return estimate_memory_mb(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200_000, 1_000_000, 2_000_000])
    parser.add_argument("--resamples", type=int, nargs="+", default=[1_000, 10_000])
    options = parser.parse_args()
    print("| segments | resamples | peak RSS (MiB) | statistics (s) | paired bootstrap (s) | "
          "app estimate (MiB) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in options.sizes:
        estimate = app_estimate_mb(n)
        for resamples in options.resamples:
            peak, times = measure(n, resamples)
            print(f"| {n:,} | {resamples:,} | {peak:,.0f} | {times['stats']:.1f} | "
                  f"{times['test']:.1f} | {estimate:,.0f} |", flush=True)


if __name__ == "__main__":
    main()

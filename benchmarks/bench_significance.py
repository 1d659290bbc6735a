"""Significance benchmark: our paired tests against sacrebleu's PairedTest, side by side.

Cases (real data from ../shared/data):
1. paired bootstrap, 1000 resamples, end to end (tokenizing included): 4 WMT21 en-de systems,
   3 references, 1002 segments (target: >= 10x faster than sacrebleu);
2. paired approximate randomization, 10000 trials, same data (target: >= 20x);
3. the app's case: paired bootstrap of 4 systems x 3004 segments (WMT17 en-de) from statistics
   already computed (target: < 50 ms).

Every run gets unique inputs (each line ends in its own ``<run>x0`` token, or a new seed for
case 3), so no cache keyed on lines is timed; each case first asserts that both give the same
scores, p-values, means and CIs. Times are medians over ``--repeats`` runs, wall-clock and
process CPU time (steadier than wall time on a shared machine), with the ratio of each.

BLAS is pinned to one thread before NumPy loads, as sacrebleu runs on one core: on a shared
2-core machine, OpenBLAS's spinning threads cost more than they gain (pass ``--blas-threads``
to change it).

    python benchmarks/bench_significance.py [--repeats 3] [--blas-threads 1]
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # must precede the first NumPy import
    _THREADS = "1"
    if "--blas-threads" in sys.argv[:-1]:
        _THREADS = sys.argv[sys.argv.index("--blas-threads") + 1]
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_name] = _THREADS

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from corpora import WMT17, WMT21, read_lines, replicate
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest

import bleu

SYSTEMS = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")
WMT17_SYSTEMS = ("uedin-nmt.4722", "KIT.4950", "LIUM-NMT.4900", "online-B.0")


def wmt21(run: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    """The 4 systems and 3 references, every line made unique to this run."""
    def lines(name: str) -> list[str]:
        text = read_lines(WMT21 / f"newstest2021.en-de.{name}.de")
        return replicate(text, len(text), run)
    return ({name: lines(f"hyp.{name}") for name in SYSTEMS},
            [lines(f"ref.{k}") for k in "ACD"])


def sacrebleu_test(systems: dict[str, list[str]], refs: list[list[str]], test_type: str,
                   n_samples: int) -> list[tuple[str, Any]]:
    metric = SacreBLEU(references=refs)
    _, scores = PairedTest(list(systems.items()), {"BLEU": metric}, references=None,
                           test_type=test_type, n_samples=n_samples)()
    return list(zip(scores["System"], scores["BLEU"], strict=True))


def check_same(ours: dict[str, bleu.SignificanceResult], theirs: list[tuple[str, Any]]) -> None:
    assert list(ours) == [name for name, _ in theirs]
    for name, result in theirs:
        for field in ("score", "p_value", "mean", "ci"):
            a, b = getattr(ours[name], field), getattr(result, field)
            assert (a is None and b is None) or abs(a - float(b)) <= 1e-9, (name, field, a, b)


def median_time(run: Callable[[int], Any], repeats: int, first: int = 0,
                ) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of ``run(index)`` over ``repeats`` distinct indices."""
    walls, cpus = [], []
    for index in range(first, first + repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run(index)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


Timings = tuple[float, float, float, float]  # sacrebleu wall, CPU; our wall, CPU


def text_case(test_type: str, n_samples: int, repeats: int) -> Timings:
    ours_fn = (bleu.paired_bootstrap if test_type == "bs"
               else bleu.paired_approximate_randomization)
    systems, refs = wmt21(0)
    check_same(ours_fn(systems, refs, n_samples=n_samples),
               sacrebleu_test(systems, refs, test_type, n_samples))
    inputs = {run: wmt21(run) for run in range(1, 1 + 2 * repeats)}
    theirs = median_time(lambda r: sacrebleu_test(*inputs[r], test_type, n_samples), repeats, 1)
    ours = median_time(lambda r: ours_fn(*inputs[r], n_samples=n_samples), repeats, 1 + repeats)
    return *theirs, *ours


def app_case(repeats: int) -> Timings:
    refs = [read_lines(WMT17 / "newstest2017.en-de.ref.de")]
    systems = {name: read_lines(WMT17 / f"newstest2017.{name}.en-de.de")
               for name in WMT17_SYSTEMS}
    metric = bleu.BLEU(references=refs)
    stats = {name: metric.segment_stats(hyps) for name, hyps in systems.items()}
    check_same(bleu.paired_bootstrap_from_stats(stats, metric.options),
               sacrebleu_test(systems, refs, "bs", 1000))
    theirs = median_time(lambda r: sacrebleu_test(systems, refs, "bs", 1000), 1)
    ours = median_time(lambda r: bleu.paired_bootstrap_from_stats(
        stats, metric.options, seed=1000 + r), 10 * repeats)
    return *theirs, *ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--blas-threads", default="1", help="BLAS threads (default 1)")
    args = parser.parse_args()
    os.environ["SACREBLEU_SEED"] = "12345"
    rows = [
        ("paired bootstrap, 4 sys x 1002 seg x 3 refs, text (1000)", ">= 10x",
         *text_case("bs", 1000, args.repeats)),
        ("approximate randomization, same (10000)", ">= 20x",
         *text_case("ar", 10000, args.repeats)),
        ("paired bootstrap from stats, 4 sys x 3004 seg (1000)", "< 50 ms",
         *app_case(args.repeats)),
    ]
    print(f"BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'default')}")
    print(f"{'case':58} {'target':>8} | {'wall: sacrebleu':>15} {'ours':>9} {'ratio':>7} | "
          f"{'CPU: sacrebleu':>14} {'ours':>9} {'ratio':>7}")
    for index, (name, target, wall_t, cpu_t, wall_o, cpu_o) in enumerate(rows):
        mark = "*" if index == 2 else " "
        print(f"{name:58} {target:>8} | {wall_t:14.3f}s {wall_o * 1000:7.1f}ms "
              f"{wall_t / wall_o:6.1f}x{mark}| {cpu_t:13.3f}s {cpu_o * 1000:7.1f}ms "
              f"{cpu_t / cpu_o:6.1f}x{mark}")
    print("Identical scores, p-values, means and CIs asserted first; medians of runs on unique "
          "inputs.\n* sacrebleu has no test on precomputed statistics: its time there is its "
          "PairedTest from text.")


if __name__ == "__main__":
    main()

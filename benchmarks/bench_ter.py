"""TER, ours against sacrebleu's, on WMT22 en-de (2037 segments, refs A and B).

Cases, each compared like with like:

- corpus, one shot: a new metric object per call, the references tokenized inside the timed
  call on both sides;
- corpus, references cached: both metric objects built once with ``references=``, outside
  the timing (what scoring many systems against one test set costs per system);
- sentence scores of every segment: ``sentence_score`` segment by segment on both sides, and
  ours also in one ``sentence_scores`` call (one ``segment_stats``, every row scored at once).

Each run scores another of the 9 systems (run i: system i mod 9), the same on both sides; the
sides alternate run by run, best of N. Every score (corpus: score, edits and reference length;
sentences: every score) is checked identical (``==``): once before timing, which also loads
the compiled kernel, and for every timed run. sacrebleu needs 3-6 s per system here, so
``--segments`` can cut the set to its first N segments.

The kernel's first-call cost (numba's import, then compiling, or loading from numba's disk
cache) is not in the ratios; it is measured apart, in child processes with an empty cache
folder of their own: the first compiles, the second loads what the first cached.

    python benchmarks/bench_ter.py [--repeats N] [--segments N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from corpora import DATA, read_lines
from sacrebleu.metrics import TER as SacreTER
from timing import Row, best_times

from bleu.metrics.ter import TER

WMT22 = DATA / "wmt22_generaltest2022_en-de"
#: the speed-up every case must reach (the goal of bleu.metrics.ter)
TARGET = 20.0

#: run in a child process: import, then the first TER computed (numba imported, the kernel
#: compiled or loaded from the cache folder named by NUMBA_CACHE_DIR)
FIRST_CALL = """
import json, sys, time
start = time.perf_counter()
from bleu.metrics.ter import corpus_ter
imported = time.perf_counter()
numba_before = "numba" in sys.modules
corpus_ter(["d e f g h a b c"], [["a b c d e f g h"]])
done = time.perf_counter()
print(json.dumps({"import": imported - start, "first_call": done - imported,
                  "numba_before": numba_before}))
"""


def test_set(segments: int | None) -> tuple[list[list[str]], dict[str, list[str]]]:
    """The 9 WMT22 en-de systems and references A and B (their first ``segments``)."""
    systems = [read_lines(path)[:segments]
               for path in sorted(WMT22.glob("generaltest2022.en-de.hyp.*.de"))]
    refs = {k: read_lines(WMT22 / f"generaltest2022.en-de.ref.{k}.de")[:segments] for k in "AB"}
    return systems, refs


def _check(what: str, ours: Any, theirs: Any) -> None:
    if ours != theirs:
        raise AssertionError(f"{what}: ours {ours!r:.200} != sacrebleu {theirs!r:.200}")


def _fields(score: Any) -> tuple[float, int, float]:
    return score.score, score.num_edits, score.ref_length


def _sentences(metric: Any, hyps: list[str], refs: list[list[str]]) -> list[float]:
    return [metric.sentence_score(hyp, [stream[i] for stream in refs]).score
            for i, hyp in enumerate(hyps)]


def cases(systems: list[list[str]], refs: list[list[str]],
          ) -> dict[str, tuple[Callable[[int], Any], Callable[[int], Any]]]:
    """Per case: (ours, sacrebleu), each taking the run number and returning its results."""
    cached_ours, cached_theirs = TER(references=refs), SacreTER(references=refs)

    def hyps(i: int) -> list[str]:
        return systems[i % len(systems)]

    def sacrebleu_sentences(i: int) -> list[float]:
        return _sentences(SacreTER(), hyps(i), refs)

    return {
        "corpus one-shot": (lambda i: _fields(TER().corpus_score(hyps(i), refs)),
                            lambda i: _fields(SacreTER().corpus_score(hyps(i), refs))),
        "corpus refs cached": (lambda i: _fields(cached_ours.corpus_score(hyps(i))),
                               lambda i: _fields(cached_theirs.corpus_score(hyps(i), None))),
        "sentence_score each": (lambda i: _sentences(TER(), hyps(i), refs),
                                sacrebleu_sentences),
        "sentence_scores at once": (lambda i: TER().sentence_scores(hyps(i), refs).tolist(),
                                    sacrebleu_sentences),
    }


def compare(case: str, ours: Callable[[int], Any], theirs: Callable[[int], Any],
            repeats: int) -> Row:
    """Best-of-``repeats`` times of both sides, every result checked identical."""
    ours_time, ours_results, theirs_time, theirs_results = best_times(ours, theirs, repeats)
    for i, (a, b) in enumerate(zip(ours_results, theirs_results, strict=True)):
        _check(f"{case}, run {i}", a, b)
    return Row("TER", case, ours_time, theirs_time, f"best of {repeats}")


def rows(repeats: int = 3, segments: int | None = None) -> list[Row]:
    """Every case with one reference (A) and two (A, B)."""
    systems, refs = test_set(segments)
    table = []
    for names in ("A", "AB"):
        streams = [refs[k] for k in names]
        for case, (ours, theirs) in cases(systems, streams).items():
            _check(f"{case}, before timing", ours(0), theirs(0))
            label = f"{case}, {len(streams)} ref{'s' * (len(streams) > 1)}"
            row = compare(label, ours, theirs, repeats)
            table.append(row)
    return table


def first_call_seconds() -> list[dict[str, Any]]:
    """The first TER of a fresh process, twice with one new cache folder: compiled, cached."""
    runs = []
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(2):
            start = time.perf_counter()
            output = subprocess.run([sys.executable, "-c", FIRST_CALL], check=True,
                                    capture_output=True, text=True,
                                    env={**os.environ, "NUMBA_CACHE_DIR": cache}).stdout
            runs.append({**json.loads(output), "process": time.perf_counter() - start})
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per side (best of N)")
    parser.add_argument("--segments", type=int, default=None,
                        help="score only the first N segments (default: all 2037)")
    args = parser.parse_args()
    for what, run in zip(("compiling (empty cache)", "from numba's disk cache"),
                         first_call_seconds(), strict=True):
        print(f"first TER call, {what}: {run['first_call']:.2f} s (import of bleu.metrics.ter "
              f"{run['import']:.2f} s, numba imported before the call: {run['numba_before']}; "
              f"whole process {run['process']:.2f} s)", flush=True)
    table = rows(args.repeats, args.segments)
    for row in table:
        print(row.line())
    slowest = min(table, key=lambda row: row.ratio)
    print(f"smallest speed-up: x{slowest.ratio:.1f} ({slowest.case}); target x{TARGET:.0f}: "
          f"{'met' if slowest.ratio >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()

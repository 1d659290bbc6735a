"""Corpus BLEU (13a), ours against sacrebleu, on 3k, 30k and 300k segments of real text, in
this (warm) process, and at 30k also as a cold call (``cold.py``: a fresh process per run).

Each timed run scores a corpus of its own (``corpora.corpus(..., run=i)``), so no cache of
either side is timed; every run's score is first checked identical to sacrebleu's. The
300k x 4-reference case runs in a child process, which reports its time and peak memory
(``VmHWM``, the corpus itself included); sacrebleu is measured there only with
``--sacrebleu-300k`` (about 4-5 minutes), else its time is extrapolated linearly from 30k.

    python benchmarks/bench_corpus.py [--sacrebleu-300k]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import cold
import sacrebleu
from corpora import corpus
from timing import Row, Timing, assert_same_score, best_times

import bleu

HERE = Path(__file__).resolve().parent


def compare(n_segments: int, n_refs: int, repeats: int) -> Row:
    """Best-of-``repeats`` times of both, each run on a fresh corpus; scores checked equal."""
    corpora = [corpus(n_segments, n_refs, run=i) for i in range(repeats)]
    ours_time, ours, theirs_time, theirs = best_times(
        lambda i: bleu.corpus_bleu(*corpora[i]), lambda i: sacrebleu.corpus_bleu(*corpora[i]),
        repeats)
    for a, b in zip(ours, theirs, strict=True):
        assert_same_score(a, b, f"{n_segments} x {n_refs} refs")
    return Row("corpus", f"{n_segments:,} segs x {n_refs} ref", ours_time, theirs_time,
               f"BLEU {ours[0].score:.2f}, best of {repeats}")


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM, which, unlike ru_maxrss, starts afresh at
    exec rather than carrying over the parent's peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(n_segments: int, n_refs: int, with_sacrebleu: bool) -> None:
    """Run in a fresh process: print time, peak memory and statistics as JSON."""
    hyps, refs = corpus(n_segments, n_refs, run=7)
    corpus_mb = peak_rss_mb()
    start, start_cpu = time.perf_counter(), time.process_time()
    ours = bleu.corpus_bleu(hyps, refs)
    result = {"seconds": time.perf_counter() - start, "cpu": time.process_time() - start_cpu,
              "score": ours.score, "corpus_rss_mb": corpus_mb,
              "peak_rss_mb": peak_rss_mb()}
    if with_sacrebleu:
        start, start_cpu = time.perf_counter(), time.process_time()
        theirs = sacrebleu.corpus_bleu(hyps, refs)
        result["sacrebleu"] = [time.perf_counter() - start, time.process_time() - start_cpu]
        assert_same_score(ours, theirs, f"{n_segments} x {n_refs} refs")
    print(json.dumps(result))


def big(n_refs: int, per_30k: Row | None, with_sacrebleu: bool) -> Row:
    """300k segments in a child process; sacrebleu measured or extrapolated from ``per_30k``."""
    command = [sys.executable, str(Path(__file__)), "--child", "300000", str(n_refs)]
    if with_sacrebleu:
        command.append("--sacrebleu-300k")
    out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True,
                                    cwd=HERE).stdout)
    if with_sacrebleu:
        theirs, how = Timing(*out["sacrebleu"]), "sacrebleu measured once"
    else:
        if per_30k is None:
            raise ValueError("need the 30k row to extrapolate sacrebleu's time")
        theirs, how = per_30k.sacrebleu.scaled(10), "sacrebleu extrapolated: 10 x its 30k time"
    # The peak includes the corpus (Python strings); scoring adds the rest.
    note = (f"peak RSS {out['peak_rss_mb']:.0f} MB (corpus alone {out['corpus_rss_mb']:.0f} MB)"
            f"; {how}")
    ours = Timing(out["seconds"], out["cpu"])
    return Row("corpus", f"300,000 segs x {n_refs} ref", ours, theirs, note)


def rows(with_sacrebleu_300k: bool = False) -> list[Row]:
    """All corpus rows: 3k and 30k with 1 and 3 references, 300k with 4 (and 1)."""
    table = [compare(3004, 1, 5), compare(30000, 1, 3), compare(3004, 3, 5),
             compare(30000, 3, 3)]
    table.append(compare(30000, 4, 2))
    by_refs = {1: table[1], 4: table[4]}
    table += [cold.measure("corpus-30k-1", 3), cold.measure("corpus-30k-3", 3)]
    table += [big(1, by_refs[1], with_sacrebleu_300k), big(4, by_refs[4], with_sacrebleu_300k)]
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sacrebleu-300k", action="store_true",
                        help="measure sacrebleu at 300k too (minutes) instead of extrapolating")
    parser.add_argument("--child", nargs=2, type=int, metavar=("SEGMENTS", "REFS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, args.sacrebleu_300k)
        return
    for row in rows(args.sacrebleu_300k):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()

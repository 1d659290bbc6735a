"""16 WMT17 en-de systems x 3004 segments against one reference set, both sides cached: in
a cold process per run and side (``cold.py``: what a script that scores many systems pays,
whatever the call loads or builds on first use included), and warm, in this process.

sacrebleu is used the way it is fastest for many systems: ``BLEU(references=refs)`` (its
references are tokenized and counted once), then ``corpus_score(hyps)`` per system; ours is
``bleu.BLEU(references=refs).corpus_score(hyps)``. The reference set is built inside the timed
region on both sides. Each run makes every line unique (a number token per run), so neither
side's tokenizer cache helps; every system's score is checked identical to sacrebleu's.

    python benchmarks/bench_systems.py [--runs 5]
"""

from __future__ import annotations

import argparse

import cold
import sacrebleu
from corpora import replicate, wmt17_systems
from timing import Row, assert_same_score, best_times

import bleu


def rows(repeats: int = 5) -> list[Row]:
    """All 16 systems scored: cold (a fresh process per run and side), then warm (in this
    process, Arrow loaded); best of ``repeats`` runs per side."""
    return [cold.measure("systems", repeats), warm(repeats)]


def warm(repeats: int) -> Row:
    """In this process: all 16 systems scored, best of ``repeats`` fresh runs per side."""
    systems, ref = wmt17_systems()
    n = len(ref)
    runs = [({name: replicate(hyps, n, 100 + i) for name, hyps in systems.items()},
             [replicate(ref, n, 100 + i)]) for i in range(repeats)]

    def ours(i: int) -> dict[str, bleu.BLEUScore]:
        hyps, refs = runs[i]
        metric = bleu.BLEU(references=refs)
        return {name: metric.corpus_score(h) for name, h in hyps.items()}

    def theirs(i: int) -> dict[str, object]:
        hyps, refs = runs[i]
        metric = sacrebleu.BLEU(references=refs)
        return {name: metric.corpus_score(h, None) for name, h in hyps.items()}

    ours_time, ours_scores, theirs_time, their_scores = best_times(ours, theirs, repeats)
    for mine, peer in zip(ours_scores, their_scores, strict=True):
        for name in mine:
            assert_same_score(mine[name], peer[name], f"WMT17 system {name}")
    return Row("systems", f"{len(systems)} systems x {n} segs, 1 ref", ours_time, theirs_time,
               f"BLEU(references=...) on both sides, in one warm process, best of {repeats}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    for row in rows(parser.parse_args().runs):
        print(row.line())


if __name__ == "__main__":
    main()

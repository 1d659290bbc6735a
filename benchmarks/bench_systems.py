"""16 WMT17 en-de systems x 3004 segments against one reference set, both sides cached.

sacrebleu is used the way it is fastest for many systems: ``BLEU(references=refs)`` (its
references are tokenized and counted once), then ``corpus_score(hyps)`` per system; ours is
``bleu.BLEU(references=refs).corpus_score(hyps)``. The reference set is built inside the timed
region on both sides. Each run makes every line unique (a number token per run), so neither
side's tokenizer cache helps; every system's score is checked identical to sacrebleu's.

    python benchmarks/bench_systems.py
"""

from __future__ import annotations

import sacrebleu
from corpora import replicate, wmt17_systems
from timing import Row, assert_same_score, best_times

import bleu


def rows(repeats: int = 5) -> list[Row]:
    """One row: all 16 systems scored, best of ``repeats`` fresh runs per side."""
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
    return [Row("systems", f"{len(systems)} systems x {n} segs, 1 ref", ours_time, theirs_time,
                f"BLEU(references=...) on both sides, best of {repeats}")]


def main() -> None:
    for row in rows():
        print(row.line())


if __name__ == "__main__":
    main()

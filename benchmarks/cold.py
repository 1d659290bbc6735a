"""Cold calls: each run is a fresh process per side that reads its corpus, imports the class or
function it calls (``from bleu import BLEU``, ``from sacrebleu import BLEU``: what a script
starts with), then times that one call. Whatever the call itself loads, compiles or builds on
first use (Arrow, a thread pool, a tokenizer's tables) is inside its time, as it is for a user's
script; nothing is warm. The two sides alternate run by run (ours, sacrebleu, sacrebleu, ours,
...), each run on a corpus of its own (``texts.replicate``), and every run's scores are checked
identical to sacrebleu's.

    python benchmarks/cold.py CASE SIDE RUN     (what the benchmarks start; prints JSON)

Cases: ``systems`` (16 WMT17 en-de systems x 3004 segments, ``BLEU(references=...)`` then
``corpus_score`` per system), ``corpus-30k-3`` and ``corpus-30k-1`` (``corpus_bleu``).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _systems(run: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    from texts import replicate, wmt17_systems

    systems, ref = wmt17_systems()
    n = len(ref)
    return ({name: replicate(hyps, n, 100 + run) for name, hyps in systems.items()},
            [replicate(ref, n, 100 + run)])


def _call_systems(side: str, data: Any) -> Callable[[], dict[str, Any]]:
    hyps, refs = data
    if side == "ours":
        from bleu import BLEU

        def ours() -> dict[str, Any]:
            metric = BLEU(references=refs)
            return {name: metric.corpus_score(h) for name, h in hyps.items()}
        return ours
    from sacrebleu import BLEU as SacreBLEU

    def theirs() -> dict[str, Any]:
        metric = SacreBLEU(references=refs)
        return {name: metric.corpus_score(h, None) for name, h in hyps.items()}
    return theirs


def _corpus(n_segments: int, n_refs: int) -> Callable[[int], Any]:
    def load(run: int) -> Any:
        from texts import corpus

        return corpus(n_segments, n_refs, run=200 + run)
    return load


def _call_corpus(side: str, data: Any) -> Callable[[], dict[str, Any]]:
    hyps, refs = data
    if side == "ours":
        from bleu import corpus_bleu
    else:
        from sacrebleu import corpus_bleu
    return lambda: {"corpus": corpus_bleu(hyps, refs)}


#: case -> (what it is, load(run), call(side, data))
CASES: dict[str, tuple[str, Callable[[int], Any], Callable[[str, Any], Callable[[], Any]]]] = {
    "systems": ("16 systems x 3004 segs, 1 ref", _systems, _call_systems),
    "corpus-30k-3": ("30,000 segs x 3 ref", _corpus(30_000, 3), _call_corpus),
    "corpus-30k-1": ("30,000 segs x 1 ref", _corpus(30_000, 1), _call_corpus),
}


def child(case: str, side: str, run: int) -> dict[str, Any]:
    """One cold run in this process: the call's wall and CPU seconds, and its scores."""
    _, load, call = CASES[case]
    prepared = call(side, load(run))
    start, start_cpu = time.perf_counter(), time.process_time()
    scores = prepared()
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {"wall": wall, "cpu": cpu, "scores": {
        name: [list(s.counts), list(s.totals), s.sys_len, s.ref_len, s.score]
        for name, s in scores.items()}}


def _spawn(case: str, side: str, run: int) -> dict[str, Any]:
    finished = subprocess.run([sys.executable, str(Path(__file__)), case, side, str(run)],
                              check=True, capture_output=True, text=True, cwd=HERE)
    return json.loads(finished.stdout.strip().splitlines()[-1])


def measure(case: str, runs: int) -> Any:
    """Both sides' cold runs, alternating; a ``timing.Row`` of the best times (medians in
    the note)."""
    from timing import Row, Timing

    found: dict[str, list[dict[str, Any]]] = {"ours": [], "sacrebleu": []}
    for run in range(runs):
        for side in ("ours", "sacrebleu") if run % 2 == 0 else ("sacrebleu", "ours"):
            found[side].append(_spawn(case, side, run))
    for ours, theirs in zip(found["ours"], found["sacrebleu"], strict=True):
        for name, mine in ours["scores"].items():
            peer = theirs["scores"][name]
            if mine[:4] != peer[:4] or abs(mine[4] - peer[4]) > 1e-9:
                raise AssertionError(f"{case} {name}: ours {mine} != sacrebleu {peer}")

    def best(side: str) -> Timing:
        return Timing(min(r["wall"] for r in found[side]), min(r["cpu"] for r in found[side]))

    medians = {side: statistics.median(r["wall"] for r in found[side]) for side in found}
    what, _, _ = CASES[case]
    return Row("cold call", what, best("ours"), best("sacrebleu"),
               f"a fresh process per run and side, best of {runs} (median ratio "
               f"{medians['sacrebleu'] / medians['ours']:.1f}x)")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    name, which, number = sys.argv[1:]
    print(json.dumps(child(name, which, int(number))))

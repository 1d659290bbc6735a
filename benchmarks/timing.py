"""Shared helpers of the benchmarks: timing, parity checks, result rows."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    """One line of the results table: our time, sacrebleu's, and their ratio."""

    benchmark: str
    case: str
    ours: Timing
    sacrebleu: Timing
    note: str = ""

    @property
    def ratio(self) -> float:
        """sacrebleu's wall time over ours."""
        return self.sacrebleu.wall / self.ours.wall

    @property
    def cpu_ratio(self) -> float:
        """sacrebleu's CPU time over ours (steadier than wall time on a shared machine)."""
        return self.sacrebleu.cpu / self.ours.cpu

    def line(self) -> str:
        return (f"{self.benchmark:10s} {self.case:32s} ours {self.ours.wall:8.3f} s   "
                f"sacrebleu {self.sacrebleu.wall:8.3f} s   x{self.ratio:6.1f}   cpu "
                f"{self.ours.cpu:7.3f} / {self.sacrebleu.cpu:8.3f} s x{self.cpu_ratio:5.1f}  "
                f"{self.note}")


@dataclass(frozen=True)
class Timing:
    """Wall-clock and CPU seconds of one measured run (the fastest of several)."""

    wall: float
    cpu: float

    def scaled(self, factor: float) -> Timing:
        return Timing(self.wall * factor, self.cpu * factor)


def _timed(run: Callable[[int], Any], i: int) -> tuple[Timing, Any]:
    """One run's times, with the garbage collector off as ``timeit`` has it (after collecting
    the garbage of earlier runs): collections during a run made its time swing by up to 2x."""
    gc.collect()
    gc.disable()
    try:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run(i)
        return Timing(time.perf_counter() - start, time.process_time() - start_cpu), result
    finally:
        gc.enable()


def best_times(ours: Callable[[int], Any], theirs: Callable[[int], Any], repeats: int,
               ) -> tuple[Timing, list[Any], Timing, list[Any]]:
    """The fastest of ``repeats`` calls of each side, ``run(i)`` with its own unique input,
    the two sides alternating (ours, theirs, ours, ...) so that both see the same machine: on a
    shared VM the speed drifts by tens of percent within minutes."""
    best = {"ours": Timing(float("inf"), float("inf")), "theirs": Timing(float("inf"),
                                                                         float("inf"))}
    results: dict[str, list[Any]] = {"ours": [], "theirs": []}
    for i in range(repeats):
        for side, run in (("ours", ours), ("theirs", theirs)):
            timing, result = _timed(run, i)
            best[side] = Timing(min(best[side].wall, timing.wall), min(best[side].cpu, timing.cpu))
            results[side].append(result)
    return best["ours"], results["ours"], best["theirs"], results["theirs"]


def assert_same_score(ours: Any, theirs: Any, what: str) -> None:
    """Our BLEU equals sacrebleu's: same counts, totals and lengths, score to 1e-9."""
    same = (list(ours.counts) == list(theirs.counts) and list(ours.totals) == list(theirs.totals)
            and ours.sys_len == theirs.sys_len and ours.ref_len == theirs.ref_len
            and abs(ours.score - theirs.score) < 1e-9)
    if not same:
        raise AssertionError(f"{what}: ours {ours} != sacrebleu {theirs}")


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

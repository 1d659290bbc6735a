"""Shared helpers of the benchmarks: timing, parity checks, result rows."""

from __future__ import annotations

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


def best_time(run: Callable[[int], Any], repeats: int) -> tuple[Timing, list[Any]]:
    """The fastest of ``repeats`` calls ``run(i)`` (each call gets its own, unique input)."""
    wall, cpu, results = float("inf"), float("inf"), []
    for i in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        results.append(run(i))
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return Timing(wall, cpu), results


def assert_same_score(ours: Any, theirs: Any, what: str) -> None:
    """Our BLEU equals sacrebleu's: same counts, totals and lengths, score to 1e-9."""
    same = (list(ours.counts) == list(theirs.counts) and list(ours.totals) == list(theirs.totals)
            and ours.sys_len == theirs.sys_len and ours.ref_len == theirs.ref_len
            and abs(ours.score - theirs.score) < 1e-9)
    if not same:
        raise AssertionError(f"{what}: ours {ours} != sacrebleu {theirs}")

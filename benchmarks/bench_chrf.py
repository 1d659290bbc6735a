"""chrF and chrF++, ours against sacrebleu's, on WMT22 en-de (2037 segments, refs A and B).

Three ways of scoring, each compared like with like:

- corpus, one shot: a new metric object per call, the references prepared inside the timed
  call on both sides;
- corpus, references cached: both metric objects built once with ``references=``, outside
  the timing (what scoring many systems against one test set costs per system);
- sentence scores of every segment: ours one ``sentence_scores`` call (one ``segment_stats``,
  then every row scored at once), sacrebleu's ``sentence_score`` segment by segment.

Each run scores another of the 9 systems (run i: system i mod 9), the same on both sides; the
sides alternate run by run, best of N. Every score of both (corpus and each sentence) is
checked identical (``==``): once before timing, and for every timed run.

    python benchmarks/bench_chrf.py [--repeats N]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from corpora import DATA, read_lines
from sacrebleu.metrics import CHRF as SacreCHRF
from timing import Row, best_times

from bleu.metrics.chrf import CHRF

WMT22 = DATA / "wmt22_generaltest2022_en-de"
#: the speed-up every case must reach (the goal of bleu.metrics.chrf)
TARGET = 20.0


def test_set() -> tuple[list[list[str]], dict[str, list[str]]]:
    """The 9 WMT22 en-de systems (2037 segments each) and references A and B."""
    systems = [read_lines(path) for path in sorted(WMT22.glob("generaltest2022.en-de.hyp.*.de"))]
    refs = {k: read_lines(WMT22 / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"}
    return systems, refs


def _check(what: str, ours: Any, theirs: Any) -> None:
    if ours != theirs:
        raise AssertionError(f"{what}: ours {ours!r:.200} != sacrebleu {theirs!r:.200}")


def _sacrebleu_sentences(metric: SacreCHRF, hyps: list[str], refs: list[list[str]],
                         ) -> list[float]:
    return [metric.sentence_score(hyp, [stream[i] for stream in refs]).score
            for i, hyp in enumerate(hyps)]


def cases(systems: list[list[str]], refs: list[list[str]], word_order: int,
          ) -> dict[str, tuple[Callable[[int], Any], Callable[[int], Any]]]:
    """Per case: (ours, sacrebleu), each taking the run number and returning scores."""
    cached_ours = CHRF(word_order=word_order, references=refs)
    cached_theirs = SacreCHRF(word_order=word_order, references=refs)

    def hyps(i: int) -> list[str]:
        return systems[i % len(systems)]

    return {
        "corpus one-shot": (
            lambda i: CHRF(word_order=word_order).corpus_score(hyps(i), refs).score,
            lambda i: SacreCHRF(word_order=word_order).corpus_score(hyps(i), refs).score),
        "corpus refs cached": (
            lambda i: cached_ours.corpus_score(hyps(i)).score,
            lambda i: cached_theirs.corpus_score(hyps(i), None).score),
        "sentence scores": (
            lambda i: CHRF(word_order=word_order).sentence_scores(hyps(i), refs).tolist(),
            lambda i: _sacrebleu_sentences(SacreCHRF(word_order=word_order), hyps(i), refs)),
    }


def compare(name: str, ours: Callable[[int], Any], theirs: Callable[[int], Any], case: str,
            repeats: int) -> Row:
    """Best-of-``repeats`` times of both sides, every result checked identical."""
    ours_time, ours_results, theirs_time, theirs_results = best_times(ours, theirs, repeats)
    for i, (a, b) in enumerate(zip(ours_results, theirs_results, strict=True)):
        _check(f"{name}, {case}, run {i}", a, b)
    return Row(name, case, ours_time, theirs_time, f"best of {repeats}")


def rows(repeats: int = 5) -> list[Row]:
    """Every case: chrF and chrF++, one reference (A) and two (A, B)."""
    systems, refs = test_set()
    table = []
    for word_order, metric in ((0, "chrF"), (2, "chrF++")):
        for names in ("A", "AB"):
            streams = [refs[k] for k in names]
            for case, (ours, theirs) in cases(systems, streams, word_order).items():
                _check(f"{metric}, {case}, before timing", ours(0), theirs(0))
                label = f"{case}, {len(streams)} ref{'s' * (len(streams) > 1)}"
                row = compare(metric, ours, theirs, label, repeats)
                table.append(row)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per side (best of N)")
    table = rows(parser.parse_args().repeats)
    for row in table:
        print(row.line())
    slowest = min(table, key=lambda row: row.ratio)
    print(f"smallest speed-up: x{slowest.ratio:.1f} ({slowest.benchmark}, {slowest.case}); "
          f"target x{TARGET:.0f}: {'met' if slowest.ratio >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()

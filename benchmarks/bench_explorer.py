"""Explorer interactions on 3 systems x 3000 segments: the first load, then each interaction.

Run: ``python benchmarks/bench_explorer.py``. The first load (statistics matrices, the sentence
table) is timed once; every later interaction (filters, a search, contributions, n-gram
differences, buckets, one segment's highlighting) is what a rerun of a page costs when the
matrices are cached. Target: each interaction under 1 s. sacrebleu has no such features, so the
only side-by-side number is sentence BLEU for all segments (ours from the matrix rows, sacrebleu
one call per segment), printed as a ratio.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import sacrebleu
from corpora import WMT17, read_lines, wmt17_systems

import bleu
from bleu.explore import compare, highlight
from bleu.explore.segments import SegmentFilter, filter_segments, sentence_options, sentence_table
from bleu.metrics.bleu.score import BLEUOptions

N_SEGMENTS = 3000
TARGET_S = 1.0


def timed(label: str, work: Callable[[], object], repeats: int = 3) -> float:
    """Best of ``repeats`` wall times of ``work``, printed with the target verdict."""
    best = min(_once(work) for _ in range(repeats))
    verdict = "ok" if best < TARGET_S else "SLOW"
    print(f"{label:<44s} {best * 1000:9.1f} ms  {verdict}")
    return best


def _once(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    systems_all, reference = wmt17_systems()
    names = sorted(systems_all)[:3]
    systems = {name: systems_all[name][:N_SEGMENTS] for name in names}
    refs = [reference[:N_SEGMENTS]]
    source = read_lines(WMT17 / "newstest2017.en-de.src.en")[:N_SEGMENTS] \
        if (WMT17 / "newstest2017.en-de.src.en").exists() else None
    options = BLEUOptions()
    a, b = names[0], names[1]
    print(f"{len(systems)} systems x {N_SEGMENTS} segments (WMT17 en-de): {', '.join(names)}")

    start = time.perf_counter()
    metric = bleu.BLEU(references=refs, force=True)
    stats = {name: metric.segment_stats(lines) for name, lines in systems.items()}
    table = sentence_table(systems, refs, stats, options, source=source, pair=(a, b))
    print(f"{'first load (matrices + sentence table)':<44s} "
          f"{(time.perf_counter() - start) * 1000:9.1f} ms")

    sentence = sentence_options(options)
    timed("sentence table (smoothing changed)", lambda: sentence_table(
        systems, refs, stats, options, sentence=sentence_options(options, "floor"), pair=(a, b)))
    timed("filter: score range + length", lambda: filter_segments(table, SegmentFilter(
        score_column=f"BLEU {a}", score_range=(20.0, 60.0), length_column="ref len",
        length_range=(5, 40))))
    timed("filter: plain search, all text columns",
          lambda: filter_segments(table, SegmentFilter(query="Haus")))
    timed("filter: regex search, all text columns", lambda: filter_segments(
        table, SegmentFilter(query=r"\bHaus\w*", regex=True)))
    timed("contributions (leave-one-out + swap)",
          lambda: compare.deciding_segments(compare.contributions(stats[a], stats[b], options)))
    timed("n-gram differences A vs B", lambda: compare.ngram_differences(
        systems[a], systems[b], refs, options), repeats=2)
    lengths = table["ref len"].to_numpy()
    timed("BLEU by reference length (1000 resamples)", lambda: compare.score_by_bucket(
        {a: stats[a], b: stats[b]},
        {a: compare.assign_buckets(lengths, compare.LENGTH_CUTOFFS),
         b: compare.assign_buckets(lengths, compare.LENGTH_CUTOFFS)},
        compare.bucket_labels(compare.LENGTH_CUTOFFS), options))
    timed("word F-measure by frequency (1000 resamples)",
          lambda: compare.word_accuracy_by_frequency({a: systems[a], b: systems[b]}, refs[0],
                                                     options), repeats=2)

    def detail() -> None:
        explained = {n: bleu.explain(systems[n][41], [refs[0][41]]) for n in (a, b)}
        highlight.segment_html(explained[a], contrast=explained[b])
        highlight.segment_html(explained[b], contrast=explained[a])

    timed("segment detail (explain + highlight, A and B)", detail)

    ours = timed("sentence BLEU, all segments (ours, from rows)", lambda: sentence_table(
        {a: systems[a]}, refs, {a: stats[a]}, options, sentence=sentence))
    theirs = timed("sentence BLEU, all segments (sacrebleu)", lambda: [
        sacrebleu.sentence_bleu(h, [r]) for h, r in zip(systems[a], refs[0], strict=True)],
        repeats=1)
    print(f"ratio sacrebleu / ours for sentence BLEU: {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()

"""BLEU over streams of lines, in chunks: memory follows the chunk, not the corpus.

BLEU's sufficient statistics are sums, so a corpus is scored by summing the statistics of its
chunks; each chunk's references are tokenized and counted on their own. The same functions back
the command line on big files and the Dask integration (``bleu.metrics.dask``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import LengthMismatchError, ReadError
from .bleu import signature
from .bleu.engine import segment_stats_once, tokenized_period_count, warn_if_tokenized
from .bleu.score import BLEUOptions, BLEUScore, score_from_stats

#: segments per chunk when streaming: about 30 MB of working memory per reference stream
STREAM_CHUNK_SEGMENTS = 50_000


@dataclass(frozen=True)
class StreamTotals:
    """The summed statistics of a stream, with what the signature needs to know."""

    stats: np.ndarray  # one row: [sys_len, ref_len, matches..., totals...]
    n_segments: int
    n_refs: int  # -1 when segments have different numbers of references


def read_lines(path: str | Path, encoding: str = "utf-8") -> Iterator[str]:
    """The lines of a text file, one at a time, without their line ending ('\\n' or '\\r\\n').

    Read as bytes and decoded line by line, so that a decoding error can name its line.
    """
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode(encoding)
            except UnicodeDecodeError as error:
                raise ReadError(
                    f"{path}, line {number}: not valid {encoding} text ({error.reason} at byte "
                    f"{error.start} of the line); convert the file to UTF-8 or give its encoding."
                ) from None
            if line.endswith("\n"):
                line = line[:-2] if line.endswith("\r\n") else line[:-1]
            yield line


def aligned_chunks(hypotheses: Iterable[str], references: Sequence[Iterable[str | None]],
                   names: Sequence[str], size: int,
                   ) -> Iterator[tuple[list[str], list[list[str | None]]]]:
    """Chunks of ``size`` aligned segments; a stream that ends early is an error naming it.

    Each stream's chunk is sliced off whole (at C speed, no per-segment Python), and streams
    whose chunks differ in length are the ones that ended early.
    """
    streams = [iter(hypotheses), *(iter(r) for r in references)]
    counted = 0
    while True:
        chunks = [list(itertools.islice(stream, size)) for stream in streams]
        shortest = min(map(len, chunks))
        if shortest != max(map(len, chunks)):
            ended = [names[k] for k, chunk in enumerate(chunks) if len(chunk) == shortest]
            going = [names[k] for k, chunk in enumerate(chunks) if len(chunk) > shortest]
            raise LengthMismatchError(
                f"{', '.join(ended)} ended after {counted + shortest} segments, but "
                f"{', '.join(going)} go on; every stream needs one line per segment."
            )
        if not shortest:
            return
        counted += shortest
        yield chunks[0], chunks[1:]


def stream_totals(hypotheses: Iterable[str], references: Sequence[Iterable[str | None]],
                  options: BLEUOptions, *, names: Sequence[str] | None = None,
                  chunk_segments: int = STREAM_CHUNK_SEGMENTS,
                  progress: Callable[[int], None] | None = None,
                  force: bool = True) -> StreamTotals:
    """Summed statistics of aligned streams, chunk by chunk; ``progress`` gets segments done.

    With ``force=False``, warns (through logging) when the hypotheses look tokenized.
    """
    names = names or ["hypotheses", *(f"reference {k + 1}" for k in range(len(references)))]
    total = np.zeros(options.stats_columns, np.int64)
    n_segments, tokenized, ref_counts = 0, 0, set()
    for hyps, refs in aligned_chunks(hypotheses, references, names, chunk_segments):
        stats, n_refs = segment_stats_once(refs, hyps, options)
        total += stats.sum(axis=0)
        ref_counts.add(n_refs)
        n_segments += len(hyps)
        tokenized += 0 if force else tokenized_period_count(hyps)
        if progress is not None:
            progress(n_segments)
    if not force:
        warn_if_tokenized((), count=tokenized)
    n_refs = ref_counts.pop() if len(ref_counts) == 1 else -1
    return StreamTotals(total, n_segments, n_refs)


def score_totals(totals: StreamTotals, options: BLEUOptions) -> BLEUScore:
    """The corpus score of summed statistics, with its signature."""
    return score_from_stats(totals.stats, options, signature(options, totals.n_refs))

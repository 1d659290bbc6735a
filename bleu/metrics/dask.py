"""BLEU over corpora beyond one machine with Dask: map partitions to statistics, sum, score.

Statistics are integer sums, so the score equals the single-process ``bleu.corpus_bleu`` exactly.
Needs the ``dask`` extra (``pip install "bleu-explorer[dask]"``). Data comes as a Dask DataFrame
with one hypothesis column and one column per reference, or as a Dask Bag of
``(hypothesis, [reference, ...])`` pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import MissingExtraError
from .bleu import signature
from .bleu.engine import segment_stats_once
from .bleu.score import BLEUOptions, BLEUScore, score_from_stats, scores_from_stats


def _require_dask() -> Any:
    try:
        import dask
    except ImportError as error:
        raise MissingExtraError(
            'bleu.dask needs Dask: pip install "bleu-explorer[dask]"'
        ) from error
    return dask


def _frame_stats(frame: pd.DataFrame, hyp: str, refs: Sequence[str],
                 options: BLEUOptions) -> np.ndarray:
    """Per-segment statistics of one partition of a DataFrame."""
    if frame.empty:
        return np.zeros((0, options.stats_columns), np.int64)
    references = [[None if pd.isna(x) else x for x in frame[column]] for column in refs]
    return segment_stats_once(references, frame[hyp].tolist(), options)[0]


def _pairs_stats(pairs: Sequence[tuple[str, Sequence[str | None]]],
                 options: BLEUOptions) -> np.ndarray:
    """Per-segment statistics of one partition of a Bag of (hypothesis, references) pairs."""
    pairs = list(pairs)
    if not pairs:
        return np.zeros((0, options.stats_columns), np.int64)
    width = max(len(refs) for _, refs in pairs)
    references = [[refs[k] if k < len(refs) else None for _, refs in pairs] for k in range(width)]
    return segment_stats_once(references, [h for h, _ in pairs], options)[0]


def _partition_totals(data: Any, hyp: str, refs: Sequence[str], options: BLEUOptions) -> Any:
    """A Dask collection of per-partition (summed stats, n_refs set) records."""
    dask = _require_dask()
    import dask.bag as db

    if isinstance(data, db.Bag):
        def total(part: Sequence[tuple[str, Sequence[str | None]]]) -> list[Any]:
            part = list(part)
            counts = {sum(r is not None for r in refs_) for _, refs_ in part}
            return [(_pairs_stats(part, options).sum(axis=0), counts)]
        return data.map_partitions(total)
    columns = [hyp, *refs]

    def frame_total(frame: pd.DataFrame) -> list[Any]:
        counts = set(frame[list(refs)].notna().sum(axis=1).tolist())
        return [(_frame_stats(frame, hyp, refs, options).sum(axis=0), counts)]
    return dask.bag.from_delayed(
        [dask.delayed(frame_total)(part) for part in data[columns].to_delayed()]
    )


def corpus_bleu(data: Any, *, hyp: str = "hyp", refs: Sequence[str] = ("ref",),
                **bleu_options: Any) -> BLEUScore:
    """Corpus BLEU of a Dask DataFrame (columns ``hyp`` and ``refs``) or Bag of pairs."""
    options = BLEUOptions(**bleu_options)
    records = _partition_totals(data, hyp, refs, options).compute()
    total = np.zeros(options.stats_columns, np.int64)
    counts: set[int] = set()
    for stats, part_counts in records:
        total += stats
        counts |= part_counts
    n_refs = counts.pop() if len(counts) == 1 else -1
    return score_from_stats(total, options, signature(options, n_refs))


def sentence_scores(data: Any, *, hyp: str = "hyp", refs: Sequence[str] = ("ref",),
                    **bleu_options: Any) -> Any:
    """Sentence BLEU of every segment, lazily: a Dask Series (DataFrame input) or Bag.

    Sentence defaults as ``bleu.sentence_bleu``: exp smoothing and effective order unless given.
    """
    _require_dask()
    import dask.bag as db

    bleu_options.setdefault("effective_order", True)
    options = BLEUOptions(**bleu_options)
    if isinstance(data, db.Bag):
        def bag_scores(part: Sequence[tuple[str, Sequence[str | None]]]) -> list[float]:
            return scores_from_stats(_pairs_stats(part, options), options).tolist()
        return data.map_partitions(bag_scores)

    def frame_scores(frame: pd.DataFrame) -> pd.Series:
        scores = scores_from_stats(_frame_stats(frame, hyp, refs, options), options)
        return pd.Series(scores, index=frame.index, name="bleu")
    return data.map_partitions(frame_scores, meta=("bleu", "f8"))

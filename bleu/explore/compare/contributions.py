"""Which segments decide A against B: each segment's leave-one-out change of either system's
corpus score, and the change of the gap when B's output replaces A's (sums of statistics rows)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...display.formatting import DELTA, Column
from ...errors import InputError
from ...evaluation.paired import check_pair
from ...i18n import N_, tr
from ...metrics.base import StatsScorer
from ...metrics.significance import (
    ScorerSource,
    as_scorer,
)

#: the contribution table's columns (``contributions``)
LOO_A, LOO_B, LOO_GAP, SWAP = (N_("A without it"), N_("B without it"), N_("gap change"),
                               N_("swap to B"))


def contribution_columns(metric: str = "BLEU") -> dict[str, Column]:
    """How ``contributions``' columns are shown for ``metric``: format and help."""
    return {
        "id": Column(help=tr("Segment number (1-based line number).")),
        LOO_A: Column(DELTA, tr("A's corpus {metric} without this segment, minus A's corpus "
                                "{metric}.").format(metric=metric)),
        LOO_B: Column(DELTA, tr("B's corpus {metric} without this segment, minus B's corpus "
                                "{metric}.").format(metric=metric)),
        LOO_GAP: Column(DELTA, tr("How the gap A − B changes without this segment (A without it "
                               "− B without it).")),
        SWAP: Column(DELTA, tr("How A's corpus {metric} changes if this one segment took B's "
                               "output (with a higher-is-better metric, negative: A's output is "
                               "the better one there).").format(metric=metric)),
    }


def contributions(stats_a: np.ndarray, stats_b: np.ndarray,
                  metric: StatsScorer | ScorerSource) -> pd.DataFrame:
    """Per segment: the corpus score's change when it is left out, and A's change when it takes
    B's output, for BLEU (its options) or any metric's scorer.

    Columns (``contribution_columns``): ``id`` (1-based), ``LOO_A`` and ``LOO_B`` (the score
    without the segment minus the score), ``LOO_GAP`` (change of A − B when the segment is left
    out), ``SWAP`` (A's score with this segment from B, minus A's score: negative where A's
    output is the better one, for a higher-is-better metric). Segment scores leave a segment
    one system lacks out of that system's mean.
    """
    scorer = as_scorer(metric)
    stats_a, stats_b = check_pair(stats_a, stats_b)
    total_a, total_b = stats_a.sum(axis=0), stats_b.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        base_a, base_b = scorer.scores(np.stack([total_a, total_b]))
        loo_a = scorer.scores(total_a[None, :] - stats_a) - base_a
        loo_b = scorer.scores(total_b[None, :] - stats_b) - base_b
        swap = scorer.scores(total_a[None, :] - stats_a + stats_b) - base_a
    return pd.DataFrame({
        "id": np.arange(1, len(stats_a) + 1), LOO_A: loo_a, LOO_B: loo_b,
        LOO_GAP: loo_a - loo_b, SWAP: swap,
    })


def deciding_segments(frame: pd.DataFrame, k: int = 20, by: str = SWAP) -> pd.DataFrame:
    """The ``k`` segments whose ``by`` column (default: swap delta) is largest in absolute value."""
    if by not in frame.columns:
        raise InputError(f"Cannot rank by {by!r}: the columns are {', '.join(frame.columns)}.")
    order = np.argsort(-np.abs(frame[by].to_numpy()), kind="stable")[:k]
    return frame.iloc[order]

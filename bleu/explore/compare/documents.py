"""Scores by document: each document's rows of the statistics summed and scored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...errors import LengthMismatchError
from ...metrics.bleu.score import BLEUOptions, scores_from_stats


def document_scores(stats: Mapping[str, np.ndarray], documents: Sequence[str],
                    options: BLEUOptions) -> pd.DataFrame:
    """Corpus BLEU of each document for each system (documents in order of first appearance).

    Columns: document, segments, first (1-based id of its first segment), then one per system.
    """
    codes, names = pd.factorize(pd.Series(list(documents), dtype=object), sort=False)
    frame = pd.DataFrame({
        "document": list(names), "segments": np.bincount(codes, minlength=len(names)),
        "first": _first_positions(codes, len(names)),
    })
    for name, matrix in stats.items():
        matrix = np.asarray(matrix)
        if len(matrix) != len(codes):
            raise LengthMismatchError(
                f"System {name!r} has {len(matrix)} statistics rows, but there are "
                f"{len(codes)} document ids.")
        sums = np.zeros((len(names), matrix.shape[1]), np.float64)
        np.add.at(sums, codes, matrix)
        frame[name] = scores_from_stats(sums, options)
    return frame


def _first_positions(codes: np.ndarray, n: int) -> np.ndarray:
    first = np.full(n, len(codes), np.int64)
    np.minimum.at(first, codes, np.arange(len(codes)))
    return first + 1

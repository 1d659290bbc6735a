"""Segment scores leave segments unrated: systems are tested on the segments rated for both
systems of a pair, and pairs that share those segments are resampled together."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..base import StatsScorer
from .base import (
    StatisticsShapeError,
)


@dataclass(frozen=True)
class Group:
    """Systems tested on the same segments: all of them, or (segment scores) those rated for
    every system of the group, so that a pair's test leaves out what either system lacks."""

    rows: np.ndarray | None
    systems: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]

    def matrices(self, matrices: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The group's systems' statistics on the group's segments, in ``systems`` order."""
        chosen = [np.asarray(matrices[k]) for k in self.systems]
        return chosen if self.rows is None else [m[self.rows] for m in chosen]

    def local_pairs(self) -> list[tuple[int, int]]:
        """``pairs`` as positions in ``systems``."""
        where = {k: i for i, k in enumerate(self.systems)}
        return [(where[a], where[b]) for a, b in self.pairs]

    @property
    def n_segments(self) -> int | None:
        return None if self.rows is None else int(self.rows.sum())


def rated_rows(scorer: StatsScorer, matrix: np.ndarray) -> np.ndarray | None:
    """The segments rated in ``matrix`` (None for a metric that rates every segment)."""
    if scorer.rated_column is None:
        return None
    return np.asarray(matrix)[:, scorer.rated_column] > 0


def rating_groups(scorer: StatsScorer, matrices: Sequence[np.ndarray],
            pairs: Sequence[tuple[int, int]]) -> list[Group]:
    """The pairs grouped by the segments both systems are rated on (one group of everything
    for metrics that rate every segment); a pair rated on no common segment is refused."""
    if scorer.rated_column is None:
        return [Group(None, tuple(range(len(matrices))), tuple(pairs))]
    rated = [rated_rows(scorer, m) for m in matrices]
    found: dict[bytes, tuple[np.ndarray, list[tuple[int, int]]]] = {}
    for a, b in pairs:
        rows = rated[a] & rated[b]
        if not rows.any():
            raise StatisticsShapeError(
                f"No segment is rated for both systems of a pair (positions {a + 1} and "
                f"{b + 1}); a paired test needs segments rated for both.")
        found.setdefault(np.packbits(rows).tobytes(), (rows, []))[1].append((a, b))
    return [Group(rows, tuple(sorted({k for pair in group for k in pair})), tuple(group))
            for rows, group in found.values()]


def own_rows(scorer: StatsScorer, matrix: np.ndarray) -> np.ndarray:
    """One system's statistics on its rated segments (all of them for most metrics)."""
    rows = rated_rows(scorer, matrix)
    if rows is None:
        return np.asarray(matrix)
    if not rows.any():
        raise StatisticsShapeError("No segment of the system is rated; a score needs one.")
    return np.asarray(matrix)[rows]

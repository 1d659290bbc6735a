"""BLEU's one clipping rule, in one place: an n-gram is credited at most as often as the one
reference that holds it most often, ``credited = min(count, max_ref_count)``, and the occurrences
credited are the first ones in text order. The engine, explanations, highlights and the
Compare page's n-gram differences all clip through these functions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def credited(counts: np.ndarray | int, max_ref_counts: np.ndarray | int) -> np.ndarray:
    """How many of each n-gram's ``counts`` are credited against its most in one reference."""
    return np.minimum(counts, max_ref_counts)


def credited_occurrences(positions: Sequence[int], limit: int) -> tuple[int, ...]:
    """The occurrences a clipped count credits: the first ``limit`` of ``positions``."""
    return tuple(positions[: max(int(limit), 0)])


def reference_max(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per distinct key (a segment's n-gram), the most times any one reference holds it:
    ``keys``/``counts`` are every reference's (key, count) pairs, in any order. Returns the
    sorted distinct keys and their max counts."""
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    if not len(keys):
        return keys, counts
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.maximum.reduceat(counts, starts)


def lookup(keys: np.ndarray, table_keys: np.ndarray, table_counts: np.ndarray) -> np.ndarray:
    """``table_counts`` at ``keys``, 0 where a key is absent (an n-gram no reference holds has
    a max count of 0); ``table_keys`` sorted."""
    if not len(table_keys):
        return np.zeros(len(keys), np.int64)
    where = np.minimum(np.searchsorted(table_keys, keys), len(table_keys) - 1)
    return np.where(table_keys[where] == keys, table_counts[where], 0)


def clipped_sums(counts: np.ndarray, max_ref_counts: np.ndarray,
                 bounds: np.ndarray) -> np.ndarray:
    """Per segment (n-grams ``bounds[s]`` to ``bounds[s + 1]``), the credited counts summed."""
    total = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(credited(counts, max_ref_counts), out=total[1:])
    return total[bounds[1:]] - total[bounds[:-1]]

"""What Compare counts with: tokens of a stream as word ids, and (segment, id) pairs packed into
int64 keys (segment << 32 | id) that numpy sorts and counts."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...metrics.bleu.engine import words
from ...metrics.bleu.score import BLEUOptions

#: a key is ``segment << SHIFT | id``; ``key & LOW`` is the id
SHIFT = np.int64(32)
LOW = np.int64((1 << 32) - 1)


def token_stream(lines: Sequence[str | None], options: BLEUOptions,
                  ) -> tuple[list[bytes], np.ndarray]:
    """All tokens of a stream, flattened, as UTF-8 bytes (equal tokens are equal bytes, which
    is all that counting needs; ``token_text`` decodes the few that are shown), and the
    segment number of each token."""
    tokens = words(["" if line is None else line for line in lines], options)
    segment = np.repeat(np.arange(len(tokens.offsets) - 1, dtype=np.int64),
                        np.diff(tokens.offsets))
    return tokens.to_list(), segment


def token_text(token: bytes) -> str:
    """A token of ``token_stream`` as text (text that was not valid Unicode passes through)."""
    return token.decode("utf-8", "surrogatepass")


def pair_counts(segment: np.ndarray, grams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (segment, n-gram) keys, sorted, with their counts."""
    return np.unique((segment << SHIFT) | grams, return_counts=True)


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """Distinct values, sorted (a stable sort merges already sorted runs in linear time)."""
    ordered = np.sort(values, kind="stable")
    if not len(ordered):
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]

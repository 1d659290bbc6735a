"""Clipped n-gram matches of hypotheses against each reference, per segment, by sorting keys.

All texts of a chunk (the hypotheses, then each reference stream) lie in one array of integer
symbols, an end symbol after each text. The n-gram at a position is named exactly by one int64
key, ``segment << n * bits | its symbols, bits each``: no hashing. An n-gram running over a
text's end holds that end symbol, different for hypotheses and references, so it never matches
(and needs no filtering).

Keys of the highest order, tagged with their stream (0: hypotheses, k: reference k) in the low
bits, are sorted once: the keys of every lower order are their high bits, so each order's runs
of equal n-grams are contiguous in that one sorted array, and so is each segment. A run's count
per stream is a difference of running counts, and its clipped match the minimum of the
hypothesis count and a reference's. When the highest order's key would not fit 63 bits (large
alphabets, high orders), the orders are taken in blocks: after each block, the n-grams of its
last order are replaced by their dense ranks, the prefix of the next block's keys.

Large intermediates live in per-thread scratch buffers (see ``chrf_scratch``).
"""

from __future__ import annotations

import numpy as np

from .scratch import Scratch, scratch

#: bits a sort key may use (int64, sign bit left alone)
KEY_BITS = 63


def _segment_of_positions(keys: np.ndarray, lengths: np.ndarray) -> None:
    """Writes each position's segment into ``keys`` (texts of (streams, segments) ``lengths``,
    an end symbol after each)."""
    n_segments = lengths.shape[1]
    sizes = (lengths + 1).ravel()
    steps = np.ones(len(sizes), np.int64)
    steps[::n_segments] = 1 - n_segments  # back to segment 0 at each stream's first text
    steps[0] = 0
    keys[:] = 0
    keys[np.cumsum(sizes) - sizes] = steps
    np.cumsum(keys, out=keys)


def _running_counts(keys: np.ndarray, n_refs: int, buffers: Scratch) -> list[np.ndarray]:
    """For each reference tag k, ``counts[k - 1][i]``: keys tagged k among the first i."""
    size = len(keys)
    tag_bits = n_refs.bit_length()
    tags = np.bitwise_and(keys, (1 << tag_bits) - 1, out=buffers.get("tags", size, np.int64))
    running = []
    for tag in range(1, n_refs + 1):
        indicator = tags
        if n_refs > 1:  # (tags == tag) as integers: numpy's cumsum of booleans is slow
            indicator = buffers.get("indicator", size, np.int64)
            indicator[:] = np.equal(tags, tag, out=buffers.get("equal", size, bool))
        counts = buffers.get(f"running{tag}", size + 1, np.int64)
        counts[0] = 0
        np.cumsum(indicator, out=counts[1:])
        running.append(counts)
    return running


def _level_matches(ordered: np.ndarray, changes: np.ndarray, shift: int,
                   running: list[np.ndarray], segment_starts: np.ndarray,
                   buffers: Scratch) -> tuple[np.ndarray, np.ndarray]:
    """Clipped matches per (segment, reference) of the n-grams ``ordered >> shift``, and the
    first run of each segment (its n-grams' ranks start there)."""
    size = len(ordered)
    new = buffers.get("new", size, bool)
    new[0] = True
    np.greater_equal(changes, 1 << shift, out=new[1:])  # some bit above shift differs
    starts = np.flatnonzero(new)  # (np.compress into a buffer copies through a temporary)
    n_runs = len(starts)
    bounds = buffers.get("bounds", n_runs + 1, np.int64)  # each run's start, then the end
    bounds[:n_runs] = starts
    bounds[n_runs] = size
    segment_runs = np.searchsorted(bounds, segment_starts)
    # a run's size, less each reference's count, is the hypothesis' count
    hyp = np.subtract(bounds[1:], bounds[:-1], out=buffers.get("hyp", n_runs, np.int64))
    refs = []
    for k, counts in enumerate(running):
        at = np.take(counts, bounds, out=buffers.get("at", n_runs + 1, np.int64), mode="clip")
        ref = np.subtract(at[1:], at[:-1], out=buffers.get(f"ref{k}", n_runs, np.int64))
        np.subtract(hyp, ref, out=hyp)
        refs.append(ref)
    # every segment has runs (its texts' ends at least), so reduceat sums each one's runs
    matches = [np.add.reduceat(np.minimum(hyp, ref, out=ref), segment_runs) for ref in refs]
    return np.stack(matches, axis=1), segment_runs


def ngram_matches(symbols: np.ndarray, lengths: np.ndarray, bits: int, orders: int,
                  ) -> np.ndarray:
    """Clipped n-gram matches, orders 1..``orders``, of the hypotheses (stream 0) against each
    reference stream: shape (orders, segments, references), int64.

    ``symbols``: every text of (streams, segments) ``lengths``, stream after stream, an end
    symbol after each text; ids below ``2 ** bits``.
    """
    buffers = scratch()
    n_streams, n_segments = lengths.shape
    n_refs = n_streams - 1
    size = len(symbols)
    tag_bits = n_refs.bit_length()
    stream_bounds = np.concatenate(([0], np.cumsum((lengths + 1).sum(axis=1))))
    keys = buffers.get("keys", size, np.int64)
    _segment_of_positions(keys, lengths)
    prefix_bits = max(n_segments - 1, 0).bit_length()
    segment_prefix = np.arange(n_segments)  # the least prefix of each segment's keys
    out = np.zeros((orders, n_segments, n_refs), np.int64)
    done = 0
    while done < orders:
        block = min(orders - done, (KEY_BITS - tag_bits - prefix_bits) // bits)
        assert block >= 1, "n-gram keys need more than 63 bits: use smaller chunks"
        for j in range(done, done + block):
            np.left_shift(keys, bits, out=keys)
            reach = max(size - j, 0)  # the last j n-grams run past the end: nothing to add
            np.bitwise_or(keys[:reach], symbols[j:], out=keys[:reach])
        np.left_shift(keys, tag_bits, out=keys)
        for tag in range(1, n_streams):
            part = keys[stream_bounds[tag] : stream_bounds[tag + 1]]
            np.bitwise_or(part, tag, out=part)
        last = done + block == orders
        if last:
            keys.sort()
            ordered = keys
        else:
            order = np.argsort(keys)
            ordered = keys[order]
        segment_starts = np.searchsorted(ordered, segment_prefix << (block * bits + tag_bits))
        changes = np.bitwise_xor(ordered[1:], ordered[:-1],
                                 out=buffers.get("changes", size - 1, np.int64))
        running = _running_counts(ordered, n_refs, buffers)
        for j in range(1, block + 1):
            shift = tag_bits + (block - j) * bits
            out[done + j - 1], segment_runs = _level_matches(
                ordered, changes, shift, running, segment_starts, buffers)
        if not last:  # the next block's prefix: each position's rank among the last runs
            ranks = buffers.get("indicator", size, np.int64)
            ranks[:] = buffers.get("new", size, bool)
            np.cumsum(ranks, out=ranks)
            keys[order] = ranks - 1
            prefix_bits = max(int(ranks[-1]) - 1, 0).bit_length()
            segment_prefix = segment_runs
        done += block
    return out

"""Segment statistics: the matrix every BLEU number is a sum of.

One row per segment: ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (sacrebleu's order).
References are tokenized, encoded to integer ids and counted once (``ReferenceTable``); each
system then costs one tokenization and a few numpy passes per n-gram order:

- tokens become ids in the references' vocabulary (-1 for a word no reference has);
- an n-gram of one segment is identified by ``(id of its (n-1)-prefix, id of its last token)``,
  where prefix ids are ranks in the sorted table of the previous order, and the unigram key holds
  the segment number; so one int64 key names (segment, n-gram) exactly, with no hashing;
- the references' table holds, per order, the sorted keys and the max count over references;
  a hypothesis n-gram is looked up with ``searchsorted``, counted with ``np.unique``, and clipped.

Work is done in chunks of segments, so memory follows the chunk, not the corpus.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import InvalidTextError, LengthMismatchError, MissingReferenceError
from .score import BLEUOptions
from .tokenizers import get_tokenizer

logger = logging.getLogger("bleu")

#: segments per chunk: small enough for cache-friendly sorts and bounded memory
CHUNK_SEGMENTS = 4096
_SHIFT = np.int64(32)
_LOW_BITS = np.int64((1 << 32) - 1)
# Never a token: str.split() never returns a string holding a newline.
_LINE_BREAK_TOKEN = "\n"
_LINE_BREAK_SPACED = " \n\n "


def check_text_stream(stream: Sequence[object], what: str, allow_none: bool = False) -> None:
    """Refuse anything that is not a sequence of strings (None allowed in reference streams)."""
    if isinstance(stream, str | bytes) or not isinstance(stream, Sequence):
        raise InvalidTextError(f"{what} must be a list of strings, got {type(stream).__name__}.")
    for index, item in enumerate(stream):
        if isinstance(item, str) or (allow_none and item is None):
            continue
        raise InvalidTextError(
            f"{what}: segment {index + 1} is {type(item).__name__} ({item!r:.40}), expected str"
            + (" or None." if allow_none else ".")
        )


def preprocess(lines: Sequence[str], options: BLEUOptions) -> str:
    """Lowercase (if asked) and tokenize lines; return tokenized lines joined by newlines."""
    if options.lowercase:
        lines = [line.lower() for line in lines]
    return get_tokenizer(options.tokenize).tokenize_stream(lines)


def tokenize_line(line: str, options: BLEUOptions) -> list[str]:
    """The tokens of one segment, exactly as sacrebleu's BLEU sees them."""
    if options.lowercase:
        line = line.lower()
    return get_tokenizer(options.tokenize)(line.rstrip()).split()


_BREAK = "\ue003"  # a private-use character: stands for a line break among the tokens


def _split_lines(text: str, n_lines: int) -> tuple[np.ndarray, np.ndarray]:
    """Tokens of newline-separated tokenized lines (one object array) and each line's offsets."""
    if _BREAK in text:  # user text holds the marker: split line by line instead
        per_line = [line.split() for line in text.split("\n")]
        lengths = np.fromiter((len(tokens) for tokens in per_line), np.int64, len(per_line))
        words = np.array([t for tokens in per_line for t in tokens], dtype=object)
    else:
        marked = np.array(text.replace("\n", f" {_BREAK} ").split(), dtype=object)
        is_break = marked == _BREAK
        words = marked[~is_break]
        ends = np.flatnonzero(is_break) - np.arange(int(is_break.sum()))
        lengths = np.diff(np.concatenate(([0], ends, [len(words)])))
    if len(lengths) != n_lines:  # cannot happen unless a tokenizer broke its contract
        raise RuntimeError(f"tokenizer returned {len(lengths)} lines for {n_lines}")
    return words, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)


class Vocabulary:
    """Token strings to integer ids, grown chunk by chunk (ids never change once given)."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, words: np.ndarray) -> np.ndarray:
        """Ids of ``words``, giving new ids to words not seen before."""
        codes, uniques = pd.factorize(words)
        ids = self._ids
        mapped = np.fromiter(
            (ids.setdefault(w, len(ids)) for w in uniques), np.int64, len(uniques)
        )
        return mapped[codes] if len(codes) else np.zeros(0, np.int64)

    def lookup(self, words: np.ndarray) -> np.ndarray:
        """Ids of ``words``; -1 for a word the vocabulary does not hold."""
        codes, uniques = pd.factorize(words)
        ids = self._ids
        mapped = np.fromiter((ids.get(w, -1) for w in uniques), np.int64, len(uniques))
        return mapped[codes] if len(codes) else np.zeros(0, np.int64)


@dataclass(frozen=True)
class _OrderTable:
    """One n-gram order of one chunk: (segment, n-gram) keys, sorted, with max reference counts."""

    keys: np.ndarray
    max_counts: np.ndarray
    segment_bounds: np.ndarray  # ids of segment s are segment_bounds[s] .. segment_bounds[s+1]-1


@dataclass(frozen=True)
class _ChunkTable:
    start: int
    stop: int
    orders: tuple[_OrderTable, ...]
    ref_lens: np.ndarray  # (segments, references); -1 where a reference is missing (None)


def _segment_of_tokens(offsets: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))


def _ngram_starts(segment: np.ndarray, n: int) -> np.ndarray:
    """Positions where an n-gram starts inside one segment (tokens i .. i+n-1 share a segment)."""
    if n == 1:
        return np.arange(len(segment))
    last = len(segment) - n + 1
    if last <= 0:
        return np.zeros(0, np.int64)
    return np.flatnonzero(segment[:last] == segment[n - 1 :])


def _keys(prefix_ids: np.ndarray | None, tokens: np.ndarray, segment: np.ndarray,
          starts: np.ndarray, n: int) -> np.ndarray:
    """The int64 key of each n-gram starting at ``starts`` (see the module docstring)."""
    high = segment[starts] if prefix_ids is None else prefix_ids[starts]
    return (high << _SHIFT) | tokens[starts + n - 1]


def _build_chunk(words: list[np.ndarray], offsets: list[np.ndarray], present: np.ndarray,
                 vocabulary: Vocabulary, max_order: int, start: int) -> _ChunkTable:
    """Count the n-grams of one chunk's references; keep per (segment, n-gram) the max count."""
    n_refs = len(words)
    n_segments = present.shape[0]
    tokens = np.concatenate([vocabulary.add(w) for w in words])
    segment = np.concatenate([_segment_of_tokens(o) for o in offsets])
    # Streams lie one after the other: an n-gram must stay inside one segment of one stream.
    stream = np.concatenate([np.full(len(w), k, np.int64) for k, w in enumerate(words)])
    ref_lens = np.stack([np.diff(o) for o in offsets], axis=1)
    ref_lens = np.where(present, ref_lens, -1)
    orders = []
    prefix_ids = None
    prefix_segment = None
    for n in range(1, max_order + 1):
        starts = _ngram_starts(segment * n_refs + stream, n)
        keys = _keys(prefix_ids, tokens, segment, starts, n)
        unique, ids = np.unique(keys, return_inverse=True)
        if n_refs == 1:
            max_counts = np.bincount(ids, minlength=len(unique))
        else:
            per_ref = np.bincount(ids * n_refs + stream[starts], minlength=len(unique) * n_refs)
            max_counts = per_ref.reshape(len(unique), n_refs).max(axis=1)
        key_segment = (unique >> _SHIFT) if n == 1 else prefix_segment[unique >> _SHIFT]
        bounds = np.searchsorted(key_segment, np.arange(n_segments + 1))
        orders.append(_OrderTable(unique, max_counts, bounds))
        prefix_ids = np.full(len(tokens), -1, np.int64)
        prefix_ids[starts] = ids
        prefix_segment = key_segment
    return _ChunkTable(start, start + n_segments, tuple(orders), ref_lens)


def _hypothesis_matches(table: _ChunkTable, tokens: np.ndarray, offsets: np.ndarray,
                        max_order: int) -> np.ndarray:
    """Clipped matches per segment and order, for one chunk of hypotheses (ids, -1 = unknown)."""
    n_segments = len(offsets) - 1
    segment = _segment_of_tokens(offsets)
    matches = np.zeros((n_segments, max_order), np.int64)
    prefix_ids = None
    for n, order in enumerate(table.orders, start=1):
        starts = _ngram_starts(segment, n)
        if n == 1:
            starts = starts[tokens >= 0]
        else:
            starts = starts[(prefix_ids[starts] >= 0) & (tokens[starts + n - 1] >= 0)]
        keys = _keys(prefix_ids, tokens, segment, starts, n)
        where = np.searchsorted(order.keys, keys)
        found = where < len(order.keys)
        found[found] = order.keys[where[found]] == keys[found]
        ids = where[found]
        prefix_ids = np.full(len(tokens), -1, np.int64)
        prefix_ids[starts[found]] = ids
        unique, counts = np.unique(ids, return_counts=True)
        credited = np.minimum(counts, order.max_counts[unique])
        owner = np.searchsorted(order.segment_bounds, unique, side="right") - 1
        matches[:, n - 1] = np.bincount(owner, weights=credited, minlength=n_segments)
    return matches


def closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """Per segment, the reference length closest to the hypothesis; the shorter one wins a tie.

    ``ref_lens`` is (segments, references) with -1 for a missing reference.
    """
    diff = np.abs(hyp_lens[:, None] - ref_lens)
    rank = np.where(ref_lens >= 0, diff * (1 << 32) + ref_lens, np.iinfo(np.int64).max)
    best = np.argmin(rank, axis=1)
    return ref_lens[np.arange(len(ref_lens)), best]


def _count_references(references: Sequence[Sequence[str | None]], n_segments: int) -> np.ndarray:
    """Which references are there (not None), as a (segments, references) bool matrix."""
    present = np.array([[r is not None for r in stream] for stream in references], bool).T
    present = present.reshape(n_segments, len(references))
    missing = np.flatnonzero(~present.any(axis=1))
    if len(missing):
        listed = ", ".join(str(i + 1) for i in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise MissingReferenceError(
            f"Segment {listed}{more} has no reference at all (every reference stream holds None "
            "there); give at least one reference per segment, or drop the segment."
        )
    return present


def check_references(references: Sequence[Sequence[str | None]], n_segments: int | None,
                     ) -> int:
    """Validate reference streams; return the number of segments they describe."""
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise InvalidTextError(
            "references must be a non-empty list of reference streams (lists of strings); "
            f"got {type(references).__name__}."
        )
    for k, stream in enumerate(references):
        check_text_stream(stream, f"reference stream {k + 1}", allow_none=True)
    lengths = [len(stream) for stream in references]
    expected = lengths[0] if n_segments is None else n_segments
    for k, length in enumerate(lengths):
        if length != expected:
            what = "the hypotheses have" if n_segments is not None else "reference stream 1 has"
            raise LengthMismatchError(
                f"reference stream {k + 1} has {length} segments, but {what} {expected}; "
                "every stream needs one line per segment."
            )
    return expected


class ReferenceTable:
    """References tokenized, encoded and counted once, then matched against any hypotheses."""

    def __init__(self, references: Sequence[Sequence[str | None]], options: BLEUOptions,
                 chunk_segments: int = CHUNK_SEGMENTS) -> None:
        self.options = options
        self.n_segments = check_references(references, None)
        present = _count_references(references, self.n_segments)
        per_segment = present.sum(axis=1)
        self.n_refs = int(per_segment[0]) if (per_segment == per_segment[0]).all() else -1
        self.vocabulary = Vocabulary()
        self.chunk_segments = chunk_segments
        self._chunks: list[_ChunkTable] = []
        for start in range(0, self.n_segments, chunk_segments):
            stop = min(start + chunk_segments, self.n_segments)
            words, offsets = [], []
            for stream in references:
                lines = [line if line is not None else "" for line in stream[start:stop]]
                w, o = _split_lines(preprocess(lines, options), stop - start)
                words.append(w)
                offsets.append(o)
            self._chunks.append(_build_chunk(words, offsets, present[start:stop],
                                             self.vocabulary, options.max_ngram_order, start))

    def segment_stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        """The statistics matrix of ``hypotheses`` against these references."""
        check_text_stream(hypotheses, "hypotheses")
        if len(hypotheses) != self.n_segments:
            raise LengthMismatchError(
                f"The hypotheses have {len(hypotheses)} segments, but the references have "
                f"{self.n_segments}; every stream needs one line per segment."
            )
        order = self.options.max_ngram_order
        stats = np.zeros((self.n_segments, 2 + 2 * order), np.int64)
        for chunk in self._chunks:
            lines = hypotheses[chunk.start : chunk.stop]
            words, offsets = _split_lines(preprocess(lines, self.options), len(lines))
            tokens = self.vocabulary.lookup(words)
            hyp_lens = np.diff(offsets)
            rows = stats[chunk.start : chunk.stop]
            rows[:, 0] = hyp_lens
            rows[:, 1] = closest_ref_lengths(hyp_lens, chunk.ref_lens)
            rows[:, 2 : 2 + order] = _hypothesis_matches(chunk, tokens, offsets, order)
            rows[:, 2 + order :] = np.maximum(hyp_lens[:, None] - np.arange(order)[None, :], 0)
        return stats


def warn_if_tokenized(hypotheses: Sequence[str]) -> None:
    """sacrebleu's heuristic: 100 or more lines ending in ' .' look tokenized already."""
    count = sum(1 for line in hypotheses if line.endswith(" ."))
    if count >= 100:
        logger.warning(
            "%d hypothesis lines end in a tokenized period (' .'): the text looks tokenized "
            "already, which lowers BLEU; detokenize it, or pass force=True if it is on purpose.",
            count,
        )


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """All n-grams of orders 1..max_order with their counts (the plain-Python reference)."""
    return Counter(
        tuple(tokens[i : i + n]) for n in range(1, max_order + 1)
        for i in range(len(tokens) - n + 1)
    )


def segment_stats_reference(hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]],
                            max_order: int) -> list[int]:
    """One segment's statistics with Counters: the simplest correct formulation, for checks."""
    hyp = ngram_counts(hyp_tokens, max_order)
    best: Counter[tuple[str, ...]] = Counter()
    for ref in refs_tokens:
        for gram, count in ngram_counts(ref, max_order).items():
            best[gram] = max(best[gram], count)
    ref_lens = np.array([[len(r) for r in refs_tokens]], np.int64)
    ref_len = int(closest_ref_lengths(np.array([len(hyp_tokens)]), ref_lens)[0])
    matches, totals = [0] * max_order, [0] * max_order
    for gram, count in hyp.items():
        totals[len(gram) - 1] += count
        matches[len(gram) - 1] += min(count, best.get(gram, 0))
    return [len(hyp_tokens), ref_len, *matches, *totals]

"""Segment statistics: the matrix every BLEU number is a sum of.

One row per segment: ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (sacrebleu's order).
Work is done in chunks of segments, so working memory follows the chunk, not the corpus:

- tokens never become Python strings: each tokenizer's ``words(lines)`` gives all words of a
  chunk as one buffer of bytes with their bounds (``bleu/metrics/tokenizers/words.py``), and
  words become integer ids, with Arrow's ``dictionary_encode`` (references) and ``index_in``
  (hypotheses; -1 for a word no reference of the chunk has) once Arrow is loaded or the corpus
  is big (``arrow_pays``), else from numeric keys (``_KeyVocabulary``: a short word's own
  bytes, a long word's length and ends, confirmed byte for byte; no Arrow to load, no Python
  object per word);
- an n-gram is identified by one int64 key, ``rank of its (n-1)-prefix * V + id of its last
  token`` (V: a bound on the chunk's word ids), where ranks index the sorted table of the previous
  order and the unigram key holds the segment number: so a key names (segment, n-gram) exactly,
  with no hashing, and the tables of every order are sorted by segment;
- the references' n-grams are ranked with one sort per order, counted with ``bincount``, and the
  max taken over the references; hypothesis n-grams are counted the same way and clipped; an
  n-gram whose prefix is in no reference is dropped before the next order. Keys are small, so
  a key and its place travel in one int64 and numpy's value sort (SIMD) stands in for a stable
  argsort, several times slower (``_packed_sort``).

A table kept for reuse (``BLEU(references=...)``, while it holds under ``REFERENCE_CACHE_NGRAMS``
n-grams) stores per order the sorted keys, the max counts, the segment bounds and where each
prefix's n-grams start. Hypothesis unigrams are looked up by binary search (their keys come
nearly sorted, so ``np.searchsorted`` beat pandas' hash index here, builds nothing and releases
the GIL); a longer n-gram is first compared with the first n-gram extending its prefix, which is
most often the one (``_ranks_among_children``). Beyond that size only the encoded reference
tokens are kept, and each call counts every chunk's references again before looking its
hypotheses up (19-28% faster than counting references and hypotheses in one sort, measured at
3k-100k segments x 3 references); memory then stays proportional to the text. Chunks are worked
on by a small thread pool (``bleu.metrics.threads``), each writing its own rows.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import count, repeat
from typing import Any

import numpy as np

from ..checks import (
    References,
    check_hypotheses,
    check_references,
    reference_presence,
    references_per_segment,
)
from ..threads import map_chunks, thread_count
from ..tokenizers import get_tokenizer
from ..tokenizers.words import Words
from .clipping import clipped_sums
from .score import BLEUOptions

logger = logging.getLogger("bleu")

#: segments per chunk: small enough for cache-friendly sorts and bounded memory
CHUNK_SEGMENTS = 4096
#: counted n-gram entries a ReferenceTable keeps for reuse (about 14 bytes each); beyond that it
#: keeps the encoded tokens only and counts each chunk when it scores it
REFERENCE_CACHE_NGRAMS = 1 << 22
#: the smallest chunk cut for a thread of its own (below, threads cost more than they save)
MIN_THREAD_CHUNK = 512
#: reference lines (segments x references) from which words get their ids from Arrow; below,
#: from numeric keys, so that scoring a small file loads no Arrow (a tenth of a second and
#: 35 MB of a command-line run; the keys are as fast as Arrow where a table is reused, slower
#: where each chunk's references are encoded for one use)
ARROW_MIN_LINES = 20_000


def words(lines: Sequence[str], options: BLEUOptions) -> Words:
    """Lowercase (if asked) and tokenize lines: all their words, and each line's word offsets."""
    if options.lowercase:
        lines = [line.lower() for line in lines]
    return get_tokenizer(options.tokenize).words(lines)


def arrow_pays(reference_lines: int) -> bool:
    """Whether to encode words with Arrow: when it is loaded already (the app, a notebook with
    pandas), or when the corpus is big enough (``ARROW_MIN_LINES``) to repay loading it (about
    0.1 s); a small command-line run then never loads it."""
    return reference_lines >= ARROW_MIN_LINES or "pyarrow.compute" in sys.modules


class _DictVocabulary:
    """The words of a chunk's references and their ids, in a Python dict of ``bytes``: what
    ``_KeyVocabulary`` falls back to should two different words share a key."""

    def __init__(self, tokens: Words) -> None:
        words = tokens.to_list()
        self._index: dict[bytes, int] = {}
        # one pass: a word's id is the place of its first occurrence (ids need not be dense)
        self.ids = np.fromiter(map(self._index.setdefault, words, count()), np.int32, len(words))
        self.size = len(words)  # every id is below it

    def lookup(self, tokens: Words) -> np.ndarray:
        """Ids of other words (a hypothesis's) in this vocabulary; -1 for an unknown word."""
        ids = map(self._index.get, tokens.to_list(), repeat(-1))
        return np.fromiter(ids, np.int64, len(tokens))


#: odd multipliers: a long word's length and ends mixed into one 64-bit key, and a key's
#: bucket (any odd numbers would do: words with equal keys are compared byte for byte)
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F),
        np.uint64(0x165667B19E3779F9))
_SHIFT = np.uint64(29)
_LENGTH_SHIFT = np.uint64(56)
_LONG = np.uint64(1 << 63)  # the top bit: a key that is mixed, not the word itself
#: the longest word whose key is the word itself (its bytes, its length in the top byte)
_SHORT = 7
#: a word up to this long is named exactly by its length and first and last 8 bytes
_EXACT_ENDS = 16


def _word_keys(ends: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """One uint64 per word (``Words.ends``): a word of up to 7 bytes is its own key (its bytes,
    its length in the top byte), so equal keys are equal words; a longer one's length and ends
    are mixed, with the top bit set (a long key can equal another long word's)."""
    lengths, heads, tails = ends
    mixed = heads * _MIX[0] + tails * _MIX[1] + lengths.astype(np.uint64) * _MIX[2]
    mixed ^= mixed >> _SHIFT
    short = heads | (lengths.astype(np.uint64) << _LENGTH_SHIFT)
    return np.where(lengths <= _SHORT, short, mixed | _LONG)


def _same_words(a: Words, a_ends: tuple[np.ndarray, ...], a_index: np.ndarray, b: Words,
                b_ends: tuple[np.ndarray, ...], b_index: np.ndarray) -> np.ndarray:
    """Per pair ``i``, whether word ``a_index[i]`` of ``a`` and word ``b_index[i]`` of ``b`` are
    the same bytes: length and ends compared, and every byte of words longer than 16."""
    (a_lengths, a_heads, a_tails), (b_lengths, b_heads, b_tails) = a_ends, b_ends
    lengths = a_lengths[a_index]
    same = ((lengths == b_lengths[b_index]) & (a_heads[a_index] == b_heads[b_index])
            & (a_tails[a_index] == b_tails[b_index]))
    long = np.flatnonzero(same & (lengths > _EXACT_ENDS))
    if len(long):
        lengths = lengths[long]
        firsts = np.cumsum(lengths) - lengths
        ramp = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(firsts, lengths)
        a_bytes = np.frombuffer(a.data, np.uint8)[
            np.repeat(a.bounds[a_index[long]], lengths) + ramp]
        b_bytes = np.frombuffer(b.data, np.uint8)[
            np.repeat(b.bounds[b_index[long]], lengths) + ramp]
        same[long] = np.logical_and.reduceat(a_bytes == b_bytes, firsts)
    return same


class _KeyClash(Exception):
    """Two different words of a chunk's references share a key (``_KeyVocabulary``)."""


class _KeyVocabulary:
    """The words of a chunk's references and their ids from numbers, with no Python object per
    word and no library to load: every word gets a uint64 key (``_word_keys``: a short word's
    own bytes, a long word's length and ends mixed), the distinct keys are ordered by their
    bucket (the top bits of the key times an odd number, four buckets per key), and another
    text's words are looked up in their bucket. A word's id is its key's place. A long word
    found by its key is confirmed byte for byte (``_same_words``), so the ids are exact: a
    hypothesis word whose key belongs to another word is unknown (-1); two reference words
    sharing a key raise ``_KeyClash`` (the chunk then takes a ``_DictVocabulary``)."""

    def __init__(self, tokens: Words) -> None:
        self._tokens, self._ends = tokens, tokens.ends()
        keys = _word_keys(self._ends)
        order = np.argsort(keys)
        ordered = keys[order]
        first = np.ones(len(keys), bool)
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        distinct, words = ordered[first], order[first]  # a word of each key
        long = np.flatnonzero(first & (ordered >= _LONG))
        if len(long) < np.count_nonzero(ordered >= _LONG):  # a long key held twice: same words?
            rank = np.cumsum(first) - 1
            held = np.flatnonzero(ordered >= _LONG)
            if not _same_words(tokens, self._ends, order[held], tokens, self._ends,
                               words[rank[held]]).all():
                raise _KeyClash
        bits = max(len(distinct), 1).bit_length() + 2
        self._shift = np.uint64(64 - bits)
        buckets = self._bucket(distinct)
        by_bucket = np.argsort(buckets, kind="stable")
        self._keys, self._words = distinct[by_bucket], words[by_bucket]
        self._starts = np.searchsorted(buckets[by_bucket], np.arange((1 << bits) + 1))
        rank_of_key = np.empty(len(distinct), np.int64)
        rank_of_key[by_bucket] = np.arange(len(distinct))
        ids = np.empty(len(keys), np.int64)
        ids[order] = rank_of_key[np.cumsum(first) - 1]
        self.ids = ids.astype(np.int32)
        self.size = len(distinct)

    def _bucket(self, keys: np.ndarray) -> np.ndarray:
        return ((keys * _MIX[2]) >> self._shift).astype(np.int64)

    def lookup(self, tokens: Words) -> np.ndarray:
        """Ids of other words (a hypothesis's) in this vocabulary; -1 for an unknown word."""
        if not self.size:
            return np.full(len(tokens), -1, np.int64)
        ends = tokens.ends()
        keys = _word_keys(ends)
        bucket = self._bucket(keys)
        places, stops = self._starts[bucket], self._starts[bucket + 1]
        hit = (places < stops) & (self._keys[np.minimum(places, self.size - 1)] == keys)
        ids = np.where(hit, places, -1)
        pending = np.flatnonzero(~hit & (places + 1 < stops))  # a bucket shared: look on
        places, stops = places[pending] + 1, stops[pending]
        while len(pending):
            hit = self._keys[places] == keys[pending]
            ids[pending[hit]] = places[hit]
            on = ~hit & (places + 1 < stops)
            pending, places, stops = pending[on], places[on] + 1, stops[on]
        long = np.flatnonzero((ids >= 0) & (keys >= _LONG))
        same = _same_words(tokens, ends, long, self._tokens, self._ends,
                           self._words[ids[long]])
        ids[long[~same]] = -1
        return ids


def _vocabulary(tokens: Words, arrow: bool) -> _KeyVocabulary | _ArrowVocabulary | _DictVocabulary:
    """A chunk's reference words and their ids: Arrow's where it is loaded (``arrow_pays``),
    else exact numeric keys (a Python dict in the rare chunk where two words share one)."""
    if arrow:
        return _ArrowVocabulary(tokens)
    try:
        return _KeyVocabulary(tokens)
    except _KeyClash:
        return _DictVocabulary(tokens)


class _ArrowVocabulary:
    """The same with Arrow's ``dictionary_encode`` and ``index_in``: for big corpora."""

    def __init__(self, tokens: Words) -> None:
        import pyarrow.compute as pc  # loaded on first use: `import bleu` stays light

        encoded = pc.dictionary_encode(tokens.to_arrow())
        self.ids, self._dictionary = _numbers(encoded.indices), encoded.dictionary
        self.size = len(self._dictionary)

    def lookup(self, tokens: Words) -> np.ndarray:
        import pyarrow.compute as pc

        return _numbers(pc.index_in(tokens.to_arrow(), value_set=self._dictionary)).astype(
            np.int64)


def tokenize_line(line: str, options: BLEUOptions) -> list[str]:
    """The tokens of one segment, exactly as sacrebleu's BLEU sees them."""
    if options.lowercase:
        line = line.lower()
    return get_tokenizer(options.tokenize)(line.rstrip()).split()


def _numbers(array: Any, missing: int = -1) -> np.ndarray:
    """An Arrow integer array as numpy, nulls as ``missing``, read from its buffers (Arrow's own
    ``to_numpy`` and ``fill_null`` import pandas on the way: a third of a second per run)."""
    width = array.type.bit_width // 8
    validity, data = array.buffers()[:2]
    values = np.frombuffer(data, dtype=np.dtype(f"int{8 * width}"), count=len(array),
                           offset=array.offset * width)
    if not array.null_count:
        return values
    bits = np.unpackbits(np.frombuffer(validity, np.uint8), bitorder="little")
    return np.where(bits[array.offset : array.offset + len(array)].astype(bool), values, missing)


def _packed_sort(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Non-negative ``keys`` sorted, with the place each came from, ties in their order (what a
    stable argsort gives): key and place packed in one int64 and sorted by value, which numpy
    does with SIMD, 2-3x faster here than a stable argsort. None when they do not fit in 63 bits.
    """
    bits = max(len(keys) - 1, 1).bit_length()
    if not len(keys) or int(keys.max()) >= 1 << (63 - bits):
        return None
    packed = (keys << bits) | np.arange(len(keys), dtype=np.int64)
    packed.sort()
    return packed >> bits, packed & ((1 << bits) - 1)


def _unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for non-negative keys, sorted by
    ``_packed_sort`` (or, for keys too big to pack, a stable argsort: keys arrive grouped by
    segment, nearly sorted, which it exploits)."""
    found = _packed_sort(keys)
    if found is None:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
    else:
        ordered, order = found
    first = np.empty(len(keys), bool)
    first[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    inverse = np.empty(len(keys), np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ordered[first], inverse


def _ranks_in(table: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``np.searchsorted(table, wanted)``, the needles sorted first (``_packed_sort``): sorted
    needles walk the table forward, about 1.5x faster than hypothesis order."""
    found = _packed_sort(wanted)
    if found is None:
        return np.searchsorted(table, wanted)
    ordered, places = found
    ranks = np.empty(len(wanted), np.int64)
    ranks[places] = np.searchsorted(table, ordered)
    return ranks


def _ranks_among_children(order: _OrderTable, prefixes: np.ndarray,
                          wanted: np.ndarray) -> np.ndarray:
    """The rank of each ``wanted`` key (order 2 and up) in ``order``, or -1 where no reference
    has it. The n-grams extending one prefix (rank ``prefixes`` in the order below) are one
    sorted stretch of the table, most often of one n-gram: each key is compared with the first
    of its stretch, and only those past it (about one in eight) are searched for in the whole
    table: 2.5-4x faster than searching for all of them (WMT17 en-de, orders 2-4)."""
    keys, bounds = order.keys, order.prefix_bounds
    first, stop = bounds[prefixes], bounds[1:][prefixes]
    found = keys[np.minimum(first, len(keys) - 1)]
    ranks = np.where((found == wanted) & (first < stop), first, -1).astype(np.int64)
    later = np.flatnonzero((found < wanted) & (first + 1 < stop))
    if len(later):
        places = np.minimum(np.searchsorted(keys, wanted[later]), len(keys) - 1)
        ranks[later] = np.where(keys[places] == wanted[later], places, -1)
    return ranks


def _positions(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per token, its line, and its place in the line with a trailing 0 (for position T)."""
    lengths = np.diff(offsets)
    line = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    place = np.zeros(len(line) + 1, np.int64)
    place[:-1] = np.arange(len(line), dtype=np.int64) - offsets[:-1][line]
    return line, place


def _extend(ends: np.ndarray, place: np.ndarray, n: int) -> np.ndarray:
    """Which n-1-grams ending at ``ends`` extend to an n-gram of the same line (ending one on).

    The token after a line's last one has place 0 in the next line (or the trailing 0).
    """
    return place[ends + 1] >= n - 1


@dataclass(frozen=True)
class _OrderTable:
    """One n-gram order of one chunk: (segment, n-gram) keys, sorted, with max reference counts."""

    keys: np.ndarray  # sorted, unique int64 (segment, n-gram) keys
    max_counts: np.ndarray
    segment_bounds: np.ndarray  # ranks of segment s are segment_bounds[s] .. segment_bounds[s+1]-1
    #: order 2 and up: the n-grams whose (n-1)-prefix has rank r in the order below are ranks
    #: prefix_bounds[r] .. prefix_bounds[r+1]-1 (for order 1, the segment is the prefix)
    prefix_bounds: np.ndarray


@dataclass(frozen=True)
class _ChunkRefs:
    """One chunk's references, tokenized and encoded: what is needed to count them again."""

    start: int
    stop: int
    n_streams: int
    tokens: np.ndarray  # int32 word ids, lines in segment-major order (segment s, stream k)
    offsets: np.ndarray  # line offsets into ``tokens``
    vocabulary: _KeyVocabulary | _ArrowVocabulary | _DictVocabulary  # words and their ids
    key_base: int  # V of the n-gram keys: every word id is below it (at least 1)
    ref_lens: np.ndarray  # (segments, references); -1 where a reference is missing (None)


def _encode_chunk(references: References, present: np.ndarray, options: BLEUOptions,
                  start: int, stop: int, arrow: bool) -> _ChunkRefs:
    """Tokenize and encode one chunk's references, all streams in one pass."""
    streams = [[line if line is not None else "" for line in stream[start:stop]]
               for stream in references]
    lines = [line for segment in zip(*streams, strict=True) for line in segment]
    tokens = words(lines, options)
    vocabulary = _vocabulary(tokens, arrow)
    ref_lens = np.diff(tokens.offsets).reshape(stop - start, len(references))
    return _ChunkRefs(start, stop, len(references), vocabulary.ids, tokens.offsets, vocabulary,
                      max(vocabulary.size, 1), np.where(present, ref_lens, -1))


def _ngram_orders(refs: _ChunkRefs, max_order: int,
                  ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per order: the references' sorted unique keys, max counts over references, segment
    bounds and prefix bounds (``_OrderTable``)."""
    n_streams, n_segments = refs.n_streams, refs.stop - refs.start
    line, place = _positions(refs.offsets)
    segment, stream = line // n_streams, line % n_streams
    tokens = np.append(refs.tokens.astype(np.int64), -1)
    ends = np.arange(len(refs.tokens), dtype=np.int64)  # where each n-gram of the order ends
    high = segment[ends]  # the segment, then the rank of the prefix
    key_segment = ranks = np.zeros(0, np.int64)
    below = n_segments  # entries of the order below (order 1: segments)
    for n in range(1, max_order + 1):
        if n > 1:
            extends = _extend(ends, place, n) & (tokens[ends + 1] >= 0)
            ends, high = ends[extends] + 1, ranks[extends]
        unique, ranks = _unique_inverse(high * refs.key_base + tokens[ends])
        if n_streams == 1:
            max_counts = np.bincount(ranks, minlength=len(unique))
        else:
            cells = stream[ends] * len(unique) + ranks
            per_ref = np.bincount(cells, minlength=len(unique) * n_streams)
            max_counts = per_ref.reshape(n_streams, len(unique)).max(axis=0)
        prefixes = unique // refs.key_base
        key_segment = prefixes if n == 1 else key_segment[prefixes]
        prefix_bounds = np.zeros(below + 1, np.int32)  # a chunk's table is far below 2**31
        np.cumsum(np.bincount(prefixes, minlength=below), out=prefix_bounds[1:])
        below = len(unique)
        yield (unique, max_counts, np.searchsorted(key_segment, np.arange(n_segments + 1)),
               prefix_bounds)


def _count_chunk(refs: _ChunkRefs, max_order: int) -> tuple[_OrderTable, ...]:
    """Count the n-grams of one chunk's references; keep per (segment, n-gram) the max count."""
    orders = []
    for unique, max_counts, bounds, prefix_bounds in _ngram_orders(refs, max_order):
        small = np.min_scalar_type(int(max_counts.max(initial=0)))
        orders.append(_OrderTable(unique, max_counts.astype(small), bounds, prefix_bounds))
    return tuple(orders)


def _hypothesis_matches(refs: _ChunkRefs, orders: Sequence[_OrderTable],
                        hypotheses: Words) -> np.ndarray:
    """Clipped matches per segment and order, looked up in counted reference tables."""
    n_segments = len(hypotheses.offsets) - 1
    matches = np.zeros((n_segments, len(orders)), np.int64)
    tokens = np.append(refs.vocabulary.lookup(hypotheses), -1)
    line, place = _positions(hypotheses.offsets)
    ends = np.flatnonzero(tokens >= 0)
    high, ranks = line[ends], np.zeros(0, np.int64)
    for n, order in enumerate(orders, start=1):
        if n > 1:
            extends = _extend(ends, place, n) & (tokens[ends + 1] >= 0)
            ends, high = ends[extends] + 1, ranks[extends]
        if not len(ends) or not len(order.keys):  # nothing left to match, at this order or above
            break
        wanted = high * refs.key_base + tokens[ends]
        if n == 1:
            ranks = _ranks_in(order.keys, wanted)
            ranks[ranks == len(order.keys)] = 0
            known = order.keys[ranks] == wanted
        else:
            ranks = _ranks_among_children(order, high, wanted)
            known = ranks >= 0
        ends, ranks = ends[known], ranks[known]
        counts = np.bincount(ranks, minlength=len(order.keys))
        matches[:, n - 1] = clipped_sums(counts, order.max_counts, order.segment_bounds)
    return matches


def closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """Per segment, the reference length closest to the hypothesis; the shorter one wins a tie.

    ``ref_lens`` is (segments, references) with -1 for a missing reference.
    """
    diff = np.abs(hyp_lens[:, None] - ref_lens)
    rank = np.where(ref_lens >= 0, diff * (1 << 32) + ref_lens, np.iinfo(np.int64).max)
    best = np.argmin(rank, axis=1)
    return ref_lens[np.arange(len(ref_lens)), best]


@dataclass(frozen=True)
class _Layout:
    """How a corpus's references are cut into chunks, and what every chunk needs to know."""

    n_segments: int
    present: np.ndarray  # (segments, references): which references are there
    n_refs: int  # references per segment, -1 where it varies
    arrow: bool  # words get their ids from Arrow (``arrow_pays``)
    chunk_segments: int

    @classmethod
    def of(cls, references: References, chunk_segments: int) -> _Layout:
        """Check the references and cut them; a corpus of a few chunks is cut into one chunk
        per thread, for all threads (at least ``MIN_THREAD_CHUNK`` segments each)."""
        n_segments = check_references(references, None)
        present = reference_presence(references, n_segments)
        arrow = arrow_pays(n_segments * len(references))
        per_thread = -(-n_segments // thread_count())
        chunk_segments = min(chunk_segments, max(MIN_THREAD_CHUNK, per_thread))
        return cls(n_segments, present, references_per_segment(present), arrow, chunk_segments)

    def starts(self) -> range:
        return range(0, self.n_segments, self.chunk_segments)

    def encode(self, references: References, options: BLEUOptions, start: int) -> _ChunkRefs:
        stop = min(start + self.chunk_segments, self.n_segments)
        return _encode_chunk(references, self.present[start:stop], options, start, stop,
                             self.arrow)


def _empty_stats(n_segments: int, options: BLEUOptions) -> np.ndarray:
    return np.zeros((n_segments, options.stats_columns), np.int64)


def _fill_rows(rows: np.ndarray, chunk: _ChunkRefs, counted: Sequence[_OrderTable],
               hypotheses: Sequence[str], options: BLEUOptions) -> None:
    """Write one chunk's statistics rows from its references' counted tables."""
    order = options.max_ngram_order
    tokens = words(hypotheses, options)
    hyp_lens = np.diff(tokens.offsets)
    rows[:, 0] = hyp_lens
    rows[:, 1] = closest_ref_lengths(hyp_lens, chunk.ref_lens)
    rows[:, 2 : 2 + order] = _hypothesis_matches(chunk, counted, tokens)
    rows[:, 2 + order :] = np.maximum(hyp_lens[:, None] - np.arange(order)[None, :], 0)


class ReferenceTable:
    """References tokenized and encoded once (and counted once while small), then matched."""

    def __init__(self, references: Sequence[Sequence[str | None]], options: BLEUOptions,
                 chunk_segments: int = CHUNK_SEGMENTS) -> None:
        self.options = options
        layout = _Layout.of(references, chunk_segments)
        self.n_segments, self.n_refs = layout.n_segments, layout.n_refs
        self.chunk_segments = layout.chunk_segments
        self._chunks = map_chunks(lambda start: layout.encode(references, options, start),
                                  layout.starts())
        self._counted: list[tuple[_OrderTable, ...]] | None = None
        if sum(len(chunk.tokens) for chunk in self._chunks) * options.max_ngram_order \
                < REFERENCE_CACHE_NGRAMS:
            self._counted = map_chunks(
                lambda chunk: _count_chunk(chunk, options.max_ngram_order), self._chunks)

    def segment_stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        """The statistics matrix of ``hypotheses`` against these references."""
        check_hypotheses(hypotheses, self.n_segments)
        stats = _empty_stats(self.n_segments, self.options)

        def score_chunk(index: int) -> None:
            chunk = self._chunks[index]
            counted = (self._counted[index] if self._counted is not None
                       else _count_chunk(chunk, self.options.max_ngram_order))
            _fill_rows(stats[chunk.start : chunk.stop], chunk, counted,
                       hypotheses[chunk.start : chunk.stop], self.options)

        map_chunks(score_chunk, range(len(self._chunks)))
        return stats


def segment_stats_once(references: References, hypotheses: Sequence[str], options: BLEUOptions,
                       chunk_segments: int = CHUNK_SEGMENTS) -> tuple[np.ndarray, int]:
    """The statistics matrix of ``hypotheses`` against references used this once, and the
    references per segment (-1 where it varies).

    Each chunk is encoded, counted and matched in one task, with no wait for the other chunks
    between the steps and its data still in cache: about 10% faster than a ``ReferenceTable``
    then ``segment_stats`` (which keep the references for other hypotheses); memory follows the
    chunk.
    """
    layout = _Layout.of(references, chunk_segments)
    check_hypotheses(hypotheses, layout.n_segments)
    stats = _empty_stats(layout.n_segments, options)

    def score_chunk(start: int) -> None:
        chunk = layout.encode(references, options, start)
        _fill_rows(stats[chunk.start : chunk.stop], chunk,
                   _count_chunk(chunk, options.max_ngram_order),
                   hypotheses[chunk.start : chunk.stop], options)

    map_chunks(score_chunk, layout.starts())
    return stats, layout.n_refs


#: sacrebleu's sign of tokenized text: this many lines end in a tokenized period (" .")
TOKENIZED_PERIOD_LINES = 100
#: in a file too short to reach that many: at least this many, and half its non-empty lines
TOKENIZED_PERIOD_LINES_SHORT = 5


def tokenized_period_count(hypotheses: Sequence[str]) -> int:
    """How many lines end in a tokenized period (' .'), sacrebleu's sign of tokenized text
    (``str.endswith`` mapped at C speed: half the time of counting in the joined text)."""
    return sum(map(str.endswith, hypotheses, repeat(" .")))


def looks_tokenized(lines: Sequence[str], count: int | None = None) -> bool:
    """The one rule for text that is tokenized already, so BLEU's tokenizer would split it
    twice: sacrebleu's (``TOKENIZED_PERIOD_LINES`` lines end in ' .'), and, for a file too
    short to reach that, half its non-empty lines (at least ``TOKENIZED_PERIOD_LINES_SHORT``).
    ``count``: ``tokenized_period_count(lines)`` where known. BLEU's own warning
    (``warn_if_tokenized``) is sacrebleu's part alone, as sacrebleu's API and command line
    warn; the app notes a loaded file by the whole rule."""
    if count is None:
        count = tokenized_period_count(lines)
    if count >= TOKENIZED_PERIOD_LINES:
        return True
    non_empty = sum(1 for line in lines if line.strip())
    return count >= TOKENIZED_PERIOD_LINES_SHORT and 2 * count >= non_empty


def warn_if_tokenized(hypotheses: Sequence[str], count: int | None = None) -> None:
    """sacrebleu's warning: ``TOKENIZED_PERIOD_LINES`` or more lines ending in ' .' look
    tokenized already (the first part of ``looks_tokenized``)."""
    if count is None:
        count = tokenized_period_count(hypotheses)
    if count >= TOKENIZED_PERIOD_LINES:
        logger.warning(
            "%d hypothesis lines end in a tokenized period (' .'): the text looks tokenized "
            "already, which lowers BLEU; detokenize it, or pass force=True (--force on the "
            "command line) if it is on purpose.",
            count,
        )

"""Per-segment chrF statistics, chunk by chunk: references prepared once (symbols, ids,
lengths), hypotheses matched against them, and the best reference of each segment kept.

sacrebleu keeps, per segment, the statistics of the reference with the highest F-score (the
metric's own, smoothing included); on a tie the first reference (in stream order, None skipped)
wins, as ``f_score > best_f_score`` does. ``np.argmax`` over the same float64 F-scores, -inf
where a reference is None, picks the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..checks import (
    References,
    check_hypotheses,
    check_references,
    reference_presence,
    references_per_segment,
)
from ..threads import map_chunks
from .counts import ngram_matches
from .fscore import f_scores
from .score import CHRFOptions
from .scratch import scratch
from .text import (
    HYP_END,
    REF_END,
    Texts,
    char_alphabet,
    char_ids,
    encode,
    hypothesis_word_ids,
    reference_word_ids,
    split_whitespace,
    symbol_bits,
    words,
)

#: segments per chunk: chunks run on threads, and a segment's number within its chunk is part
#: of every n-gram key (smaller chunks leave more bits to the n-grams, but pay numpy's per-call
#: cost more often: on WMT22's 2,037 segments, 1,024 was ~1.5x faster than 512, at 18k ~1.1x)
CHUNK_SEGMENTS = 1024


def chunk_bounds(n_segments: int) -> list[tuple[int, int]]:
    """The (start, end) segments of each chunk."""
    return [(start, min(start + CHUNK_SEGMENTS, n_segments))
            for start in range(0, n_segments, CHUNK_SEGMENTS)]


@dataclass(frozen=True)
class _Side:
    """One kind of n-gram (characters or words) of a chunk's references."""

    symbols: np.ndarray  # int32: every reference text, stream after stream, REF_END after each
    lengths: np.ndarray  # (references, segments): symbols per text
    bits: int


@dataclass(frozen=True)
class _Views:
    """The two views of segments: what character n-grams read, and the words (chrF++)."""

    chars: Texts | None
    words: pa.Array | None
    word_counts: np.ndarray | None


def _views(texts: Sequence[str], options: CHRFOptions) -> _Views:
    encoded = encode(texts, options.lowercase)
    split = (split_whitespace(encoded)
             if options.word_order or (options.char_order and not options.whitespace) else None)
    chars = None
    if options.char_order:
        chars = encoded if options.whitespace else split.texts
    if not options.word_order:
        return _Views(chars, None, None)
    found = words(split)
    return _Views(chars, found.values, found.counts)


def _lay_out(ids: np.ndarray, lengths: np.ndarray, end: int, out: np.ndarray) -> None:
    """Writes the ids of texts of ``lengths`` into ``out``, ``end`` after each text."""
    ends = np.cumsum(lengths.ravel() + 1) - 1
    keep = scratch().get("keep", len(out), bool)
    keep[:] = True
    keep[ends] = False
    out[ends] = end
    out[keep] = ids


def _reference_side(ids: np.ndarray, lengths: np.ndarray, vocabulary_size: int) -> _Side:
    symbols = np.empty(len(ids) + lengths.size, np.int32)
    _lay_out(ids, lengths, REF_END, symbols)
    return _Side(symbols, lengths, symbol_bits(vocabulary_size))


@dataclass(frozen=True)
class ReferenceChunk:
    """A chunk's references, ready to be matched by any hypotheses."""

    chars: _Side | None
    alphabet: np.ndarray
    words: _Side | None
    vocabulary: pa.Array | None

    @classmethod
    def prepare(cls, streams: Sequence[Sequence[str | None]], options: CHRFOptions,
                ) -> ReferenceChunk:
        """Symbols of a chunk's reference streams (None read as an empty text: its
        statistics are never chosen)."""
        n_refs, n_segments = len(streams), len(streams[0])
        texts = [text if text is not None else "" for stream in streams for text in stream]
        views = _views(texts, options)
        chars = words = vocabulary = None
        alphabet = np.zeros(0, np.int64)
        if views.chars is not None:
            alphabet = char_alphabet(views.chars.code_points)
            chars = _reference_side(char_ids(views.chars.code_points, alphabet),
                                    views.chars.lengths.reshape(n_refs, n_segments),
                                    len(alphabet))
        if views.words is not None:
            ids, vocabulary = reference_word_ids(views.words)
            words = _reference_side(ids, views.word_counts.reshape(n_refs, n_segments),
                                    len(vocabulary))
        return cls(chars, alphabet, words, vocabulary)


def _triples(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, matches: np.ndarray,
             ) -> np.ndarray:
    """``[hyp, ref, match]`` per order, shape (segments, references, 3 * orders): n-gram
    counts follow from lengths; a hypothesis' count is 0 where the reference has no n-gram
    of that order (sacrebleu's ``hyp_count if ref_ngrams else 0``)."""
    orders, n_segments, n_refs = matches.shape
    order = np.arange(1, orders + 1)[:, None, None]
    ref_total = np.maximum(ref_lengths.T[None] - order + 1, 0)
    hyp_total = np.maximum(hyp_lengths[None, :, None] - order + 1, 0)
    hyp_total = np.where(ref_total > 0, hyp_total, 0)
    triples = np.stack([hyp_total, ref_total, matches], axis=-1)
    return triples.transpose(1, 2, 0, 3).reshape(n_segments, n_refs, 3 * orders)


def _side_stats(hyp_ids: np.ndarray, hyp_lengths: np.ndarray, side: _Side, orders: int,
                ) -> np.ndarray:
    """The statistics of one kind of n-gram: the hypotheses laid out before the references."""
    hyp_size = len(hyp_ids) + len(hyp_lengths)
    symbols = scratch().get("symbols", hyp_size + len(side.symbols), np.int32)
    _lay_out(hyp_ids, hyp_lengths, HYP_END, symbols[:hyp_size])
    symbols[hyp_size:] = side.symbols
    lengths = np.concatenate((hyp_lengths[None], side.lengths))
    return _triples(hyp_lengths, side.lengths, ngram_matches(symbols, lengths, side.bits, orders))


def best_reference(stats: np.ndarray, present: np.ndarray, options: CHRFOptions,
                   ) -> np.ndarray:
    """Each segment's row of its best reference (see the module's docstring)."""
    n_segments, n_refs, columns = stats.shape
    if n_refs == 1:
        return stats[:, 0]
    scores = f_scores(stats.reshape(-1, columns), options).reshape(n_segments, n_refs)
    best = np.argmax(np.where(present, scores, -np.inf), axis=1)
    return stats[np.arange(n_segments), best]


def chunk_stats(hypotheses: Sequence[str], refs: ReferenceChunk, options: CHRFOptions,
                ) -> np.ndarray:
    """The statistics of a chunk's hypotheses against each reference: (segments,
    references, columns), int64."""
    views = _views(hypotheses, options)
    parts = []
    if refs.chars is not None:
        chars = views.chars
        parts.append(_side_stats(char_ids(chars.code_points, refs.alphabet), chars.lengths,
                                 refs.chars, options.char_order))
    if refs.words is not None:
        ids = hypothesis_word_ids(views.words, refs.vocabulary)
        parts.append(_side_stats(ids, views.word_counts, refs.words, options.word_order))
    return np.concatenate(parts, axis=2)


class ReferenceSet:
    """A corpus' references, checked and prepared once per chunk; scores any hypotheses."""

    def __init__(self, references: References, options: CHRFOptions,
                 n_segments: int | None = None) -> None:
        n_segments = check_references(references, n_segments)
        present = reference_presence(references, n_segments)
        #: segments of the corpus
        self.n_segments = n_segments
        #: sacrebleu's ``nrefs``: references per segment, -1 where it varies
        self.n_refs = references_per_segment(present)
        self.present = present
        self.options = options
        streams = [list(stream) for stream in references]
        self.bounds = chunk_bounds(n_segments)
        self.chunks = map_chunks(
            lambda bound: ReferenceChunk.prepare(
                [stream[bound[0]:bound[1]] for stream in streams], options),
            self.bounds)

    def segment_stats(self, hypotheses: Sequence[str]) -> np.ndarray:
        """One int64 row per segment (sacrebleu's ``_extract_corpus_statistics``)."""
        check_hypotheses(hypotheses, self.n_segments)
        hypotheses = list(hypotheses)
        rows = map_chunks(
            lambda item: chunk_stats(hypotheses[item[0][0]:item[0][1]], item[1], self.options),
            zip(self.bounds, self.chunks, strict=True))
        return best_reference(np.concatenate(rows), self.present, self.options)

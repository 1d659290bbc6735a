"""TER segment statistics: words become integer ids, each (segment, reference) pair goes to the
compiled kernel, chunks of pairs run on the thread pool.

Ids: every word of the references gets an id; a hypothesis word that no reference has gets -1,
since TER only ever compares a hypothesis word with a reference word (the edit distance, the
matching blocks of a shift), never two hypothesis words. The kernel (numba) is imported on the
first statistics asked for, not before.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, pairwise, repeat
from types import ModuleType

import numpy as np

from ..checks import References, check_references, reference_presence, references_per_segment
from ..threads import map_chunks, thread_count
from .tokenizer import TercomTokenizer

#: the fewest pairs worth a chunk of their own on another thread
MIN_CHUNK_PAIRS = 64
#: chunks per thread: pairs differ in cost, so smaller pieces balance the threads
CHUNKS_PER_THREAD = 4


@functools.cache
def kernel() -> ModuleType:
    """The compiled kernel module: numba is imported (and the functions loaded from the disk
    cache, or compiled) here, on first use."""
    from . import kernel

    return kernel


def _encode(word_lists: Sequence[list[str]], vocabulary: dict[str, int], unknown: int | None,
            ) -> tuple[np.ndarray, np.ndarray]:
    """All words as one int32 id array, and where each list starts in it (int64 bounds)."""
    lengths = np.fromiter(map(len, word_lists), np.int64, len(word_lists))
    bounds = np.zeros(len(word_lists) + 1, np.int64)
    np.cumsum(lengths, out=bounds[1:])
    words = list(chain.from_iterable(word_lists))
    if unknown is None:
        ids = map(vocabulary.__getitem__, words)
    else:
        ids = map(vocabulary.get, words, repeat(unknown))
    return np.fromiter(ids, np.int32, len(words)), bounds


@dataclass(frozen=True, eq=False)
class TERReferences:
    """A corpus' references, tokenized and turned into ids once (reused for every system)."""

    #: reference word -> id
    vocabulary: dict[str, int]
    #: the ids of every present reference, one after the other (int32)
    tokens: np.ndarray
    #: reference r's ids are ``tokens[bounds[r]:bounds[r + 1]]``
    bounds: np.ndarray
    #: (segments, streams): the number r of each reference, -1 where the stream holds None
    slots: np.ndarray
    #: sacrebleu's ``nrefs``: references per segment, -1 where that varies
    n_refs: int

    @property
    def n_segments(self) -> int:
        return len(self.slots)

    @classmethod
    def build(cls, references: References, tokenizer: TercomTokenizer,
              n_segments: int | None = None) -> TERReferences:
        """Check the streams (aligned, strings or None, at least one reference per segment)
        and tokenize them."""
        n_segments = check_references(references, n_segments)
        present = reference_presence(references, n_segments)
        word_lists = [tokenizer.reference_words(ref) for stream in references for ref in stream
                      if ref is not None]
        vocabulary = {word: i for i, word in enumerate(
            dict.fromkeys(chain.from_iterable(word_lists)))}
        tokens, bounds = _encode(word_lists, vocabulary, None)
        slots = np.full(present.T.shape, -1, np.int64)  # stream-major, as the words were read
        slots[present.T] = np.arange(len(word_lists))
        return cls(vocabulary, tokens, bounds, slots.T.copy(), references_per_segment(present))

    def lengths(self) -> np.ndarray:
        """(segments, streams): each reference's word count, 0 where there is none."""
        counts = np.diff(self.bounds)
        return np.where(self.slots >= 0, counts[np.maximum(self.slots, 0)], 0)

    def segment_stats(self, hypotheses: Sequence[str], tokenizer: TercomTokenizer,
                      ) -> np.ndarray:
        """One row per segment, ``[num_edits, ref_length]`` (float64), as sacrebleu's
        ``_extract_corpus_statistics``: the fewest edits over the segment's references, and
        their average length. The hypotheses must be checked by the caller."""
        hyp_tokens, hyp_bounds = _encode([tokenizer.words(h) for h in hypotheses],
                                         self.vocabulary, -1)
        segment, stream = np.nonzero(self.slots >= 0)
        edits = np.empty(len(segment), np.int64)
        compute = kernel().pairs_edits
        ref_of_pair = self.slots[segment, stream]

        def work(span: tuple[int, int]) -> None:
            compute(hyp_tokens, hyp_bounds, self.tokens, self.bounds, segment, ref_of_pair,
                    span[0], span[1], edits)

        map_chunks(work, _spans(len(segment)))
        per_reference = np.full(self.slots.shape, np.iinfo(np.int64).max)
        per_reference[segment, stream] = edits
        present = (self.slots >= 0).sum(axis=1)
        # int64 sum / int64 count is one correctly rounded float64 division, like Python's int / int
        average_length = self.lengths().sum(axis=1) / present
        return np.column_stack([per_reference.min(axis=1).astype(np.float64), average_length])


def sentence_stats(hypothesis: list[str], references: Sequence[list[str]]) -> tuple[int, float]:
    """``[num_edits, ref_length]`` of one segment (its words, and its references' words), on
    the calling thread: the fewest edits, and the average reference length as sacrebleu
    computes it (Python's int / int)."""
    vocabulary = {word: i for i, word in enumerate(dict.fromkeys(chain.from_iterable(
        references)))}
    hyp = np.fromiter(map(vocabulary.get, hypothesis, repeat(-1)), np.int32, len(hypothesis))
    compute = kernel().pair_edits
    edits = min(int(compute(hyp, np.fromiter(map(vocabulary.__getitem__, ref), np.int32,
                                              len(ref))))
                for ref in references)
    return edits, sum(map(len, references)) / len(references)


def _spans(n_pairs: int) -> list[tuple[int, int]]:
    """Pairs cut into contiguous chunks for the thread pool (one chunk when few)."""
    if n_pairs < 2 * MIN_CHUNK_PAIRS:
        return [(0, n_pairs)]
    pieces = min(thread_count() * CHUNKS_PER_THREAD, n_pairs // MIN_CHUNK_PAIRS)
    edges = np.linspace(0, n_pairs, pieces + 1).astype(np.int64)
    return [(int(a), int(b)) for a, b in pairwise(edges) if b > a]

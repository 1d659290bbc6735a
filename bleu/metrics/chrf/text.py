"""Segments as chrF sees them, as arrays: code points (lowercased, whitespace removed or kept)
and the words of chrF++, with integer ids that the n-gram counting compares.

What sacrebleu does per string is done here per batch of strings: ``str.lower`` (the same
call), ``''.join(line.split())`` as a whitespace table over code points (``str.split``'s
whitespace), and chrF++'s words (``line.split()``, then one ASCII punctuation character split off
the end of a word, else off its start) as word boundaries. Ids come from the references: a
symbol no reference of the chunk has gets ``HYP_ONLY``, which can never match.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .scratch import scratch

#: sacrebleu's chrF++ punctuation (``string.punctuation``)
PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
#: the highest code point ``str.split()`` treats as whitespace (U+3000 IDEOGRAPHIC SPACE)
LAST_SPACE = 0x3000
#: a hypothesis symbol that no reference of the chunk has (so it never matches)
HYP_ONLY = 0
#: the symbol after each hypothesis text, and after each reference text: different, so that an
#: n-gram running over the end of a text never matches
HYP_END, REF_END = 1, 2
#: the first id of a reference symbol
FIRST_ID = 3


@functools.cache
def _space_table() -> np.ndarray:
    """``str.isspace`` of code points 0..U+3000, then False for every code point above."""
    table = np.zeros(LAST_SPACE + 2, bool)
    table[: LAST_SPACE + 1] = [chr(c).isspace() for c in range(LAST_SPACE + 1)]
    return table


@functools.cache
def _punctuation_table() -> np.ndarray:
    """Whether each code point 0..127 is in ``PUNCTUATION``, then False for 128 and above."""
    table = np.zeros(129, bool)
    table[[ord(c) for c in PUNCTUATION]] = True
    return table


def _lookup(table: np.ndarray, code_points: np.ndarray, name: str) -> np.ndarray:
    """``table[c]`` per code point, the table's last entry standing for everything beyond;
    the result is a scratch buffer called ``name``."""
    buffers = scratch()
    # take() converts other index types to intp in a temporary: convert into a buffer instead
    indices = buffers.get("indices", len(code_points), np.intp)
    np.copyto(indices, code_points)
    out = buffers.get(name, len(code_points), table.dtype)
    return np.take(table, indices, out=out, mode="clip")


@dataclass(frozen=True)
class Texts:
    """Segments as one array of code points (uint32) and the length of each segment."""

    code_points: np.ndarray
    lengths: np.ndarray

    @property
    def offsets(self) -> np.ndarray:
        """Where each segment starts in ``code_points``, and the end of the last."""
        return np.concatenate(([0], np.cumsum(self.lengths)))


def encode(texts: Sequence[str], lowercase: bool) -> Texts:
    """Code points of the segments, lowercased with ``str.lower`` as sacrebleu does (which
    can change a length: 'İ' becomes two code points). Lone surrogates are kept as code points."""
    if lowercase:
        texts = [text.lower() for text in texts]
    data = "".join(texts).encode("utf-32-le", "surrogatepass")
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return Texts(np.frombuffer(data, dtype="<u4"), lengths)


@dataclass(frozen=True)
class Split:
    """Segments with their whitespace removed, and where each whitespace-separated word
    starts in the result."""

    texts: Texts
    word_starts: np.ndarray


def split_whitespace(texts: Texts) -> Split:
    """``''.join(line.split())`` of every segment, keeping where ``line.split()``'s words start.

    A word starts at each segment's first kept character and at the first kept character after
    whitespace; in the stripped array, the latter lies where the whitespace was, less the
    whitespace before it.
    """
    space = _lookup(_space_table(), texts.code_points, "space")
    spaces = np.flatnonzero(space)
    kept = np.logical_not(space, out=space)
    stripped = np.compress(kept, texts.code_points)
    offsets = texts.offsets
    lengths = texts.lengths - np.diff(np.searchsorted(spaces, offsets))
    starts = np.concatenate(([0], np.cumsum(lengths)))
    candidates = np.concatenate((spaces - np.arange(len(spaces)), starts[:-1]))
    candidates.sort()
    candidates = candidates[candidates < len(stripped)]
    new = np.ones(len(candidates), bool)
    new[1:] = candidates[1:] != candidates[:-1]
    return Split(Texts(stripped, lengths), candidates[new])


@dataclass(frozen=True)
class Words:
    """chrF++'s words of segments: their UTF-32 bytes as one Arrow array, and the number of
    words in each segment."""

    values: pa.Array
    counts: np.ndarray


def words(split: Split) -> Words:
    """sacrebleu's ``_remove_punctuation`` of every segment: a word of two or more characters
    ending in punctuation loses that last character to a word of its own, else one starting
    with punctuation loses its first (so '(hi)' gives '(hi' and ')')."""
    code_points = split.texts.code_points
    bounds = np.append(split.word_starts, len(code_points))
    first, last = bounds[:-1], bounds[1:] - 1
    long = bounds[1:] - first >= 2
    punctuation = _punctuation_table()
    split_last = long & punctuation[np.minimum(code_points[last], 128)]
    split_first = long & ~split_last & punctuation[np.minimum(code_points[first], 128)]
    bounds = np.sort(np.concatenate((bounds, last[split_last], first[split_first] + 1)))
    segment = np.searchsorted(split.texts.offsets, bounds[:-1], side="right") - 1
    counts = np.bincount(segment, minlength=len(split.texts.lengths))
    values = pa.Array.from_buffers(pa.large_binary(), len(bounds) - 1,
                                   [None, pa.py_buffer(bounds * 4), pa.py_buffer(code_points)])
    return Words(values, counts)


def char_alphabet(code_points: np.ndarray) -> np.ndarray:
    """The distinct code points of the references, sorted."""
    if not len(code_points):
        return np.zeros(0, np.int64)
    present = np.zeros(int(code_points.max()) + 1, bool)
    present[code_points] = True
    return np.flatnonzero(present)


def char_ids(code_points: np.ndarray, alphabet: np.ndarray) -> np.ndarray:
    """Each code point's id (int32): ``FIRST_ID`` + its place in the alphabet, or ``HYP_ONLY``
    (a scratch buffer)."""
    size = int(alphabet[-1]) + 2 if len(alphabet) else 1
    table = scratch().get("alphabet", size, np.int32)
    table[:] = HYP_ONLY
    table[alphabet] = np.arange(FIRST_ID, FIRST_ID + len(alphabet))
    return _lookup(table, code_points, "ids")


def _int32_values(array: pa.Array, null: int) -> np.ndarray:
    """An Arrow int32 array as numpy, nulls as ``null`` (read from its buffers: pyarrow's own
    conversions import pandas, a second of import time)."""
    validity, data = array.buffers()
    end = array.offset + len(array)
    values = np.frombuffer(data, np.int32, count=end)[array.offset:]
    if not array.null_count:
        return values
    valid = np.unpackbits(np.frombuffer(validity, np.uint8), count=end, bitorder="little")
    return np.where(valid[array.offset:].view(bool), values, np.int32(null))


def reference_word_ids(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Ids of the references' words (``FIRST_ID`` + place in their vocabulary), and the
    vocabulary itself."""
    encoded = values.dictionary_encode()
    return _int32_values(encoded.indices, 0) + np.int32(FIRST_ID), encoded.dictionary


def hypothesis_word_ids(values: pa.Array, vocabulary: pa.Array) -> np.ndarray:
    """Ids of the hypotheses' words in the references' vocabulary, ``HYP_ONLY`` if absent."""
    places = pc.index_in(values, value_set=vocabulary)
    return _int32_values(places, HYP_ONLY - FIRST_ID) + np.int32(FIRST_ID)


def symbol_bits(vocabulary_size: int) -> int:
    """Bits that hold any id: the specials below ``FIRST_ID`` and one per vocabulary entry."""
    return (FIRST_ID + vocabulary_size - 1).bit_length()

"""Tokenized lines as one buffer of words, built without a Python string per word.

Two ways in, both giving ``Words``: the UTF-8 bytes of all words end to end with each word's
bounds, and the int64 offsets of each line's first word (``len(lines) + 1`` of them). The engine
turns them into an Arrow string array (zero-copy, for big corpora) or a list of ``bytes`` (small
ones: no Arrow to load), then into integer ids:

- ``split_words``: tokenized text (lines joined by newlines) split on exactly the code points
  ``str.split()`` splits on (``PY_WHITESPACE``; a test checks every code point).
- ``words_from_classes``: the mteval rules evaluated on an array of character classes (one per
  UTF-8 byte or per code point), so that the rules' result goes straight to word boundaries.

The rules, as sacrebleu's four regular expressions apply them to one line (checked against
sacrebleu in tests/core/test_engine.py and tests/core/test_tokenizers.py):

- rule 1 spaces out its ASCII punctuation class (``SPLIT``); only spaces are inserted, so no
  character's neighbours change between digit and non-digit;
- rules 2 and 3 space out every '.' and ',' (``MARK``) except that in a maximal run of marks
  followed by a digit, the run's last mark stays attached to that digit when the run's length
  is odd after a digit, or even after a non-digit (a lone mark between two digits, "3.14", is
  the odd case): rule 2 consumes (non-digit, mark) pairs from the left, rule 3 (mark,
  non-digit) pairs, and the parity decides which one is left over;
- rule 4 spaces out a '-' right after a digit;
- where the rules see no padding (``zh``), the start and end of a line act like digits.

A word is a maximal run of non-whitespace units, cut before and after each spaced-out unit.
Whitespace and line breaks never match the rules' punctuation, so treating every whitespace
character alike is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

# Character classes. Everything above NEWLINE belongs to a word.
WS, NEWLINE, SPLIT, MARK, DASH, DIGIT, OTHER = range(7)

# The characters str.split() splits on (checked in the tests against every code point).
PY_WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
                 "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
# sacrebleu's rule 1 class ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``, the space aside.
RULE1_PUNCTUATION = "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/"


def ascii_class_table() -> np.ndarray:
    """The class of each ASCII character under the mteval rules (256 entries, OTHER above 127)."""
    table = np.full(256, OTHER, np.uint8)
    for char in RULE1_PUNCTUATION:
        table[ord(char)] = SPLIT
    table[[ord("."), ord(",")]] = MARK
    table[ord("-")] = DASH
    table[ord("0") : ord("9") + 1] = DIGIT
    for char in PY_WHITESPACE:
        if ord(char) < 128:
            table[ord(char)] = WS
    table[ord("\n")] = NEWLINE
    return table


_ALL_BITS = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


@dataclass(frozen=True)
class Words:
    """All words of some lines: word k is ``data[bounds[k]:bounds[k + 1]]`` (UTF-8, or
    surrogate-passing bytes for text that is not valid Unicode), and the words of line i are
    words ``offsets[i]`` .. ``offsets[i + 1] - 1``."""

    data: bytes
    bounds: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def to_list(self) -> list[bytes]:
        """Each word as ``bytes`` (equal words are equal bytes: enough to give them ids).

        The words are joined by single spaces and split again in C: no word holds a space
        byte (words are runs of non-whitespace, and 0x20 is never part of a longer UTF-8
        sequence), and it takes a third of the time of slicing word by word.
        """
        n_words = len(self)
        if n_words == 0:
            return []
        start = int(self.bounds[0])
        data = np.frombuffer(self.data, np.uint8)[start : int(self.bounds[-1])]
        joined = np.empty(len(data) + n_words - 1, np.uint8)
        spaces = self.bounds[1:-1] - start + np.arange(n_words - 1)
        joined[spaces] = ord(" ")
        is_word_byte = np.ones(len(joined), bool)
        is_word_byte[spaces] = False
        np.place(joined, is_word_byte, data)
        return joined.tobytes().split(b" ")

    def strings(self) -> list[str]:
        """Each word as a Python string (for display; the engine never needs them)."""
        return [word.decode("utf-8", "surrogatepass") for word in self.to_list()]

    def ends(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per word: its length in bytes, its first 8 bytes and its last 8 bytes, each read as
        one little-endian uint64 (bytes past the word's end are zero; the last 8 only for a
        word longer than 8 bytes, else 0). The three name a word of up to 16 bytes exactly."""
        start, stop = self.bounds[:-1], self.bounds[1:]
        lengths = stop - start
        padded = np.zeros(len(self.data) + 8, np.uint8)
        padded[: len(self.data)] = np.frombuffer(self.data, np.uint8)
        # every 8-byte window of the text, one per byte: a word's ends are two of them
        windows = np.ndarray((len(self.data) + 1,), np.dtype("<u8"), padded, 0, (1,))
        short = np.minimum(lengths, 7).astype(np.uint64) * np.uint64(8)
        masks = np.where(lengths >= 8, _ALL_BITS, (np.uint64(1) << short) - np.uint64(1))
        heads = windows[start] & masks
        tails = np.where(lengths > 8, windows[np.maximum(stop - 8, 0)], np.uint64(0))
        return lengths, heads, tails

    def to_arrow(self) -> Any:
        """The words as one Arrow ``large_binary`` array, zero-copy (binary, not string: text
        that is not valid Unicode has the same type); pyarrow is loaded only here."""
        import pyarrow as pa

        return pa.Array.from_buffers(pa.large_binary(), len(self), [
            None, pa.py_buffer(self.bounds.astype(np.int64)), pa.py_buffer(self.data)])


def split_words(text: str, n_lines: int) -> Words:
    """Words and line offsets of tokenized text (lines joined by newlines).

    Whitespace is found per UTF-8 byte (``byte_classes``), not by Arrow's
    ``utf8_split_whitespace``, which mis-splits some runs of whitespace inside a large array
    (pyarrow 26: a line ``"$\\t "`` among others gave the word ``" "``).
    """
    if n_lines == 0:  # "".split("\n") is one empty line, not none
        return Words(b"", np.zeros(1, np.int64), np.zeros(1, np.int64))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so split in Python, as bytes
        return _split_words_python(text, n_lines)
    units, classes = byte_classes(data)
    keep = classes > NEWLINE
    start = keep.copy()
    start[1:] &= ~keep[:-1]
    return words_from_classes(units, classes, keep, start, n_lines)


def _split_words_python(text: str, n_lines: int) -> Words:
    """``split_words`` for text that is not valid UTF-8: words as surrogate-passing bytes."""
    per_line = [line.split() for line in text.split("\n")]
    _check_lines(len(per_line), n_lines)
    words = [w.encode("utf-8", "surrogatepass") for tokens in per_line for w in tokens]
    lengths = np.fromiter((len(tokens) for tokens in per_line), np.int64, len(per_line))
    bounds = np.concatenate(([0], np.cumsum([len(w) for w in words], dtype=np.int64)))
    return Words(b"".join(words), bounds.astype(np.int64),
                 np.concatenate(([0], np.cumsum(lengths))).astype(np.int64))


def _check_lines(found: int, expected: int) -> None:
    if found != expected:  # cannot happen unless a tokenizer broke its contract
        raise RuntimeError(f"tokenizer returned {found} lines for {expected}")


def word_starts(classes: np.ndarray, split_extra: np.ndarray | None = None,
                edges_like_digits: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Which units belong to a word (``keep``) and which start one, under the mteval rules.

    ``split_extra`` marks further units that are words on their own (zh's Chinese characters).
    ``edges_like_digits``: whether a line's start and end count as digits for the rules (zh,
    unpadded) or as the spaces that 13a pads every line with.
    """
    n = len(classes)
    split = classes == SPLIT if split_extra is None else (classes == SPLIT) | split_extra
    marks = np.flatnonzero(classes == MARK)
    if len(marks):
        # Digit-like neighbours: digits, and maybe line breaks and (index 0 and n + 1) the
        # text's edges.
        digit_like = np.full(n + 2, edges_like_digits)
        digit_like[1:-1] = classes == DIGIT
        if edges_like_digits:
            digit_like[1:-1] |= classes == NEWLINE
        run_first = np.ones(len(marks), bool)
        np.not_equal(marks[1:], marks[:-1] + 1, out=run_first[1:])
        run_last = np.append(run_first[1:], True)
        firsts, lasts = marks[run_first], marks[run_last]
        odd = (lasts - firsts) % 2 == 0
        attached = digit_like[lasts + 2] & (odd == digit_like[firsts])
        spaced = np.ones(len(marks), bool)
        spaced[np.flatnonzero(run_last)[attached]] = False
        split[marks[spaced]] = True
    dashes = np.flatnonzero(classes[1:] == DASH) + 1
    split[dashes[classes[dashes - 1] == DIGIT]] = True
    keep = classes > NEWLINE
    start = keep.copy()
    start[1:] &= ~keep[:-1] | split[1:] | split[:-1]
    return keep, start


def words_from_classes(units: np.ndarray, classes: np.ndarray, keep: np.ndarray,
                       start: np.ndarray, n_lines: int) -> Words:
    """Build the words from UTF-8 bytes (uint8) or code points (uint32) and their boundaries."""
    newlines = np.flatnonzero(classes == NEWLINE)
    _check_lines(len(newlines) + 1, n_lines)
    kept = units[keep]
    first_units = np.flatnonzero(start[keep])
    n_words = len(first_units)
    if units.dtype == np.uint8:
        data = kept.tobytes()
        value_offsets = np.append(first_units, len(kept))
    else:
        data = kept.tobytes().decode("utf-32-le").encode("utf-8")
        utf8_len = 1 + (kept >= 0x80).astype(np.int64) + (kept >= 0x800) + (kept >= 0x10000)
        byte_at = np.concatenate(([0], np.cumsum(utf8_len)))
        value_offsets = byte_at[np.append(first_units, len(kept))]
    words_before = np.searchsorted(np.flatnonzero(start), newlines)
    return Words(data, value_offsets.astype(np.int64),
                 np.concatenate(([0], words_before, [n_words])).astype(np.int64))


_WIDE_LEAD = 7  # a byte that may start a multi-byte whitespace character: checked, else OTHER
_WIDE_SPACES = np.array([ord(c) for c in PY_WHITESPACE if ord(c) >= 0x80], np.int64)
#: whether a code point of up to 3 UTF-8 bytes is one of those (a lookup, not ``np.isin``,
#: whose ``np.unique`` imports ``numpy.ma``: 20 ms of a small command-line run)
_IS_WIDE_SPACE = np.zeros(0x10000, bool)
_IS_WIDE_SPACE[_WIDE_SPACES] = True


def _byte_class_table() -> np.ndarray:
    table = ascii_class_table()
    for code in _WIDE_SPACES:
        table[chr(code).encode("utf-8")[0]] = _WIDE_LEAD
    return table


_BYTE_CLASSES = _byte_class_table()
_BYTE_CLASS_TRANSLATION = _BYTE_CLASSES.tobytes()  # for bytes.translate: a class per byte


def byte_classes(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """UTF-8 ``data`` as a uint8 array and the class of each byte.

    Bytes of non-ASCII characters are OTHER (the rules only name ASCII characters, and no word
    boundary can fall inside a character), except the whitespace characters, which are WS.
    """
    units = np.frombuffer(data, np.uint8)
    classes = np.frombuffer(data.translate(_BYTE_CLASS_TRANSLATION), np.uint8)
    leads = np.flatnonzero(classes == _WIDE_LEAD)
    if len(leads):
        classes = classes.copy()  # frombuffer's view of bytes is read-only
        last = len(units) - 1
        b0 = units[leads].astype(np.int64)
        b1 = units[np.minimum(leads + 1, last)].astype(np.int64) & 0x3F
        b2 = units[np.minimum(leads + 2, last)].astype(np.int64) & 0x3F
        two = b0 < 0xE0
        code = np.where(two, ((b0 & 0x1F) << 6) | b1, ((b0 & 0x0F) << 12) | (b1 << 6) | b2)
        space = _IS_WIDE_SPACE[code]
        for offset in range(3):
            width_ok = space if offset < 2 else space & ~two
            classes[leads[width_ok] + offset] = WS
        classes[leads[~space]] = OTHER
    return units, classes


def _code_point_tables() -> tuple[np.ndarray, np.ndarray]:
    """Classes of the Basic Multilingual Plane's code points, and which ones are whitespace."""
    classes = np.full(0x10000, OTHER, np.uint8)
    classes[:128] = ascii_class_table()[:128]
    for char in PY_WHITESPACE:
        classes[ord(char)] = NEWLINE if char == "\n" else WS
    return classes, classes <= NEWLINE


CODE_POINT_CLASSES, CODE_POINT_SPACE = _code_point_tables()


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (raises UnicodeEncodeError for a lone surrogate)."""
    return np.frombuffer(text.encode("utf-32-le"), np.uint32)


def joined_code_points(text: str, n_lines: int) -> np.ndarray | None:
    """The code points of ``n_lines`` lines joined by newlines, or None where the array path
    cannot keep them apart (a line holds a newline itself) or encode them (a lone surrogate)."""
    if text.count("\n") != n_lines - 1:
        return None
    try:
        return code_points(text)
    except UnicodeEncodeError:
        return None


def bmp_index(points: np.ndarray) -> np.ndarray:
    """Index into the BMP tables: code points above U+FFFF share U+FFFF's entry (OTHER)."""
    return np.minimum(points, 0xFFFF)

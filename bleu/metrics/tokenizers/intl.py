"""The international tokenizer (``intl``, mteval-v14 style): Unicode punctuation and symbols."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import regex

from .base import Tokenizer
from .words import (
    NEWLINE,
    PY_WHITESPACE,
    WS,
    Words,
    code_points,
    joined_code_points,
    words_from_classes,
)

# mteval-v14's rules, as sacrebleu applies them to each right-stripped line (no padding).
_RULES = (
    (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
    (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
    (regex.compile(r"(\p{S})"), r" \1 "),
)


_PUNCT, _SYMBOL, _NUMBER, _OTHER = 2, 3, 4, 5


@cache
def _class_table() -> np.ndarray:
    """The class of every code point (P, S, N, whitespace, other), from the regex module itself.

    Built on first use (a few tenths of a second): the categories come from the same Unicode
    database as the rules' ``\\p{P}``, ``\\p{S}`` and ``\\p{N}``.
    """
    table = np.full(0x110000, _OTHER, np.uint8)
    points = np.arange(0x110000, dtype=np.uint32)
    every = points[(points < 0xD800) | (points > 0xDFFF)].tobytes().decode("utf-32-le")
    for name, label in (("P", _PUNCT), ("S", _SYMBOL), ("N", _NUMBER)):
        found = "".join(regex.findall(rf"\p{{{name}}}", every))
        table[code_points(found).astype(np.int64)] = label
    table[[ord(c) for c in PY_WHITESPACE]] = WS
    table[ord("\n")] = NEWLINE
    return table


def _word_starts(classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which code points belong to a word and which start one, under the three rules.

    Every symbol is a word. Every punctuation mark is a word too, except at the ends of a
    maximal run of marks (length L, neighbours b before and a after, a line edge counting as
    "edge"), which rules 1 and 2 leave attached by the pairs they consume (checked against
    sacrebleu for every L up to 7 and every kind of neighbour, then on generated text):
    the last mark stays on a following number when L is odd after a number or an edge, or even
    after anything else; a lone mark between a number and a number (or the line's end) also
    stays on the number before it ("3.14", a sentence-final "2019.").
    """
    n = len(classes)
    punct, symbol = classes == _PUNCT, classes == _SYMBOL
    gap = np.zeros(n + 1, bool)  # gap k lies between code points k-1 and k
    gap[:-1] |= punct | symbol
    gap[1:] |= punct | symbol
    marks = np.flatnonzero(punct)
    if len(marks):
        kind = np.full(n + 2, _OTHER, np.uint8)  # neighbour kinds; index 0 and n+1: the edges
        kind[1:-1] = classes
        kind[[0, n + 1]] = NEWLINE
        run_first = np.ones(len(marks), bool)
        np.not_equal(marks[1:], marks[:-1] + 1, out=run_first[1:])
        firsts = marks[run_first]
        lasts = marks[np.append(run_first[1:], True)]
        before, after = kind[firsts], kind[lasts + 2]
        odd = (lasts - firsts) % 2 == 0
        before_number_or_edge = (before == _NUMBER) | (before == NEWLINE)
        gap[(lasts + 1)[(after == _NUMBER) & (odd == before_number_or_edge)]] = False
        lone = (firsts == lasts) & (before == _NUMBER) & ((after == _NUMBER) | (after == NEWLINE))
        gap[firsts[lone]] = False
    keep = classes > NEWLINE
    start = keep.copy()
    start[1:] &= ~keep[:-1] | gap[1:-1]
    return keep, start


def _apply_rules(text: str) -> str:
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


class TokenizerIntl(Tokenizer):
    """Splits off every Unicode punctuation mark and symbol, except punctuation between numbers."""

    name = "intl"

    def __call__(self, line: str) -> str:
        return " ".join(_apply_rules(line).split())

    def words(self, lines: Sequence[str]) -> Words:
        """The rules on the code points of the right-stripped lines (see ``_word_starts``)."""
        text = "\n".join(line.rstrip() for line in lines)
        points = joined_code_points(text, len(lines))
        if points is None:
            return super().words(lines)
        classes = _class_table()[points]
        keep, start = _word_starts(classes)
        return words_from_classes(points, classes, keep, start, len(lines))

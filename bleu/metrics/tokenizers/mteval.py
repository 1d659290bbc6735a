"""The mteval-v13a tokenizer (``13a``) and the Chinese tokenizer built on its rules (``zh``).

sacrebleu applies four regular expressions to every line (``__call__`` here does the same, line
by line). ``words`` gets the same tokens for many lines at once by evaluating the rules on an
array of character classes (``words.py``; why that is exact: docs/architecture.md). For ``zh``
the rules see no padding, so a line's start and end behave like digits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import numpy as np

from .base import Tokenizer
from .words import (
    CODE_POINT_CLASSES,
    CODE_POINT_SPACE,
    Words,
    bmp_index,
    byte_classes,
    joined_code_points,
    word_starts,
    words_from_classes,
)


@cache
def _line_rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The four mteval rules, exactly as sacrebleu applies them line by line (the reference
    path); compiled on first use, as ``words`` never needs them."""
    return (
        (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
        (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    )


def apply_line_rules(line: str) -> str:
    """sacrebleu's TokenizerRegexp on one line: the four rules, then single spaces."""
    for pattern, replacement in _line_rules():
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


# sacrebleu replaces, in this order, &quot; &amp; &lt; &gt;: so "&amp;lt;" ends as "<" (its
# &amp; gives a &lt; that the next replace decodes) while "&amp;quot;" ends as "&quot;". One
# pass of this pattern gives the same text (tested against sacrebleu on generated text).
_ENTITY = re.compile(r"&(?:quot;|amp;(?:lt;|gt;)?|lt;|gt;)")
_DECODED = {"&quot;": '"', "&amp;": "&", "&amp;lt;": "<", "&amp;gt;": ">", "&lt;": "<",
            "&gt;": ">"}


def _decode_entity(match: re.Match[str]) -> str:
    return _DECODED[match.group()]


def _decode_entities(text: str) -> str:
    return _ENTITY.sub(_decode_entity, text) if "&" in text else text


def _unescape_13a(text: str) -> str:
    """The language-independent part of 13a, in sacrebleu's order: drop ``<skipped>``, join a
    word broken by "-\\n", turn other line breaks into spaces, decode four HTML entities."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    return _decode_entities(text)


class Tokenizer13a(Tokenizer):
    """mteval-v13a, the WMT default: punctuation split off, digits keep their '.', ',' and '-'."""

    name = "13a"

    def __call__(self, line: str) -> str:
        return apply_line_rules(f" {_unescape_13a(line)} ")

    def words(self, lines: Sequence[str]) -> Words:
        """The rules on the UTF-8 bytes of the lines (see ``words.py``); the line edges act as
        the spaces sacrebleu pads each line with."""
        text = "\n".join(lines)
        if not lines or text.count("\n") != len(lines) - 1:  # a line holds a newline
            return super().words(lines)
        if "<skipped>" in text:  # removed per line, before the joining newlines could matter
            text = text.replace("<skipped>", "")
        try:
            units, classes = byte_classes(_decode_entities(text).encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate
            return super().words(lines)
        keep, start = word_starts(classes, edges_like_digits=False)
        return words_from_classes(units, classes, keep, start, len(lines))


# sacrebleu's ranges of "Chinese" characters, as its comparisons really evaluate them: two of its
# bounds are written '\u20000'-style (five hex digits), which Python reads as a four-digit escape
# followed by a digit, so they cover U+2001..U+2A6D and U+2F81..U+2FA1 instead of the
# supplementary planes (sacrebleu issue #298; kept for parity).
_CHINESE_RANGES = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A), (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
)
_CHINESE_CLASS = "".join(f"\\u{low:04x}-\\u{high:04x}" for low, high in _CHINESE_RANGES)


@cache
def _chinese_char() -> re.Pattern[str]:
    """One "Chinese" character, as sacrebleu's zh spaces it out (the line-by-line path)."""
    return re.compile(f"([{_CHINESE_CLASS}])")


def _chinese_table() -> np.ndarray:
    """Which BMP code points zh spaces out as words on their own (whitespace excepted)."""
    table = np.zeros(0x10000, bool)
    for low, high in _CHINESE_RANGES:
        table[low : high + 1] = True
    return table & ~CODE_POINT_SPACE


_CHINESE_TABLE = _chinese_table()


class TokenizerZh(Tokenizer):
    """Chinese: every CJK character is a token; the rest follows the 13a rules (without padding)."""

    name = "zh"

    def __call__(self, line: str) -> str:
        return apply_line_rules(_chinese_char().sub(r" \1 ", line.strip()))

    def words(self, lines: Sequence[str]) -> Words:
        """The rules on the code points of the stripped lines (see ``words.py``)."""
        text = "\n".join(line.strip() for line in lines)
        points = joined_code_points(text, len(lines))
        if points is None:
            return super().words(lines)
        index = bmp_index(points)
        classes = CODE_POINT_CLASSES[index]
        keep, start = word_starts(classes, _CHINESE_TABLE[index])
        return words_from_classes(points, classes, keep, start, len(lines))

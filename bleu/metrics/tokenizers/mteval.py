"""The mteval-v13a tokenizer (``13a``) and the Chinese tokenizer built on its rules (``zh``).

sacrebleu applies four regular expressions to every line. The stream path here gets the same
tokens from a few passes over the whole text: one split spaces out the punctuation class and
every '.' and ','; beforehand, the few '.'/',' that the digit rules keep attached are swapped for
private markers, turned back at the end. Which ones stay attached follows from how the rules
consume characters (docs/architecture.md; checked against sacrebleu in the tests):
- a lone '.' or ',' between two digits ("3.14", "1,000");
- the last mark of a run of two or more followed by a digit, when the run's length is even after
  a non-digit, or odd after a digit ("x..5" -> "x . .5").
For ``zh`` the rules see no padding, so a line's start and end behave like digits; the stream
joins lines with bare newlines and the lookarounds below treat a newline as a digit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from .base import Tokenizer, needs_line_path
from .words import (
    CODE_POINT_CLASSES,
    CODE_POINT_SPACE,
    bmp_index,
    byte_classes,
    joined_code_points,
    word_starts,
    words_from_classes,
)

# The four mteval rules, exactly as sacrebleu applies them line by line (the reference path).
_LINE_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)

_DOT_MARK, _COMMA_MARK = "\ue000", "\ue001"
_MARK_OF = {".": _DOT_MARK, ",": _COMMA_MARK}
# A lone '.' / ',' with a digit (or a line edge) on both sides stays attached. Each pattern starts
# with its literal character, so that the regex engine skips ahead to it.
_LONE_DOT = re.compile(r"\.(?<![^\n0-9]\.)(?![^\n0-9])")
_LONE_COMMA = re.compile(r",(?<![^\n0-9],)(?![^\n0-9])")
# A run of two or more marks followed by a digit (or a line edge): maybe its last mark stays.
_RUN_BEFORE_DIGIT = re.compile(r"[.,][.,]+(?![^\n0-9])")
_DIGIT_DASH = re.compile(r"-(?<=[0-9]-)")
# What the stream path spaces out: rule 1's ASCII class (the space aside) plus every '.' and ','.
_SPACED_13A = r"!-&(-+/:-@\[-`{-~.,"


def _splitter(extra_ranges: str = "") -> re.Pattern[str]:
    """A pattern whose re.split keeps each spaced-out character as its own piece.

    Joining the pieces with spaces spaces them out; measured about 5x faster than str.translate
    with a table, and faster than re.sub with a template.
    """
    return re.compile(f"([{_SPACED_13A}{extra_ranges}])")


def _keep_run_tail(match: re.Match[str]) -> str:
    """Mark the last character of a run whose last mark the digit rules leave attached."""
    run, start, text = match.group(), match.start(), match.string
    before = text[start - 1] if start else "\n"
    after_digit = before == "\n" or "0" <= before <= "9"
    if (len(run) % 2 == 1) == after_digit:
        return run[:-1] + _MARK_OF[run[-1]]
    return run


def _apply_rules_to_stream(text: str, splitter: re.Pattern[str]) -> str:
    """The four mteval rules over newline-separated lines, in a few whole-text passes."""
    marked = "." in text or "," in text
    if marked:
        text = _LONE_DOT.sub(_DOT_MARK, text)
        text = _LONE_COMMA.sub(_COMMA_MARK, text)
        text = _RUN_BEFORE_DIGIT.sub(_keep_run_tail, text)
    if "-" in text:
        text = _DIGIT_DASH.sub(" - ", text)
    text = " ".join(splitter.split(text))
    if marked:
        text = text.replace(_DOT_MARK, ".").replace(_COMMA_MARK, ",")
    return text


def apply_line_rules(line: str) -> str:
    """sacrebleu's TokenizerRegexp on one line: the four rules, then single spaces."""
    for pattern, replacement in _LINE_RULES:
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


def _unescape_13a(text: str) -> str:
    """The language-independent part of 13a: drop <skipped>, decode four HTML entities."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    return _ENTITY.sub(_decode_entity, text) if "&" in text else text


class Tokenizer13a(Tokenizer):
    """mteval-v13a, the WMT default: punctuation split off, digits keep their '.', ',' and '-'."""

    name = "13a"
    _splitter = _splitter()

    def __call__(self, line: str) -> str:
        line = line.replace("-\n", "").replace("\n", " ")
        return apply_line_rules(f" {_unescape_13a(line)} ")

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        if needs_line_path(lines):
            return super().tokenize_stream(lines)
        # Padding every line with spaces, as sacrebleu does, keeps the rules inside the line.
        text = _unescape_13a(" " + " \n ".join(lines) + " ")
        return _apply_rules_to_stream(text, self._splitter)

    def words(self, lines: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
        """The rules on the UTF-8 bytes of the lines (see ``words.py``); the line edges act as
        the spaces sacrebleu pads each line with."""
        text = "\n".join(lines)
        if not lines or text.count("\n") != len(lines) - 1:  # a line holds a newline
            return super().words(lines)
        try:
            units, classes = byte_classes(_unescape_13a(text).encode("utf-8"))
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
_CHINESE_CHAR = re.compile(f"([{_CHINESE_CLASS}])")


def _chinese_table() -> np.ndarray:
    """Which BMP code points zh spaces out as words on their own (whitespace excepted)."""
    table = np.zeros(0x10000, bool)
    for low, high in _CHINESE_RANGES:
        table[low : high + 1] = True
    return table & ~CODE_POINT_SPACE


_CHINESE_TABLE = _chinese_table()


def is_chinese_char(char: str) -> bool:
    """Whether sacrebleu's zh tokenizer puts spaces around this character."""
    code = ord(char)
    return any(low <= code <= high for low, high in _CHINESE_RANGES)


class TokenizerZh(Tokenizer):
    """Chinese: every CJK character is a token; the rest follows the 13a rules (without padding)."""

    name = "zh"
    _splitter = _splitter(_CHINESE_CLASS)

    def __call__(self, line: str) -> str:
        return apply_line_rules(_CHINESE_CHAR.sub(r" \1 ", line.strip()))

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        if needs_line_path(lines):
            return super().tokenize_stream(lines)
        # Bare newlines: the lookarounds treat a line edge like a digit, as the unpadded rules do.
        text = "\n".join(line.strip() for line in lines)
        return _apply_rules_to_stream(text, self._splitter)

    def words(self, lines: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
        """The rules on the code points of the stripped lines (see ``words.py``)."""
        text = "\n".join(line.strip() for line in lines)
        points = joined_code_points(text, len(lines))
        if points is None:
            return super().words(lines)
        index = bmp_index(points)
        classes = CODE_POINT_CLASSES[index]
        keep, start = word_starts(classes, _CHINESE_TABLE[index])
        return words_from_classes(points, classes, keep, start, len(lines))

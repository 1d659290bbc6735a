"""Tokenizers with no rules: ``none`` (whitespace only) and ``char`` (every character)."""

from __future__ import annotations

from collections.abc import Sequence

from .base import Tokenizer
from .words import (
    CODE_POINT_CLASSES,
    NEWLINE,
    Words,
    bmp_index,
    joined_code_points,
    split_words,
    words_from_classes,
)


class TokenizerNone(Tokenizer):
    """Keeps the text as it is: tokens are what whitespace separates (multi-bleu.perl style)."""

    name = "none"

    def __call__(self, line: str) -> str:
        return line

    def words(self, lines: Sequence[str]) -> Words:
        """The lines' whitespace-separated words, split once over the joined text."""
        text = "\n".join(lines)
        if text.count("\n") != len(lines) - 1:  # a line holds a newline: take the line path
            return super().words(lines)
        return split_words(text, len(lines))


class TokenizerChar(Tokenizer):
    """Every non-whitespace character is a token (WMT's choice for Japanese)."""

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def words(self, lines: Sequence[str]) -> Words:
        """Every non-whitespace code point is a word: no joined string of spaced characters."""
        text = "\n".join(lines)
        points = joined_code_points(text, len(lines))
        if points is None:
            return super().words(lines)
        classes = CODE_POINT_CLASSES[bmp_index(points)]
        keep = classes > NEWLINE  # neither whitespace nor a line break
        return words_from_classes(points, classes, keep, keep, len(lines))

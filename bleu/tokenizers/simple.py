"""Tokenizers with no rules: ``none`` (whitespace only) and ``char`` (every character)."""

from __future__ import annotations

from collections.abc import Sequence

from .base import Tokenizer, needs_line_path


class TokenizerNone(Tokenizer):
    """Keeps the text as it is: tokens are what whitespace separates (multi-bleu.perl style)."""

    name = "none"

    def __call__(self, line: str) -> str:
        return line

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        if needs_line_path(lines):
            return super().tokenize_stream(lines)
        return "\n".join(lines)


class TokenizerChar(Tokenizer):
    """Every non-whitespace character is a token (WMT's choice for Japanese)."""

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        if needs_line_path(lines):
            return super().tokenize_stream(lines)
        return " ".join("\n".join(lines))

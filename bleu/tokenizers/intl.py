"""The international tokenizer (``intl``, mteval-v14 style): Unicode punctuation and symbols."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from .base import Tokenizer, needs_line_path

# mteval-v14's rules, as sacrebleu applies them to each right-stripped line (no padding).
_RULES = (
    (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
    (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
    (regex.compile(r"(\p{S})"), r" \1 "),
)
# Joins lines in the stream path. It is a number (\p{N}), so the rules treat it exactly like the
# edge of a line (they never match a number), and it is never split off from its neighbours.
_LINE_JOINER = "\U0001d7ce"  # MATHEMATICAL BOLD DIGIT ZERO


def _apply_rules(text: str) -> str:
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


class TokenizerIntl(Tokenizer):
    """Splits off every Unicode punctuation mark and symbol, except punctuation between numbers."""

    name = "intl"

    def __call__(self, line: str) -> str:
        return " ".join(_apply_rules(line).split())

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        if needs_line_path(lines) or any(_LINE_JOINER in line for line in lines):
            return super().tokenize_stream(lines)
        text = _apply_rules(_LINE_JOINER.join(line.rstrip() for line in lines))
        return text.replace(_LINE_JOINER, "\n")

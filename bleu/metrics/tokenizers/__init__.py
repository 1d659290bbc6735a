"""Tokenizers by name, as sacrebleu names them; ``get_tokenizer`` builds (and reuses) one."""

from __future__ import annotations

from functools import cache

from ...errors import UnknownOptionError
from .base import Tokenizer
from .intl import TokenizerIntl
from .mecab import TokenizerJaMecab, TokenizerKoMecab
from .mteval import Tokenizer13a, TokenizerZh
from .simple import TokenizerChar, TokenizerNone

_REGISTRY: dict[str, type[Tokenizer]] = {
    "none": TokenizerNone,
    "13a": Tokenizer13a,
    "intl": TokenizerIntl,
    "zh": TokenizerZh,
    "char": TokenizerChar,
    "ja-mecab": TokenizerJaMecab,
    "ko-mecab": TokenizerKoMecab,
}
#: sacrebleu tokenizers that need a SentencePiece model downloaded at run time: refused here.
NEEDS_DOWNLOAD = ("spm", "flores101", "flores200", "spBLEU-1K")
TOKENIZER_NAMES = tuple(_REGISTRY)


@cache
def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; raises UnknownOptionError (or MissingExtraError for MeCab)."""
    if name in NEEDS_DOWNLOAD:
        raise UnknownOptionError(
            f"Tokenizer {name!r} needs a SentencePiece model downloaded from the internet, which "
            f"BLEU Explorer never does. Use one of: {', '.join(TOKENIZER_NAMES)}."
        )
    try:
        tokenizer_class = _REGISTRY[name]
    except KeyError:
        raise UnknownOptionError(
            f"Unknown tokenizer {name!r}; expected one of: {', '.join(TOKENIZER_NAMES)}."
        ) from None
    return tokenizer_class()


def available_tokenizers() -> tuple[str, ...]:
    """The tokenizer names that work on this installation (MeCab ones only with their extra)."""
    names = []
    for name in TOKENIZER_NAMES:
        try:
            get_tokenizer(name)
        except Exception:  # a missing or broken MeCab install: not available here
            continue
        names.append(name)
    return tuple(names)


__all__ = [
    "NEEDS_DOWNLOAD", "TOKENIZER_NAMES", "Tokenizer", "available_tokenizers", "get_tokenizer",
]

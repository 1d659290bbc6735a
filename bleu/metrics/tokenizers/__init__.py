"""Tokenizers by name, as sacrebleu names them; ``get_tokenizer`` builds (and reuses) one.

A tokenizer's module is imported when it is first asked for (intl's Unicode tables and regular
expressions cost a run that only needs 13a a tenth of a second).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from ...errors import UnknownOptionError
from .base import Tokenizer

#: name -> (module, class) of every tokenizer
_REGISTRY: dict[str, tuple[str, str]] = {
    "none": ("simple", "TokenizerNone"),
    "13a": ("mteval", "Tokenizer13a"),
    "intl": ("intl", "TokenizerIntl"),
    "zh": ("mteval", "TokenizerZh"),
    "char": ("simple", "TokenizerChar"),
    "ja-mecab": ("mecab", "TokenizerJaMecab"),
    "ko-mecab": ("mecab", "TokenizerKoMecab"),
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
        module, class_name = _REGISTRY[name]
    except KeyError:
        raise UnknownOptionError(
            f"Unknown tokenizer {name!r}; expected one of: {', '.join(TOKENIZER_NAMES)}."
        ) from None
    return getattr(import_module(f".{module}", __name__), class_name)()


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

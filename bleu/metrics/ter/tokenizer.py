"""TER's tokenizer: sacrebleu 2.6's ``TercomTokenizer`` (after tercom's Normalizer.java), exactly.

Rules whose result depends on context stay regular expressions of the ``re`` module, written as
sacrebleu writes them; the others are the same transformations in cheaper form, equal by
construction: a literal pattern replaced left to right is ``str.replace``, and a class of single
characters each replaced on its own (padded with spaces, or deleted) is ``str.translate``.
Steps are applied in sacrebleu's order, since several classes overlap (U+3400..U+3F22 is padded
twice with Asian support, which the final whitespace split makes harmless but keeps equal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _padding(*ranges: tuple[str, str]) -> dict[int, str]:
    """A ``str.translate`` table putting a space either side of every character in the
    (inclusive) ranges: what ``re.sub("([class])", r" \\1 ", text)`` does."""
    return {code: f" {chr(code)} " for first, last in ranges
            for code in range(ord(first), ord(last) + 1)}


def _deletion(*ranges: tuple[str, str]) -> dict[int, None]:
    """A ``str.translate`` table deleting every character in the (inclusive) ranges."""
    return {code: None for first, last in ranges for code in range(ord(first), ord(last) + 1)}


# tercom's punctuation class ``[{-~[-` -&(-+:-@/]``, each character set apart
_WESTERN_PUNCT = _padding(("{", "~"), ("[", "`"), (" ", "&"), ("(", "+"), (":", "@"),
                          ("/", "/"))
_POSSESSIVE_AT_END = re.compile(r"'s$")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

_ASIAN_PUNCT = (("\u3001", "\u3002"), ("\u3008", "\u3011"), ("\u3014", "\u301f"),
                ("\uff61", "\uff65"), ("\u30fb", "\u30fb"))
_FULL_WIDTH_PUNCT = tuple((c, c) for c in "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09")
# sacrebleu splits these blocks one after the other (each step a table of its own)
_ASIAN_SPLITS = (
    _padding(("\u4e00", "\u9fff"), ("\u3400", "\u4dbf")),  # CJK Unified Ideographs (+ Ext. A)
    _padding(("\u31c0", "\u31ef"), ("\u2e80", "\u2eff")),  # CJK Strokes, Radicals Supplement
    _padding(("\u3300", "\u33ff"), ("\uf900", "\ufaff"), ("\ufe30", "\ufe4f")),  # compatibility
    _padding(("\u3200", "\u3f22")),  # sacrebleu's range for Enclosed CJK Letters and Months
)
# Hiragana, Katakana and Katakana Phonetic Extensions, "only when adjacent to something else":
# as sacrebleu writes them, anchored at the start of the text
_KANA_RUNS = tuple(
    re.compile(rf"(^|^[{block}])([{block}]+)(?=$|^[{block}])")
    for block in ("\u3040-\u309f", "\u30a0-\u30ff", "\u31f0-\u31ff")
)
_ASIAN_PUNCT_SPLIT = (_padding(*_ASIAN_PUNCT), _padding(*_FULL_WIDTH_PUNCT))
_PUNCT_DELETION = _deletion(*((c, c) for c in ".,?:;!\"()"))
_ASIAN_PUNCT_DELETION = (_deletion(*_ASIAN_PUNCT), _deletion(*_FULL_WIDTH_PUNCT))


def _normalize_western(text: str) -> str:
    """Tercom's language-independent and Western normalization."""
    text = text.replace("\n-", "").replace("\n", " ")  # end-of-line hyphenation, line joins
    text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
    text = text.replace("&gt;", ">")
    text = f" {text} ".translate(_WESTERN_PUNCT)
    text = text.replace("'s ", " 's ")
    text = _POSSESSIVE_AT_END.sub(" 's", text)
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def _normalize_asian(text: str) -> str:
    """CJK characters and Asian punctuation set apart (kana runs per sacrebleu's patterns)."""
    for table in _ASIAN_SPLITS:
        text = text.translate(table)
    for pattern in _KANA_RUNS:
        text = pattern.sub(r"\1 \2 ", text)
    for table in _ASIAN_PUNCT_SPLIT:
        text = text.translate(table)
    return text


@dataclass(frozen=True)
class TercomTokenizer:
    """sacrebleu's ``TercomTokenizer``: lowercasing, tercom normalization, punctuation removal."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def words(self, segment: str) -> list[str]:
        """The words TER compares: sacrebleu's ``_preprocess_segment(segment).split()`` (the
        segment right-stripped, then tokenized)."""
        return self._split(segment.rstrip())

    def reference_words(self, segment: str) -> list[str]:
        """The words of a reference, which sacrebleu tokenizes twice: its base class
        preprocesses every reference, then TER's ``_extract_reference_info`` preprocesses the
        result again. Normalization is not idempotent ("..3" gives ". .3", then ". . 3")."""
        return self._split(" ".join(self.words(segment)))

    def __call__(self, text: str) -> str:
        """The tokenized text, as sacrebleu's tokenizer returns it (without the right-strip)."""
        return " ".join(self._split(text))

    def _split(self, text: str) -> list[str]:
        if not text:
            return []
        if not self.case_sensitive:
            text = text.lower()
        if self.normalized:
            text = _normalize_western(text)
            if self.asian_support:
                text = _normalize_asian(text)
        if self.no_punct:
            text = text.translate(_PUNCT_DELETION)
            if self.asian_support:
                for table in _ASIAN_PUNCT_DELETION:
                    text = text.translate(table)
        return text.split()

    @property
    def signature(self) -> str:
        """The signature's ``tok:`` value."""
        return "tercom"

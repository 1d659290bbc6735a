"""Languages of a test set: codes, the source-target pair, the language a text's script names,
its writing direction, and the tokenizer a target language is scored with.

The script of a text is counted by Unicode's Script property (``regex``'s ``\\p{Script=...}``),
not by code-point blocks: U+30FB KATAKANA MIDDLE DOT, inside the Katakana block, is Script=Common
and appears in Chinese text between the parts of foreign names, so a block count took such text
for Japanese. Only scripts that name one language here decide one (Han without kana: Chinese;
kana: Japanese; Hangul: Korean; Hebrew, Greek, Thai, ...); Latin, Cyrillic, Arabic or Devanagari
text leaves the language to the file names or the user.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import regex

from ..errors import InputError
from ..i18n import tr
from ..metrics.tokenizers import LANGUAGE_TOKENIZERS, language_tokenizer

#: ISO 639-1: every two-letter language code (a file suffix such as ``.de`` names a language
#: only when it is one of these; ``.md`` or ``.py`` are not)
_ISO_639_1_CODES = (
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy "
    "da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht "
    "hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky "
    "la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny "
    "oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss "
    "st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo "
    "za zh zu")
ISO_639_1 = frozenset(_ISO_639_1_CODES.split())
#: ISO 639-2 (terminology and bibliographic) codes of the languages MT test sets come in, as
#: compare-mt's ``.eng``/``.jpn``/``.slk`` files use them, to their two-letter codes
ISO_639_2 = {
    "afr": "af", "alb": "sq", "amh": "am", "ara": "ar", "arm": "hy", "aze": "az", "baq": "eu",
    "bel": "be", "ben": "bn", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my", "cat": "ca",
    "ces": "cs", "chi": "zh", "cym": "cy", "cze": "cs", "dan": "da", "deu": "de", "dut": "nl",
    "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "fao": "fo", "fas": "fa",
    "fin": "fi", "fra": "fr", "fre": "fr", "fry": "fy", "geo": "ka", "ger": "de", "gla": "gd",
    "gle": "ga", "glg": "gl", "gre": "el", "guj": "gu", "hau": "ha", "heb": "he", "hin": "hi",
    "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ice": "is", "ind": "id", "isl": "is",
    "ita": "it", "jav": "jv", "jpn": "ja", "kan": "kn", "kat": "ka", "kaz": "kk", "khm": "km",
    "kir": "ky", "kor": "ko", "kur": "ku", "lao": "lo", "lat": "la", "lav": "lv", "lit": "lt",
    "ltz": "lb", "mac": "mk", "mal": "ml", "mar": "mr", "may": "ms", "mkd": "mk", "mlt": "mt",
    "mon": "mn", "msa": "ms", "mya": "my", "nep": "ne", "nld": "nl", "nob": "nb", "nor": "no",
    "oci": "oc", "pan": "pa", "per": "fa", "pol": "pl", "por": "pt", "pus": "ps", "ron": "ro",
    "rum": "ro", "rus": "ru", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "som": "so",
    "spa": "es", "sqi": "sq", "srp": "sr", "swa": "sw", "swe": "sv", "tam": "ta", "tat": "tt",
    "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th", "tuk": "tk", "tur": "tr", "uig": "ug",
    "ukr": "uk", "urd": "ur", "uzb": "uz", "vie": "vi", "wel": "cy", "xho": "xh", "yid": "yi",
    "yor": "yo", "zho": "zh", "zul": "zu",
}

#: scripts that name one language (Hebrew is also Yiddish's, rarely an MT target)
SCRIPT_LANGUAGES = {
    "Hangul": "ko", "Hebrew": "he", "Greek": "el", "Thai": "th", "Georgian": "ka",
    "Armenian": "hy", "Khmer": "km", "Lao": "lo", "Myanmar": "my", "Sinhala": "si",
    "Tamil": "ta", "Telugu": "te", "Kannada": "kn", "Malayalam": "ml", "Gujarati": "gu",
    "Gurmukhi": "pa",
}
#: scripts counted but naming no one language (their text's language comes from names)
_SHARED_SCRIPTS = ("Latin", "Cyrillic", "Arabic", "Devanagari", "Bengali", "Ethiopic",
                   "Tibetan")
_SCRIPTS = ("Han", "Hiragana", "Katakana", *SCRIPT_LANGUAGES, *_SHARED_SCRIPTS)
_SCRIPT_LETTER = regex.compile("|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in _SCRIPTS))
#: Chinese, Japanese or Korean when Han and kana are this share of the counted letters
CJK_SHARE = 0.3
#: Japanese rather than Chinese when kana are this share of the Han and kana (Japanese text has
#: 40-75% kana: WMT22 en-ja 67%, compare-mt's TED 74%; Chinese text has none)
KANA_SHARE = 0.1
#: how much text the script count reads: the first lines, up to this many characters
SAMPLE_LINES, SAMPLE_CHARS = 200, 20_000

#: where the app's default differs from sacrebleu's command line, and why: WMT21 and WMT22
#: published their Japanese BLEU with ``char`` (ja-mecab scores 14-16 BLEU lower on WMT22 en-ja)
WMT_TOKENIZERS = {"ja": "char"}


def language_code(text: str) -> str | None:
    """The two-letter code ``text`` names (``de``, ``DE``, ``deu``, ``ger``), else None."""
    code = text.strip().lower()
    if code in ISO_639_1:
        return code
    return ISO_639_2.get(code)


@dataclass(frozen=True)
class LanguagePair:
    """A test set's source and target language (two-letter codes; None where unknown)."""

    source: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        """``en-de``; ``?-ja`` where the source is unknown; ``""`` where nothing is known."""
        if self.source is None and self.target is None:
            return ""
        return f"{self.source or '?'}-{self.target or '?'}"

    @classmethod
    def parse(cls, text: str) -> LanguagePair:
        """A pair typed as ``en-de`` (``?`` or nothing for an unknown side; ``de`` alone is the
        target); refuses what is not language codes, saying what is expected."""
        cleaned = text.strip()
        if not cleaned:
            return cls()
        sides = cleaned.split("-") if "-" in cleaned else ["", cleaned]
        if len(sides) != 2:
            raise InputError(tr("{text!r} is not a language pair: expected two language codes "
                                "joined by '-', such as en-de (? for an unknown side).")
                             .format(text=cleaned))
        codes = []
        for side in sides:
            side = side.strip()
            code = None if side in ("", "?") else language_code(side)
            if side not in ("", "?") and code is None:
                raise InputError(tr("{side!r} in {text!r} is not a language code: use ISO 639 "
                                    "codes such as en, de, zh, ja, he (or ? where unknown).")
                                 .format(side=side, text=cleaned))
            codes.append(code)
        return cls(codes[0], codes[1])

    def or_else(self, other: LanguagePair) -> LanguagePair:
        """This pair, with ``other``'s language on each side this one does not know."""
        return LanguagePair(self.source or other.source, self.target or other.target)


def script_counts(segments: Iterable[str]) -> Counter[str]:
    """Letters by Unicode script (Han, Hiragana, Katakana, Hangul, Latin, ...) in the first
    ``SAMPLE_LINES`` lines, up to ``SAMPLE_CHARS`` characters."""
    sample: list[str] = []
    size = 0
    for index, segment in enumerate(segments):
        if index >= SAMPLE_LINES or size >= SAMPLE_CHARS:
            break
        sample.append(segment)
        size += len(segment)
    text = "\n".join(sample)[:SAMPLE_CHARS]
    return Counter(match.lastgroup for match in _SCRIPT_LETTER.finditer(text))


def script_language(segments: Iterable[str]) -> str | None:
    """The language a text's script names: ``ja`` (kana among Han), ``zh`` (Han without kana),
    ``ko``, ``he``, ``el``, ...; None for scripts many languages share (Latin, Cyrillic, ...)."""
    counts = script_counts(segments)
    total = sum(counts.values())
    if not total:
        return None
    kana = counts["Hiragana"] + counts["Katakana"]
    cjk = counts["Han"] + kana
    if cjk >= CJK_SHARE * total and cjk >= counts["Hangul"]:
        return "ja" if kana >= KANA_SHARE * cjk else "zh"
    script, count = counts.most_common(1)[0]
    return SCRIPT_LANGUAGES.get(script) if 2 * count > total else None


def text_direction(text: str) -> str:
    """``rtl`` when most strong characters of ``text`` are right-to-left (Hebrew, Arabic:
    bidirectional classes R and AL), else ``ltr``; a Latin name inside Hebrew keeps it ``rtl``."""
    right = left = 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind == "L":
            left += 1
        elif kind in ("R", "AL"):
            right += 1
    return "rtl" if right > left else "ltr"


@dataclass(frozen=True)
class TokenizerChoice:
    """The tokenizer a target language is scored with by default, and why (one sentence)."""

    name: str
    reason: str


@cache
def _installed(tokenizer: str) -> bool:
    """Whether ``tokenizer`` works here (the MeCab ones need their extra)."""
    from ..metrics.tokenizers import get_tokenizer

    try:
        get_tokenizer(tokenizer)
    except Exception:  # a missing or broken MeCab install
        return False
    return True


def tokenizer_choice(target: str | None) -> TokenizerChoice:
    """The app's default tokenizer for a target language: sacrebleu's
    (``bleu.metrics.tokenizers.language_tokenizer``) except Japanese, where WMT's published
    choice ``char`` is used; where sacrebleu's needs MeCab and it is not installed, 13a, saying
    so."""
    sacrebleu = language_tokenizer(target)
    if target in WMT_TOKENIZERS:
        return TokenizerChoice(WMT_TOKENIZERS[target], tr(
            "{name}: WMT published its {target} BLEU with it (sacrebleu's command line picks "
            "{sacrebleu} for -l xx-{target}; choose it under Options for that number).")
            .format(name=WMT_TOKENIZERS[target], target=target, sacrebleu=sacrebleu))
    if not _installed(sacrebleu):
        return TokenizerChoice("13a", tr(
            "13a: sacrebleu's command line picks {sacrebleu} for -l xx-{target}, which needs "
            "MeCab, not installed here (pip install \"bleu-explorer[{target}]\").")
            .format(sacrebleu=sacrebleu, target=target))
    if target in LANGUAGE_TOKENIZERS:
        return TokenizerChoice(sacrebleu, tr(
            "{name}: as sacrebleu's command line picks for -l xx-{target}.")
            .format(name=sacrebleu, target=target))
    if target is None:
        return TokenizerChoice(sacrebleu, tr(
            "13a: sacrebleu's default; the target language is not known (set the language "
            "pair if it is Chinese, Japanese or Korean)."))
    return TokenizerChoice(sacrebleu, tr(
        "13a: sacrebleu's default, which its command line uses for -l xx-{target} too.")
        .format(target=target))


def default_tokenizer(target: str | None) -> str:
    """The name of ``tokenizer_choice(target)``: what the app scores a new test set with."""
    return tokenizer_choice(target).name


def most_common(values: Sequence[str | None]) -> str | None:
    """The most frequent non-None value (the first seen on a tie), else None."""
    counts = Counter(value for value in values if value is not None)
    return counts.most_common(1)[0][0] if counts else None

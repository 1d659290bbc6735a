"""What a file's name says, read once: WMT's test set, language pair, role and stream name.

WMT names its files in a few ways, all read here:

- WMT21-23: ``newstest2021.en-de.hyp.Online-W.de``, ``generaltest2023.en-he.ref.refA.he``,
  ``newstest2021.en-de.src.en`` (test set, pair, ``hyp``/``ref``/``src``, name, language);
- the same without test set and pair: ``hyp.GPT4-5shot.he``, ``ref.refA.he``, ``src.en``;
- WMT17 (as sacrebleu ships it) and WMT20: ``newstest2017.C-3MA.4959.en-de.de``,
  ``newstest2017.en-de.ref.de``, ``newstest2020.en-de.OPPO.1535.de``;
- WMT24: ``en-de.refA.txt`` (a reference), ``en-de.txt`` (the source), ``GPT-4.txt``.

A name with a role part is named as WMT's score files name the stream (``Online-W``,
``GPT4-5shot``, ``refA``): the test set, pair, role word, language suffix and ``.txt`` are not
part of it. Other names keep their stem, language suffix cut (``ted.sys1.eng`` -> ``ted.sys1``,
``newstest2017.C-3MA.4959.en-de.de`` -> ``newstest2017.C-3MA.4959.en-de``: which part of a
WMT17 name its score files use is not settled here), and their role comes from words in them
(``ref``, ``reference``, ``gold``; ``src``, ``source``; else a system).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from .languages import LanguagePair, language_code

#: WMT's test sets: newstest2017, newsdev2016, generaltest2023, wmttest2024, newstestB2020
_TEST_SET = re.compile(r"^[a-z]+(?:test|dev)[a-z]?\d{4}$", re.IGNORECASE)
_PAIR = re.compile(r"^([a-z]{2,3})-([a-z]{2,3})$")
_ROLE_TOKENS = {"hyp": "system", "ref": "reference", "src": "source"}
#: WMT23-24's translator-lettered references: refA, refB
_LETTERED_REF = re.compile(r"^ref[A-Z]$")
_TEXT_EXTENSIONS = {"txt", "text"}
_REFERENCE_WORDS = {"ref", "refs", "reference", "references", "gold", "target", "tgt"}
_SOURCE_WORDS = {"src", "source", "sources", "orig", "original", "input"}
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class ParsedName:
    """The parts of a file (or column) name; None or ``""`` where the name does not say."""

    file_name: str
    test_set: str | None
    pair: LanguagePair | None
    role: str | None  # "system", "reference" or "source", where the name's form says it
    name: str  # the stream's own name: "Online-W", "refA", "A", "ted.sys1" ("" if none)
    language: str | None  # the stream's language, from its suffix (.de, .eng)

    @property
    def stem(self) -> str:
        """The name with its last suffix cut (what names without a WMT form are called)."""
        base = _base(self.file_name)
        return PurePath(base).stem or base


def _base(file_name: str) -> str:
    """The file's own name, without any folders."""
    return PurePath(file_name.replace("\\", "/")).name or file_name


def _pair(token: str) -> LanguagePair | None:
    """``en-de`` as a pair, where one side at least is a known language code (``en-liv``)."""
    match = _PAIR.match(token)
    if not match:
        return None
    source, target = (language_code(side) for side in match.groups())
    if source is None and target is None:
        return None
    return LanguagePair(source or match.group(1), target or match.group(2))


def parse_file_name(file_name: str) -> ParsedName:
    """The test set, pair, role, stream name and language a (WMT-style) file name holds."""
    tokens = _base(file_name).split(".")
    language = None
    extension = len(tokens) > 1 and tokens[-1].lower() in _TEXT_EXTENSIONS
    if extension:
        tokens.pop()
    if len(tokens) > 1:
        language = language_code(tokens[-1]) if len(tokens[-1]) <= 3 else None
        if language is not None or not (extension or _pair(tokens[-1])
                                        or tokens[-1].lower() in _ROLE_TOKENS):
            tokens.pop()  # the language, or (where no .txt was cut) a suffix such as .out
    whole = ".".join(tokens)  # the name of a stream whose name has no role part
    test_set = tokens.pop(0) if len(tokens) > 1 and _TEST_SET.match(tokens[0]) else None
    pair, pair_at = None, 0
    for index, token in enumerate(tokens):
        pair = _pair(token)
        if pair is not None:
            pair_at = index
            del tokens[index]
            break
    role, name = None, whole
    marked = next((index for index, token in enumerate(tokens)
                   if token.lower() in _ROLE_TOKENS), None)
    if marked is not None:
        # WMT's TESTSET.PAIR.ROLE.NAME: the name follows the role word, and whatever stands
        # before the pair is the test set (a set of the user's own: mytest.en-de.hyp.X.de)
        role = _ROLE_TOKENS[tokens[marked].lower()]
        before, after = tokens[:marked], tokens[marked + 1:]
        if test_set is None and pair is not None and 0 < pair_at <= marked:
            test_set, before = ".".join(before[:pair_at]), before[pair_at:]
        name = ".".join(after) or ".".join(before)
    elif any(_LETTERED_REF.match(token) for token in tokens):
        role, name = "reference", ".".join(tokens)
    elif pair is not None and not tokens:
        role, name = "source", ""  # WMT24 names its source files by the pair alone: en-de.txt
    return ParsedName(file_name, test_set, pair, role, name, language)


def _words(text: str) -> set[str]:
    """The lowercase words of a file or column name (``refA`` gives ``ref``, as ``ref-a``)."""
    lowered = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).lower()
    words = set(_WORD.findall(lowered))
    return words | {w[:-1] for w in words if len(w) > 3 and w[-1] in "abcd" and w[:-1] in
                    _REFERENCE_WORDS}


def guess_role(name: str) -> str:
    """``system``, ``reference`` or ``source`` for a file or column name: its WMT form's role,
    else its words (``ref``, ``reference``, ``gold``, ...; ``src``, ``source``, ...)."""
    parsed = parse_file_name(name)
    if parsed.role is not None:
        return parsed.role
    words = _words(parsed.stem if "." in name else name)
    if words & _REFERENCE_WORDS:
        return "reference"
    if words & _SOURCE_WORDS:
        return "source"
    return "system"


def system_name(file_name: str) -> str:
    """A system's name from its file, as WMT's score files name it: ``GPT4-5shot`` for
    ``generaltest2023.en-he.hyp.GPT4-5shot.he`` or ``hyp.GPT4-5shot.he``; else the stem."""
    parsed = parse_file_name(file_name)
    return parsed.name or parsed.stem


def stream_name(file_name: str) -> str:
    """A reference's or source's short name: ``refA`` for ``ref.refA.he``, ``A`` for
    ``newstest2021.en-de.ref.A.de``; the file name where the name holds no other."""
    return parse_file_name(file_name).name or _base(file_name)

"""What a Dutch page must not show, for the browser tests: English interface text (each line
compared with the catalog's English msgids, and the Blind spots cases' English texts) and the
terms that must not drift (scripts/i18n.py's ``DRIFTING``); and a page's readable lines."""

from __future__ import annotations

import json
import re
import sys
from functools import cache

from harness import REPO
from playwright.sync_api import Page

from bleu.i18n import in_language, tr
from bleu_app.session._state import SMOOTH_METHODS

sys.path.insert(0, str(REPO / "tests" / "i18n"))
from catalog import tool, untranslatable_english

#: sacrebleu's option names, shown as its command line takes them (smoothing floor, tokenizer
#: none): the same in every language
CODE_NAMES = {*SMOOTH_METHODS, "none", "13a", "intl", "char", "zh", "ja-mecab", "ko-mecab",
              "flores101", "flores200", "spm"}
#: literature the Background page cites by its English title
CITED = re.compile(r"\(\d{4}\)\.")
#: the text of the page (a data grid is drawn on a canvas: not in it)
PAGE_TEXT = "() => document.querySelector('[data-testid=\"stApp\"]').innerText"
#: the main area's text only (no sidebar), without the MathML copy of each formula that KaTeX
#: keeps for screen readers (its letters, one a line, are no words)
MAIN_TEXT = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const math = [...main.querySelectorAll('.katex-mathml')];
    math.forEach(e => { e.style.display = 'none'; });
    const text = main.innerText;
    math.forEach(e => { e.style.display = ''; });
    return text;
}"""


def nl(message: str) -> str:
    """``message`` as the Dutch interface writes it."""
    with in_language("nl"):
        return tr(message)


def _normal(text: str) -> str:
    """Markdown as the page shows it: links' text, no emphasis or code marks, one space."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(re.sub(r"[*`]", "", text).split())


@cache
def english_lines() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each English msgid that the Dutch interface translates otherwise, as a pattern of a
    whole rendered line (a placeholder matches any text); msgids whose own words are fewer
    than 6 letters ("{count} {severity}", "{a} or {b}") would match Dutch lines and are left
    to tests/i18n."""
    found = []
    for message in untranslatable_english():
        parts = re.split(r"\{[^{}]*\}|%[sd]", _normal(message))
        if sum(ch.isalpha() for part in parts for ch in part) < 6 and len(parts) > 1:
            continue
        found.append((message, re.compile(".+?".join(re.escape(part) for part in parts))))
    return tuple(found)


@cache
def case_english() -> frozenset[str]:
    """The Blind spots cases' English texts (title, lesson, candidates' labels and origins)."""
    cases = json.loads((REPO / "sample_data" / "blind_spots" / "cases.json").read_text(
        encoding="utf-8"))["cases"]
    texts = set()
    for case in cases:
        texts.update((case["title"], case["lesson"], case["data"]))
        for candidate in case["candidates"]:
            texts.update((candidate["label"], candidate["origin"]))
    return frozenset(texts)


def english_left(lines: list[str]) -> list[str]:
    """The lines of a page that are English interface text."""
    patterns = english_lines()
    cases = case_english()
    left = {line for line in lines if line not in CODE_NAMES and not CITED.search(line)
            and any(pattern.fullmatch(line) for _, pattern in patterns)}
    left |= {line for line in lines if any(text in line for text in cases)}
    return sorted(left)


def drifting_terms(text: str) -> list[tuple[str, str]]:
    """Every variant of a term that must not drift in ``text`` (scripts/i18n.py)."""
    return tool().drifting(text, "nl")


def page_lines(page: Page, script: str = PAGE_TEXT) -> list[str]:
    """The readable lines of the page (or of what ``script`` returns), one space each."""
    text = page.evaluate(script)
    return [" ".join(line.split()) for line in text.split("\n") if line.strip()]

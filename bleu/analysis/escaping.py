"""User text shown literally: one escaping function for Markdown, one for HTML, one for CSV.

Every user-controlled string (system and file names, segment text, score columns, workspace
names) goes through one of these before Streamlit renders it, so that it can never become a
link, an image, a heading, LaTeX or markup. Control characters and bidirectional overrides,
which can disguise a name ("gnp.exe" written backwards by U+202E), are shown as ``⟨U+202E⟩``.
CSV exports neutralise cells a spreadsheet would run as formulas (OWASP "CSV injection").
"""

from __future__ import annotations

import csv
import html
import re
import unicodedata

import pandas as pd

#: characters Markdown (and Streamlit's LaTeX: ``$``) gives a meaning; ``:`` and ``/`` and ``.``
#: too, so that no URL or ``www.`` in user text is turned into a link
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:/=@%\"'])")
#: format characters that change how text around them is displayed (bidi controls, invisible
#: marks); with the control characters (category Cc) they are shown by their code point
_INVISIBLE = {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF,
              *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def _visible(char: str) -> str:
    code = ord(char)
    if code in _INVISIBLE or (unicodedata.category(char) == "Cc" and char != " "):
        return f"⟨U+{code:04X}⟩"
    return char


def show_controls(text: str) -> str:
    """``text`` with every control and bidi/invisible format character as ``⟨U+XXXX⟩``."""
    if text.isprintable() and not any(ord(c) in _INVISIBLE for c in text):
        return text
    return "".join(_visible(char) for char in text)


#: where GitHub-flavoured Markdown turns plain text into a link (``http://``, ``www.``, an
#: e-mail address): it does so after escapes are read, so no escape prevents it
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp)(?=:)|www(?=\.)|@")
#: an invisible character that breaks those patterns without changing what is shown
_WORD_JOINER = "\u2060"


def escape_markdown(text: str) -> str:
    """User text for Streamlit Markdown (titles, captions, labels, messages): every character
    Markdown or LaTeX gives a meaning is backslash-escaped, controls are made visible, and a
    word joiner keeps an address in it from becoming a link."""
    shown = _AUTOLINK.sub(lambda match: match.group(0) + _WORD_JOINER, show_controls(str(text)))
    return _MARKDOWN_SPECIAL.sub(r"\\\1", shown)


#: inside HTML that Streamlit's Markdown passes through (``unsafe_allow_html``): characters that
#: Markdown or LaTeX would still read, as numeric character references
_HTML_MARKDOWN = {c: f"&#{ord(c)};" for c in "$*_`\\~|[]#:/.@"}


def escape_html(text: str) -> str:
    """User text inside HTML: HTML-escaped (quotes too), Markdown/LaTeX characters as character
    references, controls made visible, line breaks as spaces (one HTML block stays one line)."""
    shown = show_controls(str(text).replace("\n", " "))
    return "".join(_HTML_MARKDOWN.get(c) or html.escape(c, quote=True) for c in shown)


def show_controls_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` for display: every text cell, column name and index label with its control and
    bidi characters made visible (``show_controls``); numbers untouched."""
    def visible(value: object) -> object:
        return show_controls(value) if isinstance(value, str) else value

    shown = frame.rename(columns=visible, index=visible)
    for column in shown.columns:
        if not pd.api.types.is_numeric_dtype(shown[column]):
            shown[column] = shown[column].map(visible)
    return shown


#: a spreadsheet reads a cell that starts with one of these as a formula (OWASP "CSV injection")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralize_csv_cell(value: object) -> object:
    """A text cell that starts like a formula gets a leading ``'`` (OWASP's advice: spreadsheets
    then show it as text); numbers and other text are unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def safe_csv(frame: pd.DataFrame) -> str:
    """``frame`` as CSV (header, no index, ``\\n`` line ends) with every text cell and column
    name that a spreadsheet would run as a formula neutralised; text is always quoted, so a
    stray carriage return inside a segment cannot split its row."""
    safe = frame.rename(columns=neutralize_csv_cell)
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(neutralize_csv_cell)
    return safe.to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)

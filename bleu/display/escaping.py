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
import itertools
import re
from collections.abc import Iterable

import pandas as pd

#: characters Markdown (and Streamlit's LaTeX: ``$``) gives a meaning; ``:`` and ``/`` and ``.``
#: too, so that no URL or ``www.`` in user text is turned into a link
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:/=@%\"'])")
#: format characters that change how text around them is displayed (bidi controls, invisible
#: marks); with the control characters (category Cc) they are shown by their code point
_INVISIBLE = {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF,
              *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


#: what ``show_controls`` replaces: the control characters (category Cc, a fixed set in
#: Unicode) and ``_INVISIBLE``; all of them are unprintable (``str.isprintable``), so printable
#: text, nearly all text, is returned at C speed without a look at each character
_SHOWN = re.compile("[\x00-\x1f\x7f-\x9f" + "".join(chr(code) for code in sorted(_INVISIBLE))
                    + "]")


def _code_point(match: re.Match[str]) -> str:
    return f"⟨U+{ord(match.group()):04X}⟩"


def show_controls(text: str) -> str:
    """``text`` with every control and bidi/invisible format character as ``⟨U+XXXX⟩``."""
    if text.isprintable():
        return text
    return _SHOWN.sub(_code_point, text)


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
    bidi characters made visible (``show_controls``); numbers untouched. Only the text columns
    that hold such a character are rewritten (a table of thousands of segments with one odd
    cell rewrites one column)."""
    def visible(value: object) -> object:
        return show_controls(value) if isinstance(value, str) else value

    odd = [position for position, dtype in enumerate(frame.dtypes)
           if not pd.api.types.is_numeric_dtype(dtype)
           and _needs_controls(frame.iloc[:, position].to_numpy())]
    labels = _needs_controls(_labels(frame.columns)) or _needs_controls(_labels(frame.index))
    shown = frame.rename(columns=visible, index=visible) if labels else frame.copy(deep=False)
    for position in odd:  # pandas copies on write: ``frame`` keeps its own columns
        column = frame.iloc[:, position]
        shown.isetitem(position, pd.Series(column.map(visible).to_numpy(), index=shown.index,
                                           dtype=column.dtype))
    return shown


def _labels(index: pd.Index) -> Iterable[object]:
    """An index's labels, each level's of a MultiIndex."""
    return itertools.chain.from_iterable(index) if isinstance(index, pd.MultiIndex) else index


def _needs_controls(values: Iterable[object]) -> bool:
    """Whether any text among ``values`` has a character ``show_controls`` replaces."""
    return not all(value.isprintable() for value in values if isinstance(value, str))


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

"""Tables as the core describes them: each column's format and help (``bleu.display.formatting``)
become Streamlit's column settings, so every page writes numbers by the same rule.

Headers and help texts are shown in the interface language (the frame keeps its column names,
which code relies on). In English a number column gets the rule's printf format; in another
language the grid cannot write a decimal comma by printf, so the column gets no format and a
pandas Styler gives each cell its text by the rule (the grid shows the Styler's text and still
sorts by the number).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from bleu.display.escaping import escape_markdown, show_controls_frame
from bleu.display.formatting import Column, NumberFormat, display_frame
from bleu.display.long_text import CELL_CHARS, cut
from bleu.i18n import DEFAULT, language, tr

#: the main area's width in a 1400 px window with the sidebar open (940 px measured, less the
#: grid's borders), and a table's parts: a number column, the row-selection column
PAGE_WIDTH, NUMBER_WIDTH, SELECT_WIDTH = 925, 80, 44


def header(name: str, columns: Mapping[str, Column],
           labels: Mapping[str, str] | None = None) -> str:
    """The header column ``name`` is shown under: its entry in ``labels``, else its Column's
    label or its own name, translated (names are msgids; "" stays blank)."""
    listed = columns[name].label if name in columns else ""
    return (labels or {}).get(name) or tr(listed or str(name))


def column_config(frame: pd.DataFrame, columns: Mapping[str, Column],
                  widths: Mapping[str, Any] | None = None,
                  labels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Streamlit column settings for the ``columns`` that ``frame`` has: a number column with the
    rule's format, or a text column (right-aligned when it holds written numbers); ``labels``
    give a header other than the column's name (a short one, the name said in its help); a
    column's name, listed in ``columns`` or not, is shown translated (``tr``: names that are
    msgids). Help texts are Markdown
    in a tooltip and name systems: escaped."""
    config: dict[str, Any] = {}
    english = language() == DEFAULT
    for name, column in columns.items():
        if name not in frame.columns:
            continue
        label = header(name, columns, labels)
        width = (widths or {}).get(name)
        help_text = escape_markdown(tr(column.help)) if column.help else None
        if column.format is not None and pd.api.types.is_numeric_dtype(frame[name]):
            config[name] = st.column_config.NumberColumn(
                label, format=column.format.printf if english else None, help=help_text,
                width=width)
        else:
            config[name] = st.column_config.TextColumn(
                label, help=help_text, width=width,
                alignment="right" if column.format is not None else None)
    for name in frame.columns:  # the columns ``columns`` does not list: their names translated
        if name not in config:
            config[name] = st.column_config.Column(header(name, columns, labels))
    return config


def show(frame: pd.DataFrame, columns: Mapping[str, Column], *, key: str,
         widths: Mapping[str, Any] | None = None, labels: Mapping[str, str] | None = None,
         **options: Any) -> Any:
    """``st.dataframe`` of ``frame`` written by the rule (missing values as a dash), without
    the index; ``options`` go to ``st.dataframe`` (selection, column order, height)."""
    shown = display_frame(frame, columns)
    formats = {name: column.format for name, column in columns.items()
               if column.format is not None and name in shown.columns
               and pd.api.types.is_numeric_dtype(shown[name])}
    return dataframe(shown, formats=formats, hide_index=True, key=key,
                     column_config=column_config(shown, columns, widths, labels), **options)


def _cell(rule: NumberFormat) -> Any:
    """A Styler formatter: a number written by ``rule``, anything else as it is."""
    return lambda value: rule.text(value) if isinstance(value, int | float) else value


def dataframe(frame: pd.DataFrame, formats: Mapping[str, NumberFormat] | None = None,
              **options: Any) -> Any:
    """``st.dataframe`` with user text shown literally: control and bidi characters in cells,
    headers and row labels made visible (a U+202E cannot disguise a name in a table). Outside
    English the number columns of ``formats`` are written by their rules (a Styler's text)."""
    shown: Any = show_controls_frame(_cut_long_cells(frame))
    if formats and language() != DEFAULT:
        shown = shown.style.format({name: _cell(rule) for name, rule in formats.items()
                                    if name in shown.columns})
    return st.dataframe(shown, **options)


def _cut_long_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell over ``CELL_CHARS`` cut (``long_text.cut``): a table
    never sends a browser a segment of megabytes (its CSV and its search keep the whole)."""
    long_columns = [position for position, dtype in enumerate(frame.dtypes)
                    if not pd.api.types.is_numeric_dtype(dtype)
                    and any(isinstance(value, str) and len(value) > CELL_CHARS
                            for value in frame.iloc[:, position].to_numpy())]
    if not long_columns:
        return frame
    shown = frame.copy(deep=False)
    for position in long_columns:
        shown.isetitem(position, [cut(value) if isinstance(value, str) else value
                                  for value in frame.iloc[:, position].to_numpy()])
    return shown


def text_width(texts: int, others: int, selectable: bool = False, least: int = 120) -> int:
    """The width of each of ``texts`` text columns beside columns ``others`` pixels wide (and
    the row-selection column of a ``selectable`` table), so that the table spans the page
    without scrolling sideways; at least ``least``."""
    free = PAGE_WIDTH - others - (SELECT_WIDTH if selectable else 0)
    return max(least, free // max(texts, 1))

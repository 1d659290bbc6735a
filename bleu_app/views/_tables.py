"""Tables as the core describes them: each column's format and help (``bleu.analysis.formatting``)
become Streamlit's column settings, so every page writes numbers by the same rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from bleu.analysis.escaping import escape_markdown, show_controls_frame
from bleu.analysis.formatting import Column, display_frame

#: the main area's width in a 1400 px window with the sidebar open (940 px measured, less the
#: grid's borders), and a table's parts: a number column, the row-selection column
PAGE_WIDTH, NUMBER_WIDTH, SELECT_WIDTH = 925, 80, 44


def column_config(frame: pd.DataFrame, columns: Mapping[str, Column],
                  widths: Mapping[str, Any] | None = None,
                  labels: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Streamlit column settings for the ``columns`` that ``frame`` has: a number column with the
    rule's format, or a text column (right-aligned when it holds written numbers); ``labels``
    give a header other than the column's name (a short one, the name said in its help). Help
    texts are Markdown in a tooltip and name systems: escaped."""
    config: dict[str, Any] = {}
    for name, column in columns.items():
        if name not in frame.columns:
            continue
        label = (labels or {}).get(name, name)
        width = (widths or {}).get(name)
        help_text = escape_markdown(column.help) if column.help else None
        if column.format is not None and pd.api.types.is_numeric_dtype(frame[name]):
            config[name] = st.column_config.NumberColumn(
                label, format=column.format.printf, help=help_text, width=width)
        else:
            config[name] = st.column_config.TextColumn(
                label, help=help_text, width=width,
                alignment="right" if column.format is not None else None)
    return config


def show(frame: pd.DataFrame, columns: Mapping[str, Column], *, key: str,
         widths: Mapping[str, Any] | None = None, labels: Mapping[str, str] | None = None,
         **options: Any) -> Any:
    """``st.dataframe`` of ``frame`` written by the rule (missing values as a dash), without
    the index; ``options`` go to ``st.dataframe`` (selection, column order, height)."""
    shown = display_frame(frame, columns)
    return dataframe(shown, hide_index=True, key=key,
                     column_config=column_config(shown, columns, widths, labels), **options)


def dataframe(frame: pd.DataFrame, **options: Any) -> Any:
    """``st.dataframe`` with user text shown literally: control and bidi characters in cells,
    headers and row labels made visible (a U+202E cannot disguise a name in a table)."""
    return st.dataframe(show_controls_frame(frame), **options)


def text_width(texts: int, others: int, selectable: bool = False, least: int = 120) -> int:
    """The width of each of ``texts`` text columns beside columns ``others`` pixels wide (and
    the row-selection column of a ``selectable`` table), so that the table spans the page
    without scrolling sideways; at least ``least``."""
    free = PAGE_WIDTH - others - (SELECT_WIDTH if selectable else 0)
    return max(least, free // max(texts, 1))

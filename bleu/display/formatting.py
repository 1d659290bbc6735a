"""How tables show their columns: each column's number rule (``bleu.number_rule``, re-exported
here: one rule for every number the app shows), help and header once (``Column``);
``display_frame`` turns the columns that hold a missing value into text, because a grid would
print ``None`` there, and ``text_frame`` writes a whole table as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ..i18n import tr
from ..number_rule import (  # noqa: F401  (the number rule, re-exported for the pages)
    BP,
    CORRELATION,
    COUNT,
    DELTA,
    EXACT,
    FACTOR,
    LEVEL,
    MEGABYTES,
    MISSING,
    P_VALUE,
    PERCENT,
    PLAIN,
    PRECISION,
    RATIO,
    SCORE,
    SEED,
    SIGNED_PERCENT,
    SMALL_DELTA,
    TINY,
    UNIT_DELTA,
    UNIT_SCORE,
    NumberFormat,
    d3_locale,
    metric_delta,
    score_formats,
    tex,
)


@dataclass(frozen=True)
class Column:
    """How a table column is shown: its format (None: text), what it means (``help``), its
    header where that is not its name said in the interface language (``label``), and whether
    its cells are words of a fixed set written in English (``translated``: "better", "worse"),
    shown in the interface language while the data (and the files made of it) keep them."""

    format: NumberFormat | None = None
    help: str = ""
    label: str = ""
    translated: bool = False


def _translated(values: pd.Series) -> list[object]:
    return [tr(value) if isinstance(value, str) else value for value in values]


def display_frame(frame: pd.DataFrame, columns: Mapping[str, Column]) -> pd.DataFrame:
    """``frame`` with each formatted column that holds a missing value written as text by its
    rule (a data grid would print ``None``); other columns keep their numbers (they sort), those
    that round to zero set to 0.0 (the grid's printf would write "-0.00")."""
    shown = frame.copy()
    for name, column in columns.items():
        if column.translated and name in shown:
            shown[name] = _translated(shown[name])
        if column.format is None or name not in shown:
            continue
        if shown[name].isna().any():
            shown[name] = [column.format.text(value) for value in shown[name]]
        elif pd.api.types.is_float_dtype(shown[name]):
            values = shown[name]
            shown[name] = values.where(values.round(column.format.decimals) != 0, 0.0)
    return shown


def text_frame(frame: pd.DataFrame, columns: Mapping[str, Column],
               plain: bool = False) -> pd.DataFrame:
    """``frame`` with every formatted column written as text by its rule: for the interface
    language (HTML), or ``plain`` (LaTeX and other files: a decimal point); ``translated``
    columns in the interface language."""
    shown = frame.copy()
    for name, column in columns.items():
        if column.translated and name in shown:
            shown[name] = _translated(shown[name])
        if column.format is not None and name in shown:
            write = column.format.plain if plain else column.format.text
            shown[name] = [write(value) for value in shown[name]]
    return shown

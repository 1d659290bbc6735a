"""One rule for every number the app shows, so that a value reads the same in every table, chart
tooltip, caption and download: BLEU, chrF and TER with 2 decimals (as sacrebleu and WMT print
them; a difference of scores signed), scores on a 0..1 scale (COMET, BLEURT, BERTScore) with 4,
as the WMT findings print them, n-gram precisions with 1, p-values with 4, length ratios,
brevity penalties and correlations with 3, counts as integers with thousands separators, and a
dash where a
value does not exist (the baseline's p-value, its difference to itself).

Each kind of number is a ``NumberFormat``: ``text`` for text made in Python (captions, HTML,
LaTeX), ``printf`` for Streamlit's column formats, ``d3`` for Vega-Lite tooltips and axes. A table
states each column's format and help once (``Column``); ``display_frame`` turns the columns that
hold a missing value into text, because a grid would print ``None`` there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Real

import pandas as pd

#: what a value that does not exist is shown as
MISSING = "–"


@dataclass(frozen=True)
class NumberFormat:
    """How one kind of number is written: ``decimals`` after the point, a sign on differences,
    thousands separators on counts."""

    decimals: int
    signed: bool = False
    thousands: bool = False

    def text(self, value: object) -> str:
        """``value`` written by this rule; ``MISSING`` for None or NaN. A value that rounds to
        zero is written without a minus ("+0.00", never "-0.00")."""
        if value is None or (isinstance(value, Real) and math.isnan(float(value))):
            return MISSING
        sign = "+" if self.signed else ""
        comma = "," if self.thousands else ""
        return f"{float(value):{sign}z{comma}.{self.decimals}f}"

    def shows_zero(self, value: float) -> bool:
        """Whether ``value`` is written as zero by this rule."""
        return round(float(value), self.decimals) == 0

    @property
    def printf(self) -> str:
        """The format of ``st.column_config.NumberColumn`` (its ``localized`` preset for counts:
        thousands separators)."""
        if self.thousands:
            return "localized"
        return f"%{'+' if self.signed else ''}.{self.decimals}f"

    @property
    def d3(self) -> str:
        """The d3-format string of Vega-Lite tooltips and axes."""
        return f"{'+' if self.signed else ''}{',' if self.thousands else ''}.{self.decimals}f"


SCORE = NumberFormat(2)
DELTA = NumberFormat(2, signed=True)
PRECISION = NumberFormat(1)
P_VALUE = NumberFormat(4)
RATIO = NumberFormat(3)
#: BP, c/r and the geometric mean where a teaching page shows how they are computed
FACTOR = NumberFormat(4)
CORRELATION = NumberFormat(3)
COUNT = NumberFormat(0, thousands=True)
#: a change of a corpus score made by one segment (small: 4 decimals), or of BP
SMALL_DELTA = NumberFormat(4, signed=True)
#: scores on a 0..1 scale (COMET, BLEURT, BERTScore, z-scored DA) and their differences
UNIT_SCORE = NumberFormat(4)
UNIT_DELTA = NumberFormat(4, signed=True)


def score_formats(values: Iterable[float]) -> tuple[NumberFormat, NumberFormat]:
    """The rule for a metric's scores and their differences: 4 decimals where every score is
    within -2..2 (a 0..1 scale, where 2 decimals hide the differences), else 2 (0..100)."""
    finite = [abs(float(v)) for v in values if v is not None and math.isfinite(float(v))]
    if finite and max(finite) <= 2:
        return UNIT_SCORE, UNIT_DELTA
    return SCORE, DELTA


def metric_delta(value: float, rule: NumberFormat = DELTA, suffix: str = "") -> dict[str, str]:
    """``st.metric``'s delta arguments for a change: written by ``rule``, and with no arrow or
    colour when it shows as zero (Streamlit would draw "+0.00" as a green rise)."""
    flat = {"delta_arrow": "off", "delta_color": "off"} if rule.shows_zero(value) else {}
    return {"delta": rule.text(value) + suffix, **flat}


@dataclass(frozen=True)
class Column:
    """How a table column is shown: its format (None: text) and what it means (``help``)."""

    format: NumberFormat | None = None
    help: str = ""


def display_frame(frame: pd.DataFrame, columns: Mapping[str, Column]) -> pd.DataFrame:
    """``frame`` with each formatted column that holds a missing value written as text by its
    rule (a data grid would print ``None``); other columns keep their numbers (they sort), those
    that round to zero set to 0.0 (the grid's printf would write "-0.00")."""
    shown = frame.copy()
    for name, column in columns.items():
        if column.format is None or name not in shown:
            continue
        if shown[name].isna().any():
            shown[name] = [column.format.text(value) for value in shown[name]]
        elif pd.api.types.is_float_dtype(shown[name]):
            values = shown[name]
            shown[name] = values.where(values.round(column.format.decimals) != 0, 0.0)
    return shown


def text_frame(frame: pd.DataFrame, columns: Mapping[str, Column]) -> pd.DataFrame:
    """``frame`` with every formatted column written as text by its rule (HTML, LaTeX)."""
    shown = frame.copy()
    for name, column in columns.items():
        if column.format is not None and name in shown:
            shown[name] = [column.format.text(value) for value in shown[name]]
    return shown

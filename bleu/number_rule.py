"""One rule for every number the app shows, so that a value reads the same in every table, chart
tooltip, caption and download: BLEU, chrF and TER with 2 decimals (as sacrebleu and WMT print
them; a difference of scores signed), scores on a 0..1 scale (COMET, BLEURT, BERTScore) with 4,
as the WMT findings print them, n-gram precisions with 1, p-values with 4, length ratios and
correlations with 3, brevity penalties (everywhere: tables, charts, teaching pages) and the
factors of the BLEU formula with 4, counts as integers with thousands separators, and a dash
where a value does not exist (the baseline's p-value, its difference to itself).

Each kind of number is a ``NumberFormat``: ``text`` for text a user reads (captions, HTML, the
interface's tables), written for the interface language (``bleu.i18n``: a decimal comma and a
point for thousands in Dutch, by Babel's number formatting); ``plain`` for files (CSV, LaTeX,
JSON, signatures), always with a decimal point; ``printf`` for Streamlit's column formats and
``d3`` for Vega-Lite tooltips and axes (``d3_locale`` gives Vega the interface's separators). A
Tables state each column's format once (``bleu.display.formatting.Column``). This module needs
no pandas: readers (``bleu.io``) and the command line write their messages by it too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from numbers import Real

from .i18n import DEFAULT, language

#: what a value that does not exist is shown as
MISSING = "–"


@dataclass(frozen=True)
class NumberFormat:
    """How one kind of number is written: ``decimals`` after the point, a sign on differences,
    thousands separators on counts."""

    decimals: int
    signed: bool = False
    thousands: bool = False
    #: ``decimals`` significant digits in Python's general format ("1.4e-14", "0.031")
    general: bool = False

    def plain(self, value: object) -> str:
        """``value`` written by this rule with a decimal point and commas for thousands, in any
        interface language (files, signatures); ``MISSING`` for None or NaN. A value that
        rounds to zero is written without a minus ("+0.00", never "-0.00")."""
        if value is None or (isinstance(value, Real) and math.isnan(float(value))):
            return MISSING
        sign = "+" if self.signed else ""
        if self.general:
            return f"{float(value):{sign}.{self.decimals}g}"
        comma = "," if self.thousands else ""
        return f"{float(value):{sign}z{comma}.{self.decimals}f}"

    def text(self, value: object) -> str:
        """``value`` written by this rule for the interface language: ``plain`` in English;
        elsewhere the same digits (rounded once, by Python) with the language's separators and
        signs (Babel's ``format_decimal`` of the rounded decimal)."""
        written = self.plain(value)
        code = language()
        if code == DEFAULT or written == MISSING:
            return written
        if self.general:  # the digits as Python wrote them, with the language's decimal sign
            return written.replace(".", _babel_numbers().get_decimal_symbol(code))
        return _format_decimal(Decimal(written.replace(",", "")), self._pattern, code)

    @property
    def _pattern(self) -> str:
        """This rule as a CLDR number pattern (Babel's)."""
        pattern = ("#,##0" if self.thousands else "0") + (
            "." + "0" * self.decimals if self.decimals else "")
        return f"+{pattern};-{pattern}" if self.signed else pattern

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


@cache
def _babel_numbers():
    from babel import numbers

    return numbers


def _format_decimal(number: Decimal, pattern: str, code: str) -> str:
    return _babel_numbers().format_decimal(number, format=pattern, locale=code,
                                           decimal_quantization=False)


def d3_locale() -> dict[str, object]:
    """The interface language's d3 number locale (Vega's ``config.locale.number``): its decimal
    and thousands separators, from Babel's data."""
    code = language()
    if code == DEFAULT:
        return {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]}
    numbers = _babel_numbers()
    return {"decimal": numbers.get_decimal_symbol(code),
            "thousands": numbers.get_group_symbol(code), "grouping": [3],
            "currency": ["€ ", ""]}


SCORE = NumberFormat(2)
DELTA = NumberFormat(2, signed=True)
PRECISION = NumberFormat(1)
P_VALUE = NumberFormat(4)
RATIO = NumberFormat(3)
#: c/r and the geometric mean where a teaching page shows how they are computed
FACTOR = NumberFormat(4)
#: the brevity penalty, on every page (4 decimals: it is a factor near 1, and the teaching pages
#: compute with it)
BP = NumberFormat(4)
CORRELATION = NumberFormat(3)
#: a significance level (p < 0.05)
LEVEL = NumberFormat(2)
#: a share in percent, whole ("75" for 75 %)
PERCENT = NumberFormat(0)
#: a size or a limit in megabytes as given (200, 200.1: Python's general format)
MEGABYTES = NumberFormat(6, general=True)
#: a change in percent of a length ("-10", "+5")
SIGNED_PERCENT = NumberFormat(0, signed=True)
#: a count that smoothing may make fractional (2, 0.1, 1.5), and a smoothing value
PLAIN = NumberFormat(6, general=True)
#: a score compared with another implementation's (NLTK's) to the last digits
EXACT = NumberFormat(6)
#: a difference that is float rounding or more: two significant digits ("1.4e-14", "0.31")
TINY = NumberFormat(2, general=True)
#: a random seed: a name more than a quantity, so no thousands separator (seed 12345, as
#: sacrebleu's signature writes it)
SEED = NumberFormat(0)
COUNT = NumberFormat(0, thousands=True)
#: a change of a corpus score made by one segment (small: 4 decimals), or of BP
SMALL_DELTA = NumberFormat(4, signed=True)
#: scores on a 0..1 scale (COMET, BLEURT, BERTScore, z-scored DA) and their differences
UNIT_SCORE = NumberFormat(4)
UNIT_DELTA = NumberFormat(4, signed=True)


def tex(formula: str) -> str:
    """A TeX formula with the interface language's numbers: a decimal comma braced
    (``0{,}5``), so that TeX does not set it as punctuation followed by a space."""
    return formula if language() == DEFAULT else formula.replace(",", "{,}")


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

"""Charts in the interface language's numbers: Vega's ``config.locale`` gives the d3 formats of
the number rule (``bleu.display.formatting``) the language's decimal and thousands separators,
so a chart's axes and tooltips read as its tables do (52,32 in Dutch)."""

from __future__ import annotations

from typing import TypeVar

import altair as alt

from ..display.formatting import d3_locale
from ..i18n import DEFAULT, language

ChartT = TypeVar("ChartT", bound=alt.TopLevelMixin)


def localized(chart: ChartT) -> ChartT:
    """``chart`` with the interface language's number separators (itself in English)."""
    if language() == DEFAULT:
        return chart
    copy = chart.copy(deep=["config"])
    if copy.config is alt.Undefined:
        copy.config = alt.Config()
    copy.config.locale = alt.Locale(number=alt.NumberLocale(**d3_locale()))
    return copy


def localized_spec(spec: dict) -> dict:
    """A Vega-Lite spec (a dict) with the interface language's number separators."""
    if language() == DEFAULT:
        return spec
    return {**spec, "config": {**spec.get("config", {}), "locale": {"number": d3_locale()}}}

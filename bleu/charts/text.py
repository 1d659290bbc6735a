"""User text in charts shown literally: system names, segments and labels with their control and
bidi characters made visible (``⟨U+202E⟩``), as everywhere else in the app.

Vega draws text as given and escapes it in tooltips, so markup never runs; what it cannot know
is that a right-to-left override disguises a name. ``visible_text`` is applied where charts are
shown (the app's pages, PNG/SVG exports, the HTML report); the builders stay plain data in,
chart out.
"""

from __future__ import annotations

from typing import Any, TypeVar

import pandas as pd
from altair.utils.schemapi import SchemaBase

from ..display.escaping import show_controls, show_controls_frame

ChartT = TypeVar("ChartT", bound=SchemaBase)


def _visible(value: Any) -> Any:
    if isinstance(value, str):
        return show_controls(value)
    if isinstance(value, pd.DataFrame):
        return show_controls_frame(value)
    if isinstance(value, list | tuple):
        return type(value)(_visible(item) for item in value)
    if isinstance(value, dict):
        return {key: _visible(item) for key, item in value.items()}
    if isinstance(value, SchemaBase):
        return visible_text(value)
    return value


def visible_text(chart: ChartT) -> ChartT:
    """A copy of ``chart`` with every string in it (data, scale domains, titles, labels) showing
    its control and bidi characters visibly; the chart itself is unchanged. Strings without
    such characters, which is every name a spec itself uses, stay as they are, so data and
    the domains, fields and sorts that refer to it still agree."""
    shown = chart.copy(deep=False)
    for key, value in chart._kwds.items():
        shown._kwds[key] = _visible(value)
    return shown

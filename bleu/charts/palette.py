"""One palette for every chart, in the app and in its exports (PNG, SVG, the HTML report).

Streamlit draws charts with its own theme and vl-convert with Vega's defaults, so a colour left
to either differs between the page and the exported file; every builder here gives its colours
explicitly instead. A system keeps its colour on every chart: colours follow the order of all
loaded systems (``systems``), not the order or the subset a chart shows.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

from bleu.i18n import tr

#: Tableau 10 (Vega's ``tableau10``), colour-blind-safer than Streamlit's default; cycled
PALETTE = ("#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2",
           "#ff9da6", "#9d755d", "#bab0ac")
#: a value that does not stand for a system (a reference line)
NEUTRAL = "#888888"
#: text marks drawn over a chart (values on bars): dark, legible on a projector
LABEL = "#262730"
#: a point not selected on a chart
UNSELECTED = "#bbbbbb"
#: significant differences, as cell fills: in favour of the row system, against it (light, so
#: that the numbers on them stay readable)
ROW_BETTER_FILL, ROW_WORSE_FILL = "#a5d6a7", "#ef9a9a"
#: a difference that is not significant
NOT_SIGNIFICANT = "#e0e0e0"
#: the parts of log BLEU: blues from light to dark for the n-gram orders, purple for the BP
ORDER_BLUES = ("#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b")
BREVITY_PURPLE = "#7b4173"


def system_colors(shown: Sequence[str], systems: Sequence[str] | None = None) -> list[str]:
    """The colour of each system of ``shown``: its place among ``systems`` (all loaded systems;
    default ``shown``) in ``PALETTE``; a name not among them gets the next free place."""
    order = list(systems) if systems is not None else []
    order += [name for name in shown if name not in order]
    return [PALETTE[order.index(name) % len(PALETTE)] for name in shown]


def system_color(shown: Sequence[str], systems: Sequence[str] | None = None,
                 field: str = "system", title: str | None = None) -> alt.Color:
    """A nominal colour encoding of ``field`` with each system's colour (``system_colors``),
    titled ``title`` (default: "System" in the interface language)."""
    shown = list(dict.fromkeys(shown))
    return alt.Color(f"{field}:N", title=tr("System") if title is None else title, sort=shown,
                     scale=alt.Scale(domain=shown, range=system_colors(shown, systems)))


def scatter_opacity(points: int) -> float:
    """Point opacity for a scatter of ``points``: near opaque for a few hundred, faint for
    thousands, so that where points pile up the colour darkens (overplotting shows density)."""
    return float(min(0.8, max(0.15, 300 / max(points, 1))))

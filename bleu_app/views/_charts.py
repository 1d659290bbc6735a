"""Charts on a page: every Altair chart goes through ``show``, so user text in its data is shown
literally (``bleu.charts.text.visible_text``) on every page."""

from __future__ import annotations

from typing import Any

import altair as alt

from bleu.charts.text import visible_text


def show(where: Any, chart: alt.TopLevelMixin, **options: Any) -> Any:
    """``where.altair_chart(chart, **options)`` (``where``: ``st``, a column, a container) with
    control and bidi characters in the chart's data made visible."""
    return where.altair_chart(visible_text(chart), **options)



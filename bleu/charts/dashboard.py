"""The corpus dashboard's charts: scores by system in, ``alt.Chart`` out.

Each builder takes scores by system name (``BLEUScore``, with ``mean``/``ci`` where a bootstrap
ran), builds a tidy DataFrame and returns a chart. ``to_png``/``to_svg`` export one offline;
``dashboard(results)`` is the corpus dashboard as one chart.
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd
import vl_convert

from ..analysis.dashboard import Dashboard, log_decomposition
from ..metrics.base import SignificanceResult
from ..metrics.bleu_score import BLEUOptions, BLEUScore
from .metrics import metrics_chart

Scores = Mapping[str, BLEUScore]


def _system_color(systems: list[str]) -> alt.Color:
    """One color per system, the same in every chart (domain in table order)."""
    return alt.Color("system:N", title="System", scale=alt.Scale(domain=systems),
                     sort=systems)


def bleu_data(intervals: Mapping[str, SignificanceResult]) -> pd.DataFrame:
    """One row per system: score, and the bootstrap's 95% interval (its two ends) where known."""
    rows = [{"system": name, "BLEU": result.score, "low": result.low, "high": result.high}
            for name, result in intervals.items()]
    return pd.DataFrame(rows, columns=["system", "BLEU", "low", "high"])


def bleu_chart(intervals: Mapping[str, SignificanceResult]) -> alt.LayerChart:
    """BLEU per system as points with their 95% bootstrap intervals, on an axis zoomed to the
    scores (differences of a point or two are what matters, not the distance from 0)."""
    data = bleu_data(intervals)
    systems = list(data["system"])
    base = alt.Chart(data).encode(y=alt.Y("system:N", sort=systems, title=None))
    scale = alt.Scale(zero=False, nice=True)
    errors = base.transform_filter("isValid(datum.low)").mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title="BLEU", scale=scale), x2="high:Q", color=_system_color(systems))
    points = base.mark_point(filled=True, size=80).encode(
        x=alt.X("BLEU:Q", title="BLEU", scale=scale), color=_system_color(systems),
        tooltip=["system:N", alt.Tooltip("BLEU:Q", format=".2f"),
                 alt.Tooltip("low:Q", format=".2f", title="95% CI low"),
                 alt.Tooltip("high:Q", format=".2f", title="95% CI high")],
    )
    return alt.layer(errors, points).properties(
        title="BLEU per system (lines: 95% bootstrap interval)")


def precisions_data(scores: Scores) -> pd.DataFrame:
    """One row per (system, n-gram order): the modified n-gram precision in percent."""
    rows = [{"system": name, "order": f"{n}-gram", "precision": precision}
            for name, score in scores.items()
            for n, precision in enumerate(score.precisions, start=1)]
    return pd.DataFrame(rows, columns=["system", "order", "precision"])


def precisions_chart(scores: Scores) -> alt.Chart:
    """Per-order precisions, grouped: one group per n-gram order, one bar per system."""
    data = precisions_data(scores)
    systems = list(scores)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("order:N", title="n-gram order"),
        xOffset=alt.XOffset("system:N", sort=systems),
        y=alt.Y("precision:Q", title="precision (%)"),
        color=_system_color(systems),
        tooltip=["system:N", "order:N", alt.Tooltip("precision:Q", format=".1f")],
    ).properties(title="n-gram precisions")


def decomposition_data(scores: Scores, options: BLEUOptions) -> pd.DataFrame:
    """One row per (system, part): ``w_n log(p_n/100)`` and ``log BP``, summing to log(BLEU/100).

    Parts whose logarithm is -inf (a factor of 0) are left out: that system's BLEU is 0.
    """
    rows = []
    for name, score in scores.items():
        for index, (part, value) in enumerate(log_decomposition(score, options).items()):
            if value is not None:
                rows.append({"system": name, "part": part, "index": index, "log": value})
    return pd.DataFrame(rows, columns=["system", "part", "index", "log"])


def decomposition_chart(scores: Scores, options: BLEUOptions) -> alt.Chart:
    """log BLEU per system, stacked from its parts: which precision (or BP) costs the most."""
    data = decomposition_data(scores, options)
    parts = [f"{n}-gram" for n in range(1, options.max_ngram_order + 1)] + ["brevity penalty"]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("system:N", sort=list(scores), title=None),
        y=alt.Y("sum(log):Q", title="log(BLEU / 100)"),
        color=alt.Color("part:N", title="Part", scale=alt.Scale(domain=parts), sort=parts),
        order=alt.Order("index:Q"),
        tooltip=["system:N", "part:N", alt.Tooltip("log:Q", format=".4f")],
    ).properties(title=alt.TitleParams(
        "Where each system loses BLEU (log scale parts)",
        subtitle="log(BLEU / 100) = Σ wₙ log pₙ + log BP"))


def length_data(scores: Scores) -> pd.DataFrame:
    """One row per (system, measure): the length ratio hyp/ref and the brevity penalty."""
    rows = []
    for name, score in scores.items():
        rows.append({"system": name, "measure": "length ratio", "value": score.ratio})
        rows.append({"system": name, "measure": "brevity penalty", "value": score.bp})
    return pd.DataFrame(rows, columns=["system", "measure", "value"])


def length_chart(scores: Scores) -> alt.LayerChart:
    """Length ratio and brevity penalty per system, side by side, with a rule at 1."""
    data = length_data(scores)
    systems = list(scores)
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("system:N", sort=systems, title=None),
        xOffset=alt.XOffset("measure:N"),
        y=alt.Y("value:Q", title="ratio / BP"),
        color=alt.Color("measure:N", title="Measure"),
        tooltip=["system:N", "measure:N", alt.Tooltip("value:Q", format=".3f")],
    )
    one = alt.Chart(pd.DataFrame({"value": [1.0]})).mark_rule(strokeDash=[4, 4]).encode(
        y="value:Q"
    )
    return alt.layer(bars, one).properties(title="Length ratio and brevity penalty")


def dashboard(results: Dashboard,
              other: Mapping[str, Mapping[str, SignificanceResult]] | None = None,
              ) -> alt.VConcatChart:
    """The corpus dashboard's charts as one chart (renders in Jupyter; ``other``: chrF/TER).

    ``results`` is a ``bleu.analysis.dashboard.Dashboard`` (``build_dashboard``); ``other`` maps
    a metric name to significance results by system (``bleu.analysis.metric_scores``), drawn
    below.
    """
    scores = results.scores
    rows = [
        alt.hconcat(bleu_chart(results.significance), precisions_chart(scores)).resolve_scale(
            color="independent"),
        alt.hconcat(decomposition_chart(scores, results.options),
                    length_chart(scores)).resolve_scale(color="independent"),
    ]
    if other:
        rows.append(metrics_chart(other))
    return alt.vconcat(*rows).resolve_scale(color="independent").properties(
        title=f"BLEU dashboard ({results.signature})")


def to_png(chart: alt.TopLevelMixin, scale: float = 2.0) -> bytes:
    """The chart as PNG, rendered offline by vl-convert."""
    return vl_convert.vegalite_to_png(chart.to_json(), scale=scale)


def to_svg(chart: alt.TopLevelMixin) -> str:
    """The chart as SVG, rendered offline by vl-convert."""
    return vl_convert.vegalite_to_svg(chart.to_json())

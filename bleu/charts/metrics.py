"""Altair builders for every metric beside BLEU and for segment scores (pure).

``metrics_chart`` takes each metric's dashboard results (scores with the bootstrap interval
where known, and which way is better); ``external_scatter_chart`` plots a sentence-level metric
against segment scores; ``correlation_chart`` draws a correlation table as a heat map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from ..display.formatting import CORRELATION, COUNT, SCORE, score_formats
from ..evaluation.results import MetricResults
from ..i18n import tr
from .palette import scatter_opacity, system_color

WIDTH = 560


def metrics_data(results: Mapping[str, MetricResults]) -> pd.DataFrame:
    """One row per (metric, system): the corpus score, its 95% interval where known, and the
    system's position in that metric, best first (TER: lowest first)."""
    rows = []
    for metric, found in results.items():
        higher, by_system = found.higher_is_better, found.significance
        ranked = sorted(by_system, key=lambda name: (-1 if higher else 1)
                        * by_system[name].score)
        better = tr("higher is better") if higher else tr("lower is better")
        for system, result in by_system.items():
            rows.append({"metric": metric, "system": system, "score": result.score,
                         "low": result.low, "high": result.high,
                         "position": ranked.index(system),
                         "direction": f"{metric} ({better})"})
    return pd.DataFrame(rows, columns=["metric", "system", "score", "low", "high", "position",
                                       "direction"])


def metrics_chart(results: Mapping[str, MetricResults], systems: Sequence[str] | None = None,
                  ) -> alt.FacetChart:
    """Each metric's corpus score per system as dots with 95% intervals, one panel a metric,
    each on its own zoomed axis with its systems best first. ``systems``: every loaded system,
    for the colours (default: these)."""
    data = metrics_data(results)
    rules = [score_formats(group)[0] for _, group in data.groupby("metric")["score"]]
    score = max(rules, key=lambda rule: rule.decimals, default=SCORE)  # COMET's 4 decimals
    shown = list(dict.fromkeys(data["system"]))
    color = system_color(shown, systems).legend(None)
    base = alt.Chart(data).encode(
        y=alt.Y("system:N", title=None, sort=alt.EncodingSortField("position", order="ascending")))
    scale = alt.Scale(zero=False, nice=True)
    points = base.mark_point(filled=True, size=70, opacity=1).encode(
        x=alt.X("score:Q", title=None, scale=scale), color=color,
        tooltip=[alt.Tooltip("metric:N", title=tr("metric")),
                 alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("score:Q", format=score.d3, title=tr("score")),
                 alt.Tooltip("low:Q", format=score.d3, title=tr("95% CI low")),
                 alt.Tooltip("high:Q", format=score.d3, title=tr("95% CI high"))],
    )
    errors = base.transform_filter("isValid(datum.low)").mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", scale=scale), x2="high:Q", color=color)
    return alt.layer(errors, points).properties(width=200, height=alt.Step(22)).facet(
        column=alt.Column("direction:N", title=None,
                          sort=list(dict.fromkeys(data["direction"])))
    ).resolve_scale(x="independent", y="independent").properties(
        title=tr("{metrics} per system (lines: 95% bootstrap interval)").format(
            metrics=", ".join(results)))


def external_scatter_data(metric_scores: Mapping[str, np.ndarray],
                          external: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """One row per rated (system, segment): the sentence-level metric and the external score."""
    frames = []
    for system, values in metric_scores.items():
        if system not in external:
            continue
        human = np.asarray(external[system], dtype=float)
        rated = np.flatnonzero(~np.isnan(human))
        frames.append(pd.DataFrame({"system": system, "segment": rated + 1,
                                    "metric": np.asarray(values, dtype=float)[rated],
                                    "external": human[rated]}))
    if not frames:
        return pd.DataFrame(columns=["system", "segment", "metric", "external"])
    return pd.concat(frames, ignore_index=True)


def external_scatter_chart(metric_scores: Mapping[str, np.ndarray],
                           external: Mapping[str, np.ndarray], metric: str | None = None,
                           label: str | None = None) -> alt.Chart:
    """Sentence-level ``metric`` (x, default sentence BLEU) against the external score (y),
    one point per rated segment."""
    metric = metric or tr("sentence BLEU")
    label = label or tr("external score")
    data = external_scatter_data(metric_scores, external)
    shown = list(dict.fromkeys(data["system"]))
    return alt.Chart(data).mark_circle(size=20, opacity=scatter_opacity(len(data))).encode(
        x=alt.X("metric:Q", title=metric, scale=alt.Scale(  # 0..100 (TER may pass 100)
            domain=[0, max(100.0, float(data["metric"].max()) if len(data) else 0.0)], nice=False)),
        y=alt.Y("external:Q", title=label),
        color=system_color(shown, list(metric_scores)).legend(symbolOpacity=1),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("segment:Q", format=COUNT.d3, title=tr("segment")),
                 alt.Tooltip("metric:Q", format=SCORE.d3, title=metric),
                 alt.Tooltip("external:Q", format=CORRELATION.d3, title=label)],
    ).properties(width=WIDTH, height=360,
                 title=tr("{label} against {metric}").format(label=label, metric=metric))



def correlation_chart(table: pd.DataFrame) -> alt.Chart:
    """A correlation table (``bleu.correlation.correlation_table``) as a heat map with values."""
    data = table.melt(id_vars=["metric", "level", "n"], value_vars=["Pearson", "Spearman",
                                                                    "Kendall"],
                      var_name="coefficient", value_name="value")
    data["row"] = data["level"].map(tr) + " · " + data["metric"]
    base = alt.Chart(data).encode(
        x=alt.X("coefficient:N", title=None, sort=["Pearson", "Spearman", "Kendall"]),
        y=alt.Y("row:N", title=None, sort=list(dict.fromkeys(data["row"]))),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", title=tr("correlation"),
                        scale=alt.Scale(domain=[-1, 1], scheme="redblue")),
        tooltip=[alt.Tooltip("metric:N", title=tr("metric")),
                 alt.Tooltip("level:N", title=tr("level")),
                 alt.Tooltip("n:Q", format=COUNT.d3, title="n"),
                 alt.Tooltip("coefficient:N", title=tr("coefficient")),
                 alt.Tooltip("value:Q", format=CORRELATION.d3, title=tr("correlation"))],
    )
    text = base.mark_text().encode(text=alt.Text("value:Q", format=CORRELATION.d3))
    return alt.layer(cells, text).properties(title=tr("Correlation with the external scores"))

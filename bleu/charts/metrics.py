"""Altair builders for chrF/chrF++/TER beside BLEU and for external scores (pure).

``metrics_chart`` takes corpus scores by metric and system (with the bootstrap interval where
known); ``external_scatter_chart`` plots a sentence-level metric against external segment scores;
``correlation_chart`` draws a correlation table as a heat map.
"""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import numpy as np
import pandas as pd

from ..analysis.metric_scores import HIGHER_IS_BETTER
from ..metrics.base import SignificanceResult

WIDTH = 560
#: corpus scores by metric and system, with their bootstrap intervals where one ran
ScoresByMetric = Mapping[str, Mapping[str, SignificanceResult]]


def metrics_data(scores: ScoresByMetric) -> pd.DataFrame:
    """One row per (metric, system): the corpus score and its 95% interval where known."""
    rows = []
    for metric, by_system in scores.items():
        for system, result in by_system.items():
            score, low, high = result.score, result.low, result.high
            better = "higher is better" if HIGHER_IS_BETTER.get(metric, True) else \
                "lower is better"
            rows.append({"metric": metric, "system": system, "score": score, "low": low,
                         "high": high, "direction": f"{metric} ({better})"})
    return pd.DataFrame(rows, columns=["metric", "system", "score", "low", "high", "direction"])


def metrics_chart(scores: ScoresByMetric) -> alt.FacetChart:
    """Each metric's corpus score per system as bars (one panel a metric), with 95% intervals."""
    data = metrics_data(scores)
    systems = list(dict.fromkeys(data["system"]))
    base = alt.Chart(data).encode(x=alt.X("system:N", sort=systems, title=None))
    bars = base.mark_bar().encode(
        y=alt.Y("score:Q", title="score"),
        color=alt.Color("system:N", title="System", scale=alt.Scale(domain=systems),
                        sort=systems),
        tooltip=["metric:N", "system:N", alt.Tooltip("score:Q", format=".2f"),
                 alt.Tooltip("low:Q", format=".2f", title="95% CI low"),
                 alt.Tooltip("high:Q", format=".2f", title="95% CI high")],
    )
    errors = base.transform_filter("isValid(datum.low)").mark_rule(strokeWidth=2).encode(
        y="low:Q", y2="high:Q")
    return alt.layer(bars, errors).properties(width=180, height=220).facet(
        column=alt.Column("direction:N", title=None,
                          sort=list(dict.fromkeys(data["direction"])))
    ).resolve_scale(y="independent").properties(title="chrF, chrF++ and TER per system")


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
                           external: Mapping[str, np.ndarray], metric: str = "sentence BLEU",
                           label: str = "external score") -> alt.Chart:
    """Sentence-level ``metric`` (x) against the external score (y), one point per rated segment."""
    data = external_scatter_data(metric_scores, external)
    systems = list(dict.fromkeys(data["system"]))
    return alt.Chart(data).mark_circle(size=28, opacity=0.5).encode(
        x=alt.X("metric:Q", title=metric),
        y=alt.Y("external:Q", title=label),
        color=alt.Color("system:N", title="System", scale=alt.Scale(domain=systems),
                        sort=systems),
        tooltip=["system:N", "segment:Q", alt.Tooltip("metric:Q", format=".2f", title=metric),
                 alt.Tooltip("external:Q", format=".3f", title=label)],
    ).properties(width=WIDTH, height=360, title=f"{label} against {metric}")


def correlation_chart(table: pd.DataFrame) -> alt.Chart:
    """A correlation table (``bleu.correlation.correlation_table``) as a heat map with values."""
    data = table.melt(id_vars=["metric", "level", "n"], value_vars=["Pearson", "Spearman",
                                                                    "Kendall"],
                      var_name="coefficient", value_name="value")
    data["row"] = data["level"] + " · " + data["metric"]
    base = alt.Chart(data).encode(
        x=alt.X("coefficient:N", title=None, sort=["Pearson", "Spearman", "Kendall"]),
        y=alt.Y("row:N", title=None, sort=list(dict.fromkeys(data["row"]))),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", title="correlation",
                        scale=alt.Scale(domain=[-1, 1], scheme="redblue")),
        tooltip=["metric:N", "level:N", "n:Q", "coefficient:N",
                 alt.Tooltip("value:Q", format=".3f")],
    )
    text = base.mark_text().encode(text=alt.Text("value:Q", format=".3f"))
    return alt.layer(cells, text).properties(title="Correlation with the external scores")

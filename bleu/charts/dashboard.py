"""The corpus dashboard's charts: scores by system in, ``alt.Chart`` out.

Differences of a point or two between systems are what a dashboard has to show, so scores are
dots with their 95% bootstrap intervals on axes zoomed to the scores, never bars from 0; systems
are listed best first, each in its colour from ``bleu.charts.palette`` (the same in the app and
in ``to_png``/``to_svg``). ``pairs_chart`` draws an all-pairs comparison
(``bleu.evaluation.ranking``); ``dashboard(results)`` is the corpus dashboard as one chart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd
import vl_convert

from ..display.formatting import BP, COUNT, DELTA, LEVEL, P_VALUE, PRECISION, RATIO, SCORE
from ..evaluation.ranking import METHODS, AllPairs
from ..evaluation.results import Dashboard
from ..explore.dashboard import log_decomposition, pairs_frame
from ..i18n import tr
from ..metrics.base import SignificanceResult
from ..metrics.bleu.score import BLEUOptions, BLEUScore
from .locale import localized
from .metrics import metrics_chart
from .palette import (
    BREVITY_PURPLE,
    NEUTRAL,
    NOT_SIGNIFICANT,
    ORDER_BLUES,
    ROW_BETTER_FILL,
    ROW_WORSE_FILL,
    system_color,
)
from .text import visible_text

Scores = Mapping[str, BLEUScore]
#: height of one system's row in the dot plots
ROW = 22
#: the plot width of one n-gram order's panel (four fit half of a wide page)
PANEL_WIDTH = 70
#: the all-pairs matrix's cell size
CELL = 48


def _ranked(scores: Mapping[str, float]) -> list[str]:
    """Systems best (highest) first; ties keep their order."""
    return sorted(scores, key=lambda name: -scores[name])


def bleu_data(intervals: Mapping[str, SignificanceResult]) -> pd.DataFrame:
    """One row per system: score, and the bootstrap's 95% interval (its two ends) where known."""
    rows = [{"system": name, "BLEU": result.score, "low": result.low, "high": result.high}
            for name, result in intervals.items()]
    return pd.DataFrame(rows, columns=["system", "BLEU", "low", "high"])


def bleu_chart(intervals: Mapping[str, SignificanceResult],
               systems: Sequence[str] | None = None) -> alt.LayerChart:
    """BLEU per system as points with their 95% bootstrap intervals, best first, on an axis
    zoomed to the scores (differences of a point or two are what matters, not the distance
    from 0). ``systems``: every loaded system, for the colours (default: these)."""
    data = bleu_data(intervals)
    order = _ranked({name: result.score for name, result in intervals.items()})
    color = system_color(list(intervals), systems).legend(None)
    base = alt.Chart(data).encode(y=alt.Y("system:N", sort=order, title=None))
    scale = alt.Scale(zero=False, nice=True)
    errors = base.transform_filter("isValid(datum.low)").mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title="BLEU", scale=scale), x2="high:Q", color=color)
    points = base.mark_point(filled=True, size=80, opacity=1).encode(
        x=alt.X("BLEU:Q", title="BLEU", scale=scale), color=color,
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("BLEU:Q", format=SCORE.d3, title="BLEU"),
                 alt.Tooltip("low:Q", format=SCORE.d3, title=tr("95% CI low")),
                 alt.Tooltip("high:Q", format=SCORE.d3, title=tr("95% CI high"))],
    )
    return alt.layer(errors, points).properties(
        height=alt.Step(ROW), title=tr("BLEU per system (lines: 95% bootstrap interval)"))


def precisions_data(scores: Scores) -> pd.DataFrame:
    """One row per (system, n-gram order): the modified n-gram precision in percent."""
    rows = [{"system": name, "order": tr("{n}-gram").format(n=n), "precision": precision}
            for name, score in scores.items()
            for n, precision in enumerate(score.precisions, start=1)]
    return pd.DataFrame(rows, columns=["system", "order", "precision"])


def precisions_chart(scores: Scores, systems: Sequence[str] | None = None) -> alt.FacetChart:
    """Per-order precisions as dots, one panel per n-gram order with its own zoomed axis (the
    orders differ by tens of points, the systems by one or two), systems best first. Ticks are
    written by the precision rule (1 decimal) at least 0.1 apart, so two nearly equal systems do
    not get a run of overlapping labels ("37.89037.895")."""
    data = precisions_data(scores)
    order = _ranked({name: score.score for name, score in scores.items()})
    orders = list(dict.fromkeys(data["order"]))
    return alt.Chart(data).mark_point(filled=True, size=60, opacity=1).encode(
        x=alt.X("precision:Q", title=None, scale=alt.Scale(zero=False, nice=True),
                axis=alt.Axis(tickCount=3, tickMinStep=0.1, format=PRECISION.d3,
                              labelOverlap=True)),
        y=alt.Y("system:N", sort=order, title=None),
        color=system_color(list(scores), systems).legend(None),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("order:N", title=tr("order")),
                 alt.Tooltip("precision:Q", format=PRECISION.d3, title=tr("precision (%)"))],
    ).properties(width=PANEL_WIDTH, height=alt.Step(ROW)).facet(
        column=alt.Column("order:N", sort=orders, title=None),
    ).resolve_scale(x="independent").properties(title=tr("n-gram precisions (%)"))


def decomposition_data(scores: Scores, options: BLEUOptions) -> pd.DataFrame:
    """One row per (system, part): ``w_n log(p_n/100)`` and ``log BP``, summing to log(BLEU/100).

    Parts whose logarithm is -inf (a factor of 0) are left out: that system's BLEU is 0. The
    parts are named in the interface language (``_part_names``).
    """
    rows = []
    names = _part_names(options)
    for name, score in scores.items():
        for index, value in enumerate(log_decomposition(score, options).values()):
            if value is not None:
                rows.append({"system": name, "part": names[index], "index": index, "log": value})
    return pd.DataFrame(rows, columns=["system", "part", "index", "log"])


def _part_names(options: BLEUOptions) -> list[str]:
    """The parts of log BLEU as the chart names them: each n-gram order, the brevity penalty."""
    return [*(tr("{n}-gram").format(n=n) for n in range(1, options.max_ngram_order + 1)),
            tr("brevity penalty")]


def _part_colors(count: int) -> list[str]:
    """Blues from light to dark for the n-gram orders, then purple for the brevity penalty."""
    blues = ORDER_BLUES
    picked = [blues[round(k * (len(blues) - 1) / max(count - 2, 1))] for k in range(count - 1)]
    return [*picked, BREVITY_PURPLE]


def decomposition_chart(scores: Scores, options: BLEUOptions) -> alt.Chart:
    """log BLEU per system, stacked from its parts: which precision (or BP) costs the most."""
    data = decomposition_data(scores, options)
    parts = _part_names(options)
    order = _ranked({name: score.score for name, score in scores.items()})
    return alt.Chart(data).mark_bar().encode(
        y=alt.Y("system:N", sort=order, title=None),
        x=alt.X("sum(log):Q", title=tr("log(BLEU / 100)")),
        color=alt.Color("part:N", title=tr("Part"), sort=parts,
                        scale=alt.Scale(domain=parts, range=_part_colors(len(parts)))),
        order=alt.Order("index:Q"),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("part:N", title=tr("Part")),
                 alt.Tooltip("log:Q", format=RATIO.d3, title=tr("log part"))],
    ).properties(height=alt.Step(ROW)).properties(title=alt.TitleParams(
        tr("Where each system loses BLEU (log scale parts)"),
        subtitle="log(BLEU / 100) = Σ wₙ log pₙ + log BP"))


def length_data(scores: Scores) -> pd.DataFrame:
    """One row per system: length ratio hyp/ref, brevity penalty, both lengths."""
    rows = [{"system": name, "ratio": score.ratio, "BP": score.bp, "hyp_len": score.sys_len,
             "ref_len": score.ref_len,
             "label": f"BP {BP.text(score.bp)}" if score.bp < 1 else ""}
            for name, score in scores.items()]
    return pd.DataFrame(rows, columns=["system", "ratio", "BP", "hyp_len", "ref_len", "label"])


def length_chart(scores: Scores, systems: Sequence[str] | None = None) -> alt.LayerChart:
    """Length ratio hyp/ref per system around a rule at 1: left of it the output is shorter
    than the references and BLEU is multiplied by the brevity penalty, written beside the dot."""
    data = length_data(scores)
    order = _ranked({name: score.score for name, score in scores.items()})
    base = alt.Chart(data).encode(
        x=alt.X("ratio:Q", title=tr("length ratio (output / references)"),
                scale=alt.Scale(zero=False, nice=True)),
        y=alt.Y("system:N", sort=order, title=None),
    )
    points = base.mark_point(filled=True, size=80, opacity=1).encode(
        color=system_color(list(scores), systems).legend(None),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("ratio:Q", format=RATIO.d3, title=tr("length ratio")),
                 alt.Tooltip("BP:Q", format=BP.d3, title=tr("brevity penalty")),
                 alt.Tooltip("hyp_len:Q", format=COUNT.d3, title=tr("hyp len")),
                 alt.Tooltip("ref_len:Q", format=COUNT.d3, title=tr("ref len"))])
    labels = base.mark_text(align="left", dx=8, fontSize=11).encode(text="label:N")
    one = alt.Chart(pd.DataFrame({"ratio": [1.0]})).mark_rule(
        strokeDash=[4, 4], color=NEUTRAL).encode(x="ratio:Q")
    return alt.layer(one, points, labels).properties(
        height=alt.Step(ROW),
        title=alt.TitleParams(tr("Length ratio and brevity penalty"),
                              subtitle=tr("left of 1: shorter than the references, BLEU × BP")))


def pairs_data(pairs: AllPairs) -> pd.DataFrame:
    """``AllPairs.pairs_frame`` with what a cell shows: the difference (with ``*`` where
    significant), and whether it is significant for or against the row system (in the interface
    language: ``_verdicts``)."""
    frame = pairs_frame(pairs)
    diagonal = frame["row"] == frame["column"]
    ahead = frame["delta"] > 0 if pairs.higher_is_better else frame["delta"] < 0
    better, worse, neither = _verdicts()
    frame["verdict"] = [
        "" if same else (better if first else worse) if significant
        else neither
        for same, first, significant in zip(diagonal, ahead, frame["significant"], strict=True)]
    frame["label"] = ["" if same else DELTA.text(delta) + ("*" if significant else "")
                      for same, delta, significant in zip(diagonal, frame["delta"],
                                                          frame["significant"], strict=True)]
    return frame


def _verdicts() -> tuple[str, str, str]:
    """What an all-pairs cell says of its row system: better, worse, not significant."""
    return tr("row better"), tr("row worse"), tr("not significant")


def pairs_chart(pairs: AllPairs) -> alt.LayerChart:
    """The all-pairs matrix: each cell the row's score minus the column's, green where the row
    system is significantly better, red where significantly worse (Holm-adjusted p)."""
    data = pairs_data(pairs)
    names = list(pairs.names)
    base = alt.Chart(data).encode(
        x=alt.X("column:N", sort=names, title=None,
                axis=alt.Axis(orient="top", labelAngle=-40, labelOverlap=False, labelLimit=110)),
        y=alt.Y("row:N", sort=names, title=None),
    )
    cells = base.transform_filter("datum.verdict != ''").mark_rect(stroke="white").encode(
        color=alt.Color("verdict:N", title=None, legend=alt.Legend(orient="bottom"),
                        scale=alt.Scale(domain=list(_verdicts()),
                                        range=[ROW_BETTER_FILL, ROW_WORSE_FILL,
                                               NOT_SIGNIFICANT])),
        tooltip=[alt.Tooltip("row:N", title=tr("row")),
                 alt.Tooltip("column:N", title=tr("column")),
                 alt.Tooltip("delta:Q", format=DELTA.d3,
                             title=tr("{metric} row − column").format(metric=pairs.metric)),
                 alt.Tooltip("p_value:Q", format=P_VALUE.d3, title=tr("p-value")),
                 alt.Tooltip("adjusted:Q", format=P_VALUE.d3, title=tr("Holm-adjusted p"))])
    text = base.mark_text(fontSize=10).encode(text="label:N")
    return alt.layer(cells, text).properties(
        width=alt.Step(CELL), height=alt.Step(26),
        title=alt.TitleParams(
            tr("{metric}: row − column").format(metric=pairs.metric),
            subtitle=tr("{method}, {samples} samples, Holm-corrected; * p < {alpha}").format(
                method=tr(METHODS[pairs.method]), samples=COUNT.text(pairs.n_samples),
                alpha=LEVEL.text(pairs.alpha))))


def dashboard(results: Dashboard) -> alt.VConcatChart:
    """The corpus dashboard's charts as one chart (renders in Jupyter).

    ``results`` is a ``bleu.explore.dashboard.Dashboard`` (``build_dashboard``); its metrics
    beside BLEU are drawn below the BLEU charts and the all-pairs matrix.
    """
    scores = results.scores
    rows: list[alt.TopLevelMixin] = [
        alt.hconcat(bleu_chart(results.significance).properties(width=320),
                    length_chart(scores).properties(width=320)).resolve_scale(
            color="independent"),
        alt.hconcat(precisions_chart(scores), decomposition_chart(
            scores, results.options).properties(width=320)).resolve_scale(color="independent"),
    ]
    if results.pairs is not None:
        rows.append(pairs_chart(results.pairs))
    other = {metric: found for metric, found in results.metrics.items() if metric != "BLEU"}
    if other:
        rows.append(metrics_chart(other, list(scores)))
    return alt.vconcat(*rows).resolve_scale(color="independent").properties(
        title=tr("BLEU dashboard ({signature})").format(signature=results.signature))


def to_png(chart: alt.TopLevelMixin, scale: float = 2.0) -> bytes:
    """The chart as PNG, rendered offline by vl-convert (user text shown literally, numbers in
    the interface language)."""
    return vl_convert.vegalite_to_png(localized(visible_text(chart)).to_json(), scale=scale)


def to_svg(chart: alt.TopLevelMixin) -> str:
    """The chart as SVG, rendered offline by vl-convert (user text shown literally, numbers in
    the interface language)."""
    return vl_convert.vegalite_to_svg(localized(visible_text(chart)).to_json())

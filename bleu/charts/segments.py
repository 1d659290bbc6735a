"""Altair builders for the sentence explorer and the A-versus-B page (pure: data in, chart out).

Each builder first makes a small tidy DataFrame with plain column names (system names may hold
dots or brackets, which Vega-Lite field names would misread), then the chart. The scatter has
one point per segment, faint when there are thousands (where they pile up, the colour darkens);
outside Streamlit, charts over 5000 rows need ``alt.data_transformers.disable_max_rows()``.
Charts without a fixed width follow their container (``st.altair_chart(width="stretch")``);
systems keep their colours (``bleu.charts.palette``) when ``systems`` lists every loaded one.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from ..display.formatting import COUNT, DELTA, RATIO, SCORE, SMALL_DELTA
from ..explore.compare import SWAP
from ..explore.segments import DOCUMENT, SOURCE, bleu_column, reference_columns
from ..i18n import tr
from .palette import NEUTRAL, PALETTE, UNSELECTED, scatter_opacity, system_color, system_colors

#: the plot width of full-width charts with panels (a fixed width: they cannot follow the page)
WIDTH = 700
#: the histogram: panels per row, and one panel's plot size; three fit half of a wide page
HISTOGRAM_COLUMNS = 3
HISTOGRAM_WIDTH = 105
HISTOGRAM_HEIGHT = 55
#: the name of the scatter's point selection: ``event.selection[SEGMENT_SELECTION]``
SEGMENT_SELECTION = "segment"
#: tooltip texts are cut to this many characters (the table shows them whole)
TOOLTIP_CHARS = 300
HISTOGRAM_STEP = 5.0


def _cut(values: pd.Series) -> list[str]:
    return [text if len(text) <= TOOLTIP_CHARS else text[: TOOLTIP_CHARS - 1] + "…"
            for text in values.astype(str)]


def histogram_data(table: pd.DataFrame, systems: Sequence[str],
                   step: float = HISTOGRAM_STEP) -> pd.DataFrame:
    """Segments per sentence-BLEU bin and system (bins of ``step`` over 0..100, 100 in the last)."""
    edges = np.arange(0.0, 100.0 + step, step)
    rows = []
    for name in systems:
        values = np.clip(table[bleu_column(name)].to_numpy(np.float64), 0.0, 100.0)
        counts, _ = np.histogram(values, bins=edges)
        rows += [{"system": name, "start": lo, "end": hi, "segments": int(c)}
                 for lo, hi, c in zip(edges[:-1], edges[1:], counts, strict=True)]
    return pd.DataFrame(rows, columns=["system", "start", "end", "segments"])


def histogram_chart(table: pd.DataFrame, systems: Sequence[str],
                    step: float = HISTOGRAM_STEP, width: int = HISTOGRAM_WIDTH) -> alt.FacetChart:
    """Histogram of sentence BLEU, one small panel per system, ``HISTOGRAM_COLUMNS`` to a row
    (same bins and axes for every system), so that nine systems take a few hundred pixels."""
    data = histogram_data(table, systems, step)
    systems = list(systems)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("start:Q", bin="binned", title=tr("sentence BLEU"),
                scale=alt.Scale(domain=[0, 100]), axis=alt.Axis(tickCount=4)),
        x2="end:Q",
        y=alt.Y("segments:Q", title=tr("segments"), axis=alt.Axis(tickCount=3)),
        color=system_color(systems).legend(None),  # each panel is labelled with its system
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("start:Q", title=tr("from")), alt.Tooltip("end:Q", title=tr("to")),
                 alt.Tooltip("segments:Q", format=COUNT.d3, title=tr("segments"))],
    ).properties(width=width, height=HISTOGRAM_HEIGHT).facet(
        facet=alt.Facet("system:N", sort=systems, title=None,
                        header=alt.Header(labelLimit=width + 20)),
        columns=HISTOGRAM_COLUMNS,
    ).properties(title=tr("Sentence BLEU per system"))


def scatter_data(table: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """One row per segment: id, both sentence BLEUs, and the texts shown in the tooltip."""
    data = pd.DataFrame({"id": table["id"].to_numpy(),
                         "a": table[bleu_column(a)].to_numpy(),
                         "b": table[bleu_column(b)].to_numpy()})
    if SOURCE in table.columns:
        data["source"] = _cut(table[SOURCE])
    ref = reference_columns(1)[0]
    first_ref = ref if ref in table.columns else reference_columns(2)[0]
    data["reference"] = _cut(table[first_ref])
    data["output_a"] = _cut(table[a])
    data["output_b"] = _cut(table[b])
    if DOCUMENT in table.columns:
        data["document"] = table[DOCUMENT].astype(str).to_numpy()
    return data


def scatter_chart(table: pd.DataFrame, a: str, b: str) -> alt.LayerChart:
    """Sentence BLEU of A (x) against B (y) with a diagonal; click (shift: add) selects segments.

    The point selection is named ``SEGMENT_SELECTION`` over the field ``id``, so
    ``st.altair_chart(chart, on_select="rerun")`` returns the clicked segments' ids. Points are
    faint when there are thousands (``scatter_opacity``): where they pile up the colour darkens.
    """
    data = scatter_data(table, a, b)
    selection = alt.selection_point(name=SEGMENT_SELECTION, fields=["id"], on="click",
                                    clear="dblclick")
    tooltip = [alt.Tooltip("id:Q", title=tr("segment")),
               alt.Tooltip("a:Q", title=f"BLEU {a}", format=SCORE.d3),
               alt.Tooltip("b:Q", title=f"BLEU {b}", format=SCORE.d3)]
    tooltip += [alt.Tooltip(f"{column}:N", title=title) for column, title in (
        ("document", tr("document")), ("source", tr("source")),
        ("reference", tr("reference")), ("output_a", a), ("output_b", b))
        if column in data.columns]
    opacity = scatter_opacity(len(data))
    points = alt.Chart(data).mark_circle(size=24).encode(
        x=alt.X("a:Q", title=tr("sentence BLEU {system}").format(system=a),
                scale=alt.Scale(domain=[0, 100])),
        y=alt.Y("b:Q", title=tr("sentence BLEU {system}").format(system=b),
                scale=alt.Scale(domain=[0, 100])),
        color=alt.condition(selection, alt.value(PALETTE[0]), alt.value(UNSELECTED)),
        opacity=alt.condition(selection, alt.value(opacity), alt.value(opacity / 2)),
        tooltip=tooltip,
    ).add_params(selection)
    diagonal = alt.Chart(pd.DataFrame({"x": [0, 100], "y": [0, 100]})).mark_line(
        color=NEUTRAL, strokeDash=[4, 4]).encode(x="x:Q", y="y:Q")
    return alt.layer(points, diagonal).properties(
        height=380, title=alt.TitleParams(
            tr("Sentence BLEU per segment"),
            subtitle=tr("above the diagonal: {b} better; click a point to open its "
                        "segment").format(b=b)))


def bucket_chart(frame: pd.DataFrame, title: str, value_title: str = "BLEU",
                 systems: Sequence[str] | None = None) -> alt.VConcatChart:
    """Score per bucket and system (points) with their 95% bootstrap intervals (rules), and
    below it each bucket's size (bars: segments, or words for word buckets).

    ``frame`` is ``compare.score_by_bucket`` or ``compare.word_accuracy_by_frequency`` output;
    ``systems``: every loaded system, for the colours (default: those of ``frame``).
    """
    data = frame[["system", "bucket", "label", "score", "low", "high"]].copy()
    column = "segments" if "segments" in frame.columns else "words"
    count = tr("segments") if column == "segments" else tr("words")
    rule = SCORE if value_title == "BLEU" else RATIO
    data["count"] = frame[column].to_numpy()
    shown = list(dict.fromkeys(data["system"]))
    labels = list(data.sort_values("bucket")["label"].drop_duplicates())
    color = system_color(shown, systems)
    x = alt.X("label:N", sort=labels, title=None, axis=alt.Axis(labelAngle=0))
    base = alt.Chart(data).encode(x=x, xOffset=alt.XOffset("system:N", sort=shown), color=color)
    tooltip = [alt.Tooltip("system:N", title=tr("system")),
               alt.Tooltip("label:N", title=tr("bucket")),
               alt.Tooltip("score:Q", format=rule.d3, title=value_title),
               alt.Tooltip("low:Q", format=rule.d3, title=tr("95% low")),
               alt.Tooltip("high:Q", format=rule.d3, title=tr("95% high")),
               alt.Tooltip("count:Q", format=COUNT.d3, title=count)]
    points = base.mark_point(filled=True, size=60, opacity=1).encode(
        y=alt.Y("score:Q", title=value_title, scale=alt.Scale(zero=False)), tooltip=tooltip)
    rules = base.mark_rule(strokeWidth=2).encode(y="low:Q", y2="high:Q")
    sizes = base.mark_bar().encode(
        y=alt.Y("count:Q", title=count, axis=alt.Axis(tickCount=3)), tooltip=tooltip,
    ).properties(width=WIDTH, height=70)
    return alt.vconcat(alt.layer(rules, points).properties(width=WIDTH, height=240), sizes,
                       spacing=4).properties(title=title)


def contribution_chart(frame: pd.DataFrame, a: str, b: str,
                       systems: Sequence[str] | None = None) -> alt.Chart:
    """Swap delta of the deciding segments: how A's corpus BLEU moves if it took B's output."""
    data = pd.DataFrame({"id": frame["id"].to_numpy(), "swap": frame[SWAP].to_numpy()})
    data["better"] = np.where(data["swap"] < 0, a, b)
    order = [str(i) for i in data["id"]]
    data["segment"] = order
    return alt.Chart(data).mark_bar().encode(
        y=alt.Y("segment:N", sort=order, title=tr("segment"),
                axis=alt.Axis(labelOverlap=False)),  # every bar named (Vega hid every other)
        x=alt.X("swap:Q", title=tr("change of {a}'s corpus BLEU with {b}'s output there").format(
            a=a, b=b)),
        color=alt.Color("better:N", title=tr("better output"),
                        scale=alt.Scale(domain=[a, b], range=system_colors([a, b], systems))),
        tooltip=[alt.Tooltip("id:Q", title=tr("segment")),
                 alt.Tooltip("swap:Q", format=SMALL_DELTA.d3, title=tr("change of A's BLEU")),
                 alt.Tooltip("better:N", title=tr("better output"))],
    ).properties(height=alt.Step(18),
                 title=tr("Segments that decide {a} vs {b}").format(a=a, b=b))


def document_chart(frame: pd.DataFrame, a: str, b: str,
                   systems: Sequence[str] | None = None) -> alt.Chart:
    """Per-document BLEU of B minus A (``compare.document_scores`` output), one bar a document."""
    data = pd.DataFrame({"document": frame["document"].astype(str).to_numpy(),
                         "segments": frame["segments"].to_numpy(),
                         "diff": (frame[b] - frame[a]).to_numpy()})
    data["better"] = np.where(data["diff"] < 0, a, b)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("document:N", sort=list(data["document"]), title=tr("document"),
                axis=alt.Axis(labels=len(data) <= 60)),
        y=alt.Y("diff:Q", title=f"BLEU {b} − {a}"),
        color=alt.Color("better:N", title=tr("better"),
                        scale=alt.Scale(domain=[a, b], range=system_colors([a, b], systems))),
        tooltip=[alt.Tooltip("document:N", title=tr("document")),
                 alt.Tooltip("segments:Q", format=COUNT.d3, title=tr("segments")),
                 alt.Tooltip("diff:Q", format=DELTA.d3, title=f"{b} − {a}")],
    ).properties(title=tr("Per-document BLEU difference ({b} − {a})").format(a=a, b=b))

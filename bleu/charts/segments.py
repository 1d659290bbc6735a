"""Altair builders for the sentence explorer and the A-versus-B page (pure: data in, chart out).

Each builder first makes a small tidy DataFrame with plain column names (system names may hold
dots or brackets, which Vega-Lite field names would misread), then the chart. The scatter has
one point per segment; outside Streamlit, charts over 5000 rows need
``alt.data_transformers.disable_max_rows()``.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from ..analysis.segments import DOCUMENT, SOURCE, bleu_column, reference_columns

WIDTH = 560
#: the histogram's plot width: with its row labels it fits a half-page column at 1400 px
HISTOGRAM_WIDTH = 330
#: the name of the scatter's point selection: ``event.selection[SEGMENT_SELECTION]``
SEGMENT_SELECTION = "segment"
#: tooltip texts are cut to this many characters (the table shows them whole)
TOOLTIP_CHARS = 300
HISTOGRAM_STEP = 5.0


def _system_color(systems: list[str]) -> alt.Color:
    return alt.Color("system:N", title="System", scale=alt.Scale(domain=systems), sort=systems)


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
    """Histogram of sentence BLEU, one row per system (same bins and axes for every system).

    A faceted chart cannot follow its container's width, so its default fits half of a wide
    page beside the scatter (row labels and axis included)."""
    data = histogram_data(table, systems, step)
    systems = list(systems)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("start:Q", bin="binned", title="sentence BLEU",
                scale=alt.Scale(domain=[0, 100])),
        x2="end:Q",
        y=alt.Y("segments:Q", title="segments"),
        color=_system_color(systems).legend(None),  # each row is labelled with its system
        tooltip=["system:N", alt.Tooltip("start:Q", title="from"),
                 alt.Tooltip("end:Q", title="to"), "segments:Q"],
    ).properties(width=width, height=90).facet(
        row=alt.Row("system:N", sort=systems, title=None)
    ).properties(title="Sentence BLEU per system")


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


def scatter_chart(table: pd.DataFrame, a: str, b: str) -> alt.Chart:
    """Sentence BLEU of A (x) against B (y) with a diagonal; click (shift: add) selects segments.

    The point selection is named ``SEGMENT_SELECTION`` over the field ``id``, so
    ``st.altair_chart(chart, on_select="rerun")`` returns the clicked segments' ids.
    """
    data = scatter_data(table, a, b)
    selection = alt.selection_point(name=SEGMENT_SELECTION, fields=["id"], on="click",
                                    clear="dblclick")
    tooltip = [alt.Tooltip("id:Q", title="segment"),
               alt.Tooltip("a:Q", title=f"BLEU {a}", format=".2f"),
               alt.Tooltip("b:Q", title=f"BLEU {b}", format=".2f")]
    tooltip += [alt.Tooltip(f"{column}:N", title=title) for column, title in (
        ("document", "document"), ("source", "source"), ("reference", "reference"),
        ("output_a", a), ("output_b", b)) if column in data.columns]
    points = alt.Chart(data).mark_circle(size=28).encode(
        x=alt.X("a:Q", title=f"sentence BLEU {a}", scale=alt.Scale(domain=[0, 100])),
        y=alt.Y("b:Q", title=f"sentence BLEU {b}", scale=alt.Scale(domain=[0, 100])),
        color=alt.condition(selection, alt.value("#1f77b4"), alt.value("#bbbbbb")),
        opacity=alt.condition(selection, alt.value(0.8), alt.value(0.35)),
        tooltip=tooltip,
    ).add_params(selection)
    diagonal = alt.Chart(pd.DataFrame({"x": [0, 100], "y": [0, 100]})).mark_line(
        color="#888888", strokeDash=[4, 4]).encode(x="x:Q", y="y:Q")
    return alt.layer(points, diagonal).properties(
        width=WIDTH, height=WIDTH,
        title=f"Sentence BLEU: {b} against {a} (above the diagonal: {b} better)",
    )


def bucket_chart(frame: pd.DataFrame, title: str, value_title: str = "BLEU") -> alt.LayerChart:
    """Score per bucket and system (points) with their 95% bootstrap intervals (rules).

    ``frame`` is ``compare.bleu_by_bucket`` or ``compare.word_accuracy_by_frequency`` output.
    """
    data = frame[["system", "bucket", "label", "score", "low", "high"]].copy()
    count = "segments" if "segments" in frame.columns else "words"
    data["count"] = frame[count].to_numpy()
    systems = list(dict.fromkeys(data["system"]))
    labels = list(data.sort_values("bucket")["label"].drop_duplicates())
    base = alt.Chart(data).encode(
        x=alt.X("label:N", sort=labels, title=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("system:N", sort=systems),
        color=_system_color(systems),
    )
    tooltip = ["system:N", alt.Tooltip("label:N", title="bucket"),
               alt.Tooltip("score:Q", format=".3f", title=value_title),
               alt.Tooltip("low:Q", format=".3f", title="95% low"),
               alt.Tooltip("high:Q", format=".3f", title="95% high"),
               alt.Tooltip("count:Q", title=count)]
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("score:Q", title=value_title), tooltip=tooltip)
    rules = base.mark_rule(strokeWidth=2).encode(y="low:Q", y2="high:Q")
    return alt.layer(rules, points).properties(width=WIDTH, title=title)


def contribution_chart(frame: pd.DataFrame, a: str, b: str) -> alt.Chart:
    """Swap delta of the deciding segments: how A's corpus BLEU moves if it took B's output."""
    data = pd.DataFrame({"id": frame["id"].to_numpy(), "swap": frame["swap"].to_numpy()})
    data["better"] = np.where(data["swap"] < 0, a, b)
    order = [str(i) for i in data["id"]]
    data["segment"] = order
    return alt.Chart(data).mark_bar().encode(
        y=alt.Y("segment:N", sort=order, title="segment"),
        x=alt.X("swap:Q", title=f"change of {a}'s corpus BLEU with {b}'s output there"),
        color=alt.Color("better:N", title="better output",
                        scale=alt.Scale(domain=[a, b], range=["#1f77b4", "#ff7f0e"])),
        tooltip=[alt.Tooltip("id:Q", title="segment"),
                 alt.Tooltip("swap:Q", format=".4f", title="swap delta"), "better:N"],
    ).properties(width=WIDTH, title=f"Segments that decide {a} vs {b}")


def document_chart(frame: pd.DataFrame, a: str, b: str) -> alt.Chart:
    """Per-document BLEU of B minus A (``compare.document_scores`` output), one bar a document."""
    data = pd.DataFrame({"document": frame["document"].astype(str).to_numpy(),
                         "segments": frame["segments"].to_numpy(),
                         "diff": (frame[b] - frame[a]).to_numpy()})
    data["better"] = np.where(data["diff"] < 0, a, b)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("document:N", sort=list(data["document"]), title="document",
                axis=alt.Axis(labels=len(data) <= 60)),
        y=alt.Y("diff:Q", title=f"BLEU {b} − {a}"),
        color=alt.Color("better:N", title="better",
                        scale=alt.Scale(domain=[a, b], range=["#1f77b4", "#ff7f0e"])),
        tooltip=["document:N", "segments:Q", alt.Tooltip("diff:Q", format=".2f")],
    ).properties(width=WIDTH, title=f"Per-document BLEU difference ({b} − {a})")

"""Altair builders for the Blind spots page: a case's metrics side by side, the BLEU bands with
one output's scores under other settings, BLEU against an external score per segment.

Pure functions: frames from ``bleu.teaching.blind_spots``/``interpretation`` in, charts out.
"""

from __future__ import annotations

import math

import altair as alt
import numpy as np
import pandas as pd

from ..display.formatting import CORRELATION, COUNT, PRECISION, SCORE
from ..i18n import tr
from ..teaching.blind_spots import METRIC_COLUMNS
from ..teaching.interpretation import BANDS

WIDTH = 560


def case_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Every metric of every candidate of a case, grouped by metric; each bar labelled with
    its score (1 decimal), so a 0 still shows. TER is an error rate, lower is better: its axis
    label says so with an arrow (a short label, so all five fit on a phone) and the title in
    words."""
    lower = tr("TER ↓")
    data = frame.melt(id_vars=["candidate"], value_vars=list(METRIC_COLUMNS), var_name="metric",
                      value_name="score")
    data["metric"] = data["metric"].replace({"TER": lower})
    data["label"] = [PRECISION.text(v) for v in data.score]
    order = [m if m != "TER" else lower for m in METRIC_COLUMNS]
    base = alt.Chart(data).encode(
        x=alt.X("metric:N", sort=order, title=None, axis=alt.Axis(labelAngle=0, labelLimit=300)),
        xOffset=alt.XOffset("candidate:N", sort=list(frame.candidate)),
        color=alt.Color("candidate:N", sort=list(frame.candidate), title=None,
                        legend=alt.Legend(orient="bottom", labelLimit=400)),
        tooltip=[alt.Tooltip("candidate:N", title=tr("candidate")),
                 alt.Tooltip("metric:N", title=tr("metric")),
                 alt.Tooltip("label:N", title=tr("score"))],
    )
    bars = base.mark_bar().encode(y=alt.Y("score:Q", title=tr("score (0–100)"),
                                          scale=alt.Scale(domain=[0, 105], clamp=True)))
    labels = base.mark_text(baseline="bottom", dy=-2, fontSize=10).encode(
        y=alt.Y("score:Q"), text="label:N")
    title = alt.TitleParams(tr("The same pair under every metric"),
                            subtitle=tr("TER: lower is better"))  # two short lines: a phone
    return alt.layer(bars, labels).properties(title=title, width="container", height=260)


def _bands() -> pd.DataFrame:
    return pd.DataFrame([{"from": b.low, "to": min(b.high, 100.0), "band": b.label,
                          "meaning": tr(b.meaning)} for b in BANDS])


def comparability_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """One output's corpus BLEU under each setting (rows of ``interpretation.comparability``)
    on the quoted bands: the same text lands in different bands."""
    shade = alt.Chart(_bands()).mark_rect(opacity=0.35).encode(
        x=alt.X("from:Q", title=tr("corpus BLEU"), scale=alt.Scale(domain=[0, 100])), x2="to:Q",
        color=alt.Color("band:N", sort=[b.label for b in BANDS], title=tr("band"),
                        scale=alt.Scale(scheme="blues")),
        tooltip=[alt.Tooltip("band:N", title=tr("band")),
                 alt.Tooltip("meaning:N", title=tr("meaning"))])
    data = frame[["setting", "BLEU", "band", "signature"]].assign(
        label=[SCORE.text(v) for v in frame.BLEU])
    y = alt.Y("setting:N", sort=list(frame.setting), title=None)
    points = alt.Chart(data).mark_point(filled=True, size=90, color="black").encode(
        x="BLEU:Q", y=y, tooltip=[alt.Tooltip("setting:N", title=tr("setting")),
                                  alt.Tooltip("label:N", title="BLEU"),
                                  alt.Tooltip("band:N", title=tr("band")),
                                  alt.Tooltip("signature:N", title=tr("signature"))])
    labels = alt.Chart(data).mark_text(align="left", dx=8).encode(x="BLEU:Q", y=y,
                                                                  text="label:N")
    return alt.layer(shade, points, labels).properties(
        title=tr("The same output, other settings: other numbers, other bands"),
        width="container", height=alt.Step(30))


def disagreement_chart(bleu_scores: np.ndarray, external: np.ndarray, picked: pd.DataFrame,
                       label: str) -> alt.LayerChart:
    """Sentence BLEU against an external score per rated segment; the segments of
    ``picked`` (``blind_spots.disagreements``) ringed and numbered."""
    values = np.asarray(external, dtype=float)
    rated = [i for i, v in enumerate(values) if not math.isnan(v)]
    data = pd.DataFrame({"segment": [i + 1 for i in rated],
                         "sentence BLEU": np.asarray(bleu_scores, dtype=float)[rated],
                         "external": values[rated]})
    x = alt.X("sentence BLEU:Q", title=tr("sentence BLEU"),
              scale=alt.Scale(domain=[0, 100], nice=False))  # the scale's own range, not 110
    y = alt.Y("external:Q", title=label, scale=alt.Scale(zero=False))
    dots = alt.Chart(data).mark_circle(size=16, opacity=0.35, color="gray").encode(
        x=x, y=y, tooltip=[alt.Tooltip("segment:Q", format=COUNT.d3, title=tr("segment")),
                           alt.Tooltip("sentence BLEU:Q", format=SCORE.d3,
                                       title=tr("sentence BLEU")),
                           alt.Tooltip("external:Q", format=CORRELATION.d3, title=label)])
    marked = picked[["segment", "sentence BLEU", "external", "direction"]]
    rings = alt.Chart(marked).mark_point(size=140, strokeWidth=2).encode(
        x=x, y=y, color=alt.Color("direction:N", title=None,
                                  legend=alt.Legend(orient="bottom", labelLimit=400)),
        tooltip=[alt.Tooltip("segment:Q", format=COUNT.d3, title=tr("segment")),
                 alt.Tooltip("direction:N", title=tr("direction"))])
    numbers = alt.Chart(marked).mark_text(dx=9, dy=-9, fontSize=11).encode(
        x=x, y=y, text="segment:Q")
    return alt.layer(dots, rings, numbers).properties(
        title=tr("Sentence BLEU against {label}, one point per rated segment").format(
            label=label),
        width="container", height=320)

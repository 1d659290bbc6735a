"""Altair builders for the teaching pages (How BLEU works, brevity penalty, sensitivity).

Pure functions: core results in, ``alt.Chart`` out; every chart's data is a tidy DataFrame built
here from the result, so ``chart.to_dict()`` shows exactly the numbers plotted. The charts How
BLEU works redraws on every typed candidate are also given as parts and a layout
(``X_chart(r) == X_layout(*X_parts(r))``): a layout reads its table only as the chart's data, so
its spec for the same other parts is the same for every table (the app builds it once).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..display.formatting import BP, CORRELATION, COUNT, FACTOR, PRECISION, RATIO, SCORE
from ..explore.sensitivity import MQMCorrelation, TokenizerGrid
from ..i18n import tr
from ..teaching.breakdown import BrevityStep, SmoothingRow, Walkthrough, fmt_score
from ..teaching.brevity import SystemLength, WhatIf, bp_curve, zoom_window

WIDTH = 560


def precisions_chart(walk: Walkthrough) -> alt.LayerChart:
    """p_n per order: the raw credited/total and the value the score uses (after smoothing).

    An undefined p_n (0/0) has no bar; a text mark says "undefined" there, so the chart is
    never empty. Labels are the walkthrough's own texts (the page's rounding).
    """
    return precisions_layout(*precisions_parts(walk))


def precisions_parts(walk: Walkthrough) -> tuple[pd.DataFrame]:
    """``precisions_chart``'s table (its layout takes nothing else)."""
    rows = []
    for s in walk.orders:
        rows.append({"n": s.order, "kind": tr("credited/total"), "percent": s.percent,
                     "label": s.raw_text})
        rows.append({"n": s.order, "kind": tr("used in the score"),
                     "percent": None if s.precision is None else 100 * s.precision,
                     "label": s.used_text})
    return (pd.DataFrame(rows),)


def precisions_layout(data: pd.DataFrame) -> alt.LayerChart:
    """``precisions_chart`` of its table (a layout: the table is only the chart's data)."""
    base = alt.Chart(data).encode(
        x=alt.X("n:O", title=tr("n-gram order n"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("kind:N"),
        color=alt.Color("kind:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=["n:O", alt.Tooltip("kind:N", title=tr("kind")),
                 alt.Tooltip("label:N", title="p_n")],
    )
    bars = base.mark_bar().encode(
        y=alt.Y("percent:Q", title=tr("p_n (%)"), scale=alt.Scale(domain=[0, 100])))
    undefined = base.transform_filter("datum.percent === null").mark_text(
        angle=270, align="left", dx=4, fontSize=11).encode(
        y=alt.datum(0), text=alt.value(tr("undefined")))
    return alt.layer(bars, undefined).properties(title=tr("Modified n-gram precisions"),
                                                 width=WIDTH)


#: where −∞ is drawn on the log-terms chart
LOG_FLOOR = -20.0


def log_terms_chart(walk: Walkthrough) -> alt.LayerChart:
    """w_n·log p_n per order: what each order subtracts from the log of the geometric mean.

    Each bar carries its value as text (the table's rounding): a term of 0 (p_n = 1) or an
    order dropped by effective order still shows a label, so the chart is never blank; −∞ is
    drawn at −20. The y axis always spans at least [−1, 0].
    """
    return log_terms_layout(*log_terms_parts(walk))


def log_terms_parts(walk: Walkthrough) -> tuple[pd.DataFrame, float]:
    """``log_terms_chart``'s table and the bottom of its y axis."""
    rows = []
    for s in walk.orders:
        term = s.weighted_log
        value = 0.0 if term is None else max(term, LOG_FLOOR)
        rows.append({"n": s.order, "w_n·log p_n": value, "label": s.weighted_text,
                     "w_n": s.weight_text, "p_n": s.used_text})
    low = min([LOG_FLOOR if (s.weighted_log or 0) == -math.inf else (s.weighted_log or 0)
               for s in walk.orders] + [-1.0])
    return pd.DataFrame(rows), low


def log_terms_layout(data: pd.DataFrame, low: float) -> alt.LayerChart:
    """``log_terms_chart`` of its table, the y axis from ``low`` (a layout: the table is only
    the chart's data)."""
    y = alt.Y("w_n·log p_n:Q", title=tr("w_n · log p_n (−∞ drawn at −20)"),
              scale=alt.Scale(domain=[low * 1.1, 0], nice=False))
    base = alt.Chart(data).encode(
        x=alt.X("n:O", title=tr("n-gram order n"), axis=alt.Axis(labelAngle=0)),
        tooltip=["n:O", "w_n:N", "p_n:N", alt.Tooltip("label:N", title=tr("w_n·log p_n"))])
    bars = base.mark_bar().encode(y=y)
    labels = base.mark_text(baseline="bottom", dy=-3, fontSize=12).encode(
        y=alt.datum(0), text="label:N")
    return alt.layer(bars, labels).properties(title=tr("Terms of the weighted log sum"),
                                              width=WIDTH)


#: the tops a BLEU axis may have (what Vega's ``nice`` would round most axes to anyway): few,
#: so that the charts' layouts are built once for nearly every typed candidate
SCORE_TOPS = (1.0, 2.0, 5.0, *(10.0 * k for k in range(1, 13)))


def _score_top(scores: Sequence[float]) -> float:
    """The top of a BLEU axis from 0, with room for the bar labels (at least 1.15 times the
    highest score), rounded up to one of ``SCORE_TOPS``: never a single tick, even when every
    score is 0 (an empty candidate)."""
    room = 1.15 * max(scores, default=0.0)
    return next((top for top in SCORE_TOPS if top >= room), room)


def smoothing_chart(rows: Sequence[SmoothingRow]) -> alt.LayerChart:
    """Sentence BLEU under each smoothing method, effective order off and on side by side; each
    bar carries its score (2 decimals), so a score of 0 is still visible."""
    return smoothing_layout(*smoothing_parts(rows))


def smoothing_parts(rows: Sequence[SmoothingRow]) -> tuple[pd.DataFrame, tuple[str, ...], float]:
    """``smoothing_chart``'s table, the order of its methods and the top of its BLEU axis."""
    data = pd.DataFrame([{"smoothing": r.smooth_method,
                          "effective order": tr("on") if r.effective_order else tr("off"),
                          "BLEU": r.score, "label": fmt_score(r.score)} for r in rows])
    return data, tuple(dict.fromkeys(data.smoothing)), _score_top(data.BLEU.tolist())


def smoothing_layout(data: pd.DataFrame, methods: tuple[str, ...],
                     top: float) -> alt.LayerChart:
    """``smoothing_chart`` of its table (a layout: the table is only the chart's data)."""
    base = alt.Chart(data).encode(
        x=alt.X("smoothing:N", sort=list(methods), title=tr("smoothing"),
                axis=alt.Axis(labelAngle=0)),
        xOffset="effective order:N",
        color=alt.Color("effective order:N", title=tr("effective order")),
        tooltip=[alt.Tooltip("smoothing:N", title=tr("smoothing")),
                 alt.Tooltip("effective order:N", title=tr("effective order")),
                 alt.Tooltip("label:N", title="BLEU")],
    )
    bars = base.mark_bar().encode(
        y=alt.Y("BLEU:Q", title=tr("sentence BLEU"), scale=alt.Scale(domain=[0, top])))
    labels = base.mark_text(baseline="bottom", dy=-3).encode(y="BLEU:Q", text="label:N")
    return alt.layer(bars, labels).properties(title=tr("The same sentence under every smoothing"),
                                              width=WIDTH)


def order_sweep_chart(sweep: Sequence[tuple[int, float]]) -> alt.Chart:
    """Sentence BLEU against the maximum n-gram order N (uniform weights)."""
    return order_sweep_layout(*order_sweep_parts(sweep))


def order_sweep_parts(sweep: Sequence[tuple[int, float]]) -> tuple[pd.DataFrame, float]:
    """``order_sweep_chart``'s table and the top of its BLEU axis."""
    data = pd.DataFrame(list(sweep), columns=["N", "BLEU"])
    return data, _score_top(data.BLEU.tolist())


def order_sweep_layout(data: pd.DataFrame, top: float) -> alt.Chart:
    """``order_sweep_chart`` of its table (a layout: the table is only the chart's data)."""
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("N:O", title=tr("max n-gram order N"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("BLEU:Q", title=tr("sentence BLEU"), scale=alt.Scale(domain=[0, top])),
        tooltip=["N:O", alt.Tooltip("BLEU:Q", format=SCORE.d3, title="BLEU")],
    ).properties(title=tr("Effect of N"), width=WIDTH)


def bp_curve_chart(positions: Sequence[SystemLength], *,
                   window: tuple[float, float] | None = None,
                   sentence: BrevityStep | None = None) -> alt.LayerChart:
    """The BP curve e^(1 − r/c) against c/r, with each system's corpus position on it.

    ``window`` zooms the x axis to that c/r range (on the full view that window is shaded);
    ``sentence`` marks one sentence's c/r and BP (a black diamond).
    """
    ratios = [p.ratio for p in positions] or [1.0]
    if sentence is not None and sentence.r:
        ratios.append(sentence.c / sentence.r)
    if window is None:
        low, high = min(0.2, min(ratios) - 0.05), max(1.5, max(ratios) + 0.05)
    else:
        low, high = window
    curve = bp_curve(low=max(low, 1e-3), high=high, points=161)
    x = alt.X("ratio:Q", title=tr("length ratio c/r"), scale=alt.Scale(domain=[low, high],
                                                                    nice=False, zero=False))
    line = alt.Chart(curve).mark_line(color="gray", clip=True).encode(
        x=x, y=alt.Y("bp:Q", title=tr("brevity penalty"), scale=alt.Scale(zero=False)))
    points = pd.DataFrame([{"system": p.system, "ratio": p.ratio, "bp": p.bp, "BLEU": p.score}
                           for p in positions], columns=["system", "ratio", "bp", "BLEU"])
    legend = alt.Legend(orient="bottom", columns=2) if window is None else None
    dots = alt.Chart(points).mark_point(filled=True, size=80 if window is None else 140,
                                        opacity=0.85).encode(
        x="ratio:Q", y="bp:Q", color=alt.Color("system:N", title=tr("System"), legend=legend),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("ratio:Q", format=FACTOR.d3, title="c/r"),
                 alt.Tooltip("bp:Q", format=BP.d3, title="BP"),
                 alt.Tooltip("BLEU:Q", format=SCORE.d3, title="BLEU")],
    )
    layers: list[alt.Chart] = [line, dots]
    if window is None and len(positions):
        zoom = zoom_window(positions)
        layers.insert(0, alt.Chart(pd.DataFrame([{"from": zoom[0], "to": zoom[1]}]))
                      .mark_rect(color="#f2c744", opacity=0.25)
                      .encode(x="from:Q", x2="to:Q"))
    if sentence is not None and sentence.r:
        mark = pd.DataFrame([{"ratio": sentence.c / sentence.r, "bp": sentence.bp,
                              "label": tr("your sentence: c/r = {c}/{r}, BP = {bp}").format(
                                  c=COUNT.text(sentence.c), r=COUNT.text(sentence.r),
                                  bp=BP.text(sentence.bp))}])
        layers.append(alt.Chart(mark).mark_point(shape="diamond", size=160, filled=True,
                                                 color="black").encode(
            x="ratio:Q", y="bp:Q", tooltip=[alt.Tooltip("label:N", title=tr("sentence"))]))
    title = (alt.TitleParams(tr("Zoomed to the systems"), subtitle=tr("hover for names"))
             if window is not None else
             alt.TitleParams(tr("BP = e^(1 − r/c) and the systems"),
                             subtitle=tr("shaded: the zoom; ◆ your sentence")))
    return alt.layer(*layers).properties(
        title=title, width="container", height=260,
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))


def whatif_chart(whatif: WhatIf) -> alt.LayerChart:
    """BLEU and 100·BP against the length ratio as hypotheses are shortened or lengthened;
    dashed: the best BLEU. ``mark_resize`` adds the slider's point to its spec."""
    frame = whatif.frame()
    data = frame.assign(**{"100·BP": 100 * frame.bp}).melt(
        id_vars=["percent", "ratio"], value_vars=["score", "100·BP"], var_name="measure")
    data["measure"] = data["measure"].replace({"score": tr("score")})
    lines = alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("ratio:Q", title=tr("length ratio c/r"), scale=alt.Scale(zero=False),
                axis=alt.Axis(labelFlush=False)),  # end labels centred on their ticks
        y=alt.Y("value:Q", title=tr("BLEU / 100·BP")), color=alt.Color("measure:N", title=None),
        tooltip=[alt.Tooltip("percent:Q", title=tr("resize (%)")),
                 alt.Tooltip("ratio:Q", format=RATIO.d3, title="c/r"),
                 alt.Tooltip("measure:N", title=tr("measure")),
                 alt.Tooltip("value:Q", format=SCORE.d3, title=tr("value"))],
    )
    best = pd.DataFrame([{"ratio": whatif.best.ratio, "score": whatif.best.score,
                          "percent": whatif.best.percent}])
    mark = alt.Chart(best).mark_rule(strokeDash=[4, 4]).encode(
        x="ratio:Q", tooltip=[alt.Tooltip("percent:Q", title=tr("resize (%)")),
                              alt.Tooltip("score:Q", format=SCORE.d3, title="BLEU")])
    return alt.layer(lines, mark).properties(
        title=alt.TitleParams(tr("What if every hypothesis were shorter or longer"),
                              subtitle=tr("dashed: the best BLEU; black: the slider")),
        width=WIDTH)


def mark_resize(spec: dict, whatif: WhatIf, percent: float) -> dict:
    """A copy of a ``whatif_chart`` or ``whatif_precisions_chart`` spec (``to_dict()``) with
    the resize ``percent`` marked: a black rule there, and on the BLEU chart rings on its two
    points. Plain Vega-Lite layers with their own data, so a page can cache the validated
    spec of a system's sweep and mark each slider step for the price of a dict copy."""
    point = next(p for p in whatif.points if p.percent == percent)
    rule = {"type": "rule", "color": "black", "strokeWidth": 2}
    if any(layer.get("encoding", {}).get("x", {}).get("field") == "ratio"
           for layer in spec.get("layer", [])):
        layers = [
            {"mark": rule, "data": {"values": [{"ratio": point.ratio, "percent": percent}]},
             "encoding": {"x": {"field": "ratio", "type": "quantitative"},
                          "tooltip": [{"field": "percent", "type": "quantitative",
                                       "title": tr("slider (%)")}]}},
            {"mark": {"type": "point", "size": 220, "strokeWidth": 3, "color": "black"},
             "data": {"values": [{"ratio": point.ratio, "value": point.score},
                                 {"ratio": point.ratio, "value": 100 * point.bp}]},
             "encoding": {"x": {"field": "ratio", "type": "quantitative"},
                          "y": {"field": "value", "type": "quantitative"}}},
        ]
    else:
        layers = [{"mark": rule, "data": {"values": [{"percent": percent}]},
                   "encoding": {"x": {"field": "percent", "type": "quantitative"}}}]
    return {**spec, "layer": [*spec["layer"], *layers]}


def whatif_precisions_chart(whatif: WhatIf) -> alt.LayerChart:
    """p_n against the resize percentage: shortening raises precision, lengthening lowers it
    (``mark_resize`` adds the slider's rule)."""
    frame = whatif.frame()
    cols = [c for c in frame.columns if c.startswith("p") and c[1:].isdigit()]
    data = frame.melt(id_vars=["percent"], value_vars=cols, var_name="order", value_name="p_n")
    lines = alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("percent:Q", title=tr("resize (% of tokens; negative = shorter)")),
        y=alt.Y("p_n:Q", title=tr("p_n (%)")), color=alt.Color("order:N", title=tr("order")),
        tooltip=[alt.Tooltip("percent:Q", title=tr("resize (%)")),
                 alt.Tooltip("order:N", title=tr("order")),
                 alt.Tooltip("p_n:Q", format=SCORE.d3, title="p_n")],
    )
    return alt.layer(lines).properties(title=tr("Precisions as lengths change"), width=WIDTH)


def buckets_chart(buckets: pd.DataFrame) -> alt.Chart:
    """Length ratio per sentence-length bucket, one line per system; 1 is the reference length."""
    order = list(dict.fromkeys(buckets.bucket))
    return alt.Chart(buckets).mark_line(point=True).encode(
        x=alt.X("bucket:N", sort=order, title=tr("reference length (tokens)"),
                axis=alt.Axis(labelAngle=0)),
        y=alt.Y("ratio:Q", title=tr("length ratio Σc/Σr"), scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title=tr("System")),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("bucket:N", title=tr("bucket")),
                 alt.Tooltip("segments:Q", format=COUNT.d3, title=tr("segments")),
                 alt.Tooltip("ratio:Q", format=RATIO.d3, title=tr("length ratio"))],
    ).properties(title=tr("Length ratio by sentence length"), width=WIDTH)


def tokenizer_grid_chart(grid: TokenizerGrid) -> alt.Chart:
    """BLEU per system for every tokenizer x case: the spread a tokenizer choice makes. Each
    case has its own lane in a system's row (mixed above lowercase), so the two do not pile up;
    the legends sit below, where a short chart cannot cut them off."""
    lowered, mixed = tr("lowercase"), tr("mixed")
    data = grid.cells.assign(case=[lowered if lc else mixed for lc in grid.cells.lowercase])
    data = data[["system", "tokenize", "case", "score", "rank", "signature"]]
    below = alt.Legend(orient="bottom")
    return alt.Chart(data).mark_point(filled=True, size=70).encode(
        x=alt.X("score:Q", title="BLEU", scale=alt.Scale(zero=False)),
        y=alt.Y("system:N", title=None, sort=list(dict.fromkeys(data.system))),
        yOffset=alt.YOffset("case:N", sort=[mixed, lowered]),
        color=alt.Color("tokenize:N", title=tr("tokenizer"), legend=below),
        shape=alt.Shape("case:N", title=tr("case"), legend=below),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("tokenize:N", title=tr("tokenizer")),
                 alt.Tooltip("case:N", title=tr("case")),
                 alt.Tooltip("score:Q", format=SCORE.d3, title="BLEU"),
                 alt.Tooltip("rank:Q", title=tr("rank")),
                 alt.Tooltip("signature:N", title=tr("signature"))],
    ).properties(title=tr("BLEU under every tokenizer and case"), width=WIDTH, height=alt.Step(14))


def mqm_segments_chart(corr: MQMCorrelation) -> alt.Chart:
    """Sentence BLEU against MQM, one point per rated (system, segment)."""
    return alt.Chart(corr.segments).mark_circle(size=18, opacity=0.4).encode(
        x=alt.X("sentence_bleu:Q", title=tr("sentence BLEU")),
        y=alt.Y("mqm:Q", title=tr("MQM (negated; higher is better)")),
        color=alt.Color("system:N", title=tr("System")),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("segment:Q", format=COUNT.d3, title=tr("segment")),
                 alt.Tooltip("sentence_bleu:Q", format=SCORE.d3, title=tr("sentence BLEU")),
                 alt.Tooltip("mqm:Q", format=SCORE.d3, title="MQM")],
    ).properties(title=tr("Segments: Kendall τ = {tau}").format(
        tau=CORRELATION.text(corr.segment_tau)), width=WIDTH)


def mqm_systems_chart(corr: MQMCorrelation) -> alt.Chart:
    """Corpus BLEU against the system MQM score, one point per system."""
    return alt.Chart(corr.systems).mark_point(filled=True, size=90).encode(
        x=alt.X("corpus_bleu:Q", title=tr("corpus BLEU"), scale=alt.Scale(zero=False)),
        y=alt.Y("mqm:Q", title=tr("MQM, mean over rated segments"), scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title=tr("System")),
        tooltip=[alt.Tooltip("system:N", title=tr("system")),
                 alt.Tooltip("corpus_bleu:Q", format=SCORE.d3, title=tr("corpus BLEU")),
                 alt.Tooltip("mqm:Q", format=RATIO.d3, title="MQM")],
    ).properties(title=tr("Systems: Kendall τ = {tau}, Pearson r = {r}").format(
        tau=CORRELATION.text(corr.system_tau), r=CORRELATION.text(corr.system_pearson)),
        width=WIDTH)


def segmentation_chart(table: pd.DataFrame) -> alt.Chart:
    """BLEU of the same unspaced output under each tokenizer."""
    data = table[["tokenize", "score", "tokens per segment"]]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("tokenize:N", sort=list(data.tokenize), title=tr("tokenizer"),
                axis=alt.Axis(labelAngle=0)),
        y=alt.Y("score:Q", title="BLEU"),
        tooltip=[alt.Tooltip("tokenize:N", title=tr("tokenizer")),
                 alt.Tooltip("score:Q", format=SCORE.d3, title="BLEU"),
                 alt.Tooltip("tokens per segment:Q", format=PRECISION.d3,
                             title=tr("tokens per segment"))],
    ).properties(title=tr("One output, three segmentations"), width=WIDTH)

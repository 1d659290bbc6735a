"""Altair builders for the teaching pages (How BLEU works, brevity penalty, sensitivity).

Pure functions: core results in, ``alt.Chart`` out; every chart's data is a tidy DataFrame built
here from the result, so ``chart.to_dict()`` shows exactly the numbers plotted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..analysis.brevity import SystemLength, WhatIf, bp_curve, zoom_window
from ..analysis.formatting import CORRELATION, FACTOR
from ..analysis.sensitivity import MQMCorrelation, TokenizerGrid
from ..analysis.teaching import BrevityStep, SmoothingRow, Walkthrough, fmt_score
from ..i18n import tr

WIDTH = 560


def precisions_chart(walk: Walkthrough) -> alt.LayerChart:
    """p_n per order: the raw credited/total and the value the score uses (after smoothing).

    An undefined p_n (0/0) has no bar; a text mark says "undefined" there, so the chart is
    never empty. Labels are the walkthrough's own texts (the page's rounding).
    """
    rows = []
    for s in walk.orders:
        rows.append({"n": s.order, "kind": "credited/total", "percent": s.percent,
                     "label": s.raw_text})
        rows.append({"n": s.order, "kind": "used in the score",
                     "percent": None if s.precision is None else 100 * s.precision,
                     "label": s.used_text})
    data = pd.DataFrame(rows)
    base = alt.Chart(data).encode(
        x=alt.X("n:O", title=tr("n-gram order n"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("kind:N"),
        color=alt.Color("kind:N", title=None, legend=alt.Legend(orient="bottom")),
        tooltip=["n:O", "kind:N", alt.Tooltip("label:N", title=tr("p_n"))],
    )
    bars = base.mark_bar().encode(
        y=alt.Y("percent:Q", title=tr("p_n (%)"), scale=alt.Scale(domain=[0, 100])))
    undefined = base.transform_filter("datum.percent === null").mark_text(
        angle=270, align="left", dx=4, fontSize=11).encode(
        y=alt.datum(0), text=alt.value("undefined"))
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
    rows = []
    for s in walk.orders:
        term = s.weighted_log
        value = 0.0 if term is None else max(term, LOG_FLOOR)
        rows.append({"n": s.order, "w_n·log p_n": value, "label": s.weighted_text,
                     "w_n": s.weight_text, "p_n": s.used_text})
    data = pd.DataFrame(rows)
    low = min([LOG_FLOOR if (s.weighted_log or 0) == -math.inf else (s.weighted_log or 0)
               for s in walk.orders] + [-1.0])
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


def _score_scale(scores: Sequence[float]) -> alt.Scale:
    """A BLEU axis from 0 with room for the bar labels: never a single tick, even when every
    score is 0 (an empty candidate)."""
    return alt.Scale(domain=[0, max(1.0, 1.15 * max(scores, default=0.0))])


def smoothing_chart(rows: Sequence[SmoothingRow]) -> alt.LayerChart:
    """Sentence BLEU under each smoothing method, effective order off and on side by side; each
    bar carries its score (2 decimals), so a score of 0 is still visible."""
    data = pd.DataFrame([{"smoothing": r.smooth_method,
                          "effective order": "on" if r.effective_order else "off",
                          "BLEU": r.score, "label": fmt_score(r.score)} for r in rows])
    base = alt.Chart(data).encode(
        x=alt.X("smoothing:N", sort=list(dict.fromkeys(data.smoothing)), title=tr("smoothing"),
                axis=alt.Axis(labelAngle=0)),
        xOffset="effective order:N",
        color=alt.Color("effective order:N"),
        tooltip=["smoothing:N", "effective order:N", alt.Tooltip("label:N", title=tr("BLEU"))],
    )
    bars = base.mark_bar().encode(
        y=alt.Y("BLEU:Q", title=tr("sentence BLEU"), scale=_score_scale(data.BLEU.tolist())))
    labels = base.mark_text(baseline="bottom", dy=-3).encode(y="BLEU:Q", text="label:N")
    return alt.layer(bars, labels).properties(title=tr("The same sentence under every smoothing"),
                                              width=WIDTH)


def order_sweep_chart(sweep: Sequence[tuple[int, float]]) -> alt.Chart:
    """Sentence BLEU against the maximum n-gram order N (uniform weights)."""
    data = pd.DataFrame(list(sweep), columns=["N", "BLEU"])
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("N:O", title=tr("max n-gram order N"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("BLEU:Q", title=tr("sentence BLEU"), scale=_score_scale(data.BLEU.tolist())),
        tooltip=["N:O", alt.Tooltip("BLEU:Q", format=".2f")],
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
        tooltip=["system:N", alt.Tooltip("ratio:Q", format=".4f"),
                 alt.Tooltip("bp:Q", format=".4f"), alt.Tooltip("BLEU:Q", format=".2f")],
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
                                  c=sentence.c, r=sentence.r, bp=FACTOR.text(sentence.bp))}])
        layers.append(alt.Chart(mark).mark_point(shape="diamond", size=160, filled=True,
                                                 color="black").encode(
            x="ratio:Q", y="bp:Q", tooltip=["label:N"]))
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
    lines = alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("ratio:Q", title=tr("length ratio c/r"), scale=alt.Scale(zero=False),
                axis=alt.Axis(labelFlush=False)),  # end labels centred on their ticks
        y=alt.Y("value:Q", title=tr("BLEU / 100·BP")), color=alt.Color("measure:N", title=None),
        tooltip=["percent:Q", alt.Tooltip("ratio:Q", format=".3f"), "measure:N",
                 alt.Tooltip("value:Q", format=".2f")],
    )
    best = pd.DataFrame([{"ratio": whatif.best.ratio, "score": whatif.best.score,
                          "percent": whatif.best.percent}])
    mark = alt.Chart(best).mark_rule(strokeDash=[4, 4]).encode(
        x="ratio:Q", tooltip=["percent:Q", alt.Tooltip("score:Q", format=".2f")])
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
                                       "title": "slider (%)"}]}},
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
        tooltip=["percent:Q", "order:N", alt.Tooltip("p_n:Q", format=".2f")],
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
        tooltip=["system:N", "bucket:N", "segments:Q", alt.Tooltip("ratio:Q", format=".3f")],
    ).properties(title=tr("Length ratio by sentence length"), width=WIDTH)


def tokenizer_grid_chart(grid: TokenizerGrid) -> alt.Chart:
    """BLEU per system for every tokenizer x case: the spread a tokenizer choice makes. Each
    case has its own lane in a system's row (mixed above lowercase), so the two do not pile up;
    the legends sit below, where a short chart cannot cut them off."""
    data = grid.cells.assign(case=["lowercase" if lc else "mixed" for lc in grid.cells.lowercase])
    data = data[["system", "tokenize", "case", "score", "rank", "signature"]]
    below = alt.Legend(orient="bottom")
    return alt.Chart(data).mark_point(filled=True, size=70).encode(
        x=alt.X("score:Q", title=tr("BLEU"), scale=alt.Scale(zero=False)),
        y=alt.Y("system:N", title=None, sort=list(dict.fromkeys(data.system))),
        yOffset=alt.YOffset("case:N", sort=["mixed", "lowercase"]),
        color=alt.Color("tokenize:N", title=tr("tokenizer"), legend=below),
        shape=alt.Shape("case:N", title=tr("case"), legend=below),
        tooltip=["system:N", "tokenize:N", "case:N", alt.Tooltip("score:Q", format=".2f"),
                 "rank:Q", "signature:N"],
    ).properties(title=tr("BLEU under every tokenizer and case"), width=WIDTH, height=alt.Step(14))


def mqm_segments_chart(corr: MQMCorrelation) -> alt.Chart:
    """Sentence BLEU against MQM, one point per rated (system, segment)."""
    return alt.Chart(corr.segments).mark_circle(size=18, opacity=0.4).encode(
        x=alt.X("sentence_bleu:Q", title=tr("sentence BLEU")),
        y=alt.Y("mqm:Q", title=tr("MQM (negated; higher is better)")),
        color=alt.Color("system:N", title=tr("System")),
        tooltip=["system:N", "segment:Q", alt.Tooltip("sentence_bleu:Q", format=".2f"),
                 alt.Tooltip("mqm:Q", format=".2f")],
    ).properties(title=tr("Segments: Kendall τ = {tau}").format(
        tau=CORRELATION.text(corr.segment_tau)), width=WIDTH)


def mqm_systems_chart(corr: MQMCorrelation) -> alt.Chart:
    """Corpus BLEU against the system MQM score, one point per system."""
    return alt.Chart(corr.systems).mark_point(filled=True, size=90).encode(
        x=alt.X("corpus_bleu:Q", title=tr("corpus BLEU"), scale=alt.Scale(zero=False)),
        y=alt.Y("mqm:Q", title=tr("MQM, mean over rated segments"), scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title=tr("System")),
        tooltip=["system:N", alt.Tooltip("corpus_bleu:Q", format=".2f"),
                 alt.Tooltip("mqm:Q", format=".3f")],
    ).properties(title=tr("Systems: Kendall τ = {tau}, Pearson r = {r}").format(
        tau=CORRELATION.text(corr.system_tau), r=CORRELATION.text(corr.system_pearson)),
        width=WIDTH)


def segmentation_chart(table: pd.DataFrame) -> alt.Chart:
    """BLEU of the same unspaced output under each tokenizer."""
    data = table[["tokenize", "score", "tokens per segment"]]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("tokenize:N", sort=list(data.tokenize), title=tr("tokenizer"),
                axis=alt.Axis(labelAngle=0)),
        y=alt.Y("score:Q", title=tr("BLEU")),
        tooltip=["tokenize:N", alt.Tooltip("score:Q", format=".2f"),
                 alt.Tooltip("tokens per segment:Q", format=".1f")],
    ).properties(title=tr("One output, three segmentations"), width=WIDTH)

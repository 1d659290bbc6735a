"""Altair builders for the teaching pages (How BLEU works, brevity penalty, sensitivity).

Pure functions: core results in, ``alt.Chart`` out; every chart's data is a tidy DataFrame built
here from the result, so ``chart.to_dict()`` shows exactly the numbers plotted.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..analysis.brevity import SystemLength, WhatIf, bp_curve
from ..analysis.sensitivity import MQMCorrelation, TokenizerGrid
from ..analysis.teaching import SmoothingRow, Walkthrough

WIDTH = 560


def precisions_chart(walk: Walkthrough) -> alt.Chart:
    """p_n per order: the raw credited/total and the value the score uses (after smoothing)."""
    rows = []
    for s in walk.orders:
        rows.append({"n": s.order, "kind": "credited/total", "percent": s.percent,
                     "label": s.fraction})
        rows.append({"n": s.order, "kind": "used in the score", "percent": 100 * s.precision,
                     "label": s.note})
    return alt.Chart(pd.DataFrame(rows)).mark_bar().encode(
        x=alt.X("n:O", title="n-gram order n"),
        xOffset="kind:N",
        y=alt.Y("percent:Q", title="p_n (%)", scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("kind:N", title=None),
        tooltip=["n:O", "kind:N", alt.Tooltip("percent:Q", format=".2f"), "label:N"],
    ).properties(title="Modified n-gram precisions", width=WIDTH)


def log_terms_chart(walk: Walkthrough) -> alt.Chart:
    """w_n·log p_n per order: what each order subtracts from the log of the geometric mean."""
    data = pd.DataFrame({
        "n": [s.order for s in walk.orders],
        "w_n·log p_n": [max(s.weighted_log, -20.0) for s in walk.orders],
        "w_n": [s.weight for s in walk.orders],
        "p_n": [s.precision for s in walk.orders],
    })
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("n:O", title="n-gram order n"),
        y=alt.Y("w_n·log p_n:Q", title="w_n · log p_n (−∞ drawn at −20)"),
        tooltip=["n:O", alt.Tooltip("w_n:Q", format=".4f"), alt.Tooltip("p_n:Q", format=".4f"),
                 alt.Tooltip("w_n·log p_n:Q", format=".4f")],
    ).properties(title="Terms of the weighted log sum", width=WIDTH)


def smoothing_chart(rows: Sequence[SmoothingRow]) -> alt.Chart:
    """Sentence BLEU under each smoothing method, effective order off and on side by side."""
    data = pd.DataFrame([{"smoothing": r.smooth_method,
                          "effective order": "on" if r.effective_order else "off",
                          "BLEU": r.score} for r in rows])
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("smoothing:N", sort=list(dict.fromkeys(data.smoothing)), title="smoothing"),
        xOffset="effective order:N",
        y=alt.Y("BLEU:Q", title="sentence BLEU"),
        color=alt.Color("effective order:N"),
        tooltip=["smoothing:N", "effective order:N", alt.Tooltip("BLEU:Q", format=".2f")],
    ).properties(title="The same sentence under every smoothing", width=WIDTH)


def order_sweep_chart(sweep: Sequence[tuple[int, float]]) -> alt.Chart:
    """Sentence BLEU against the maximum n-gram order N (uniform weights)."""
    data = pd.DataFrame(list(sweep), columns=["N", "BLEU"])
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("N:O", title="max n-gram order N"), y=alt.Y("BLEU:Q", title="sentence BLEU"),
        tooltip=["N:O", alt.Tooltip("BLEU:Q", format=".2f")],
    ).properties(title="Effect of N", width=WIDTH)


def bp_curve_chart(positions: Sequence[SystemLength]) -> alt.LayerChart:
    """The BP curve e^(1 − r/c) against c/r, with each system's corpus position on it."""
    ratios = [p.ratio for p in positions] or [1.0]
    curve = bp_curve(low=min(0.2, min(ratios) - 0.05), high=max(1.5, max(ratios) + 0.05))
    line = alt.Chart(curve).mark_line(color="gray").encode(
        x=alt.X("ratio:Q", title="length ratio c/r"), y=alt.Y("bp:Q", title="brevity penalty"),
    )
    points = pd.DataFrame([{"system": p.system, "ratio": p.ratio, "bp": p.bp, "BLEU": p.score}
                           for p in positions], columns=["system", "ratio", "bp", "BLEU"])
    dots = alt.Chart(points).mark_point(filled=True, size=80).encode(
        x="ratio:Q", y="bp:Q", color=alt.Color("system:N", title="System"),
        tooltip=["system:N", alt.Tooltip("ratio:Q", format=".4f"),
                 alt.Tooltip("bp:Q", format=".4f"), alt.Tooltip("BLEU:Q", format=".2f")],
    )
    return alt.layer(line, dots).properties(title="BP = e^(1 − r/c) and the systems",
                                            width=WIDTH)


def whatif_chart(whatif: WhatIf) -> alt.LayerChart:
    """BLEU and 100·BP against the length ratio as hypotheses are shortened or lengthened."""
    frame = whatif.frame()
    data = frame.assign(**{"100·BP": 100 * frame.bp}).melt(
        id_vars=["percent", "ratio"], value_vars=["score", "100·BP"], var_name="measure")
    lines = alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("ratio:Q", title="length ratio c/r", scale=alt.Scale(zero=False)),
        y=alt.Y("value:Q", title="BLEU / 100·BP"), color=alt.Color("measure:N", title=None),
        tooltip=["percent:Q", alt.Tooltip("ratio:Q", format=".3f"), "measure:N",
                 alt.Tooltip("value:Q", format=".2f")],
    )
    best = pd.DataFrame([{"ratio": whatif.best.ratio, "score": whatif.best.score,
                          "percent": whatif.best.percent}])
    mark = alt.Chart(best).mark_rule(strokeDash=[4, 4]).encode(
        x="ratio:Q", tooltip=["percent:Q", alt.Tooltip("score:Q", format=".2f")])
    return alt.layer(lines, mark).properties(
        title="What if every hypothesis were shorter or longer (dashed: best BLEU)", width=WIDTH)


def whatif_precisions_chart(whatif: WhatIf) -> alt.Chart:
    """p_n against the resize percentage: shortening raises precision, lengthening lowers it."""
    frame = whatif.frame()
    cols = [c for c in frame.columns if c.startswith("p") and c[1:].isdigit()]
    data = frame.melt(id_vars=["percent"], value_vars=cols, var_name="order", value_name="p_n")
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("percent:Q", title="resize (% of tokens; negative = shorter)"),
        y=alt.Y("p_n:Q", title="p_n (%)"), color=alt.Color("order:N", title="order"),
        tooltip=["percent:Q", "order:N", alt.Tooltip("p_n:Q", format=".2f")],
    ).properties(title="Precisions as lengths change", width=WIDTH)


def buckets_chart(buckets: pd.DataFrame) -> alt.Chart:
    """Length ratio per sentence-length bucket, one line per system; 1 is the reference length."""
    order = list(dict.fromkeys(buckets.bucket))
    return alt.Chart(buckets).mark_line(point=True).encode(
        x=alt.X("bucket:N", sort=order, title="reference length (tokens)"),
        y=alt.Y("ratio:Q", title="length ratio Σc/Σr", scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title="System"),
        tooltip=["system:N", "bucket:N", "segments:Q", alt.Tooltip("ratio:Q", format=".3f")],
    ).properties(title="Length ratio by sentence length", width=WIDTH)


def tokenizer_grid_chart(grid: TokenizerGrid) -> alt.Chart:
    """BLEU per system for every tokenizer x case: the spread a tokenizer choice makes."""
    data = grid.cells.assign(case=["lowercase" if lc else "mixed" for lc in grid.cells.lowercase])
    data = data[["system", "tokenize", "case", "score", "rank", "signature"]]
    return alt.Chart(data).mark_point(filled=True, size=70).encode(
        x=alt.X("score:Q", title="BLEU", scale=alt.Scale(zero=False)),
        y=alt.Y("system:N", title=None, sort=list(dict.fromkeys(data.system))),
        color=alt.Color("tokenize:N", title="tokenizer"),
        shape=alt.Shape("case:N", title="case"),
        tooltip=["system:N", "tokenize:N", "case:N", alt.Tooltip("score:Q", format=".2f"),
                 "rank:Q", "signature:N"],
    ).properties(title="BLEU under every tokenizer and case", width=WIDTH)


def mqm_segments_chart(corr: MQMCorrelation) -> alt.Chart:
    """Sentence BLEU against MQM, one point per rated (system, segment)."""
    return alt.Chart(corr.segments).mark_circle(size=18, opacity=0.4).encode(
        x=alt.X("sentence_bleu:Q", title="sentence BLEU"),
        y=alt.Y("mqm:Q", title="MQM (negated; higher is better)"),
        color=alt.Color("system:N", title="System"),
        tooltip=["system:N", "segment:Q", alt.Tooltip("sentence_bleu:Q", format=".2f"),
                 alt.Tooltip("mqm:Q", format=".2f")],
    ).properties(title=f"Segments: Kendall τ = {corr.segment_tau:.3f}", width=WIDTH)


def mqm_systems_chart(corr: MQMCorrelation) -> alt.Chart:
    """Corpus BLEU against the system MQM score, one point per system."""
    return alt.Chart(corr.systems).mark_point(filled=True, size=90).encode(
        x=alt.X("corpus_bleu:Q", title="corpus BLEU", scale=alt.Scale(zero=False)),
        y=alt.Y("mqm:Q", title="MQM, mean over rated segments", scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title="System"),
        tooltip=["system:N", alt.Tooltip("corpus_bleu:Q", format=".2f"),
                 alt.Tooltip("mqm:Q", format=".3f")],
    ).properties(title=f"Systems: Kendall τ = {corr.system_tau:.3f}, "
                       f"Pearson r = {corr.system_pearson:.3f}", width=WIDTH)


def segmentation_chart(table: pd.DataFrame) -> alt.Chart:
    """BLEU of the same unspaced output under each tokenizer."""
    data = table[["tokenize", "score", "tokens per segment"]]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("tokenize:N", sort=list(data.tokenize), title="tokenizer"),
        y=alt.Y("score:Q", title="BLEU"),
        tooltip=["tokenize:N", alt.Tooltip("score:Q", format=".2f"),
                 alt.Tooltip("tokens per segment:Q", format=".1f")],
    ).properties(title="One output, three segmentations", width=WIDTH)

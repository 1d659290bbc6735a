"""Brevity penalty explorer: your own sentence, the BP curve (zoomed where the systems are),
what-ifs on length. Each part is a fragment: a slider step reruns its part only, on cached
statistics."""

import pandas as pd
import streamlit as st

from bleu.analysis.brevity import (
    SWEEP,
    length_buckets,
    length_whatif,
    positions_from_stats,
    sentence_brevity,
    zoom_window,
)
from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import COUNT, FACTOR, SCORE, SMALL_DELTA, Column, metric_delta
from bleu.analysis.teaching import fmt_factor, fmt_score
from bleu.charts import teaching as charts
from bleu.errors import InputError
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import BLEUOptions
from bleu_app.views import _cache, _charts, _metrics, _session, _state, _tables

OWN_CANDIDATE, OWN_REFERENCES = "bp_candidate", "bp_references"
st.session_state.setdefault(OWN_CANDIDATE, "the cat sat")
st.session_state.setdefault(OWN_REFERENCES, "the cat sat on the mat")


#: BP and c/r with the 4 decimals of the page's metrics; scores and counts by the app's rule
POSITION_COLUMNS = {"c": Column(COUNT, help="Hypothesis tokens of the whole corpus"),
                    "r": Column(COUNT, help="Closest reference lengths, summed"),
                    "c/r": Column(FACTOR), "BP": Column(FACTOR), "BLEU": Column(SCORE)}


@st.cache_data(max_entries=32, show_spinner="Resizing every hypothesis…",
               hash_funcs=_cache.HASH_FUNCS)
def _whatif(system: TextFile, references: tuple[TextFile, ...], opts: BLEUOptions):
    return length_whatif(system.segments, [ref.segments for ref in references], SWEEP,
                         tokenize=opts.tokenize,
                         lowercase=opts.lowercase, smooth_method=opts.smooth_method,
                         smooth_value=opts.smooth_value, max_ngram_order=opts.max_ngram_order,
                         effective_order=opts.effective_order)


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _whatif_specs(system: TextFile, references: tuple[TextFile, ...],
                  opts: BLEUOptions) -> tuple[dict, dict]:
    """The two what-if charts of a system as validated Vega-Lite specs, built once: a slider
    step only adds its marker (``charts.mark_resize``)."""
    found = _whatif(system, references, opts)
    return (charts.whatif_chart(found).to_dict(),
            charts.whatif_precisions_chart(found).to_dict())


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _buckets(data: Dataset, opts: BLEUOptions):
    return length_buckets({name: file.segments for name, file in data.systems.items()},
                          data.reference_streams, tokenize=opts.tokenize,
                          lowercase=opts.lowercase)


@st.fragment
def curve(data: Dataset, opts: BLEUOptions) -> None:
    """Your own sentence in a box, and the BP curve with it and every system on it."""
    with st.container(border=True):
        st.markdown("**Your own sentence**: its c, r and BP, marked ◆ on the curve below")
        left, right = st.columns(2)
        candidate = left.text_area("Candidate", key=OWN_CANDIDATE, height=80)
        references = [line for line in right.text_area(
            "References, one per line", key=OWN_REFERENCES, height=80).splitlines()
            if line.strip()]
        try:
            own = sentence_brevity(candidate, references, tokenize=opts.tokenize,
                                   lowercase=opts.lowercase)
        except InputError as error:
            st.error(escape_markdown(str(error)))
            own = None
        if own is not None:
            m1, m2, m3, m4 = st.columns(4)
            m1.metric("Your c (candidate tokens)", own.c)
            m2.metric("Your r (closest reference)", own.r)
            m3.metric("Your c/r", f"{own.c / own.r:.4f}" if own.r else "—")
            m4.metric("Your BP", fmt_factor(own.bp))
            st.caption(escape_markdown(own.reason))

    positions = positions_from_stats(_metrics.bleu_stats(data), opts)
    full, zoomed = st.columns(2)
    _charts.show(full, charts.bp_curve_chart(positions, sentence=own), width="stretch",
                      key="bp_curve_chart")
    _charts.show(zoomed, charts.bp_curve_chart(positions, window=zoom_window(positions)),
                        width="stretch", key="bp_zoom_chart")
    _tables.show(pd.DataFrame([{
        "system": p.system, "c": p.sys_len, "r": p.ref_len, "c/r": p.ratio, "BP": p.bp,
        "BLEU": p.score} for p in positions]), POSITION_COLUMNS, key="bp_positions")


@st.fragment
def whatif(data: Dataset, opts: BLEUOptions) -> None:
    """One system's corpus BLEU with every hypothesis resized; the slider's point marked."""
    st.header("What if every hypothesis were shorter or longer?")
    st.caption("Dropping (or repeating) the final tokens of every hypothesis, on tokens after "
               "tokenization; the resized text is scored with tokenize=none, so the statistics "
               "are exact. The whole sweep is computed once per system and cached: moving the "
               "slider only picks a point.")
    w1, w2 = st.columns(2)
    system = w1.selectbox("System", list(data.systems), format_func=show_controls, key="bp_system")
    percent = w2.slider("Resize every hypothesis by (%)", min(SWEEP), max(SWEEP), 0, step=5,
                        key="bp_percent")
    found = _whatif(data.systems[system], data.references, opts)
    point = next(p for p in found.points if p.percent == percent)
    base = found.baseline
    m1, m2, m3 = st.columns(3)
    m1.metric("BLEU", fmt_score(point.score), **metric_delta(point.score - base.score))
    m2.metric("BP", fmt_factor(point.bp), **metric_delta(point.bp - base.bp, SMALL_DELTA))
    m3.metric("c/r", f"{point.ratio:.4f}")
    rows = [{"": label, **{f"p_{n} (%)": p for n, p in enumerate(found_at.precisions, start=1)}}
            for label, found_at in (("now", point), ("at 0 %", base))]
    _tables.show(pd.DataFrame(rows), {name: Column(SCORE) for name in rows[0] if name},
                 key="bp_precisions")
    best = found.best
    if best.percent < 0:
        st.info(f"Shortening pays until {best.percent:+.0f}% (c/r = {best.ratio:.3f}, BLEU "
                f"{best.score:.2f} against {base.score:.2f}); beyond that, BP costs more than "
                "the precisions gain.")
    else:
        st.info(f"Shortening does not pay for this system: the best BLEU in the sweep is at "
                f"{best.percent:+.0f}% (c/r = {best.ratio:.3f}, BLEU {best.score:.2f}).")
    bleu_spec, precisions_spec = _whatif_specs(data.systems[system], data.references, opts)
    st.vega_lite_chart(charts.mark_resize(bleu_spec, found, percent), key="bp_whatif_chart")
    st.vega_lite_chart(charts.mark_resize(precisions_spec, found, percent),
                       key="bp_whatif_precisions")


data, opts = _session.dataset(), _state.options()
st.title("Brevity penalty")
st.caption("BLEU's precisions reward short output; the brevity penalty BP = e^(1 − r/c) for "
           "c < r takes that back. c: the hypothesis tokens, r: the closest reference lengths "
           f"(tokenizer {opts.tokenize}, from the sidebar).")
curve(data, opts)
whatif(data, opts)

st.header("Length ratio by sentence length")
st.caption("Segments grouped by the token length of their first reference; the ratio is Σc/Σr "
           "over the group.")
buckets = _buckets(data, opts)
_charts.show(st, charts.buckets_chart(buckets), key="bp_buckets_chart")
_tables.show(buckets, {"segments": Column(COUNT), "sys_len": Column(COUNT),
                       "ref_len": Column(COUNT), "ratio": Column(FACTOR), "bp": Column(FACTOR)},
             key="bp_buckets")

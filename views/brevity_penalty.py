"""Brevity penalty explorer: the BP curve, where systems sit, and what-ifs on length."""

import streamlit as st

from bleu.analysis.brevity import SWEEP, length_buckets, length_whatif, positions_from_stats
from bleu.charts import teaching as charts
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu_score import BLEUOptions
from views import _compute, _session, _state


@st.cache_data(max_entries=32, show_spinner="Resizing every hypothesis…",
               hash_funcs=_compute.HASH_FUNCS)
def _whatif(system: TextFile, references: tuple[TextFile, ...], opts: BLEUOptions):
    return length_whatif(system.segments, [ref.segments for ref in references], SWEEP,
                         tokenize=opts.tokenize,
                         lowercase=opts.lowercase, smooth_method=opts.smooth_method,
                         smooth_value=opts.smooth_value, max_ngram_order=opts.max_ngram_order,
                         effective_order=opts.effective_order)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _buckets(data: Dataset, opts: BLEUOptions):
    return length_buckets({name: file.segments for name, file in data.systems.items()},
                          data.reference_streams, tokenize=opts.tokenize,
                          lowercase=opts.lowercase)


data, opts = _session.dataset(), _state.options()
st.title("Brevity penalty")
st.caption("BLEU's precisions reward short output; the brevity penalty BP = e^(1 − r/c) for "
           "c < r takes that back. c: the hypothesis tokens, r: the closest reference lengths.")

positions = positions_from_stats(_compute.system_stats(data, opts), opts)
st.altair_chart(charts.bp_curve_chart(positions), key="bp_curve_chart")
st.dataframe([{"system": p.system, "c": p.sys_len, "r": p.ref_len, "c/r": round(p.ratio, 4),
               "BP": round(p.bp, 4), "BLEU": round(p.score, 2)} for p in positions],
             hide_index=True, key="bp_positions")

st.header("What if every hypothesis were shorter or longer?")
st.caption("Dropping (or repeating) the final tokens of every hypothesis, on tokens after "
           "tokenization; the resized text is scored with tokenize=none, so the statistics "
           "are exact.")
w1, w2 = st.columns(2)
system = w1.selectbox("System", list(data.systems), key="bp_system")
percent = w2.slider("Resize every hypothesis by (%)", min(SWEEP), max(SWEEP), 0, step=5,
                    key="bp_percent")
whatif = _whatif(data.systems[system], data.references, opts)
point = next(p for p in whatif.points if p.percent == percent)
base = whatif.baseline
m1, m2, m3, m4 = st.columns(4)
m1.metric("BLEU", f"{point.score:.2f}", delta=f"{point.score - base.score:+.2f}")
m2.metric("BP", f"{point.bp:.4f}", delta=f"{point.bp - base.bp:+.4f}")
m3.metric("c/r", f"{point.ratio:.4f}")
m4.metric("p_n (%)", " / ".join(f"{p:.1f}" for p in point.precisions))
best = whatif.best
if best.percent < 0:
    st.info(f"Shortening pays until {best.percent:+.0f}% (c/r = {best.ratio:.3f}, BLEU "
            f"{best.score:.2f} against {base.score:.2f}); beyond that, BP costs more than the "
            "precisions gain.")
else:
    st.info(f"Shortening does not pay for this system: the best BLEU in the sweep is at "
            f"{best.percent:+.0f}% (c/r = {best.ratio:.3f}, BLEU {best.score:.2f}).")
st.altair_chart(charts.whatif_chart(whatif), key="bp_whatif_chart")
st.altair_chart(charts.whatif_precisions_chart(whatif), key="bp_whatif_precisions")

st.header("Length ratio by sentence length")
st.caption("Segments grouped by the token length of their first reference; the ratio is Σc/Σr "
           "over the group.")
buckets = _buckets(data, opts)
st.altair_chart(charts.buckets_chart(buckets), key="bp_buckets_chart")
st.dataframe(buckets, hide_index=True, key="bp_buckets")

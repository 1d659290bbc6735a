"""What decides A vs B: segment contributions, n-gram differences, buckets, documents."""

import numpy as np
import streamlit as st

from bleu.analysis import compare
from bleu.analysis.escaping import escape_markdown
from bleu.analysis.segments import SegmentFilter, bleu_column, filter_segments
from bleu.charts import segments as charts_segments
from bleu.metrics.bleu_score import scores_from_stats
from views import _compute, _explore, _session, _state

data = _session.dataset()
options = _state.options()
st.title("Compare two systems")
a, b = _explore.pair_picker("compare", list(data.systems))
if a == b:
    st.warning("Pick two different systems to compare.")
    st.stop()
sentence = _explore.sentence_smoothing()
stats = _compute.system_stats(data, options)
table = _explore.table(data, sentence, (a, b))
n_samples = int(st.session_state.get("n_bootstrap", 1000))

contrib = compare.contributions(stats[a], stats[b], options)
score_a, score_b = (float(s) for s in scores_from_stats(
    np.stack([stats[a].sum(axis=0), stats[b].sum(axis=0)]), options))
m1, m2, m3 = st.columns(3)
m1.metric(f"BLEU {a}", f"{score_a:.2f}")
m2.metric(f"BLEU {b}", f"{score_b:.2f}")
m3.metric("A − B", f"{score_a - score_b:+.2f}")

st.subheader("Segments that decide the comparison")
st.caption(escape_markdown(
    f"swap: how {a}'s corpus BLEU changes if this one segment took {b}'s output (negative: "
    f"{a}'s output is better there). loo: corpus BLEU without the segment, minus corpus BLEU. "
    "All from sums of the statistics matrix, no rescoring."))
k = st.slider("Segments shown", 5, 100, 20, key="deciding_k")
deciding = compare.deciding_segments(contrib, k)
st.altair_chart(charts_segments.contribution_chart(deciding, a, b), key="contribution")
shown = deciding.merge(table[["id", bleu_column(a), bleu_column(b), a, b]], on="id")
st.dataframe(shown, hide_index=True, key="deciding_table",
             column_config={c: st.column_config.NumberColumn(c, format="%.4f")
                            for c in ("loo_a", "loo_b", "loo_gap", "swap")})

st.subheader("N-grams that differ")
diffs = _explore.ngram_differences(data, a, b)
st.caption("Clipped matches summed over the corpus; pick a row to list the segments where "
           "the two systems are credited differently for it.")
c1, c2 = st.columns(2)
with c1:
    st.markdown(f"**{escape_markdown(a)} matches more**")
    pick_a = st.dataframe(diffs.a_better.drop(columns="segments"), hide_index=True,
                          key="ngrams_a", on_select="rerun", selection_mode="single-row")
with c2:
    st.markdown(f"**{escape_markdown(b)} matches more**")
    pick_b = st.dataframe(diffs.b_better.drop(columns="segments"), hide_index=True,
                          key="ngrams_b", on_select="rerun", selection_mode="single-row")
chosen = None
if pick_a and pick_a.selection.rows:
    chosen = diffs.a_better.iloc[pick_a.selection.rows[0]]
elif pick_b and pick_b.selection.rows:
    chosen = diffs.b_better.iloc[pick_b.selection.rows[0]]
if chosen is not None:
    rows = filter_segments(table, SegmentFilter(ids=tuple(chosen["segments"])))
    st.markdown(f"Segments for “{escape_markdown(chosen['ngram'])}”: {len(rows)}")
    st.dataframe(rows, hide_index=True, key="ngram_segments")

st.subheader("Buckets")
analysis = st.selectbox("Analysis", ("reference length", "length difference",
                                     "sentence BLEU", "word frequency"), key="bucket_analysis")
frame = _explore.buckets(data, a, b, analysis, sentence, n_samples)
if analysis == "word frequency":
    chart = charts_segments.bucket_chart(
        frame, "Word F-measure by frequency in the reference (first reference)", "F-measure")
else:
    chart = charts_segments.bucket_chart(frame, f"BLEU by {analysis}")
st.altair_chart(chart, key="bucket_chart")
st.caption(f"Error bars: 95% bootstrap interval ({n_samples} resamples of each bucket).")

docs = _explore.documents(data)
if docs is not None:
    st.subheader("Documents")
    per_doc = compare.document_scores({a: stats[a], b: stats[b]}, docs, options)
    st.altair_chart(charts_segments.document_chart(per_doc, a, b), key="document_chart")
    st.dataframe(per_doc, hide_index=True, key="document_table")

st.subheader("One segment")
first = int(deciding["id"].iloc[0]) if len(deciding) else 1
segment = int(st.number_input("Segment", 1, data.n_segments, first, key="compare_segment"))
_explore.segment_detail(data, a, b, segment, sentence, "compare")

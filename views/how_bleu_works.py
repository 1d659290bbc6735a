"""How BLEU works: one candidate and its references, every step with its numbers."""

import streamlit as st

from bleu.analysis.escaping import escape_markdown
from bleu.analysis.teaching import (
    CLASSIC_CANDIDATE,
    CLASSIC_REFERENCES,
    SMOOTH_METHODS,
    ngram_frame,
    order_sweep,
    orders_frame,
    smoothing_comparison,
    walkthrough,
)
from bleu.charts import teaching as charts
from bleu.errors import InputError
from views import _session, _state

state = st.session_state
state.setdefault("teach_candidate", CLASSIC_CANDIDATE)
state.setdefault("teach_references", "\n".join(CLASSIC_REFERENCES))


def _pick_segment() -> None:
    """Copy the chosen segment of the loaded data into the text areas."""
    data = _session.dataset()
    index = int(state["teach_segment"]) - 1
    state["teach_candidate"] = data.systems[state["teach_system"]].segments[index]
    state["teach_references"] = "\n".join(
        ref.segments[index] for ref in data.references if ref.segments[index] is not None)


def _classic() -> None:
    state["teach_candidate"] = CLASSIC_CANDIDATE
    state["teach_references"] = "\n".join(CLASSIC_REFERENCES)


st.title("How BLEU works")
st.caption("Type a candidate and its references (one per line), or pick a segment of the loaded "
           "data. Tokenizer and case come from the sidebar.")
data = _session.dataset()
with st.expander("Pick a segment of the loaded data", expanded=False):
    p1, p2 = st.columns(2)
    p1.selectbox("System", list(data.systems), key="teach_system")
    p2.number_input("Segment", min_value=1, max_value=data.n_segments, step=1, key="teach_segment")
    b1, b2 = st.columns(2)
    b1.button("Use this segment", key="teach_pick", on_click=_pick_segment)
    b2.button("Back to the clipping example", key="teach_classic", on_click=_classic)

left, right = st.columns(2)
candidate = left.text_area("Candidate", key="teach_candidate", height=100)
references = [line for line in right.text_area("References, one per line",
                                                key="teach_references", height=100).splitlines()
              if line.strip()]

c1, c2, c3, c4 = st.columns(4)
order = int(c1.number_input("N (max n-gram order)", 1, 9, 4, key="teach_order"))
method = c2.selectbox("Smoothing", SMOOTH_METHODS, index=SMOOTH_METHODS.index("exp"),
                      key="teach_smooth")
effective = c3.checkbox("Effective order", value=True, key="teach_effective")
custom = c4.checkbox("Custom weights w_n", value=False, key="teach_custom_weights")
weights = None
if custom:
    columns = st.columns(order)
    weights = [columns[n].number_input(f"w_{n + 1}", 0.0, 10.0, 1.0, 0.05, key=f"teach_w_{n + 1}")
               for n in range(order)]

opts = _state.options()
common = {"tokenize": opts.tokenize, "lowercase": opts.lowercase, "max_ngram_order": order}
try:
    walk = walkthrough(candidate, references, smooth_method=method, effective_order=effective,
                       weights=weights, **common)
except InputError as error:
    st.error(escape_markdown(str(error)))
    st.stop()

st.header("1. Clipped n-gram precisions")
st.caption(f"The candidate has {len(walk.tokens)} tokens after tokenization "
           f"(tokenizer {opts.tokenize}{', lowercased' if opts.lowercase else ''}).")
tabs = st.tabs([f"n = {s.order}: p = {s.fraction} = {s.percent:.2f}%" for s in walk.orders])
for tab, step in zip(tabs, walk.orders, strict=True):
    with tab:
        st.dataframe(ngram_frame(walk, step.order), hide_index=True,
                     key=f"teach_ngrams_{step.order}")
        st.caption(f"Credited {step.credited} of {step.total} {step.order}-grams: each count is "
                   "clipped to the most any one reference has.")

st.header("2. The weighted geometric mean")
st.dataframe(orders_frame(walk), hide_index=True, key="teach_orders")
st.altair_chart(charts.precisions_chart(walk), key="teach_precisions_chart")
st.altair_chart(charts.log_terms_chart(walk), key="teach_log_chart")
log_sum = r"-\infty" if walk.log_sum == float("-inf") else f"{walk.log_sum:.4f}"
st.latex(rf"\sum_n w_n \log p_n = {log_sum}, \quad \exp(\cdot) = {walk.geometric_mean:.4f}")

st.header("3. Brevity penalty")
m1, m2, m3 = st.columns(3)
m1.metric("c (candidate length)", walk.brevity.c)
m2.metric("r (reference length)", walk.brevity.r)
m3.metric("BP", f"{walk.brevity.bp:.4f}")
st.write(escape_markdown(walk.brevity.reason))

st.header("4. The score")
st.latex(walk.latex)
st.metric("BLEU", f"{walk.score:.2f}")
if walk.collapse:
    st.warning(escape_markdown(walk.collapse))

st.header("Smoothing and effective order, side by side")
rows = smoothing_comparison(candidate, references, weights=weights, **common)
st.dataframe([{"smoothing": r.smooth_method, "value": r.smooth_value,
               "effective order": r.effective_order, "BLEU": round(r.score, 4),
               "p_n used (%)": " / ".join(f"{p:.2f}" for p in r.precisions),
               "why 0": r.collapse or ""} for r in rows], hide_index=True, key="teach_smoothing")
st.altair_chart(charts.smoothing_chart(rows), key="teach_smoothing_chart")

st.header("Weights and N")
sweep = order_sweep(candidate, references, max_order=max(order, 4), smooth_method=method,
                    effective_order=effective, tokenize=opts.tokenize, lowercase=opts.lowercase)
st.altair_chart(charts.order_sweep_chart(sweep), key="teach_sweep_chart")
if custom:
    uniform = walkthrough(candidate, references, smooth_method=method,
                          effective_order=effective, **common)
    st.metric("BLEU with your weights", f"{walk.score:.2f}",
              delta=f"{walk.score - uniform.score:+.2f} against uniform weights "
                    f"({uniform.score:.2f})")

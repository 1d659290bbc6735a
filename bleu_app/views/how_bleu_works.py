"""How BLEU works: one candidate and its references, every step with its numbers.

Tokenizer and case follow the sidebar (they apply to every page); N, smoothing and effective
order are this page's own sentence-BLEU settings, labelled so, starting at sacrebleu's
``sentence_bleu`` defaults, with a button that copies the sidebar's.
"""

import streamlit as st

from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import metric_delta
from bleu.analysis.teaching import (
    CLASSIC_CANDIDATE,
    CLASSIC_REFERENCES,
    NGRAM_HELP,
    SENTENCE_DEFAULTS,
    SMOOTH_METHODS,
    fmt_factor,
    fmt_log,
    fmt_score,
    ngram_frame,
    notes,
    order_sweep,
    orders_frame,
    smoothing_comparison,
    smoothing_frame,
    tab_label,
    undefined_note,
    walkthrough,
)
from bleu.charts import teaching as charts
from bleu.errors import InputError
from bleu.metrics.bleu.score import SMOOTH_DEFAULTS, BLEUOptions
from bleu_app.views import _charts, _session, _state, _tables

ORDER, SMOOTH, EFFECTIVE = "teach_order", "teach_smooth", "teach_effective"

state = st.session_state
state.setdefault("teach_candidate", CLASSIC_CANDIDATE)
state.setdefault("teach_references", "\n".join(CLASSIC_REFERENCES))


def _value_key(method: str) -> str:
    return f"teach_smooth_value_{method}"


def _set_settings(options: BLEUOptions) -> None:
    """Put ``options``' N, smoothing (and value) and effective order into this page's widgets."""
    state[ORDER] = options.max_ngram_order
    state[SMOOTH] = options.smooth_method
    state[EFFECTIVE] = options.effective_order
    if SMOOTH_DEFAULTS[options.smooth_method] is not None:
        state[_value_key(options.smooth_method)] = float(options.resolved_smooth_value or 0)


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


opts = _state.options()
case = "lowercased" if opts.lowercase else "case-sensitive"
st.title("How BLEU works")
st.caption("Type a candidate and its references (one per line), or pick a segment of the loaded "
           f"data. Tokenizer and case come from the sidebar: {opts.tokenize}, {case}.")
data = _session.dataset()
with st.expander("Pick a segment of the loaded data", expanded=False):
    p1, p2 = st.columns(2)
    p1.selectbox("System", list(data.systems), format_func=show_controls, key="teach_system")
    p2.number_input("Segment", min_value=1, max_value=data.n_segments, step=1, key="teach_segment")
    b1, b2 = st.columns(2)
    b1.button("Use this segment", key="teach_pick", on_click=_pick_segment)
    b2.button("Back to the clipping example", key="teach_classic", on_click=_classic)

left, right = st.columns(2)
candidate = left.text_area("Candidate", key="teach_candidate", height=100)
references = [line for line in right.text_area("References, one per line",
                                                key="teach_references", height=100).splitlines()
              if line.strip()]

if ORDER not in state:
    _set_settings(SENTENCE_DEFAULTS)
with st.container(border=True):
    st.markdown("**This page's sentence-BLEU settings** (they apply here only)")
    sidebar_effective = "on" if opts.effective_order else "off"
    st.caption(f"They start at sacrebleu's sentence-BLEU defaults (N = 4, exp smoothing, "
               f"effective order on). The sidebar's corpus options are N = "
               f"{opts.max_ngram_order}, {opts.smooth_label()} smoothing, effective order "
               f"{sidebar_effective}.")
    c1, c2, c3, c4, c5 = st.columns([1, 1, 1, 1, 1.3])
    low, high = _state.MAX_NGRAM_ORDER_BOUNDS
    order = int(c1.number_input("N (max n-gram order)", low, high, step=1, key=ORDER))
    method = c2.selectbox("Smoothing", SMOOTH_METHODS, key=SMOOTH)
    value = None
    if SMOOTH_DEFAULTS[method] is not None:
        state.setdefault(_value_key(method), float(SMOOTH_DEFAULTS[method]))
        value = c3.number_input("Smoothing value", 0.0, _state.SMOOTH_VALUE_MAX[method],
                                step=0.1, key=_value_key(method))
    effective = c4.checkbox("Effective order", key=EFFECTIVE)
    custom = c4.checkbox("Custom weights w_n", value=False, key="teach_custom_weights")
    c5.button("Use the sidebar's options", key="teach_use_sidebar", on_click=_set_settings,
              args=(opts,), help="Copy the sidebar's N, smoothing and effective order here.")
    c5.button("Sentence-BLEU defaults", key="teach_use_defaults", on_click=_set_settings,
              args=(SENTENCE_DEFAULTS,))
    weights = None
    if custom:
        columns = st.columns(order)
        weights = [columns[n].number_input(f"w_{n + 1}", 0.0, 10.0, 1.0, 0.05,
                                           key=f"teach_w_{n + 1}") for n in range(order)]

common = {"tokenize": opts.tokenize, "lowercase": opts.lowercase, "max_ngram_order": order}
try:
    walk = walkthrough(candidate, references, smooth_method=method, smooth_value=value,
                       effective_order=effective, weights=weights, **common)
except InputError as error:
    st.error(escape_markdown(str(error)))
    st.stop()

st.header("1. Clipped n-gram precisions")
st.caption(f"The candidate has {len(walk.tokens)} tokens after tokenization. "
           + " ".join(f"**{column}**: {text}" for column, text in NGRAM_HELP.items()))
help_config = {column: st.column_config.Column(column, help=text)
               for column, text in NGRAM_HELP.items()}
tabs = st.tabs([tab_label(step) for step in walk.orders])
for tab, step in zip(tabs, walk.orders, strict=True):
    with tab:
        if not step.defined:
            st.info(undefined_note(step))
            continue
        _tables.dataframe(ngram_frame(walk, step.order), hide_index=True, column_config=help_config,
                     key=f"teach_ngrams_{step.order}")
        st.caption(f"Credited {step.credited} of {step.total} {step.order}-grams: each count is "
                   "clipped to the most any one reference has.")

st.header("2. The weighted geometric mean")
_tables.dataframe(orders_frame(walk), hide_index=True, key="teach_orders",
             column_config={"how": st.column_config.TextColumn(width="large")})
for note in notes(walk):
    st.info(note, icon=":material/info:")
_charts.show(st, charts.precisions_chart(walk), key="teach_precisions_chart")
_charts.show(st, charts.log_terms_chart(walk), key="teach_log_chart")
log_sum = r"-\infty" if walk.log_sum == float("-inf") else fmt_log(walk.log_sum)
st.latex(rf"\sum_n w_n \log p_n = {log_sum}, \quad \exp(\cdot) = "
         rf"{fmt_factor(walk.geometric_mean)}")

st.header("3. Brevity penalty")
m1, m2, m3 = st.columns(3)
m1.metric("c (candidate length)", walk.brevity.c)
m2.metric("r (reference length)", walk.brevity.r)
m3.metric("BP", fmt_factor(walk.brevity.bp))
st.write(escape_markdown(walk.brevity.reason))

st.header("4. The score")
st.latex(walk.latex)
st.metric("BLEU", fmt_score(walk.score))
if walk.collapse:
    st.warning(escape_markdown(walk.collapse))

st.header("Smoothing and effective order, side by side")
st.caption("The same sentence under every smoothing with sacrebleu's default values (floor "
           "0.1, add-k 1), effective order off and on; p_n as the score uses them.")
rows = smoothing_comparison(candidate, references, weights=weights, **common)
_tables.dataframe(smoothing_frame(rows), hide_index=True, key="teach_smoothing")
_charts.show(st, charts.smoothing_chart(rows), key="teach_smoothing_chart")

st.header("Weights and N")
sweep = order_sweep(candidate, references, max_order=max(order, 4), smooth_method=method,
                    smooth_value=value, effective_order=effective, tokenize=opts.tokenize,
                    lowercase=opts.lowercase)
_charts.show(st, charts.order_sweep_chart(sweep), key="teach_sweep_chart")
if custom:
    uniform = walkthrough(candidate, references, smooth_method=method, smooth_value=value,
                          effective_order=effective, **common)
    st.metric("BLEU with your weights", fmt_score(walk.score),
              **metric_delta(walk.score - uniform.score,
                             suffix=f" against uniform weights ({fmt_score(uniform.score)})"))

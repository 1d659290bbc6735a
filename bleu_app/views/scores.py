"""External segment scores (COMET, BLEURT, MQM, DA...): upload, name mapping, correlations."""

import streamlit as st

from bleu import charts
from bleu.analysis import correlation
from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import CORRELATION, COUNT, Column
from bleu.analysis.metric_scores import HIGHER_IS_BETTER
from bleu.errors import InputError
from bleu.io.scores.mqm import MQM_ALIASES
from bleu.io.scores.read import Matching, parse_scores, suggest_aliases
from bleu_app.views import (
    _charts,
    _metrics,
    _segment_scores,
    _session,
    _state,
    _tables,
)

NOT_LOADED = "(leave out)"
#: below this many systems a system-level correlation gets a caveat
MIN_SYSTEMS = 5

data = _session.dataset()
st.title("Metrics & human scores")
st.caption("Upload segment scores from any metric or human judgment, one row per (system, "
           "segment id, score): a TSV/CSV with a header (e.g. `system`, `seg_id`, `COMET`), or "
           "a WMT MQM `*.avg_seg_scores.tsv` as published. Segment ids are 1-based line numbers; "
           "`None` or an empty cell means not rated. Nothing is downloaded: scores from models "
           "(COMET, BLEURT) are computed elsewhere and uploaded here.")
st.button("Load the WMT21 en-de sample with its MQM scores", key="load_mqm_sample",
          on_click=_segment_scores.load_mqm_sample)

upload = st.file_uploader("Segment scores (TSV or CSV)", type=["tsv", "csv", "txt"],
                          key="scores_upload")
if upload is not None and st.session_state.get(_state.SCORES_FILE) != upload.file_id:
    st.session_state[_state.SCORES_FILE] = upload.file_id
    try:
        parsed = parse_scores(upload.getvalue(), upload.name, n_segments=data.n_segments)
    except InputError as error:
        st.session_state[_state.SCORES_ERROR] = str(error)
    else:
        st.session_state[_state.SCORES_ERROR] = None
        known = suggest_aliases(parsed.systems, list(data.systems))
        _metrics.set_external(parsed, {k: v for k, v in known.items() if k in MQM_ALIASES})
if st.session_state.get(_state.SCORES_ERROR):
    st.error(escape_markdown(st.session_state[_state.SCORES_ERROR] +
                               " The scores loaded before (if any) are kept."))

scores = st.session_state.get(_state.EXTERNAL)
if scores is None:
    st.info("No external scores loaded yet.")
    st.stop()

st.caption(escape_markdown(
    f"{scores.label} from {scores.source}: {len(scores.systems)} systems, {scores.rated():,} "
    f"rated (system, segment) pairs."))
loaded = list(data.systems)
unmatched = [name for name in scores.systems if name not in loaded]
if unmatched:
    with st.expander(f"Map system names ({len(unmatched)} not loaded under the file's name)",
                     expanded=False):
        aliases = dict(st.session_state.get(_state.ALIASES, {}))
        options = [NOT_LOADED, *loaded]
        hints = suggest_aliases(unmatched, loaded)
        for index, name in enumerate(unmatched):
            current = aliases.get(name)
            hint = f" (did you mean {hints[name]}?)" if name in hints else ""
            choice = st.selectbox(escape_markdown(name + hint), options,
                                  format_func=show_controls, key=f"alias_{index}_{name}",
                                  index=options.index(current) if current in options else 0)
            if choice == NOT_LOADED:
                aliases.pop(name, None)
            else:
                aliases[name] = choice
        st.session_state[_state.ALIASES] = aliases

matched = _metrics.matching(data)
if not isinstance(matched, Matching):
    st.error(escape_markdown(matched or "No external scores."))
    st.stop()
if matched.message():
    st.warning(escape_markdown(matched.message()))
external = matched.scores.by_system()
label = matched.scores.label

metric_scores = {"BLEU": _metrics.sentence_bleu(data)}
corpus = {"BLEU": {name: score.score for name, score in _compute.dashboard().scores.items()}}
for metric, found in _metrics.all_results(data).items():
    metric_scores[metric] = dict(found.sentence_scores)
    corpus[metric] = dict(found.scores)

st.subheader("Correlations")
rows = []
for metric, by_system in metric_scores.items():
    rows.append(correlation.segment_correlation(metric, by_system, external))
for metric, by_system in corpus.items():
    rows.append(correlation.system_correlation(metric, by_system, external))
table = correlation.correlation_table(rows)
_tables.show(table, {"level": Column(help="segment: every rated (system, segment) pair, pooled; "
                                          "system: one point per system."),
                     "n": Column(COUNT, "Points correlated."),
                     **{name: Column(CORRELATION, f"{name} correlation coefficient"
                                     + (" (tau-b)." if name == "Kendall" else "."))
                        for name in ("Pearson", "Spearman", "Kendall")}},
             key="correlations")
thin = sorted(set(table.loc[(table["level"] == "system") & (table["n"] < MIN_SYSTEMS), "n"]))
if thin:
    st.warning(escape_markdown(
        f"System-level correlations here come from {' or '.join(map(str, thin))} systems: with "
        f"fewer than {MIN_SYSTEMS}, one system can flip the sign, and no coefficient is "
        "meaningful (with 3 systems Kendall can only be -1, -1/3, 1/3 or 1). Read the "
        "segment-level rows, or add systems."))
lower = [metric for metric in metric_scores if not HIGHER_IS_BETTER.get(metric, True)]
st.caption(escape_markdown(
    f"Segment level: pooled over every rated (system, segment) pair; system level: corpus "
    f"scores against the mean {label} over rated segments. Kendall is tau-b. "
    + (f"{', '.join(lower)}: lower is better, so agreement shows as a negative correlation. "
       if lower else "")
    + _metrics.add_more_hint("correlate them too")))
_charts.show(st, charts.correlation_chart(table), key="correlation_chart")

st.subheader(escape_markdown(f"{label} against a sentence-level metric"))
metric = st.selectbox("Metric", list(metric_scores), key="scores_metric")
_charts.show(st, charts.external_scatter_chart(
    metric_scores[metric], external,
    metric="sentence BLEU" if metric == "BLEU" else f"sentence {metric}", label=label),
    key="scores_scatter")

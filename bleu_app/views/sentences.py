"""Sentence explorer: every segment with sentence BLEU, filters, distributions, one segment open.

Laid out to fit a 1400 px window without scrolling sideways: one line on mean versus corpus
BLEU (the why in an expander), the histograms as small panels beside the scatter, the table with
the pair's columns only (every column is in the CSV and searchable).
"""

import streamlit as st

from bleu.analysis import compare
from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import COUNT, SCORE, Column
from bleu.analysis.segments import (
    DIFF,
    DOCUMENT,
    ID,
    REF_LEN,
    SegmentFilter,
    bleu_column,
    filter_segments,
    length_column,
    mean_versus_corpus,
    table_columns,
    table_csv,
)
from bleu.charts import segments as charts_segments
from bleu.errors import InputError
from bleu.i18n import tr
from bleu_app.views import (
    _charts,
    _explore,
    _metrics,
    _session,
    _significance,
    _state,
    _tables,
)

data = _session.dataset()
st.title("Sentences")
a, b = _explore.pair_picker("sentences", list(data.systems))
sentence = _explore.sentence_smoothing()
base = _explore.table(data, sentence, (a, b))
table = _metrics.extra_columns(base, data, (a, b))
stats = _metrics.bleu_stats(data)
extra = [column for column in table.columns if column not in base.columns]

notes = [mean_versus_corpus(name, stats[name], _state.options(), sentence)
         for name in dict.fromkeys((a, b))]
st.caption(escape_markdown("; ".join(note.summary() for note in notes) + "."))
with st.expander("Why the mean of sentence BLEU is not corpus BLEU"):
    for note in notes:
        st.markdown(escape_markdown(note.text()))

left, right = st.columns(2)
with left:
    _charts.show(st, charts_segments.histogram_chart(table, list(data.systems)), key="histogram")
with right:
    event = _charts.show(st, charts_segments.scatter_chart(table, a, b), key="scatter",
                            on_select="rerun", width="stretch")
picked = [int(point["id"]) for point in
          (event.selection.get(charts_segments.SEGMENT_SELECTION, []) if event else [])
          if "id" in point]

st.subheader("Filter")
score_columns = list(dict.fromkeys([bleu_column(a), bleu_column(b), DIFF, *extra]))
length_columns = list(dict.fromkeys([REF_LEN, length_column(a), length_column(b)]))
f1, f2 = st.columns(2)
score_column = f1.selectbox(tr("Score"), score_columns,
                            format_func=show_controls, key="filter_score_column")
low_limit, high_limit, step = _explore.score_bounds(table, score_column,
                                                     bleu_like=score_column not in extra)
score_range = f1.slider(tr("Score range"), low_limit, high_limit, (low_limit, high_limit),
                        step=step, key=f"filter_score_range_{score_column}")
length_col = f2.selectbox("Length (tokens)", length_columns,
                          format_func=show_controls, key="filter_length_column")
longest = max(int(table[length_col].max()) if len(table) else 0, 1)
length_range = f2.slider("Length range", 0, longest, (0, longest),
                         key=f"filter_length_range_{length_col}")
s1, s2, s3, s4 = st.columns([3, 2, 1, 1])
query = s1.text_input("Search text", key="search", placeholder="a word, or a regex")
search_columns = s2.multiselect("In columns (none: all text)", list(table.columns),
                                format_func=show_controls, key="search_columns")
regex = s3.checkbox("Regex", key="search_regex")
case = s4.checkbox("Case", key="search_case", help="Match upper/lower case exactly")

# A slider at its full extent filters nothing (a sentence BLEU of 100 can be 100.00000000000001)
spec = SegmentFilter(score_column=score_column,
                     score_range=None if score_range == (low_limit, high_limit) else score_range,
                     length_column=length_col,
                     length_range=None if length_range == (0, longest) else length_range,
                     query=query,
                     search_columns=tuple(search_columns), regex=regex, case_sensitive=case,
                     ids=tuple(picked) if picked else None)
try:
    shown = filter_segments(table, spec)
except InputError as error:
    st.error(escape_markdown(str(error)))
    shown = table.iloc[0:0]
if picked:
    st.caption(f"{len(picked)} segment(s) selected on the scatter; double-click it to clear.")
columns = table_columns(table, (a, b))
columns.update({column: Column(SCORE, tr("Segment score of the metric named (empty: not "
                                          "rated)."))
                for column in extra})
texts = [column for column, spec in columns.items()
         if spec.format is None and column not in (ID, DOCUMENT)]
references = [column for column in texts if column.startswith("reference")]
shown_texts = st.multiselect(
    "Text columns", texts, default=[*references[:1], *dict.fromkeys((a, b))],
    format_func=show_controls, key="segments_text_columns",
    help="The texts the table shows (all of them are in the CSV and searched by default).")
numbers = [*dict.fromkeys((bleu_column(a), bleu_column(b), DIFF)), *extra]
st.caption(f"{COUNT.text(len(shown))} of {COUNT.text(len(table))} segments.")
selected = _tables.show(
    shown, columns, key="segments_table", on_select="rerun", selection_mode="single-row",
    column_order=[ID, *([DOCUMENT] if DOCUMENT in table.columns else []), *shown_texts,
                  *numbers],
    labels={bleu_column(a): "BLEU A", bleu_column(b): "BLEU B"},
    widths={ID: 56, DOCUMENT: 100, **dict.fromkeys(numbers, _tables.NUMBER_WIDTH),
            **dict.fromkeys(shown_texts, _tables.text_width(
                len(shown_texts), 56 + len(numbers) * _tables.NUMBER_WIDTH
                + 100 * (DOCUMENT in table.columns), selectable=True))},
)
st.download_button(tr("Filtered rows (CSV)"), table_csv(shown), "segments.csv", "text/csv",
                   key="download_segments", on_click="ignore")
if a != b and 1 < len(shown) < len(table) and st.toggle(
        tr("Test A against B on these {n} segments").format(n=COUNT.text(len(shown))),
        key="filter_test",
        help=tr("Every metric's paired tests on the filtered segments, taken as a test set of "
                "their own (as Marot does for its filters).")):
    rows = shown["id"].to_numpy() - 1
    _tables.show(compare.paired_table(_significance.pair_tests(data, a, b, rows), a, b,
                                      len(rows)),
                 compare.paired_columns(a, b), key="filter_pair_tests")

rows = selected.selection.rows if selected else []
choice = int(shown.iloc[rows[0]]["id"]) if rows else (picked[0] if picked else None)
if choice is not None and st.session_state.get("opened_from") != choice:
    st.session_state["opened_from"] = choice
    st.session_state["open_segment"] = choice
if not 1 <= st.session_state.get("open_segment", 0) <= data.n_segments:
    st.session_state["open_segment"] = int(shown["id"].iloc[0]) if len(shown) else 1
segment = int(st.number_input("Open segment", min_value=1, max_value=data.n_segments,
                              key="open_segment"))
_explore.segment_detail(data, a, b, segment, sentence, "sentences")

"""Sentence explorer: every segment with sentence BLEU, filters, distributions, one segment open.

Laid out to fit a 1400 px window without scrolling sideways: one line on mean versus corpus
BLEU (the why in an expander), the histograms as small panels beside the scatter, the table with
the pair's columns only (every column is in the CSV and searchable).
"""

import streamlit as st

from bleu.charts import segments as charts_segments
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT, SCORE, Column
from bleu.errors import InputError
from bleu.explore import compare
from bleu.explore.segments import (
    DIFF,
    DOCUMENT,
    ID,
    REF_LEN,
    SegmentFilter,
    bleu_column,
    filter_segments,
    length_column,
    mean_versus_corpus,
    reference_label,
    table_columns,
    table_csv,
)
from bleu.i18n import in_language, tr
from bleu_app.scoring import _metrics, _significance
from bleu_app.session import _session, _state
from bleu_app.widgets import _charts, _explore, _tables

data = _session.dataset()
st.title(tr("Sentences"))
a, b = _explore.pair_picker("sentences", list(data.systems))
sentence = _explore.sentence_smoothing()
base = _explore.table(data, sentence, (a, b))
table = _metrics.extra_columns(base, data, (a, b))
stats = _metrics.bleu_stats(data)
extra = [column for column in table.columns if column not in base.columns]

notes = [mean_versus_corpus(name, stats[name], _state.options(), sentence)
         for name in dict.fromkeys((a, b))]
st.caption(escape_markdown("; ".join(note.summary() for note in notes) + "."))
with st.expander(tr("Why the mean of sentence BLEU is not corpus BLEU")):
    for note in notes:
        st.markdown(escape_markdown(note.text()))

left, right = st.columns(2)
with left:
    _charts.show(st, _explore.histogram_chart, data, _state.options(), sentence, (a, b),
                 key="histogram")
with right:
    event = _charts.show(st, _explore.scatter_chart, data, _state.options(), sentence, (a, b),
                         key="scatter", on_select="rerun", width="stretch")
picked = [int(point["id"]) for point in
          (event.selection.get(charts_segments.SEGMENT_SELECTION, []) if event else [])
          if "id" in point]

st.subheader(tr("Filter"))
#: each column as the page names it: in the interface language, a system's name as given with
#: its control characters shown
column_names = {column: show_controls(reference_label(column) or tr(column))
                for column in table.columns}
score_columns = list(dict.fromkeys([bleu_column(a), bleu_column(b), DIFF, *extra]))
length_columns = list(dict.fromkeys([REF_LEN, length_column(a), length_column(b)]))
f1, f2 = st.columns(2)
score_column = f1.selectbox(tr("Score"), score_columns,
                            format_func=column_names.__getitem__, key="filter_score_column")
low_limit, high_limit, step = _explore.score_bounds(table, score_column,
                                                     bleu_like=score_column not in extra)
# a select slider, so that its values are written by the number rule (a decimal comma in Dutch)
score_rule = _explore.step_format(step, signed=score_column == DIFF)
score_stops = _explore.score_steps(low_limit, high_limit, step)
low_limit, high_limit = score_stops[0], score_stops[-1]
score_range = f1.select_slider(
    tr("Score range"), score_stops, (low_limit, high_limit), format_func=score_rule.text,
    key=f"filter_score_range_{score_column}")
length_col = f2.selectbox(tr("Length (tokens)"), length_columns,
                          format_func=column_names.__getitem__, key="filter_length_column")
longest = max(int(table[length_col].max()) if len(table) else 0, 1)
length_range = f2.slider(tr("Length range"), 0, longest, (0, longest),
                         key=f"filter_length_range_{length_col}")
s1, s2, s3, s4 = st.columns([3, 2, 1, 1])
query = s1.text_input(tr("Search text"), key="search", placeholder=tr("a word, or a regex"))
search_columns = s2.multiselect(tr("In columns (none: all text)"), list(table.columns),
                                format_func=column_names.__getitem__, key="search_columns")
regex = s3.checkbox(tr("Regex"), key="search_regex")
case = s4.checkbox(tr("Case"), key="search_case", help=tr("Match upper/lower case exactly"))

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
    st.caption(tr("{n} segment(s) selected on the scatter; double-click it to clear.").format(
        n=COUNT.text(len(picked))))
columns = table_columns(table, (a, b))
columns.update({column: Column(SCORE, tr("Segment score of the metric named (empty: not "
                                          "rated)."))
                for column in extra})
texts = [column for column, spec in columns.items()
         if spec.format is None and column not in (ID, DOCUMENT)]
references = [column for column in texts if column.startswith("reference")]
shown_texts = st.multiselect(
    tr("Text columns"), texts, default=[*references[:1], *dict.fromkeys((a, b))],
    format_func=column_names.__getitem__, key="segments_text_columns",
    help=tr("The texts the table shows (all of them are in the CSV and searched by default)."))
numbers = [*dict.fromkeys((bleu_column(a), bleu_column(b), DIFF)), *extra]
st.caption(tr("{shown} of {total} segments.").format(shown=COUNT.text(len(shown)),
                                                     total=COUNT.text(len(table))))
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


def segments_csv(rows=shown) -> str:
    """The filtered rows as a file (English and the decimal point), made when asked for."""
    with in_language("en"):
        return table_csv(rows)


st.download_button(tr("Filtered rows (CSV)"), segments_csv, "segments.csv", "text/csv",
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
segment = int(st.number_input(tr("Open segment"), min_value=1, max_value=data.n_segments,
                              key="open_segment"))
_explore.segment_detail(data, a, b, segment, sentence, "sentences")

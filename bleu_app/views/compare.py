"""A against B: is the difference significant (every metric, two tests), which segments and
n-grams decide it, how it varies by bucket and document, one segment open."""

import streamlit as st

from bleu.charts import segments as charts_segments
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT, DELTA, LEVEL, P_VALUE, SCORE, SEED, Column
from bleu.errors import InputError
from bleu.evaluation.paired import disagreement
from bleu.evaluation.ranking import ALPHA
from bleu.explore import compare
from bleu.explore.concordance import CONTEXT, concordance
from bleu.explore.segments import bleu_column
from bleu.i18n import N_, labels, tr
from bleu_app.scoring import _metrics, _significance
from bleu_app.session import _session, _state
from bleu_app.widgets import _charts, _explore, _tables

data = _session.dataset()
systems = list(data.systems)
options = _state.options()
st.title(tr("Compare two systems"))
a, b = _explore.pair_picker("compare", systems)
if a == b:
    st.warning(tr("Pick two different systems to compare."))
    st.stop()
sentence = _explore.sentence_smoothing()
stats = _metrics.bleu_stats(data)
table = _explore.table(data, sentence, (a, b))
n_samples = _session.n_bootstrap()

st.subheader(tr("Is the difference significant?"))
with st.spinner(tr("Paired bootstrap and approximate randomization…")):
    tests = _significance.pair_tests(data, a, b)
found = tests[0]
m1, m2, m3, m4 = st.columns(4)
m1.metric(escape_markdown(tr("BLEU {system} (A)").format(system=a)), SCORE.text(found.score_a))
m2.metric(escape_markdown(tr("BLEU {system} (B)").format(system=b)), SCORE.text(found.score_b))
m3.metric("A − B", DELTA.text(found.delta), delta_arrow="off", delta_color="off",
          delta=tr("95% CI [{low}, {high}]").format(low=DELTA.text(found.low),
                                                    high=DELTA.text(found.high)))
m4.metric(tr("p-value (paired bootstrap)"), P_VALUE.text(found.p_bootstrap), delta_arrow="off",
          delta_color="off", delta=tr("AR: {p}").format(p=P_VALUE.text(found.p_ar)))
_tables.show(compare.paired_table(tests, a, b, data.n_segments), compare.paired_columns(a, b),
             key="pair_tests")
if disagree := disagreement(tests, a, b):
    st.warning(escape_markdown(disagree))
st.caption(escape_markdown(tr(
    "A is the baseline, as in sacrebleu --paired-bs (p: {bs} bootstrap resamples) and "
    "--paired-ar ({ar} trials), seed {seed}; the 95% interval of A − B comes from the same "
    "bootstrap resamples. Segment scores are tested on the segments rated for both systems. "
    "Significant: p < {alpha}. ").format(
    bs=COUNT.text(n_samples), ar=COUNT.text(_significance.n_samples("ar")),
    seed=SEED.text(_significance.SEED), alpha=LEVEL.text(ALPHA))
    + _metrics.add_more_hint(tr("test them too"))))

_explore.resample_note()

st.subheader(tr("Segments that decide the comparison"))
tested = {test.metric: test for test in tests}
deciding_metric = st.selectbox(tr("By"), list(tested), key="deciding_metric",
                               format_func=show_controls,
                               help=tr("The metric whose corpus score the segments move."))
metric_scores = _metrics.scores(data, deciding_metric)
st.caption(escape_markdown(tr(
    "Swap to B: how {a}'s corpus {metric} changes if this one segment took {b}'s output "
    "(with a higher-is-better metric, negative: {a}'s output is the better one there). Without "
    "it: corpus {metric} without the segment, minus corpus {metric}. All from sums of the "
    "statistics matrix, no rescoring.").format(a=a, b=b, metric=deciding_metric)))
k = st.slider(tr("Segments shown"), 5, 100, 20, key="deciding_k")
deciding = compare.deciding_segments(
    compare.contributions(metric_scores.stats[a], metric_scores.stats[b], metric_scores.scorer),
    k)
_charts.show(st, charts_segments.contribution_chart, deciding, a, b, systems, width="stretch",
             key="contribution")
shown = deciding.merge(table[["id", bleu_column(a), bleu_column(b), a, b]], on="id")
sentence_help = tr("sentence BLEU (the smoothing chosen above).")
contribution_columns = compare.contribution_columns(deciding_metric)
numbers = [*list(contribution_columns)[1:], bleu_column(a), bleu_column(b)]
_tables.show(shown, {**contribution_columns,
                     bleu_column(a): Column(SCORE, f"{a}: {sentence_help}"),
                     bleu_column(b): Column(SCORE, f"{b}: {sentence_help}"),
                     a: Column(help=tr("{system}'s output (A).").format(system=a)),
                     b: Column(help=tr("{system}'s output (B).").format(system=b))},
             key="deciding_table", labels={bleu_column(a): "BLEU A", bleu_column(b): "BLEU B",
                                           a: "A", b: "B"},
             widths={"id": 56, **dict.fromkeys(numbers, _tables.NUMBER_WIDTH),
                     **dict.fromkeys((a, b), _tables.text_width(
                         2, 56 + len(numbers) * _tables.NUMBER_WIDTH))})

st.subheader(tr("N-grams that differ"))
diffs = _explore.ngram_differences(data, a, b)
st.caption(tr("Clipped matches summed over the corpus. Click a row: the segments where the two "
           "systems are credited differently for that n-gram are listed, the first one opened "
           "below with the n-gram marked."))
shown_columns = ["ngram", compare.MATCHED_A, compare.MATCHED_B, compare.DIFFERENCE]
c1, c2 = st.columns(2)
picks = {}
for column, side, frame, name in ((c1, "a", diffs.a_better, a), (c2, "b", diffs.b_better, b)):
    with column:
        st.markdown("**{}**".format(escape_markdown(tr("{system} matches more").format(
            system=name))))
        picks[side] = _tables.show(
            frame.drop(columns="segments"), compare.NGRAM_COLUMNS, key=f"ngrams_{side}",
            column_order=shown_columns, on_select="rerun", selection_mode="single-row",
            widths={"ngram": 170, **dict.fromkeys(shown_columns[1:], _tables.NUMBER_WIDTH)})
chosen = None
for side, frame in (("a", diffs.a_better), ("b", diffs.b_better)):
    rows = picks[side].selection.rows if picks[side] else []
    if rows and chosen is None:
        chosen, where = frame.iloc[rows[0]], f"{side}_{rows[0]}"
if chosen is not None:
    ngram, ids = chosen["ngram"], list(chosen["segments"])
    st.markdown(escape_markdown(
        tr("“{ngram}” occurs {in_a} times in {a}, {in_b} in {b}; matched (clipped) {matched_a} "
           "and {matched_b} times; credited differently in {segments} segment(s). Click one to "
           "open it below.").format(
            ngram=ngram, in_a=COUNT.text(chosen[compare.IN_A]), a=a,
            in_b=COUNT.text(chosen[compare.IN_B]), b=b,
            matched_a=COUNT.text(chosen[compare.MATCHED_A]),
            matched_b=COUNT.text(chosen[compare.MATCHED_B]), segments=COUNT.text(len(ids)))))
    streams = {"A": data.systems[a].segments, "B": data.systems[b].segments,
               "reference": data.reference_streams[0]}
    listing = concordance(ids, streams, ngram, options)
    context = tr("{n} tokens either side of ⟦the n-gram⟧, as tokenized for BLEU.").format(
        n=CONTEXT)
    picked = _tables.show(
        listing, {"segment": Column(help=tr("Segment number.")),
                  "A": Column(help=tr("{system}'s output: {context}").format(
                      system=a, context=context)),
                  "B": Column(help=tr("{system}'s output: {context}").format(
                      system=b, context=context)),
                  "reference": Column(help=tr("The first reference: {context}").format(
                      context=context))},
        key=f"ngram_segments_{where}", on_select="rerun", selection_mode="single-row",
        widths={"segment": 80, **dict.fromkeys(streams, _tables.text_width(3, 80, True))},
        height=min(38 + 35 * len(ids), 320))
    rows = picked.selection.rows if picked else []
    segment = int(listing["segment"].iloc[rows[0] if rows else 0])
    _explore.segment_detail(data, a, b, segment, sentence, "ngram", mark=ngram)

st.subheader(tr("Buckets"))
left, right = st.columns(2)
ANALYSES = (N_("reference length"), N_("length difference"), N_("sentence BLEU"),
            N_("word frequency"))
analysis = left.selectbox(tr("Analysis"), ANALYSES, format_func=labels(ANALYSES),
                          key="bucket_analysis")
bucket_metric = "BLEU"
if analysis != "word frequency":
    bucket_metric = right.selectbox(tr("Scored by"), list(tested),
                                    format_func=show_controls, key="bucket_metric")
frequency_file = None
if analysis == "word frequency":
    upload = st.file_uploader(
        tr("Word frequencies (optional): compare-mt's format, one `word<TAB>count` a line"),
        type=["txt", "tsv", "freq", "counts"], key="frequency_upload",
        help=tr("Counts from the training data, as compare-mt's --freq_count_file; without it, "
                "a word's frequency is counted in the first reference."))
    if upload is not None:
        try:
            _explore.frequencies(upload.getvalue(), upload.name)
            frequency_file = (upload.getvalue(), upload.name)
        except InputError as error:
            st.error(escape_markdown(tr("{error} Frequencies are counted in the reference "
                                        "instead.").format(error=error)))
frame = _explore.buckets(data, a, b, analysis, sentence, n_samples, frequency_file,
                         bucket_metric)
if analysis == "word frequency":
    where = tr("the training data") if frequency_file is not None else tr("the first reference")
    chart = (frame, tr("Word F-measure by frequency in {where}").format(where=where),
             tr("F-measure"), systems)
else:
    chart = (frame, tr("{metric} by {analysis}").format(metric=bucket_metric,
                                                        analysis=tr(analysis)),
             bucket_metric, systems)
_charts.show(st, charts_segments.bucket_chart, *chart, key="bucket_chart")
st.caption(tr("Error bars: 95% bootstrap interval ({n} resamples of each bucket); bars below: "
              "each bucket's size. Empty buckets are left out.").format(
    n=COUNT.text(n_samples)))
if analysis == "reference length" and len(frame):
    bucket = st.selectbox(tr("Test A against B on one bucket"),
                          list(dict.fromkeys(frame["label"])), key="bucket_test")
    rows = _explore.reference_length_rows(data, bucket)
    _tables.show(compare.paired_table(_significance.pair_tests(data, a, b, rows), a, b,
                                      len(rows)),
                 compare.paired_columns(a, b), key="bucket_pair_tests")
    st.caption(tr("Every metric's paired tests on the {n} segments whose reference has "
                  "{bucket} tokens, taken as a test set of their own.").format(
        n=COUNT.text(len(rows)), bucket=bucket))

docs = _explore.documents(data)
if docs is not None:
    st.subheader(tr("Documents"))
    per_doc = compare.document_scores({a: stats[a], b: stats[b]}, docs, options)
    _charts.show(st, charts_segments.document_chart, per_doc, a, b, systems, width="stretch",
                 key="document_chart")
    _tables.show(per_doc, {"segments": Column(COUNT, tr("Segments in the document.")),
                           "first": Column(help=tr("Its first segment's number."),
                                           label=N_("first")),
                           a: Column(SCORE, tr("Corpus BLEU of {system} on the document.").format(
                               system=a), label=a),
                           b: Column(SCORE, tr("Corpus BLEU of {system} on the document.").format(
                               system=b), label=b),
                           "document": Column(label=N_("document"))},
                 key="document_table")

st.subheader(tr("One segment"))
first = int(deciding["id"].iloc[0]) if len(deciding) else 1
segment = int(st.number_input(tr("Segment"), 1, data.n_segments, first, key="compare_segment"))
_explore.segment_detail(data, a, b, segment, sentence, "compare")

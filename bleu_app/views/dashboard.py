"""The corpus dashboard: every system ranked, with its difference to the baseline and what the
paired test says of it; chrF/TER beside; every pair compared; charts; every download."""

import streamlit as st

from bleu import charts
from bleu.analysis.dashboard import (
    MEAN_COLUMN,
    SIGNIFICANCE_LEVEL,
    comparison_columns,
    comparison_table,
    json_report,
    results_table,
    table_columns,
    table_csv,
    table_latex,
)
from bleu.analysis.escaping import escape_markdown
from bleu.analysis.formatting import COUNT, SCORE, Column
from bleu.analysis.metric_scores import HIGHER_IS_BETTER
from bleu.analysis.ranking import METHODS, min_samples
from bleu.charts.report import html_report
from bleu_app.views import _charts, _compute, _explore, _metrics, _session, _significance, _tables

data = _session.dataset()
systems = list(data.systems)
st.title("Corpus dashboard")
st.caption(escape_markdown(
    f"{data.label}: {len(systems)} systems, {data.n_refs} reference(s), "
    f"{COUNT.text(data.n_segments)} segments"))

with st.spinner("Scoring every system and resampling…"):
    dashboard = _compute.dashboard()
options = dashboard.options
order = options.max_ngram_order

st.subheader("Scores")
table = results_table(dashboard)
_tables.show(table, table_columns(order), key="results",
             column_order=[column for column in table.columns if column != MEAN_COLUMN])
resampled = f"{dashboard.n_samples:,} bootstrap resamples, seed {dashboard.seed}"
if dashboard.baseline is not None:
    st.caption(escape_markdown(
        f"Best first. Δ and p-value: against the baseline {dashboard.baseline} (paired "
        f"bootstrap, as sacrebleu --paired-bs; {resampled}); better / worse: p < "
        f"{SIGNIFICANCE_LEVEL} in that direction. 95% CI: half-width of the bootstrap "
        "interval. Rank: systems the all-pairs test below cannot separate share one."))
else:
    st.caption(f"95% CI: half-width of the bootstrap interval ({resampled}).")
st.code(dashboard.signature, language=None)
_explore.resample_note()

other, other_signatures, other_ranks = {}, {}, {}
for metric, found in _metrics.all_results(data).items():
    other[metric] = _metrics.significance(data, metric)
    other_signatures[metric] = found.signature
    if len(systems) > 1:
        other_ranks[metric] = _significance.pairs(data, metric, "bs").ranks
for metric, results in other.items():
    higher = HIGHER_IS_BETTER[metric]
    st.markdown(f"**{metric}** ({'higher' if higher else 'lower'} is better)")
    _tables.show(comparison_table(results, metric=metric, higher_is_better=higher,
                                  baseline=dashboard.baseline, ranks=other_ranks.get(metric)),
                 comparison_columns(metric, higher), key=f"results_{metric}",
                 column_order=[c for c in comparison_columns(metric) if c != MEAN_COLUMN])
    st.code(other_signatures[metric], language=None)
if hint := _metrics.add_more_hint("score them beside BLEU (equal to sacrebleu's; computed "
                                   "once, then cached)"):
    st.caption(hint)

st.subheader("Downloads")
downloads = st.columns(4)
downloads[0].download_button("Table (CSV)", table_csv(dashboard), "bleu_table.csv",
                             "text/csv", key="download_csv", on_click="ignore")
downloads[1].download_button("Table (LaTeX)", table_latex(dashboard), "bleu_table.tex",
                             "text/x-tex", key="download_latex", on_click="ignore")
downloads[2].download_button(
    "Report (JSON)", json_report(dashboard, data=data.label, systems_files={
        name: file.name for name, file in data.systems.items()},
        references_files=[ref.name for ref in data.references]),
    "bleu_report.json", "application/json", key="download_json", on_click="ignore")
downloads[3].download_button(
    "Report (HTML)",
    lambda: html_report(dashboard, data_label=data.label, other=other,
                        signatures=other_signatures, ranks=other_ranks),
    "bleu_report.html", "text/html", key="download_html", on_click="ignore",
    help="Tables, signatures and charts in one file that opens offline (no CDN).")

if len(systems) > 1:
    st.subheader("All pairs")
    left, right = st.columns(2)
    metric = left.selectbox("Metric", ["BLEU", *other], key="pairs_metric")
    method = right.radio("Test", list(METHODS), format_func=METHODS.get, horizontal=True,
                         key="pairs_method")
    with st.spinner(f"Comparing every pair ({METHODS[method]})…"):
        pairs = (dashboard.pairs if (metric, method) == ("BLEU", "bs")
                 else _significance.pairs(data, metric, method))
    if pairs.too_few_samples:
        st.warning(escape_markdown(
            f"With {len(systems)} systems ({len(systems) * (len(systems) - 1) // 2} pairs) "
            f"Holm's correction needs at least {min_samples(len(systems)):,} samples before "
            f"any pair can reach p < {pairs.alpha}; this test has {pairs.n_samples:,}. Raise "
            "the bootstrap resamples in the sidebar, or use approximate randomization."))
    matrix, ranking = st.columns([5, 3])
    with matrix:
        _charts.show(st, charts.pairs_chart(pairs), key="pairs_chart", width="content")
    with ranking:
        ranked = pairs.ranking_table().drop(columns="cluster")
        _tables.show(ranked, {"rank": Column(help="WMT's clusters: a system starts a new rank "
                                                   "when every system above is significantly "
                                                   "better than every system from it down."),
                              pairs.metric: Column(SCORE, f"Corpus {pairs.metric}.")},
                     key="pairs_ranking", labels={"rank": "cluster rank"})
    st.caption(escape_markdown(
        f"Each cell: row − column; * and colour: significant after Holm's correction over all "
        f"pairs (p < {pairs.alpha}); hover a cell for the raw and adjusted p-values. Ranks as "
        "the WMT findings report them: the list is cut where every system above is "
        "significantly better than every system below; systems between two cuts share a rank."))

st.subheader("Charts")
scores = dashboard.scores
built = {
    "bleu": charts.bleu_chart(dashboard.significance, systems),
    "length": charts.length_chart(scores, systems),
    "precisions": charts.precisions_chart(scores, systems),
    "log_bleu": charts.decomposition_chart(scores, options),
}
grid = st.columns(2)
places = [grid[index % 2] for index in range(len(built))]
if other:  # one panel per metric: the page's whole width
    built["other_metrics"] = charts.metrics_chart(other, systems)
    places.append(st.container())
for place, (name, chart) in zip(places, built.items(), strict=True):
    with place:
        _charts.show(st, chart, width="stretch", key=f"chart_{name}")
        png, svg = st.columns(2)
        png.download_button("PNG", lambda chart=chart: charts.to_png(chart), f"{name}.png",
                            "image/png", key=f"download_{name}_png", on_click="ignore")
        svg.download_button("SVG", lambda chart=chart: charts.to_svg(chart), f"{name}.svg",
                            "image/svg+xml", key=f"download_{name}_svg", on_click="ignore")

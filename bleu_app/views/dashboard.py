"""The corpus dashboard: every system ranked by the metric the user picks, every metric beside
(BLEU, chrF, chrF++, TER, segment scores) with its difference to the baseline and what the
paired test says of it; every pair compared; charts; every download."""

import streamlit as st

from bleu import charts
from bleu.charts.report import html_report
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT, LEVEL, SCORE, SEED, Column
from bleu.evaluation.ranking import METHODS, min_samples
from bleu.evaluation.results import CHART_SYSTEMS, MAX_PAIRED_SYSTEMS, SIGNIFICANCE_LEVEL
from bleu.explore.dashboard import (
    MEAN_COLUMN,
    comparison_columns,
    json_report,
    metric_columns,
    metric_table,
    ranking_table,
    results_table,
    summary_columns,
    summary_table,
    table_columns,
    table_csv,
    table_latex,
)
from bleu.i18n import in_language, labels, language, tr
from bleu_app.scoring import _metrics, _significance
from bleu_app.session import _session, _state
from bleu_app.widgets import _charts, _explore, _tables

data = _session.dataset()
systems = list(data.systems)
st.title(tr("Corpus dashboard"))
st.caption(escape_markdown(tr(
    "{label}: {systems} systems, {refs} reference(s), {segments} segments").format(
    label=tr(data.label), systems=len(systems), refs=data.n_refs,
    segments=COUNT.text(data.n_segments))))

names = _metrics.names(data)
with st.spinner(tr("Scoring every system and resampling…")):
    dashboard = _significance.dashboard(data)
options = dashboard.options
order = options.max_ngram_order

st.subheader(tr("Scores"))
if len(names) > 1:
    st.selectbox(tr("Rank by"), names, format_func=show_controls,
                 index=_state.kept_index(_state.RANKING, names, "BLEU"), key=_state.RANKING,
                 help=tr("The metric whose clusters give the rank and whose scores order the "
                         "systems; every metric's own rank is beside its score."))
    _tables.show(summary_table(dashboard), summary_columns(dashboard), key="results_summary")
    st.caption(tr("Best first by {metric}. A rank is a cluster of systems the all-pairs test "
                  "of that metric cannot separate; details of each metric below.").format(
        metric=dashboard.ranking))

st.markdown(tr("**BLEU** (higher is better)"))
table = results_table(dashboard)
_tables.show(table, table_columns(order), key="results",
             column_order=[column for column in table.columns if column != MEAN_COLUMN])
resampled = tr("{n} bootstrap resamples, seed {seed}").format(
    n=COUNT.text(dashboard.n_samples), seed=SEED.text(dashboard.seed))
if dashboard.baseline is not None:
    st.caption(escape_markdown(tr(
        "Best first. Δ and p-value: against the baseline {baseline} (paired bootstrap, as "
        "sacrebleu --paired-bs; {resampled}); better / worse: p < {alpha} in that direction. "
        "95% CI: half-width of the bootstrap interval. Rank: systems the all-pairs test below "
        "cannot separate share one.").format(baseline=dashboard.baseline, resampled=resampled,
                                             alpha=LEVEL.text(SIGNIFICANCE_LEVEL))))
else:
    st.caption(tr("95% CI: half-width of the bootstrap interval ({resampled}).").format(
        resampled=resampled))
st.code(dashboard.bootstrap_signature, language=None)
_explore.resample_note()

for metric, found in dashboard.metrics.items():
    if metric == "BLEU":
        continue
    higher = found.higher_is_better
    st.markdown(tr("**{metric}** ({direction} is better)").format(
        metric=escape_markdown(metric),
        direction=tr("higher") if higher else tr("lower")))
    _tables.show(metric_table(found), metric_columns(found), key=f"results_{metric}",
                 column_order=[c for c in comparison_columns(metric) if c != MEAN_COLUMN])
    if found.scores.is_segment_scores:
        counts = {result.n_segments for result in found.significance.values()}
        st.caption(escape_markdown(tr(
            "Mean over each system's rated segments, from {source}; a system is tested "
            "against the baseline on the segments rated for both ({counts} segments).").format(
            source=found.scores.source,
            counts=", ".join(COUNT.text(n) for n in sorted(c for c in counts if c)))))
    st.code(found.tested_signature, language=None)
if hint := _metrics.add_more_hint(tr("score them beside BLEU (equal to sacrebleu's; computed "
                                     "once, then kept)")):
    st.caption(hint)

st.subheader(tr("Downloads"))
downloads = st.columns(4)
with in_language("en"):  # files keep English and the decimal point, whatever the interface's
    csv_file, latex_file = table_csv(dashboard), table_latex(dashboard)
    json_file = json_report(dashboard, data=data.label, systems_files={
        name: file.name for name, file in data.systems.items()},
        references_files=[ref.name for ref in data.references])
downloads[0].download_button(tr("Table (CSV)"), csv_file, "bleu_table.csv",
                             "text/csv", key="download_csv", on_click="ignore")
downloads[1].download_button(tr("Table (LaTeX)"), latex_file, "bleu_table.tex",
                             "text/x-tex", key="download_latex", on_click="ignore")
downloads[2].download_button(
    tr("Report (JSON)"), json_file,
    "bleu_report.json", "application/json", key="download_json", on_click="ignore")


def _report(lang: str = language()) -> str:
    """The HTML report in the interface language (read for the people it is shown to; made
    when asked for, maybe outside this run)."""
    with in_language(lang):
        return html_report(dashboard, data_label=tr(data.label))


downloads[3].download_button(
    tr("Report (HTML)"), _report,
    "bleu_report.html", "text/html", key="download_html", on_click="ignore",
    help=tr("Tables, signatures and charts in one file that opens offline (no CDN)."))

if len(systems) > 1:
    st.subheader(tr("All pairs"))
    left, right = st.columns(2)
    metric = left.selectbox(tr("Metric"), names, format_func=show_controls,
                           key="pairs_metric")
    method = right.radio(tr("Test"), list(METHODS), format_func=labels(METHODS),
                         horizontal=True, key="pairs_method")
    compared = None
    if len(systems) > MAX_PAIRED_SYSTEMS:
        compared = st.multiselect(
            tr("Systems to compare"), dashboard.ranked, default=dashboard.ranked[:20],
            max_selections=MAX_PAIRED_SYSTEMS, key="pairs_systems",
            help=tr("All pairs of up to {n} systems at once (they make {pairs} pairs).").format(
                n=MAX_PAIRED_SYSTEMS,
                pairs=COUNT.text(MAX_PAIRED_SYSTEMS * (MAX_PAIRED_SYSTEMS - 1) // 2)))
        st.caption(tr("{n} systems are loaded: the ranks above are left out (every pair of "
                      "them would be {pairs} tests), and all pairs are compared for the systems "
                      "chosen here, the 20 best by {metric} at first.").format(
            n=COUNT.text(len(systems)), pairs=COUNT.text(len(systems) * (len(systems) - 1) // 2),
            metric=dashboard.ranking))
    if compared is not None and len(compared) < 2:
        st.info(tr("Choose two or more systems to compare."))
        st.stop()
    with st.spinner(tr("Comparing every pair ({method})…").format(method=METHODS[method])):
        pairs = _significance.pairs(data, metric, method, compared)
    if pairs.too_few_samples:
        st.warning(escape_markdown(tr(
            "With {systems} systems ({pairs} pairs) Holm's correction needs at least {needed} "
            "samples before any pair can reach p < {alpha}; this test has {has}. Raise the "
            "bootstrap resamples in the sidebar, or use approximate randomization.").format(
            systems=len(pairs.names), pairs=len(pairs.names) * (len(pairs.names) - 1) // 2,
            needed=COUNT.text(min_samples(len(pairs.names))), alpha=LEVEL.text(pairs.alpha),
            has=COUNT.text(pairs.n_samples))))
    matrix, ranking = st.columns([5, 3])
    with matrix:
        _charts.show(st, charts.pairs_chart, pairs, key="pairs_chart", width="content")
    with ranking:
        ranked = ranking_table(pairs).drop(columns="cluster")
        _tables.show(ranked, {"rank": Column(help=tr(
                                  "WMT's clusters: a system starts a new rank when every "
                                  "system above is significantly better than every system "
                                  "from it down.")),
                              pairs.metric: Column(SCORE, tr("Corpus {metric}.").format(
                                  metric=pairs.metric))},
                     key="pairs_ranking", labels={"rank": tr("cluster rank")})
    st.caption(escape_markdown(tr(
        "Each cell: row − column; * and colour: significant after Holm's correction over all "
        "pairs (p < {alpha}); hover a cell for the raw and adjusted p-values. Ranks as the WMT "
        "findings report them: the list is cut where every system above is significantly "
        "better than every system below; systems between two cuts share a rank.").format(
        alpha=LEVEL.text(pairs.alpha))))
    if tested := pairs.tested_segments:
        st.caption(tr("Each pair is tested on the segments rated for both systems: {counts} "
                      "of {total}.").format(counts=", ".join(COUNT.text(n) for n in tested),
                                            total=COUNT.text(data.n_segments)))

st.subheader(tr("Charts"))
charted = set(dashboard.chart_systems())
shown = [name for name in systems if name in charted]  # the loaded order: charts sort themselves
if len(shown) < len(systems):
    st.caption(tr("The charts show the {n} best systems by {metric} (and the baseline) of "
                  "{total}; the tables above list them all.").format(
        n=CHART_SYSTEMS, metric=dashboard.ranking, total=COUNT.text(len(systems))))
scores = {name: dashboard.scores[name] for name in shown}
built = {  # each chart as its builder and arguments (``_charts.show`` keeps its spec)
    "bleu": (charts.bleu_chart, {name: dashboard.significance[name] for name in shown}, systems),
    "length": (charts.length_chart, scores, systems),
    "precisions": (charts.precisions_chart, scores, systems),
    "log_bleu": (charts.decomposition_chart, scores, options),
}
grid = st.columns(2)
places = [grid[index % 2] for index in range(len(built))]
other = {metric: found.only(shown) for metric, found in dashboard.metrics.items()
         if metric != "BLEU"}
if other:  # one panel per metric: the page's whole width
    built["other_metrics"] = (charts.metrics_chart, other, systems)
    places.append(st.container())
for place, (name, (builder, *args)) in zip(places, built.items(), strict=True):
    with place:
        _charts.show(st, builder, *args, width="stretch", key=f"chart_{name}")
        png, svg = st.columns(2)
        png.download_button(tr("PNG"), lambda made=(builder, args): charts.to_png(
            made[0](*made[1])), f"{name}.png", "image/png", key=f"download_{name}_png",
            on_click="ignore")
        svg.download_button(tr("SVG"), lambda made=(builder, args): charts.to_svg(
            made[0](*made[1])), f"{name}.svg", "image/svg+xml", key=f"download_{name}_svg",
            on_click="ignore")

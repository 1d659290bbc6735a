"""The corpus dashboard: one row per system, the signature, four charts, and every download."""

import streamlit as st

from bleu import charts
from bleu.analysis.dashboard import (
    SIGNIFICANCE_LEVEL,
    json_report,
    results_table,
    table_csv,
    table_latex,
)
from bleu.analysis.escaping import escape_markdown
from bleu.analysis.metric_scores import significance_table
from bleu.analysis.report import html_report
from views import _compute, _metrics, _session

data = _session.dataset()
st.title("Corpus dashboard")
st.caption(escape_markdown(
    f"{data.label}: {len(data.systems)} systems, {data.n_refs} reference(s), "
    f"{data.n_segments:,} segments"))

with st.spinner("Scoring every system and resampling…"):
    dashboard = _compute.dashboard()
options = dashboard.options
order = options.max_ngram_order

st.subheader("Scores")
number = st.column_config.NumberColumn
st.dataframe(
    results_table(dashboard), hide_index=True, key="results",
    column_config={
        "system": st.column_config.TextColumn("System"),
        "BLEU": number("BLEU", format="%.2f"),
        "mean": number("μ (bootstrap)", format="%.2f"),
        "95% CI ±": number("95% CI ±", format="%.2f"),
        "p-value": number("p-value", format="%.4f",
                          help="Paired bootstrap against the baseline; none for the baseline "
                               "itself."),
        "sig.": st.column_config.TextColumn("sig.", help=f"* : p < {SIGNIFICANCE_LEVEL}"),
        **{f"p{n}": number(f"p{n}", format="%.1f", help=f"{n}-gram precision (%)")
           for n in range(1, order + 1)},
        "BP": number("BP", format="%.3f", help="brevity penalty"),
        "ratio": number("ratio", format="%.3f", help="hypothesis length / reference length"),
    },
)
if dashboard.baseline is not None:
    st.caption(escape_markdown(
        f"p-values: paired bootstrap resampling against the baseline {dashboard.baseline} "
        f"({dashboard.n_samples} resamples, seed {dashboard.seed}); * marks p < "
        f"{SIGNIFICANCE_LEVEL}. μ ± CI: mean and 95% interval of the resampled scores."))
else:
    st.caption(f"μ ± CI: mean and 95% interval of {dashboard.n_samples} bootstrap resamples.")
st.code(dashboard.signature, language=None)

downloads = st.columns(3)
downloads[0].download_button("Table (CSV)", table_csv(dashboard), "bleu_table.csv",
                             "text/csv", key="download_csv", on_click="ignore")
downloads[1].download_button("Table (LaTeX)", table_latex(dashboard), "bleu_table.tex",
                             "text/x-tex", key="download_latex", on_click="ignore")
downloads[2].download_button(
    "Report (JSON)", json_report(dashboard, data=data.label, systems_files={
        name: file.name for name, file in data.systems.items()},
        references_files=[ref.name for ref in data.references]),
    "bleu_report.json", "application/json", key="download_json", on_click="ignore")

st.subheader("chrF, chrF++ and TER")
other, other_signatures = {}, {}
if not _metrics.chosen():
    st.caption("Choose chrF, chrF++ or TER under Also compute in the sidebar to score them "
               "beside BLEU (equal to sacrebleu's; computed once, then cached).")
for metric, found in _metrics.all_results(data).items():
    other[metric] = _metrics.significance(data, metric)
    other_signatures[metric] = found.signature
if other:
    other_table = significance_table(other)
    st.dataframe(other_table, hide_index=True, key="other_results",
                 column_config={column: number(column, format="%.4f" if column.endswith(" p")
                                               else "%.2f")
                                for column in other_table.columns if column != "system"})
    st.caption("μ ± : mean and 95% interval of the bootstrap resamples; p: paired bootstrap "
               "against the baseline, as sacrebleu's --paired-bs (TER: lower is better).")
    for metric, text in other_signatures.items():
        st.code(f"{metric}: {text}", language=None)
st.download_button(
    "Report (self-contained HTML)",
    lambda: html_report(dashboard, data_label=data.label, other=other,
                        signatures=other_signatures),
    "bleu_report.html", "text/html", key="download_html", on_click="ignore",
    help="Tables, signatures and charts in one file that opens offline (no CDN).")

st.subheader("Charts")
scores = dashboard.scores
built = {
    "bleu": charts.bleu_chart(dashboard.significance),
    "precisions": charts.precisions_chart(scores),
    "log_bleu": charts.decomposition_chart(scores, options),
    "length": charts.length_chart(scores),
}
grid = st.columns(2)
for index, (name, chart) in enumerate(built.items()):
    with grid[index % 2]:
        st.altair_chart(chart, width="stretch")
        png, svg = st.columns(2)
        png.download_button("PNG", lambda chart=chart: charts.to_png(chart), f"{name}.png",
                            "image/png", key=f"download_{name}_png", on_click="ignore")
        svg.download_button("SVG", lambda chart=chart: charts.to_svg(chart), f"{name}.svg",
                            "image/svg+xml", key=f"download_{name}_svg", on_click="ignore")

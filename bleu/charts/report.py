"""A self-contained HTML report of the corpus dashboard for a paper's appendix: no CDN, no network.

The tables are the dashboard's (best first, rank, difference to the baseline), numbers written
by the app's rule (``bleu.display.formatting``) and HTML-escaped; the charts are
``bleu.charts.dashboard`` rendered by vega-embed,
whose JavaScript bundle (from vl-convert, as Altair's ``inline=True`` uses it) is inlined in the
file, drawn as SVG. The chart spec is embedded with every ``<`` escaped, so text in it (system
names) can never close the script.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

import altair as alt
import pandas as pd
import vl_convert

from .._version import __version__
from ..display.escaping import escape_html, show_controls_frame
from ..display.formatting import COUNT, SEED, Column, text_frame
from ..evaluation.results import Dashboard
from ..explore.dashboard import (
    MEAN_COLUMN,
    metric_columns,
    metric_table,
    results_table,
    summary_columns,
    summary_table,
    table_columns,
)
from ..i18n import language, tr
from .dashboard import dashboard
from .locale import localized
from .text import visible_text

_STYLE = """<style>
  body { font-family: system-ui, sans-serif; margin: 2em; }
  table.scores { border-collapse: collapse; margin: 0.5em 0 1.5em; }
  table.scores th, table.scores td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
  code { font-size: 0.9em; }
</style>
"""


def _table_html(frame: pd.DataFrame, columns: Mapping[str, Column]) -> str:
    shown = show_controls_frame(text_frame(frame.drop(columns=[MEAN_COLUMN], errors="ignore"),
                                           columns))
    # headers in the interface language
    shown = shown.rename(columns=lambda name: tr((columns[name].label if name in columns
                                                  else "") or str(name)))
    return shown.to_html(index=False, escape=True, classes="scores", border=0)


def html_report(results: Dashboard, *, title: str | None = None, data_label: str = "") -> str:
    """The dashboard as one HTML file in the interface language: every metric's scores and
    signature, and the charts, all inlined."""
    title = title or tr("BLEU Explorer report")
    spec = json.dumps(localized(visible_text(dashboard(results))).to_dict()).replace(
        "<", "\\u003c")
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if data_label:
        parts.append("<p>{}</p>".format(html.escape(tr(
            "{label}: {systems} systems, {refs} reference(s), {segments} segments.")).format(
            label=escape_html(data_label), systems=len(results.scores), refs=results.n_refs,
            segments=COUNT.text(results.n_segments))))
    order = results.options.max_ngram_order
    if len(results.metrics) > 1:
        parts += ["<h2>{}</h2>".format(html.escape(tr(
                      "Every metric (best first by {metric})")).format(
                      metric=html.escape(results.ranking))),
                  _table_html(summary_table(results), summary_columns(results))]
    parts += ["<h2>BLEU</h2>", _table_html(results_table(results), table_columns(order)),
              "<p>{} <code>{}</code></p>".format(html.escape(tr("Signature:")),
                                                 html.escape(results.bootstrap_signature))]
    if results.baseline is not None:
        parts.append("<p>{}</p>".format(html.escape(tr(
            "p-values: paired bootstrap against {baseline} ({samples} resamples, seed "
            "{seed}). Rank: WMT's clusters from the paired bootstrap of every pair, "
            "Holm-corrected.")).format(baseline=escape_html(results.baseline),
                                       samples=COUNT.text(results.n_samples),
                                       seed=SEED.text(results.seed))))
    for metric, found in results.metrics.items():
        if metric == "BLEU":
            continue
        better = tr("higher is better") if found.higher_is_better else tr("lower is better")
        parts += [f"<h2>{escape_html(metric)} ({html.escape(better)})</h2>",
                  _table_html(metric_table(found), metric_columns(found)),
                  "<p>{} <code>{}</code></p>".format(html.escape(tr("Signature:")),
                                                     escape_html(found.tested_signature))]
        if found.scores.source:
            parts.append("<p>{}</p>".format(escape_html(tr("Scores from {source}.").format(
                source=found.scores.source))))
    parts += ["<h2>{}</h2>".format(html.escape(tr("Charts")))]
    footer = "<p><small>{}</small></p>".format(html.escape(tr(
        "Made with bleu-explorer {version}; scores as sacrebleu computes them.").format(
        version=__version__)))
    options = json.dumps({"renderer": "svg", "actions": False})
    return "\n".join([
        "<!DOCTYPE html>", f'<html lang="{language()}">', "<head>", '<meta charset="UTF-8">',
        f"<title>{html.escape(title)}</title>", _STYLE,
        f'<script type="text/javascript">\n{_bundle()}\n</script>', "</head>", "<body>",
        *parts, '<div id="dashboard"></div>',
        '<script type="text/javascript">',
        f"vegaEmbed('#dashboard', {spec}, {options}).catch(console.error);", "</script>",
        footer, "</body>", "</html>", ""])


def _bundle() -> str:
    """vega-embed with Vega and Altair's Vega-Lite version, as one script (vl-convert caches it)."""
    version = "_".join(alt.SCHEMA_VERSION.split(".")[:2])
    return vl_convert.javascript_bundle(vl_version=version)

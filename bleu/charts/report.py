"""A self-contained HTML report of the corpus dashboard for a paper's appendix: no CDN, no network.

The tables are the dashboard's (best first, rank, difference to the baseline), numbers written
by the app's rule (``bleu.analysis.formatting``) and HTML-escaped; the charts are
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
from ..analysis.dashboard import (
    MEAN_COLUMN,
    Dashboard,
    comparison_columns,
    results_table,
    summary_columns,
    summary_table,
    table_columns,
)
from ..analysis.escaping import escape_html, show_controls_frame
from ..analysis.formatting import Column, text_frame
from .dashboard import dashboard
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
    return shown.to_html(index=False, escape=True, classes="scores", border=0)


def html_report(results: Dashboard, *, title: str = "BLEU Explorer report",
                data_label: str = "") -> str:
    """The dashboard as one HTML file: every metric's scores and signature, and the charts,
    all inlined."""
    spec = json.dumps(visible_text(dashboard(results)).to_dict()).replace("<", "\\u003c")
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if data_label:
        parts.append(f"<p>{escape_html(data_label)}: {len(results.scores)} systems, "
                     f"{results.n_refs} reference(s), {results.n_segments:,} segments.</p>")
    order = results.options.max_ngram_order
    if len(results.metrics) > 1:
        parts += [f"<h2>Every metric (best first by {html.escape(results.ranking)})</h2>",
                  _table_html(summary_table(results), summary_columns(results))]
    parts += ["<h2>BLEU</h2>", _table_html(results_table(results), table_columns(order)),
              f"<p>Signature: <code>{html.escape(results.bootstrap_signature)}</code></p>"]
    if results.baseline is not None:
        parts.append(f"<p>p-values: paired bootstrap against {escape_html(results.baseline)} "
                     f"({results.n_samples} resamples, seed {results.seed}). Rank: WMT's "
                     "clusters from the paired bootstrap of every pair, Holm-corrected.</p>")
    for metric, found in results.metrics.items():
        if metric == "BLEU":
            continue
        higher = found.higher_is_better
        parts += [f"<h2>{escape_html(metric)} ({'higher' if higher else 'lower'} is better)</h2>",
                  _table_html(found.table(), comparison_columns(metric, higher)),
                  f"<p>Signature: <code>{escape_html(found.tested_signature)}</code></p>"]
        if found.scores.source:
            parts.append(f"<p>Scores from {escape_html(found.scores.source)}.</p>")
    parts += ["<h2>Charts</h2>"]
    footer = (f"<p><small>Made with bleu-explorer {__version__}; scores as sacrebleu computes "
              f"them.</small></p>")
    options = json.dumps({"renderer": "svg", "actions": False})
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="UTF-8">',
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

"""A self-contained HTML report of the corpus dashboard for a paper's appendix: no CDN, no network.

The tables are HTML-escaped; the charts are ``bleu.charts.dashboard`` rendered by vega-embed,
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

from .. import charts
from .._version import __version__
from .dashboard import Dashboard, results_table
from ..metrics.base import SignificanceResult
from .metric_scores import HIGHER_IS_BETTER, significance_table

_STYLE = """<style>
  body { font-family: system-ui, sans-serif; margin: 2em; }
  table.scores { border-collapse: collapse; margin: 0.5em 0 1.5em; }
  table.scores th, table.scores td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
  code { font-size: 0.9em; }
</style>
"""


def _table_html(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, escape=True, classes="scores", border=0,
                         float_format=lambda value: f"{value:.4g}" if abs(value) < 1 else
                         f"{value:.2f}", na_rep="")


def html_report(results: Dashboard, *, title: str = "BLEU Explorer report",
                data_label: str = "", other: Mapping[str, Mapping[str, SignificanceResult]]
                | None = None, signatures: Mapping[str, str] | None = None) -> str:
    """The dashboard as one HTML file: scores, signatures and charts, all inlined.

    ``other``: chrF/chrF++/TER significance by metric and system (``metric_scores``); their
    sacrebleu signatures go in ``signatures`` (metric -> signature).
    """
    spec = json.dumps(charts.dashboard(results, other).to_dict()).replace("<", "\\u003c")
    parts = [f"<h1>{html.escape(title)}</h1>"]
    if data_label:
        parts.append(f"<p>{html.escape(data_label)}: {len(results.systems)} systems, "
                     f"{results.n_refs} reference(s), {results.n_segments:,} segments.</p>")
    parts += ["<h2>BLEU</h2>", _table_html(results_table(results)),
              f"<p>Signature: <code>{html.escape(results.signature)}</code></p>"]
    if results.baseline is not None:
        parts.append(f"<p>p-values: paired bootstrap against {html.escape(results.baseline)} "
                     f"({results.n_samples} resamples, seed {results.seed}).</p>")
    if other:
        parts += ["<h2>chrF, chrF++ and TER</h2>", _table_html(significance_table(other))]
        for metric, signature in (signatures or {}).items():
            direction = "higher" if HIGHER_IS_BETTER.get(metric, True) else "lower"
            parts.append(f"<p>{html.escape(metric)} ({direction} is better): "
                         f"<code>{html.escape(signature)}</code></p>")
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

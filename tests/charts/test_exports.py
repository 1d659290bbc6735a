"""Every export with hostile system names (markup, a script, a bidi override, a spreadsheet
formula, LaTeX specials): CSV, LaTeX, JSON, SVG and the HTML report keep the names as text
and never let them act."""

from __future__ import annotations

import csv
import io
import json

import pytest

from bleu.charts.dashboard import bleu_chart, to_svg
from bleu.charts.report import html_report
from bleu.evaluation import Evaluation
from bleu.explore.dashboard import json_report, table_csv, table_latex

FORMULA = '=HYPERLINK("http://198.51.100.7/","x")'
SCRIPT = "</script><script>window.__pwned=1</script>"
BIDI = "gnp\u202eexe"
LATEX = r"$\frac{1}{2}$ & % # _ {x}"
NAMES = [FORMULA, SCRIPT, BIDI, LATEX]
REFS = [["the cat sat on the mat", "a dog barked at the cat", "it rained all day long"]]
HYPS = ["the cat sat on a mat", "a dog barked at a cat", "it rained the whole day"]


@pytest.fixture(scope="module")
def dashboard():
    systems = {name: HYPS[k:] + HYPS[:k] for k, name in enumerate(NAMES[:3])}
    systems[NAMES[3]] = HYPS
    return Evaluation(systems, REFS).dashboard(baseline=NAMES[3], n_samples=100)


def test_csv_cells_are_text_not_formulas(dashboard):
    rows = list(csv.reader(io.StringIO(table_csv(dashboard), newline="")))
    systems = {row[0] for row in rows[1:] if row and not row[0].startswith("#")}
    assert "'" + FORMULA in systems and FORMULA not in systems
    assert {SCRIPT, BIDI, LATEX} <= systems  # nothing else changed


def test_latex_escapes_every_special(dashboard):
    latex = table_latex(dashboard)
    assert r"\$\textbackslash{}frac\{1\}\{2\}\$ \& \% \# \_ \{x\}" in latex
    assert "$\\frac" not in latex


def test_json_keeps_names_exactly(dashboard):
    report = json.loads(json_report(dashboard))
    found = json.dumps(report, ensure_ascii=False)
    for name in NAMES:
        assert json.dumps(name, ensure_ascii=False)[1:-1] in found


def test_svg_shows_names_as_text(dashboard):
    svg = to_svg(bleu_chart(dashboard.significance))
    assert "<script" not in svg and "\u202e" not in svg
    assert "gnp⟨U+202E⟩exe" in svg


def test_html_report_cannot_run_a_name(dashboard):
    page = html_report(dashboard, data_label=SCRIPT + BIDI)
    assert "<script>window.__pwned=1</script>" not in page
    assert "</script><script>window" not in page
    assert "\u202e" not in page

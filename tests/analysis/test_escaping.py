"""CSV exports safe by construction: no cell a spreadsheet would run as a formula (OWASP), every
other cell and every number unchanged."""

from __future__ import annotations

import csv
import io

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.analysis.escaping import (
    escape_markdown,
    neutralize_csv_cell,
    safe_csv,
    show_controls_frame,
)

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def read_back(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_hostile_names_and_texts_become_text():
    frame = pd.DataFrame({"system": ['=HYPERLINK("http://127.0.0.1:9/x","hyp")', "@SUM(1)",
                                     "+1", "\tcmd", "plain"],
                          "BLEU": [1.5, -2.25, 3.0, 4.0, 5.0]})
    header, *rows = read_back(safe_csv(frame))
    assert header == ["system", "BLEU"]
    assert [row[0] for row in rows] == ["'=HYPERLINK(\"http://127.0.0.1:9/x\",\"hyp\")",
                                        "'@SUM(1)", "'+1", "'\tcmd", "plain"]
    assert [float(row[1]) for row in rows] == [1.5, -2.25, 3.0, 4.0, 5.0]  # numbers untouched


def test_column_names_are_neutralised_too():
    header = read_back(safe_csv(pd.DataFrame({"=cmd|' /C calc'!A0": ["x"]})))[0]
    assert header == ["'=cmd|' /C calc'!A0"]


@settings(deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=8))
def test_no_cell_starts_like_a_formula_and_nothing_else_changes(texts: list[str]) -> None:
    rows = read_back(safe_csv(pd.DataFrame({"text": texts})))[1:]
    for (cell,), original in zip(rows, texts, strict=True):
        assert not cell.startswith(FORMULA_START)
        expected = "'" + original if original.startswith(FORMULA_START) else original
        assert cell == expected


def test_non_text_cells_pass_through():
    assert neutralize_csv_cell(-3) == -3
    assert neutralize_csv_cell(None) is None


def test_addresses_in_markdown_never_become_links():
    """GFM links bare addresses after escapes are read: a word joiner breaks the pattern."""
    escaped = escape_markdown("see http://198.51.100.7/x, www.example.org or me@example.org")
    assert "http://" not in escaped.replace("\\", "")
    assert "www." not in escaped.replace("\\", "")
    assert "me@example" not in escaped.replace("\\", "")
    shown = escaped.replace("\\", "").replace("\u2060", "")
    assert shown == "see http://198.51.100.7/x, www.example.org or me@example.org"


def test_frames_show_controls_in_cells_headers_and_labels():
    frame = pd.DataFrame({"gnp\u202eexe": ["a\u202eb", "ok"], "BLEU": [1.0, 2.0]},
                         index=["x\u0007", "y"])
    shown = show_controls_frame(frame)
    assert list(shown.columns) == ["gnp⟨U+202E⟩exe", "BLEU"]
    assert list(shown.index) == ["x⟨U+0007⟩", "y"]
    assert list(shown["gnp⟨U+202E⟩exe"]) == ["a⟨U+202E⟩b", "ok"]
    assert list(shown["BLEU"]) == [1.0, 2.0]
    assert frame.columns[0] == "gnp\u202eexe"  # the original is untouched

"""CSV exports safe by construction: no cell a spreadsheet would run as a formula (OWASP), every
other cell and every number unchanged."""

from __future__ import annotations

import csv
import io

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.analysis.escaping import neutralize_csv_cell, safe_csv

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

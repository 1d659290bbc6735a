"""CSV exports safe by construction: no cell a spreadsheet would run as a formula (OWASP), every
other cell and every number unchanged."""

from __future__ import annotations

import csv
import io
import unicodedata

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.display.escaping import (
    escape_markdown,
    neutralize_csv_cell,
    safe_csv,
    show_controls,
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


#: the format characters shown by code point besides the controls: ALM, ZWSP, ZWNJ, ZWJ, LRM,
#: RLM, WJ, BOM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI
FORMATS_SHOWN = {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF,
                 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069}


def test_every_code_point_is_shown_as_itself_or_by_its_number():
    """Each of the 1,114,112 code points inside plain text: a control (category Cc) or one of
    the bidi and invisible format characters becomes ``⟨U+XXXX⟩``, any other stays as it is."""
    for code in range(0x110000):
        char = chr(code)
        shown = f"⟨U+{code:04X}⟩" if unicodedata.category(char) == "Cc" \
            or code in FORMATS_SHOWN else char
        assert show_controls(f"a{char}b") == f"a{shown}b", hex(code)


def test_frames_with_nothing_to_show_come_back_equal_and_apart():
    frame = pd.DataFrame({"system": ["A", "B\u00a0C"], "BLEU": [1.0, 2.0]}, index=["x", "y"])
    shown = show_controls_frame(frame)
    pd.testing.assert_frame_equal(shown, frame)
    shown.loc["x", "system"] = "changed"
    assert frame.loc["x", "system"] == "A"


def test_frames_show_controls_in_every_level_and_in_repeated_columns():
    levels = pd.DataFrame([["ok", 1.0]], columns=pd.MultiIndex.from_tuples(
        [("a\u202e", "x"), ("b", "y")]))
    assert list(show_controls_frame(levels).columns) == [("a⟨U+202E⟩", "x"), ("b", "y")]
    repeated = pd.DataFrame([["ok", "a\u0007"]], columns=["t", "t"])
    assert show_controls_frame(repeated).iloc[0].tolist() == ["ok", "a⟨U+0007⟩"]


def test_a_frame_with_one_odd_column_has_only_that_column_rewritten_and_is_not_changed():
    frame = pd.DataFrame({"plain": ["a", "b", "c"], "odd": ["x", "y\u202e", None],
                          "n": [1.0, 2.0, 3.0]}, index=[10, 11, 12])
    kept = frame.copy()
    shown = show_controls_frame(frame)
    pd.testing.assert_frame_equal(frame, kept)
    assert list(shown["odd"][:2]) == ["x", "y⟨U+202E⟩"] and pd.isna(shown["odd"].iloc[2])
    assert list(shown["plain"]) == ["a", "b", "c"] and list(shown["n"]) == [1.0, 2.0, 3.0]
    assert list(shown.index) == [10, 11, 12] and shown.dtypes.equals(frame.dtypes)

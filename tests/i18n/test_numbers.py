"""The one number rule in Dutch: the same digits as in English (rounded once), a decimal comma
and a point for thousands (Babel's CLDR data for nl), a dash for a missing value; ``plain`` and
files keep the point."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu.display import formatting
from bleu.display.formatting import (
    BP,
    COUNT,
    DELTA,
    MISSING,
    P_VALUE,
    PLAIN,
    SCORE,
    SEED,
    TINY,
    d3_locale,
    tex,
)
from bleu.i18n import in_language, set_language

RULES = [rule for rule in vars(formatting).values() if isinstance(rule, formatting.NumberFormat)]


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    set_language("en")


def _swap_separators(english: str) -> str:
    """The Dutch writing of an English number, by hand: ',' and '.' trade places."""
    return english.translate(str.maketrans({",": ".", ".": ","}))


@pytest.mark.parametrize(("rule", "value", "dutch"), [
    (SCORE, 52.3214, "52,32"), (SCORE, 0.0, "0,00"), (SCORE, -1.005, "-1,00"),
    (DELTA, 1.5, "+1,50"), (DELTA, -0.001, "+0,00"), (DELTA, -2.25, "-2,25"),
    (COUNT, 1234567, "1.234.567"), (COUNT, 999, "999"), (P_VALUE, 0.0123, "0,0123"),
    (BP, 0.94512, "0,9451"), (SEED, 12345, "12345"), (PLAIN, 0.1, "0,1"), (PLAIN, 2.0, "2"),
    (TINY, 1.4e-14, "1,4e-14"),
])
def test_dutch_numbers_take_a_decimal_comma(rule: formatting.NumberFormat, value: float,
                                            dutch: str) -> None:
    set_language("nl")
    assert rule.text(value) == dutch


@pytest.mark.parametrize("rule", RULES)
def test_a_missing_value_is_a_dash_in_every_language(rule: formatting.NumberFormat) -> None:
    for code in ("en", "nl"):
        with in_language(code):
            assert rule.text(None) == rule.text(math.nan) == MISSING == "–"


@given(value=st.floats(min_value=-1e7, max_value=1e7, allow_nan=False),
       index=st.integers(min_value=0, max_value=len(RULES) - 1))
def test_dutch_writes_the_english_digits_with_its_separators(value: float, index: int) -> None:
    rule = RULES[index]
    with in_language("en"):
        english = rule.text(value)
    with in_language("nl"):
        assert rule.text(value) == _swap_separators(english)
        assert rule.plain(value) == english  # files keep the point in any language


def test_english_is_unchanged() -> None:
    assert SCORE.text(52.3214) == "52.32"
    assert COUNT.text(1234567) == "1,234,567"
    assert DELTA.text(-0.001) == "+0.00"


def test_vega_gets_the_languages_separators() -> None:
    assert d3_locale()["decimal"] == "."
    with in_language("nl"):
        locale = d3_locale()
        assert (locale["decimal"], locale["thousands"]) == (",", ".")


def test_tex_braces_the_decimal_comma() -> None:
    assert tex(r"\exp(x) = 0.5") == r"\exp(x) = 0.5"
    with in_language("nl"):
        assert tex(r"\exp(x) = " + BP.text(0.5)) == r"\exp(x) = 0{,}5000"


# --- numbers the core writes into its messages and labels, by the rule ------------------------

def test_bucket_labels_in_dutch_take_a_decimal_comma_and_a_semicolon() -> None:
    from bleu.explore.compare import bucket_labels

    cutoffs = [0.5, 1, 2, 3.5]
    assert bucket_labels(cutoffs) == ["<0.5", "[0.5,1)", "1", "[2,3.5)", ">=3.5"]
    with in_language("nl"):  # "[0,5,1)" would read as three numbers
        assert bucket_labels(cutoffs) == ["<0,5", "[0,5; 1)", "1", "[2; 3,5)", ">=3,5"]


def test_interpretation_bands_are_written_by_the_rule() -> None:
    from bleu.teaching.interpretation import Band

    band = Band(12.5, 20, "x")
    assert band.label == "12.5–20"
    with in_language("nl"):
        assert band.label == "12,5–20"
        assert Band(0, 10, "x").label == "< 10" and Band(60, math.inf, "x").label == "> 60"


def test_the_upload_limit_message_in_dutch_writes_a_decimal_comma() -> None:
    from bleu.io.decode import check_size
    from bleu.io.model import ReadError

    with in_language("nl"), pytest.raises(ReadError) as refused:
        check_size(bytes(200 * 2**20 + 1), "y.txt", limit_mb=200)
    # 200 MiB + 1 byte is rounded up to 200.1 (never "200"); the limit as given
    assert "is 200,1 MB; de grens is 200 MB" in str(refused.value)


def test_the_copied_reference_notes_in_dutch() -> None:
    from bleu.io.checks import identical_lines_note
    from bleu.io.dataset import _warnings
    from bleu.io.model import TextFile

    ref = TextFile("ref", ("a", "b", "c", "d"))
    system = TextFile("sys", ("a", "b", "c", "x"))
    with in_language("nl"):
        assert identical_lines_note(system, ref) == (
            "sys is op 75% van de regels gelijk aan de referentie ref: is het de referentie, "
            "als systeem geüpload (of omgekeerd)?")
        notes = _warnings({"sys": system}, [ref])
    assert any("op 75% van zijn regels gelijk aan referentie ref" in note for note in notes)

"""The one formatting rule: each kind of number written the same way in Python text, Streamlit
columns and Vega-Lite tooltips; missing values as a dash."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bleu.display.formatting import (
    COUNT,
    DELTA,
    MISSING,
    P_VALUE,
    PRECISION,
    RATIO,
    SCORE,
    SMALL_DELTA,
    Column,
    display_frame,
    metric_delta,
    text_frame,
)


def test_each_kind_by_hand():
    assert SCORE.text(26.4912) == "26.49" and SCORE.text(82.2134) == "82.21"
    assert DELTA.text(2.249) == "+2.25" and DELTA.text(-0.006) == "-0.01"
    assert PRECISION.text(58.2879) == "58.3"
    assert P_VALUE.text(1 / 1001) == "0.0010"
    assert RATIO.text(1.0109) == "1.011" and RATIO.text(1.017) == "1.017"
    assert COUNT.text(39525) == "39,525" and COUNT.text(2037.0) == "2,037"


def test_missing_values_are_a_dash():
    assert MISSING == "–"
    assert P_VALUE.text(None) == MISSING and DELTA.text(math.nan) == MISSING
    assert SCORE.text(np.float64("nan")) == MISSING


def test_streamlit_and_vega_formats_say_the_same():
    assert (SCORE.printf, SCORE.d3) == ("%.2f", ".2f")
    assert (DELTA.printf, DELTA.d3) == ("%+.2f", "+.2f")
    assert (P_VALUE.printf, P_VALUE.d3) == ("%.4f", ".4f")
    assert (RATIO.printf, PRECISION.printf) == ("%.3f", "%.1f")
    assert (COUNT.printf, COUNT.d3) == ("localized", ",.0f")


def test_frames_become_text_only_where_needed():
    frame = pd.DataFrame({"system": ["a", "b"], "p": [None, 0.01234], "BLEU": [50.0, 49.123]})
    columns = {"system": Column(), "p": Column(P_VALUE), "BLEU": Column(SCORE)}
    shown = display_frame(frame, columns)
    assert list(shown["p"]) == ["–", "0.0123"]  # a missing value: the column becomes text
    assert shown["BLEU"].dtype == np.float64  # no missing value: numbers, that sort
    assert list(text_frame(frame, columns)["BLEU"]) == ["50.00", "49.12"]
    assert frame["p"].isna().iloc[0]  # the caller's frame is left as it was


def test_a_change_that_rounds_to_zero_has_no_minus_and_no_arrow():
    assert DELTA.text(-0.004) == "+0.00" == DELTA.text(0.004) and SCORE.text(-0.001) == "0.00"
    assert SMALL_DELTA.text(-0.00004) == "+0.0000" and SMALL_DELTA.text(-0.0002) == "-0.0002"
    assert DELTA.shows_zero(-0.004) and not DELTA.shows_zero(-0.006)
    assert metric_delta(-0.004) == {"delta": "+0.00", "delta_arrow": "off", "delta_color": "off"}
    assert metric_delta(1.5, suffix=" vs uniform") == {"delta": "+1.50 vs uniform"}
    assert metric_delta(-0.0002, SMALL_DELTA) == {"delta": "-0.0002"}
    # a data grid's printf would write -0.004 as "-0.00": the value shown is set to 0.0
    frame = pd.DataFrame({"Δ": [-0.004, -0.006, 0.5]})
    shown = display_frame(frame, {"Δ": Column(DELTA)})
    assert list(shown["Δ"]) == [0.0, -0.006, 0.5] and math.copysign(1, shown["Δ"].iloc[0]) == 1

"""The MQM segment-score reader against the real files (read a second way here) and bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_DATA, SHARED_DATA

from bleu.errors import InputError
from bleu.evaluation.systems import match_scores
from bleu.io.scores.mqm import parse_mqm, read_mqm

ENDE_FILE = "wmt21_newstest2021_en-de/mqm_newstest2021_ende.avg_seg_scores.tsv"
ENDE = REPO_DATA / ENDE_FILE
ZHEN = REPO_DATA / "wmt21_newstest2021_zh-en" / "mqm_newstest2021_zhen.avg_seg_scores.tsv"
#: system-level MQM of the Google README (newstest2021 en-de), as quoted in data/MANIFEST.md
PUBLISHED_ENDE = {"VolcTrans-GLAT": 1.04, "Facebook-AI": 1.05, "NVIDIA-NeMo": 1.34,
                  "HuaweiTSC": 1.38, "Online-W": 1.46, "UEdin": 1.51, "eTranslation": 1.70,
                  "VolcTrans-AT": 1.74, "ref-A": 1.22, "ref-C": 0.51}


def _pandas(path):
    """The same file read with pandas: split on any whitespace, 'None' as missing."""
    return pd.read_csv(path, sep=r"\s+", na_values=["None"])


@pytest.mark.parametrize("path", [ENDE, ZHEN])
def test_reader_matches_a_pandas_reading(path):
    mqm = read_mqm(path)  # the file's own system names
    frame = _pandas(path)
    assert set(mqm.systems) == set(frame.system)
    assert mqm.n_segments == frame.seg_id.max()
    for name, group in frame.groupby("system"):
        expected = np.full(mqm.n_segments, np.nan)
        expected[group.seg_id.to_numpy() - 1] = group.mqm_avg_score.to_numpy()
        np.testing.assert_array_equal(mqm.scores(name), expected)
        assert mqm.system_score(name) == pytest.approx(group.mqm_avg_score.mean())


@pytest.mark.full_data
def test_unrated_segments_and_published_system_scores():
    mqm = match_scores(read_mqm(SHARED_DATA / ENDE_FILE),  # the whole file
                       list(PUBLISHED_ENDE)).scores  # MQM's Nemo is matched to NVIDIA-NeMo
    # MANIFEST: 475 of 1002 segments are unrated (None) for en-de
    assert len(mqm.rated_segments("Facebook-AI")) == 1002 - 475
    for name, published in PUBLISHED_ENDE.items():
        assert round(-mqm.system_score(name), 2) == published, name


def test_mqm_names_are_matched_to_wmt_names_with_a_note():
    matched = match_scores(read_mqm(ENDE), ["Facebook-AI", "NVIDIA-NeMo"])
    assert matched.scores.systems == ("Facebook-AI", "NVIDIA-NeMo")
    np.testing.assert_array_equal(matched.scores.scores("NVIDIA-NeMo"),
                                  read_mqm(ENDE).scores("Nemo"))
    assert any("'Nemo' is taken as NVIDIA-NeMo" in note for note in matched.notes)


HEADER = "system mqm_avg_score seg_id\n"


@pytest.mark.parametrize(("text", "message"), [
    ("", "line 1: expected the header"),
    ("system score seg\nA\t-1.0 1\n", "line 1: expected the header"),
    (HEADER + "A\t-1.0\n", "line 2: expected 3 fields"),
    (HEADER + "A\t-1.0 1\nA\tbad 2\n", "line 3: expected a number"),
    (HEADER + "A\t-1.0 1\nA\t-2.0 1\n", "line 3: system 'A' has segment 1 twice"),
    (HEADER + "A\t-1.0 0\n", "line 2: segment ids start at 1"),
    (HEADER, "expected at least one score row"),
])
def test_bad_files_are_refused_with_the_line(text, message):
    with pytest.raises(InputError, match=message):
        parse_mqm(text, "upload.tsv")


def test_small_file_by_hand():
    mqm = parse_mqm(HEADER + "A\t-1.0 1\nA\tNone 2\nA\t-3.0 3\nNemo\t0.0 2\n")
    assert mqm.systems == ("A", "Nemo")  # the file's names: matching maps Nemo (systems.py)
    assert mqm.system_score("A") == pytest.approx(-2.0)  # mean of -1 and -3; None skipped
    assert list(mqm.rated_segments("A")) == [0, 2]
    assert math.isnan(mqm.scores("Nemo")[0])

"""bleu.io.scores.read: the bundled WMT21 MQM file loads as published; TSV/CSV score files; clear
messages for bad files (matching names to systems: tests/evaluation/test_systems.py)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bleu.errors import ReadError
from bleu.io.scores.read import parse_scores, read_scores

REPO = Path(__file__).resolve().parents[2]
MQM_FILE = REPO / "sample_data" / "wmt21_en-de_mqm" / "mqm_newstest2021_ende.avg_seg_scores.tsv"
LOADED = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
          "VolcTrans-GLAT", "eTranslation"]


def test_mqm_file_loads_as_published():
    scores = read_scores(MQM_FILE, n_segments=1002)
    assert scores.label == "MQM"
    assert scores.source == MQM_FILE.name  # named as an upload would be: no server path
    assert "Nemo" in scores.systems and "ref-A" in scores.systems
    assert scores.matrix.shape == (len(scores.systems), 1002)
    # hand-checked facts of the file (MANIFEST): 475 of 1002 segments unrated, scores <= 0
    facebook = scores.scores("Facebook-AI")
    assert int(np.isnan(facebook).sum()) == 475
    assert np.nanmax(scores.matrix) <= 0
    # the Google README's system-level MQM: Facebook-AI 1.05, VolcTrans-GLAT 1.04
    assert -np.nanmean(facebook) == pytest.approx(1.05, abs=0.005)
    line = next(text for text in MQM_FILE.read_text("utf-8").splitlines()[1:]
                if text.startswith("Facebook-AI") and "None" not in text)
    value, seg = line.split()[1:]
    assert facebook[int(seg) - 1] == float(value)


def test_csv_and_tsv_with_headers():
    csv_text = "system,seg_id,COMET\nA,1,0.5\nA,3,None\nB,2,-0.25\nB,1,\n"
    scores = parse_scores(csv_text.encode(), "comet.csv", n_segments=4)
    assert scores.label == "COMET" and scores.systems == ("A", "B")
    assert scores.matrix.shape == (2, 4)
    assert scores.scores("A")[0] == 0.5 and math.isnan(scores.scores("A")[2])
    assert scores.scores("B")[1] == -0.25 and scores.rated() == 2
    tsv = parse_scores("model\tsegment\tscore\nA\t2\t70\n", "da_scores.tsv")
    assert tsv.label == "da_scores" and tsv.n_segments == 2


@pytest.mark.parametrize(("text", "message"), [
    ("sys,seg_id\nA,1\n", "exactly one score column"),
    ("who,seg_id,x\nA,1,2\n", "expected a system column"),
    ("system,seg_id,x\nA,one,2\n", "line 2: expected an integer segment id, found 'one'"),
    ("system,seg_id,x\nA,0,2\n", "line 2: segment ids start at 1"),
    ("system,seg_id,x\nA,1,2\nA,1,3\n", "line 3: system 'A' has segment 1 twice"),
    ("system,seg_id,x\nA,1,good\n", "line 2: expected a number"),
    ("system,seg_id,x\nA,1\n", "line 2: expected 3 fields, found 2"),
    ("system,seg_id,x\nA,9,1\n", "scores segment 9, but the loaded test set has 5"),
    ("system mqm_avg_score seg_id\nA\tx 1\n", "line 2: expected a number"),
])
def test_bad_files_say_where(text, message):
    with pytest.raises(ReadError, match=message):
        parse_scores(text.encode(), "bad.csv", n_segments=5)

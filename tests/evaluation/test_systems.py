"""The one system-name matching policy (bleu.evaluation.systems), which the app, the command line
and workspaces use: aliases, keys from paths and file names, WMT's MQM names with a note, case
differences suggested and never applied, clashes and ambiguity refused, the file's other
systems left out with a note."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bleu.errors import InputError
from bleu.evaluation.systems import (
    AliasHint,
    UnmatchedSystemsError,
    check_aliases,
    match_scores,
    suggest_aliases,
)
from bleu.io.scores.read import parse_scores, read_scores

REPO = Path(__file__).resolve().parents[2]
MQM_FILE = REPO / "sample_data" / "wmt21_en-de_mqm" / "mqm_newstest2021_ende.avg_seg_scores.tsv"
LOADED = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
          "VolcTrans-GLAT", "eTranslation"]
CLI = AliasHint("scored here", "given with -i", "--scores-alias {name}={system}",
                "map a file's name to a system with --scores-alias FILE_NAME=SYSTEM.",
                "--scores-alias says otherwise")


def scores_of(rows: str, source: str = "x.tsv"):
    return parse_scores("system\tseg_id\tCOMET\n" + rows, source)


def test_mqm_names_are_matched_with_a_note_and_references_left_out():
    scores = read_scores(MQM_FILE, n_segments=1002)
    found = match_scores(scores, LOADED)
    assert found.scores.systems == tuple(LOADED)  # in the loaded order
    np.testing.assert_array_equal(found.scores.scores("NVIDIA-NeMo"), scores.scores("Nemo"))
    assert found.notes == (f"{MQM_FILE.name}: the system 'Nemo' is taken as NVIDIA-NeMo (WMT's "
                           "MQM name for it; a mapping says otherwise).",)
    left_out = set(scores.systems) - set(LOADED) - {"Nemo"}  # MQM's references, metric systems
    assert left_out >= {"ref-A", "ref-B", "metricsystem1"}
    assert set(found.unmatched_file) == left_out and not found.unmatched_loaded
    assert (f"{len(left_out)} system(s) with MQM scores are not loaded and are left out"
            in found.left_out())
    assert not found.scores.matrix.flags.writeable


def test_an_alias_wins_over_the_mqm_name():
    scores = read_scores(MQM_FILE, n_segments=1002)
    found = match_scores(scores, LOADED, {"Nemo": "UEdin", "UEdin": "NVIDIA-NeMo"})
    np.testing.assert_array_equal(found.scores.scores("UEdin"), scores.scores("Nemo"))
    np.testing.assert_array_equal(found.scores.scores("NVIDIA-NeMo"), scores.scores("UEdin"))
    assert found.notes == ()


def test_case_differences_are_suggested_never_applied():
    scores = scores_of("facebook-ai\t1\t0.5\n")
    assert suggest_aliases(scores.systems, LOADED) == {"facebook-ai": "Facebook-AI"}
    with pytest.raises(UnmatchedSystemsError,
                       match=re.escape("none of its systems is loaded") + ".*"
                             + re.escape("did you mean facebook-ai → Facebook-AI")):
        match_scores(scores, LOADED)


def test_paths_base_names_and_guessed_names_are_keys():
    scores = scores_of("UEdin\t1\t0.5\nOnline-W\t1\t0.4\n")
    systems = ["runs/newstest2021.en-de.hyp.UEdin.de", "Online-W.de"]
    found = match_scores(scores, systems, require_all=True, hint=CLI)
    assert found.scores.systems == tuple(systems)
    assert found.scores.scores(systems[0])[0] == 0.5


def test_ambiguity_clashes_and_missing_systems_are_refused_with_the_callers_words():
    scores = scores_of("UEdin\t1\t0.5\nEdinburgh\t1\t0.4\n", "good.tsv")
    with pytest.raises(InputError, match=re.escape(
            "good.tsv: 'UEdin' fits 2 systems (UEdin.de, ./UEdin.de); map it to one with "
            "--scores-alias UEdin=SYSTEM")):
        match_scores(scores, ["UEdin.de", "./UEdin.de"], hint=CLI)
    with pytest.raises(InputError, match="both stand for UEdin"):
        match_scores(scores, ["UEdin"], {"Edinburgh": "UEdin"})
    with pytest.raises(InputError, match=re.escape(
            "good.tsv: no COMET scores for Online-W; the file scores UEdin, Edinburgh; map a "
            "file's name to a system with --scores-alias")):
        match_scores(scores, ["UEdin", "Online-W"], require_all=True, hint=CLI)
    assert match_scores(scores, ["UEdin", "Online-W"]).unmatched_loaded == ("Online-W",)


def test_unrated_systems_are_refused_only_where_every_system_needs_a_score():
    scores = scores_of("A\t1\t0.5\nB\t1\tNone\nB\t2\tNone\nA\t2\t0.1\n")
    assert match_scores(scores, ["A", "B"]).scores.systems == ("A", "B")
    with pytest.raises(InputError, match="no segment of B has a COMET score"):
        match_scores(scores, ["A", "B"], require_all=True)


def test_aliases_name_a_file_system_and_a_system_scored_here():
    scores = scores_of("A\t1\t0.5\n")
    check_aliases({"A": "X"}, [scores], ["X"], CLI)
    with pytest.raises(InputError, match="--scores-alias Nemo=UEdin: no score file has a "
                                         "system 'Nemo'"):
        check_aliases({"Nemo": "UEdin"}, [scores], ["UEdin"], CLI)
    with pytest.raises(InputError, match="--scores-alias A=Nobody: 'Nobody' is not a system "
                                         "given with -i"):
        check_aliases({"A": "Nobody"}, [scores], ["UEdin"], CLI)

"""Segment scores in every format a user has (JSON Lines, comet-score's printout and its
--to_json file, one file per system): read to the same scores, and bad files refused with a
message naming the file and the line, as tables are."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bleu.errors import InputError, ReadError
from bleu.evaluation.systems import match_scores
from bleu.io.scores.read import parse_score_files, parse_scores

#: two systems' scores on 3 segments; B leaves segment 2 unrated
SCORES = {"UEdin": [0.81, 0.42, 0.5], "Online-W": [0.77, None, 0.9]}


def _expected(scores) -> None:
    assert scores.systems == ("UEdin", "Online-W")
    assert scores.scores("UEdin").tolist() == [0.81, 0.42, 0.5]
    online = scores.scores("Online-W")
    assert online[0] == 0.77 and math.isnan(online[1]) and online[2] == 0.9


def test_comet_score_printout() -> None:
    # unbabel-comet 2.x: "FILE\tSegment I\tscore: S" (I from 0), then "FILE\tscore: S"
    lines = []
    for name, values in SCORES.items():
        for i, value in enumerate(values):
            if value is not None:
                lines.append(f"sys/newstest2021.en-de.hyp.{name}.de\tSegment {i}\tscore: "
                             f"{value:.4f}")
    lines += ["sys/newstest2021.en-de.hyp.UEdin.de\tscore: 0.5767", "Predictions saved in: x."]
    scores = parse_scores("\n".join(lines).encode(), "comet.txt", n_segments=3)
    assert scores.label == "COMET" and scores.higher_is_better
    _expected(scores)


def test_comet_score_json_with_error_spans() -> None:
    data = {f"newstest2021.en-de.hyp.{name}.de": [
        {"src": "s", "mt": "m", "ref": "r", "COMET": value,
         "errors": [{"start": 0, "end": 1, "severity": "minor", "text": "m"}]}
        for value in values] for name, values in SCORES.items()}
    scores = parse_scores(json.dumps(data).encode(), "xcomet.json", label="xCOMET")
    assert scores.label == "xCOMET"
    _expected(scores)


def test_json_lines() -> None:
    lines = [json.dumps({"system": name, "seg_id": i + 1, "BLEURT": value})
             for name, values in SCORES.items() for i, value in enumerate(values)]
    scores = parse_scores("\n".join(lines).encode(), "bleurt.jsonl")
    assert scores.label == "BLEURT"
    _expected(scores)


def test_one_file_per_system_joins_into_one_metric() -> None:
    files = [(b"0.81\n0.42\n0.5\n", "newstest2021.en-de.hyp.UEdin.de.comet"),
             (b"0.77\n\n0.9\n", "newstest2021.en-de.hyp.Online-W.de.comet")]
    (scores,) = parse_score_files(files, n_segments=3)
    assert scores.label == "COMET"
    _expected(scores)


def test_metricx_is_lower_is_better_and_mqm_higher() -> None:
    penalties = parse_scores(b"system\tseg_id\tMetricX-23\nA\t1\t3.5\n", "m.tsv")
    assert not penalties.higher_is_better
    assert parse_scores(b"system,seg_id,COMET\nA,1,0.5\n", "c.csv").higher_is_better


@pytest.mark.parametrize(("text", "name", "message"), [
    (b"system,seg_id,COMET\nA,1,0.5\nA,1,0.6\n", "c.csv", r"c\.csv, line 3: .*segment 1 twice"),
    (b"system,seg_id,COMET\nA,1,abc\n", "c.csv", r"c\.csv, line 2: expected a number"),
    (b"system,seg_id,COMET\nA,1,nan\n", "c.csv", r"c\.csv, line 2: expected a finite number"),
    (b"system,seg_id,COMET\nA,0,0.5\n", "c.csv", r"c\.csv, line 2: segment ids start at 1"),
    (b'{"system": "A", "seg_id": 1, "x": 1}\n{"system": "A", "seg_id": "two", "x": 1}\n',
     "s.jsonl", r"s\.jsonl, line 2: expected an integer segment id"),
    (b"f\tSegment 0\tscore: 0.5\nf\tSegment 0\tscore: 0.6\n", "o.txt", r"o\.txt, line 2: .*twice"),
    (b"0.5\nNaN\n", "A.comet", r"A\.comet, line 2: expected a finite number"),
    (b"", "e.tsv", r"e\.tsv: the file is empty"),
])
def test_bad_files_name_file_and_line(text: bytes, name: str, message: str) -> None:
    with pytest.raises(ReadError, match=message):
        parse_scores(text, name)


def test_a_file_for_another_test_set_and_unknown_systems() -> None:
    with pytest.raises(ReadError, match=r"c\.csv: scores segment 5, but the loaded test set "
                                        r"has 3 segments"):
        parse_scores(b"system,seg_id,COMET\nA,5,0.5\n", "c.csv", n_segments=3)
    scores = parse_scores(b"system,seg_id,COMET\nA,1,0.5\nZ,1,0.4\n", "c.csv", n_segments=3)
    matched = match_scores(scores, ["A", "B"])
    assert matched.scores.systems == ("A",) and "Z" in matched.message()
    with pytest.raises(InputError, match="none of its systems is loaded"):
        match_scores(scores, ["B"])


def test_one_system_twice_is_refused() -> None:
    files = [(b"0.5\n", "UEdin.comet"), (b"0.6\n", "UEdin.comet")]
    with pytest.raises(InputError, match=r"UEdin.*already"):
        parse_score_files(files)
    assert np.isnan(parse_score_files([(b"0.5\n", "A.comet")], n_segments=2)[0].matrix[0, 1])

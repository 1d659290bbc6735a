"""Streaming BLEU in chunks equals BLEU on the whole corpus, and stream errors name the stream."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO_DATA

import bleu
from bleu.errors import LengthMismatchError, ReadError
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.streaming import read_lines, score_totals, stream_totals

WMT21 = REPO_DATA / "wmt21_newstest2021_en-de"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.mark.parametrize("chunk", [1, 7, 33, 5000])
def test_chunked_totals_equal_whole_corpus(chunk: int) -> None:
    refs = sorted(WMT21.glob("*.ref.*"))
    hyp = WMT21 / "newstest2021.en-de.hyp.Facebook-AI.de"
    options = BLEUOptions()
    totals = stream_totals(read_lines(hyp), [read_lines(r) for r in refs], options,
                           chunk_segments=chunk)
    whole = bleu.corpus_bleu(_lines(hyp), [_lines(r) for r in refs])
    streamed = score_totals(totals, options)
    assert streamed.score == whole.score
    assert streamed.counts == whole.counts and streamed.ref_len == whole.ref_len
    assert streamed.signature == whole.signature
    assert totals.n_segments == 100 and totals.n_refs == 3


def test_variable_references_give_var_signature() -> None:
    hyps = ["a b c", "d e f", "g h"]
    refs = [["a b c", "d e", "g h"], ["a b", None, "g"]]
    options = BLEUOptions()
    totals = stream_totals(hyps, refs, options, chunk_segments=2)
    assert totals.n_refs == -1
    assert score_totals(totals, options).score == bleu.corpus_bleu(hyps, refs).score
    assert "nrefs:var" in score_totals(totals, options).signature


def test_stream_ending_early_names_the_stream() -> None:
    with pytest.raises(LengthMismatchError, match=r"reference 1 ended after 2 segments"):
        stream_totals(["a", "b", "c"], [["a", "b"]], BLEUOptions(), chunk_segments=2)


def test_read_lines_keeps_empty_lines_and_strips_crlf(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(b"one\r\n\r\ntwo\nthree")
    assert list(read_lines(path)) == ["one", "", "two", "three"]


def test_read_lines_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("ok\nna\u00efve\n".encode("latin-1"))
    with pytest.raises(ReadError, match=r"latin1.txt, line 2: not valid utf-8"):
        list(read_lines(path))

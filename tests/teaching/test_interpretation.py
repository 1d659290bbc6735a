"""The interpretation guide: the quoted bands, and one output under other settings scored as
sacrebleu scores it, each with its signature."""

from __future__ import annotations

import itertools

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines

from bleu.metrics.bleu.score import BLEUOptions
from bleu.teaching.interpretation import BANDS, band, bands_frame, comparability, short_names

FOLDER = DATA_DIR / "wmt21_newstest2021_en-de"


@pytest.mark.parametrize(("score", "meaning"), [
    (0.0, "Almost useless"), (9.99, "Almost useless"), (10.0, "Hard to get the gist"),
    (29.9, "The gist is clear, but has significant grammatical errors"),
    (30.0, "Understandable to good translations"), (45.0, "High quality translations"),
    (59.99, "Very high quality, adequate, and fluent translations"),
    (60.0, "Quality often better than human"), (100.0, "Quality often better than human"),
])
def test_bands(score, meaning):
    assert band(score).meaning == meaning


def test_bands_cover_0_to_100_without_gaps():
    assert BANDS[0].low == 0
    assert all(a.high == b.low for a, b in itertools.pairwise(BANDS))
    assert list(bands_frame().BLEU) == ["< 10", "10–20", "20–30", "30–40", "40–50", "50–60",
                                        "> 60"]


def test_comparability_rows_equal_sacrebleu():
    hyps = read_lines(FOLDER / "newstest2021.en-de.hyp.UEdin.de")
    refs = [read_lines(FOLDER / f"newstest2021.en-de.ref.{k}.de") for k in "AC"]
    frame = comparability(hyps, refs, BLEUOptions(), reference_names=["A", "C"]).set_index(
        "setting")
    assert list(frame.index) == ["as chosen", "tokenize intl", "tokenize char", "tokenize none",
                                 "lowercased", "A only", "C only"]
    expected = {
        "as chosen": sacrebleu.corpus_bleu(hyps, refs),
        "tokenize intl": sacrebleu.corpus_bleu(hyps, refs, tokenize="intl"),
        "tokenize char": sacrebleu.corpus_bleu(hyps, refs, tokenize="char"),
        "tokenize none": sacrebleu.corpus_bleu(hyps, refs, tokenize="none"),
        "lowercased": sacrebleu.corpus_bleu(hyps, refs, lowercase=True),
        "A only": sacrebleu.corpus_bleu(hyps, refs[:1]),
        "C only": sacrebleu.corpus_bleu(hyps, refs[1:]),
    }
    for setting, score in expected.items():
        assert frame.loc[setting, "BLEU"] == pytest.approx(score.score, abs=1e-9), setting
        assert frame.loc[setting, "band"] == band(score.score).label
    assert frame.loc["A only", "signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    assert frame.loc["tokenize char", "signature"].startswith("nrefs:2|case:mixed|eff:no|tok:char")
    assert frame.loc["lowercased", "signature"].startswith("nrefs:2|case:lc|")


def test_short_names():
    assert short_names(["generaltest2022.en-de.ref.A.de", "generaltest2022.en-de.ref.B.de"]) == [
        "A", "B"]
    assert short_names(["ref.de", "ref.de.2"]) == ["ref.de", "ref.de.2"]  # one would be empty
    assert short_names(["only"]) == ["only"]

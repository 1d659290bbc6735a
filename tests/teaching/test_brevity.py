"""The brevity-penalty explorer's numbers: curve, system positions, what-ifs and buckets."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import bleu
from bleu.errors import InputError
from bleu.teaching.brevity import (
    SystemLength,
    bp_curve,
    length_buckets,
    length_whatif,
    positions_from_stats,
    resize,
    sentence_brevity,
    zoom_window,
)

FOLDER = DATA_DIR / "wmt21_newstest2021_en-de"
N = 100  # segments: tests/data's cut, enough for real statistics


@pytest.fixture(scope="module")
def data():
    refs = [read_lines(FOLDER / f"newstest2021.en-de.ref.{k}.de")[:N] for k in "AC"]
    systems = {name: read_lines(FOLDER / f"newstest2021.en-de.hyp.{name}.de")[:N]
               for name in ("Facebook-AI", "UEdin")}
    return systems, refs


def test_bp_curve_values():
    curve = bp_curve(low=0.5, high=1.5, points=11)
    assert list(curve.ratio) == pytest.approx([0.5 + 0.1 * i for i in range(11)])
    assert curve.bp[0] == pytest.approx(math.exp(1 - 2))  # c/r = 0.5: e^(1 - 2)
    assert curve.bp[2] == pytest.approx(math.exp(1 - 1 / 0.7))
    assert list(curve.bp[5:]) == [1.0] * 6


def test_system_positions_equal_corpus_bleu(data):
    systems, refs = data
    metric = bleu.BLEU(references=refs)
    stats = {name: metric.segment_stats(hyps) for name, hyps in systems.items()}
    for pos in positions_from_stats(stats, metric.options):
        expected = sacrebleu.corpus_bleu(systems[pos.system], refs)
        assert (pos.sys_len, pos.ref_len) == (expected.sys_len, expected.ref_len)
        assert pos.bp == pytest.approx(expected.bp, abs=1e-12)
        assert pos.score == pytest.approx(expected.score, abs=1e-9)


@pytest.mark.parametrize(("tokens", "percent", "expected"), [
    ("a b c d", -50, "a b"),
    ("a b c d", 50, "a b c d c d"),  # the last 2 tokens again
    ("a b c d", 150, "a b c d c d a b c d"),  # k = 6 > 4: cycle through the sentence
    ("a b c d", -100, ""),
    ("a b c d e", -10, "a b c d"),  # 5 * 10 % = 0.5 rounds half up to 1 token
    ("a b c d e", 0, "a b c d e"),
    ("", 50, ""),
])
def test_resize_by_hand(tokens, percent, expected):
    assert " ".join(resize(tokens.split(), percent)) == expected


def test_whatif_at_zero_equals_corpus_bleu(data):
    systems, refs = data
    hyps = systems["UEdin"]
    whatif = length_whatif(hyps, refs, percents=[0])
    expected = sacrebleu.corpus_bleu(hyps, refs)
    assert whatif.baseline.score == pytest.approx(expected.score, abs=1e-9)
    assert whatif.baseline.sys_len == expected.sys_len
    lower = length_whatif(hyps, refs, percents=[0], lowercase=True)
    assert lower.baseline.score == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, lowercase=True).score, abs=1e-9)


def test_whatif_shortening_equals_sacrebleu_on_truncated_tokens(data):
    systems, refs = data
    hyps = systems["Facebook-AI"]
    tok = Tokenizer13a()

    def tokens(line):
        return tok(line.rstrip()).split()

    for percent in (-20, 30):
        changed = []
        for line in hyps:
            t = tokens(line)
            k = math.floor(len(t) * abs(percent) / 100 + 0.5)
            changed.append(" ".join(t[: len(t) - k] if percent < 0 else t + t[len(t) - k:]))
        tok_refs = [[" ".join(tokens(r)) for r in stream] for stream in refs]
        expected = sacrebleu.corpus_bleu(changed, tok_refs, tokenize="none")
        point = length_whatif(hyps, refs, percents=[percent]).points[0]
        assert point.score == pytest.approx(expected.score, abs=1e-9)
        assert point.bp == pytest.approx(expected.bp, abs=1e-12)
        assert point.precisions == pytest.approx(expected.precisions)
        assert (point.sys_len, point.ref_len) == (expected.sys_len, expected.ref_len)


def test_whatif_best_point_is_the_highest_score(data):
    systems, refs = data
    whatif = length_whatif(systems["UEdin"], refs, percents=range(-30, 35, 10))
    assert whatif.best.score == max(p.score for p in whatif.points)
    frame = whatif.frame()
    assert list(frame.percent) == [-30, -20, -10, 0, 10, 20, 30]
    assert list(frame.columns) == ["percent", "ratio", "bp", "score", "p1", "p2", "p3", "p4"]
    # lengthening by repeating tokens adds n-grams the references rarely have
    assert frame.p1.iloc[-1] < frame.p1.iloc[3]
    assert frame.bp.iloc[0] < 1.0


def test_whatif_refuses_bad_percentages(data):
    systems, refs = data
    with pytest.raises(InputError, match="percents"):
        length_whatif(systems["UEdin"], refs, percents=[-150])
    with pytest.raises(InputError, match="percents"):
        length_whatif(systems["UEdin"], refs, percents=[])


def test_length_buckets_by_hand():
    # reference lengths 2, 12 and 3 tokens: buckets 0–9 (segments 1, 3) and 10–19 (segment 2)
    refs = [["a b", " ".join("w" * 1 for _ in range(12)), "x y z"]]
    hyps = ["a", " ".join(["w"] * 10), "x y z q"]
    frame = length_buckets({"s": hyps}, refs, edges=(0, 10, 20))
    rows = frame.set_index("bucket")
    assert list(rows.segments) == [2, 1, 0]
    assert rows.loc["0–9", "sys_len"] == 1 + 4 and rows.loc["0–9", "ref_len"] == 2 + 3
    assert rows.loc["10–19", "ratio"] == pytest.approx(10 / 12)
    assert rows.loc["10–19", "bp"] == pytest.approx(math.exp(1 - 12 / 10))
    assert math.isnan(rows.loc["20+", "ratio"])


def test_length_buckets_sum_to_the_corpus(data):
    systems, refs = data
    frame = length_buckets(systems, refs)
    for name, hyps in systems.items():
        total = frame[frame.system == name]
        expected = bleu.corpus_bleu(hyps, refs)
        assert total.sys_len.sum() == expected.sys_len
        assert total.ref_len.sum() == expected.ref_len
        assert total.segments.sum() == N


@pytest.mark.parametrize(("hyp", "refs"), [
    ("the cat sat", ["the cat sat on the mat"]),  # c = 3, r = 6: BP = e^(1 - 2) = 0.3679
    ("a b c d e f", ["a b c d e", "a b c d e f g"]),  # a tie at distance 1: r = 5, BP = 1
    ("Der Hund, der bellt.", ["Der Hund bellt laut, sagt man.", "Ein Hund."]),
    ("", ["x y"]),  # an empty candidate: BP = 0
])
def test_sentence_brevity_equals_sacrebleu(hyp, refs):
    own = sentence_brevity(hyp, refs)
    theirs = sacrebleu.sentence_bleu(hyp, refs)
    assert (own.c, own.r) == (theirs.sys_len, theirs.ref_len)
    assert own.bp == pytest.approx(theirs.bp, rel=1e-12, abs=1e-12)


def test_sentence_brevity_by_hand():
    own = sentence_brevity("the cat sat", ["the cat sat on the mat"])
    assert own.bp == pytest.approx(math.exp(1 - 6 / 3))
    assert f"{own.bp:.4f}" == "0.3679" and "exp(1 − 6/3)" in own.reason


def test_zoom_window_holds_every_system_and_the_bend():
    spread = (SystemLength("A", 80, 100, 0.8, 0.0, 0.0), SystemLength("B", 85, 100, 0.85, 0.0, 0.0))
    low, high = zoom_window(spread)
    assert low < 0.8 and 0.85 < high < 0.9  # far from 1: the window stays on the systems
    close = (SystemLength("A", 1003, 1000, 1.003, 1.0, 0.0),)
    low, high = zoom_window(close)
    assert low < 1.0 < 1.003 < high and high - low == pytest.approx(0.04)

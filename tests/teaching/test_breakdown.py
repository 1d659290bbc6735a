"""The step-by-step numbers of bleu.teaching: hand computations and bleu/sacrebleu sentence BLEU."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu
from bleu.errors import InputError
from bleu.teaching.breakdown import (
    CLASSIC_CANDIDATE,
    CLASSIC_REFERENCES,
    UNDEFINED,
    ngram_frame,
    notes,
    order_sweep,
    orders_frame,
    smoothing_comparison,
    smoothing_frame,
    tab_label,
    undefined_note,
    walkthrough,
)
from bleu.teaching.brevity import sentence_brevity

REFS = list(CLASSIC_REFERENCES)


def test_classic_clipping_table_by_hand():
    # "the" 7 times; ref 1 "the cat is on the mat" holds it twice, ref 2 once: clipped to 2.
    walk = walkthrough(CLASSIC_CANDIDATE, REFS)
    assert walk.tokens == ("the",) * 7
    (row,) = walk.tables[0]
    assert (row.ngram, row.count, row.max_ref_count, row.reference, row.clipped) == (
        "the", 7, 2, 1, 2)
    assert [(s.credited, s.total) for s in walk.orders] == [(2, 7), (0, 6), (0, 5), (0, 4)]
    assert walk.orders[0].fraction == "2/7"
    assert walk.orders[0].percent == pytest.approx(100 * 2 / 7)
    frame = ngram_frame(walk, 2)
    assert frame.to_dict("list") == {"n-gram": ["the the"], "count": [6], "max ref count": [0],
                                     "from ref": [None], "credited": [0]}


def test_classic_brevity_reason_by_hand():
    # c = 7; reference lengths 6 and 7: ref 2 is exactly as long, so r = 7 and BP = 1.
    brevity = walkthrough(CLASSIC_CANDIDATE, REFS).brevity
    assert (brevity.c, brevity.r, brevity.ref_lengths, brevity.chosen_reference) == (
        7, 7, (6, 7), 2)
    assert brevity.bp == 1.0
    assert "closest" in brevity.reason and "no penalty" in brevity.reason


@pytest.mark.parametrize(("method", "expected"), [
    # p1 = 2/7; the zero orders (totals 6, 5, 4) become:
    ("exp", 100 * (2 / 7 * 1 / (2 * 6) * 1 / (4 * 5) * 1 / (8 * 4)) ** 0.25),
    ("floor", 100 * (2 / 7 * 0.1 / 6 * 0.1 / 5 * 0.1 / 4) ** 0.25),
    ("add-k", 100 * (2 / 7 * 1 / 7 * 1 / 6 * 1 / 5) ** 0.25),  # (0 + 1)/(total + 1), n > 1
    ("none", 0.0),
])
def test_classic_smoothing_by_hand(method, expected):
    walk = walkthrough(CLASSIC_CANDIDATE, REFS, smooth_method=method)
    assert walk.score == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert walk.score == pytest.approx(
        bleu.sentence_bleu(CLASSIC_CANDIDATE, REFS, smooth_method=method).score, rel=1e-12)
    if method == "none":
        assert "p_2 = 0" in walk.collapse
        assert walk.log_sum == -math.inf
    else:
        assert walk.collapse is None


def test_weighted_sum_and_formula_by_hand():
    walk = walkthrough(CLASSIC_CANDIDATE, REFS)  # exp smoothing, uniform weights
    logs = [math.log(2 / 7), math.log(1 / 12), math.log(1 / 20), math.log(1 / 32)]
    assert [s.log_precision for s in walk.orders] == pytest.approx(logs)
    assert [s.weight for s in walk.orders] == [0.25] * 4
    assert walk.log_sum == pytest.approx(sum(logs) / 4)
    assert walk.geometric_mean == pytest.approx(math.exp(sum(logs) / 4))
    assert walk.formula.endswith(f"= {walk.score:.2f}")
    assert "log(2/7)" in walk.formula and "7.81" in walk.formula
    frame = orders_frame(walk)
    assert list(frame["credited/total"]) == ["2/7 = 28.57%", "0/6 = 0.00%", "0/5 = 0.00%",
                                             "0/4 = 0.00%"]
    assert list(frame["p_n used"]) == ["2/7 = 28.57%", "1/12 = 8.33%", "1/20 = 5.00%",
                                       "1/32 = 3.12%"]  # 3.125 rounds half to even


def test_brevity_penalty_and_effective_order_by_hand():
    # c = 2, r = 6: BP = exp(1 - 6/2) = e^-2. p1 = 2/2, p2 = 1/1, no 3- or 4-grams.
    hyp, refs = "the cat", ["the cat is on the mat"]
    walk = walkthrough(hyp, refs)  # effective order: the mean runs over n = 1, 2
    assert walk.brevity.bp == pytest.approx(math.exp(-2))
    assert [s.used for s in walk.orders] == [True, True, False, False]
    assert [s.weight for s in walk.orders] == [0.5, 0.5, 0.0, 0.0]
    assert walk.score == pytest.approx(100 * math.exp(-2))
    assert "exp(1 − 6/2)" in walk.brevity.reason
    plain = walkthrough(hyp, refs, effective_order=False)
    assert plain.score == 0.0 == bleu.sentence_bleu(hyp, refs, effective_order=False).score
    assert "p_3 = 0/0 is undefined and counted as 0" in plain.collapse


def test_tie_between_reference_lengths_takes_the_shorter():
    # c = 6; references of 5 and 7 tokens are both 1 away: BLEU takes 5.
    walk = walkthrough("a b c d e f", ["a b c d e", "a b c d e f g"])
    assert (walk.brevity.r, walk.brevity.chosen_reference) == (5, 1)
    assert "tie" in walk.brevity.reason


def test_no_match_at_all_is_zero_under_every_smoothing():
    for row in smoothing_comparison("x y z", ["a b c"]):
        assert row.score == 0.0
        assert row.note == "no match at all: 0"


@pytest.mark.parametrize("effective_order", [False, True])
def test_empty_candidate_says_so_and_counts_every_p_n_as_0(effective_order: bool):
    """sacrebleu returns 0 as soon as no n-gram matches, before smoothing and effective order:
    the page must not claim that effective order drops 0/0 orders, nor show a made-up 0/1."""
    walk = walkthrough("", ["the cat is on the mat"], effective_order=effective_order)
    theirs = sacrebleu.sentence_bleu("", ["the cat is on the mat"])
    assert walk.score == theirs.score == 0.0
    assert [s.used_text for s in walk.orders] == ["0 (0/0 counted as 0)"] * 4
    assert [s.raw_text for s in walk.orders] == ["0/0: undefined"] * 4
    (note,) = notes(walk)
    assert note.startswith("The candidate is empty") and "Effective order drops" not in note
    assert walk.collapse == "The candidate is empty: BLEU is 0 whatever the smoothing."
    assert r"\text{(the candidate is empty)}" in walk.latex
    assert undefined_note(walk.orders[0]) == (
        "The candidate has no 1-grams: p_1 = 0/0 is undefined; no n-gram matches at all, so "
        "sacrebleu counts it as 0 and BLEU is 0.")
    short = walkthrough("the cat", ["the cat sat"], effective_order=effective_order)
    assert undefined_note(short.orders[2]).endswith(
        "effective order drops it." if effective_order
        else "without effective order sacrebleu counts it as 0.")
    words = walkthrough("x y z", ["a b c"], effective_order=effective_order)
    assert notes(words)[0].startswith("No candidate word is in any reference")
    assert words.collapse.startswith("No candidate word is in any reference")
    assert [s.used_text for s in words.orders] == ["0/3 = 0.00%", "0/2 = 0.00%", "0/1 = 0.00%",
                                                   "0 (0/0 counted as 0)"]


@pytest.mark.parametrize("references", [[], [None]])
def test_no_reference_is_refused_in_the_pages_words(references: list):
    for compute in (walkthrough, sentence_brevity):
        with pytest.raises(InputError) as refused:
            compute("the cat", references)
        assert str(refused.value) == "Give at least one reference (one per line)."


def test_custom_weights_by_hand():
    hyp, refs = "the cat sat on the mat", ["the cat is on the mat"]
    # p1 = 5/6, p2 = 3/5, p3 = 1/4, p4 = 0/3 -> exp smoothing 1/(2*3); c = r = 6, BP = 1
    only_unigrams = walkthrough(hyp, refs, weights=[1, 0, 0, 0])
    assert only_unigrams.score == pytest.approx(100 * 5 / 6)
    halves = walkthrough(hyp, refs, weights=[3, 1, 0, 0])  # normalized to 0.75, 0.25
    assert halves.weights == (0.75, 0.25, 0.0, 0.0)
    assert halves.score == pytest.approx(100 * (5 / 6) ** 0.75 * (3 / 5) ** 0.25)


def test_uniform_custom_weights_equal_the_standard_score():
    hyp, refs = "the cat sat on the mat", ["the cat is on the mat", "a cat sat on a mat"]
    standard = bleu.sentence_bleu(hyp, refs).score
    assert walkthrough(hyp, refs, weights=[2, 2, 2, 2]).score == pytest.approx(standard, rel=1e-12)
    assert walkthrough(hyp, refs, max_ngram_order=2, weights=[1, 1]).score == pytest.approx(
        bleu.sentence_bleu(hyp, refs, max_ngram_order=2).score, rel=1e-12)


def test_weights_under_effective_order_are_renormalized():
    # only orders 1 and 2 exist; weights 0.5/0.25 become 2/3 and 1/3
    walk = walkthrough("the cat", ["the cat is on the mat"], weights=[0.5, 0.25, 0.25, 0])
    assert [s.weight for s in walk.orders] == pytest.approx([2 / 3, 1 / 3, 0, 0])
    assert walk.score == pytest.approx(100 * math.exp(-2))  # p1 = p2 = 1


@pytest.mark.parametrize("weights", [[1, 1, 1], [1, -1, 1, 1], [0, 0, 0, 0], [1, math.nan, 1, 1]])
def test_bad_weights_are_refused(weights):
    with pytest.raises(InputError, match="weights must be 4"):
        walkthrough("a b", ["a b"], weights=weights)


def test_weights_on_missing_orders_only_are_refused():
    with pytest.raises(InputError, match="effective order"):
        walkthrough("a b", ["a b"], weights=[0, 0, 1, 1])


def test_order_sweep_by_hand():
    sweep = order_sweep("the cat sat on the mat", ["the cat is on the mat"])
    assert [n for n, _ in sweep] == [1, 2, 3, 4]
    assert sweep[0][1] == pytest.approx(100 * 5 / 6)
    assert sweep[1][1] == pytest.approx(100 * math.sqrt(5 / 6 * 3 / 5))
    assert sweep[2][1] == pytest.approx(100 * (5 / 6 * 3 / 5 * 1 / 4) ** (1 / 3))


def test_latex_holds_numbers_only():
    hyp = r"\frac{a}{b} $x$ <b>bold</b>"
    walk = walkthrough(hyp, [r"\frac{a}{b} $x$"])
    for text in (r"\frac{a}", "$x$", "<b>", "bold"):
        assert text not in walk.latex
    assert walk.latex.removesuffix(r"\end{aligned}").endswith(f"= {walk.score:.2f}")


words = st.sampled_from(["the", "a", "cat", "dog", "sat", "on", "mat", ",", ".", "is"])
sentence = st.lists(words, min_size=0, max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(hyp=sentence, refs=st.lists(st.one_of(sentence, st.none()), min_size=1, max_size=3),
       method=st.sampled_from(["none", "floor", "add-k", "exp"]), effective=st.booleans(),
       order=st.integers(1, 5))
def test_equals_sentence_bleu_and_sacrebleu(hyp, refs, method, effective, order):
    if all(ref is None for ref in refs):
        refs = [*refs, ""]
    walk = walkthrough(hyp, refs, smooth_method=method, effective_order=effective,
                       max_ngram_order=order)
    ours = bleu.sentence_bleu(hyp, refs, smooth_method=method, effective_order=effective,
                              max_ngram_order=order)
    assert walk.score == pytest.approx(ours.score, rel=1e-9, abs=1e-9)
    present = [ref for ref in refs if ref is not None]
    theirs = sacrebleu.metrics.BLEU(smooth_method=method, effective_order=effective,
                                    max_ngram_order=order).sentence_score(hyp, present)
    assert walk.score == pytest.approx(theirs.score, rel=1e-9, abs=1e-9)
    assert walk.brevity.bp == pytest.approx(ours.bp)
    assert walk.brevity.r == ours.ref_len
    used = [s for s in walk.orders if s.used]
    assert [100 * (s.precision or 0.0) for s in used] == pytest.approx(
        list(ours.precisions[:len(used)]))


def test_smoothing_comparison_equals_sentence_bleu():
    hyp, refs = "the cat sat on a mat", ["the cat is on the mat"]
    rows = smoothing_comparison(hyp, refs)
    assert [(r.smooth_method, r.effective_order) for r in rows] == [
        (m, e) for m in ("none", "floor", "add-k", "exp") for e in (False, True)]
    for row in rows:
        expected = bleu.sentence_bleu(hyp, refs, smooth_method=row.smooth_method,
                                      effective_order=row.effective_order)
        assert row.score == pytest.approx(expected.score, rel=1e-12, abs=1e-12)
        # an order dropped by effective order is None here; sacrebleu reports it as 0.0
        assert [p or 0.0 for p in row.precisions] == pytest.approx(expected.precisions)


# --- a 3-token candidate: p_4 = 0/0 is undefined ------------------------------------------
SHORT, SHORT_REF = "the cat sat", ["the cat sat on the mat"]


def test_short_candidate_p4_is_undefined_and_dropped_by_effective_order():
    # c = 3, r = 6: BP = exp(1 - 6/3) = e^-1; p1..p3 = 3/3, 2/2, 1/1; no 4-grams at all
    walk = walkthrough(SHORT, SHORT_REF)
    p4 = walk.orders[3]
    assert (p4.status, p4.defined, p4.used, p4.precision, p4.percent) == (
        UNDEFINED, False, False, None, None)
    assert tab_label(p4) == "n = 4: p = 0/0, undefined"
    row = orders_frame(walk).iloc[3]
    assert (row["credited/total"], row["p_n used"], row["w_n"], row["log p_n"],
            row["w_n·log p_n"]) == ("0/0: undefined", "undefined: dropped", "dropped",
                                    "undefined", "dropped")
    assert [s.weight for s in walk.orders] == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0])
    assert walk.score == pytest.approx(100 * math.exp(-1))
    assert walk.score == pytest.approx(sacrebleu.sentence_bleu(SHORT, SHORT_REF).score)
    assert any("Effective order drops it" in text for text in notes(walk))


def test_short_candidate_without_effective_order_counts_p4_as_zero():
    walk = walkthrough(SHORT, SHORT_REF, effective_order=False)
    p4 = walk.orders[3]
    assert (p4.status, p4.used, p4.precision) == (UNDEFINED, True, 0.0)
    assert p4.used_text == "0 (0/0 counted as 0)" and p4.log_text == "−∞"
    assert walk.score == 0.0 == sacrebleu.metrics.BLEU(effective_order=False).sentence_score(
        SHORT, SHORT_REF).score
    assert "counted as 0" in walk.collapse and r"\exp(-\infty)" in walk.latex


def test_short_candidate_under_add_k_gets_p4_of_one_and_says_why():
    # add-k (k = 1) for n >= 2: p4 = (0 + 1)/(0 + 1) = 1, as sacrebleu computes it
    walk = walkthrough(SHORT, SHORT_REF, smooth_method="add-k")
    p4 = walk.orders[3]
    assert (p4.defined, p4.used, p4.precision, p4.used_text) == (False, True, 1.0,
                                                                 "1/1 = 100.00%")
    theirs = sacrebleu.metrics.BLEU(smooth_method="add-k").sentence_score(SHORT, SHORT_REF)
    assert theirs.precisions[3] == 100.0
    assert walk.score == pytest.approx(theirs.score)
    assert any("(0 + 1)/(0 + 1) = 100%" in text for text in notes(walk))


def test_every_number_in_the_formula_is_the_tables():
    walk = walkthrough(CLASSIC_CANDIDATE, REFS)
    frame = orders_frame(walk)
    for _, row in frame.iterrows():
        assert row["w_n·log p_n"] in walk.latex
        assert row["w_n"] in walk.latex
    # the fractions of the table are the fractions of the formula
    for step in walk.orders:
        numerator, denominator = step.used_fraction.split("/")
        assert rf"\tfrac{{{numerator}}}{{{denominator}}}" in walk.latex
    assert walk.latex.endswith(r"= 7.81\end{aligned}")
    assert "exp(-2.5498)" in walk.latex and r"0.0781\cdot 100" in walk.latex
    # by hand: 1/4 (log 2/7 + log 1/12 + log 1/20 + log 1/32) = -2.54977...
    assert f"{(math.log(2 / 7) + math.log(1 / 12) + math.log(1 / 20) + math.log(1 / 32)) / 4:.4f}" \
        == "-2.5498"


def test_smoothing_frame_rounds_as_the_score():
    rows = smoothing_comparison(SHORT, SHORT_REF)
    frame = smoothing_frame(rows)
    for _, row in frame.iterrows():
        theirs = sacrebleu.metrics.BLEU(smooth_method=row["smoothing"],
                                        effective_order=row["effective order"] == "on")
        assert row["BLEU"] == f"{theirs.sentence_score(SHORT, SHORT_REF).score:.2f}"
    none_on = frame[(frame.smoothing == "none") & (frame["effective order"] == "on")].iloc[0]
    none_off = frame[(frame.smoothing == "none") & (frame["effective order"] == "off")].iloc[0]
    assert (none_on.p_4, none_off.p_4) == ("undefined", "0/0 → 0")
    assert frame[frame.smoothing == "add-k"].p_4.tolist() == ["100.00%", "100.00%"]

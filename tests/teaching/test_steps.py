"""Step by step: each step's number is the walkthrough's (and so sacrebleu's), in the order of
the formula, with a prediction checked by the exercises' tolerances."""

from __future__ import annotations

import math

import pytest
import sacrebleu

from bleu.teaching.breakdown import (
    ARTICLE_FORMULA,
    CLASSIC_CANDIDATE,
    CLASSIC_REFERENCES,
    SENTENCE_DEFAULTS,
    walkthrough_with,
)
from bleu.teaching.exercises import RIGHT, SKIPPED, WRONG
from bleu.teaching.steps import steps


def test_steps_follow_the_formula_with_the_sentences_numbers():
    hyp, refs = "the cat sat on the mat", ["the cat is on the mat"]
    walk = walkthrough_with(hyp, refs, ARTICLE_FORMULA)
    found = steps(walk)
    assert [s.key for s in found] == ["tokens", "p_1", "p_2", "p_3", "p_4", "mean", "bp", "bleu"]
    # p = 5/6, 3/5, 1/4, 0/3 (by hand); the article's formula: the mean, and BLEU, are 0
    assert [s.prediction.expected for s in found[1:5]] == pytest.approx([5 / 6, 3 / 5, 1 / 4, 0])
    assert found[1].worked == r"p_1 = \frac{5}{6} = 0.8333"
    assert found[5].prediction.expected == 0.0 and r"\exp(-\infty) = 0" in found[5].worked
    theirs = sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(hyp, refs)
    assert found[-1].prediction.expected == theirs.score == 0.0
    assert found[0].worked == "c = 6" and found[2].order == 2


def test_smoothed_step_shows_both_values_and_the_mean():
    walk = walkthrough_with(CLASSIC_CANDIDATE, CLASSIC_REFERENCES,
                            SENTENCE_DEFAULTS)
    found = {s.key: s for s in steps(walk)}
    # p_2 = 0/6 becomes 1/(2·6) under exp smoothing
    assert r"\frac{0}{6} \to \frac{1}{12}" in found["p_2"].worked
    mean = (2 / 7 / 12 / 20 / 32) ** 0.25
    assert found["mean"].prediction.expected == pytest.approx(mean)
    assert found["bleu"].prediction.expected == pytest.approx(
        sacrebleu.sentence_bleu(CLASSIC_CANDIDATE, list(CLASSIC_REFERENCES)).score)


def test_brevity_step_and_predictions():
    walk = walkthrough_with("the cat", ["the cat sat"], ARTICLE_FORMULA)
    bp = next(s for s in steps(walk) if s.key == "bp")
    assert bp.prediction.expected == pytest.approx(math.exp(1 - 3 / 2))
    assert r"e^{1 - 3/2} = 0.6065" in bp.worked
    assert bp.prediction.check("0.61").status == RIGHT  # within 0.005
    assert bp.prediction.check("0.6").status == WRONG
    assert bp.prediction.check("").status == SKIPPED
    p3 = next(s for s in steps(walk) if s.key == "p_3")  # no 3-grams: 0/0, counted as 0
    assert p3.prediction.expected == 0.0 and "undefined" in p3.worked


def test_a_candidate_with_no_match_has_one_step_for_its_orders():
    walk = walkthrough_with("", ["the cat"], ARTICLE_FORMULA)
    keys = [s.key for s in steps(walk)]
    assert keys == ["tokens", "nothing", "bp", "bleu"]
    assert steps(walk)[1].explanation.startswith("The candidate is empty")

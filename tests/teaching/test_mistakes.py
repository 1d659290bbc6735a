"""Feedback for every common mistake: each wrong answer a mistake gives (computed here by hand,
the way a student makes it) is named with the mistake and the right computation, in the
exercise form (``check``) and for a prediction in the step-by-step view (``check_one`` with
the pair's solution). The mistakes of issue 34 first: c and r swapped in the boxes, only
reference A used with several references, log10 instead of ln, BP without exp; then the
older ones (no clipping, references added up, recall, upside down, arithmetic mean...)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bleu.i18n import in_language
from bleu.teaching.breakdown import ARTICLE_FORMULA, walkthrough_with
from bleu.teaching.exercises import (
    RIGHT,
    WRONG,
    check,
    own_exercise,
    ready_exercises,
    solve,
)
from bleu.teaching.steps import solution_for, steps

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
READY_BY_KEY = {exercise.key: exercise for exercise in ready_exercises(SAMPLE, "en")}
DUTCH_BY_KEY = {exercise.key: exercise for exercise in ready_exercises(SAMPLE, "nl")}


def verdict(feedback, key: str):
    """The verdict on ``key``."""
    return next(v for v in feedback.verdicts if v.key == key)


def answers(solution, **overrides: str) -> dict[str, str]:
    """Every asked quantity answered with its true value, then ``overrides``."""
    return {**{key: repr(solution.value(key)) for key in solution.exercise.asks}, **overrides}


# --- c and r swapped in the boxes -----------------------------------------------------------------

@pytest.mark.parametrize("key", ["brevity"])
@pytest.mark.parametrize("sets", [READY_BY_KEY, DUTCH_BY_KEY], ids=["en", "nl"])
def test_c_and_r_swapped_in_the_boxes_is_named_in_both(sets, key):
    solution = solve(sets[key])  # c = 5, r = 7 in both sets
    assert (solution.c, solution.r) == (5, 7)
    feedback = check(solution, {"c": "7", "r": "5"})
    for box in ("c", "r"):
        found = verdict(feedback, box)
        assert found.status == WRONG and "c and r are swapped" in found.why
        assert "candidate's length (5 tokens)" in found.why and "reference's (7)" in found.why
    # BP from the swapped lengths: c' = 7 ≥ r' = 5, so 1: the student's own numbers, an error
    # earlier
    carried = verdict(check(solution, {"c": "7", "r": "5", "bp": "1"}), "bp")
    assert "follows from your c and r; the error is earlier: c, r" in carried.why


def test_c_and_r_swapped_inside_bp_is_named():
    solution = solve(READY_BY_KEY["brevity"])
    swapped = f"{math.exp(1 - 5 / 7):.4f}"  # exp(1 − c/r) = 0.7515 instead of exp(1 − r/c)
    assert "c and r are swapped" in verdict(check(solution, {"bp": swapped}), "bp").why


def test_r_in_the_c_box_alone_is_named():
    solution = solve(READY_BY_KEY["brevity"])
    assert "That is r, the reference's length" in verdict(check(solution, {"c": "7"}), "c").why
    assert "That is c, the candidate's length" in verdict(check(solution, {"r": "5"}), "r").why


# --- only reference A used with several references ------------------------------------------------

@pytest.mark.parametrize("sets", [READY_BY_KEY, DUTCH_BY_KEY], ids=["en", "nl"])
def test_only_reference_a_is_named_in_every_step_it_changes(sets):
    exercise = sets["references"]
    solution = solve(exercise)
    only_a = solution.first_reference
    assert only_a is not None and only_a.score == 0.0 < solution.score
    typed = {f"matches_{n}": str(m) for n, m in enumerate(only_a.matches, start=1)}
    typed.update(r=str(only_a.r), bleu="0")
    feedback = check(solution, typed)
    changed = [f"matches_{n}" for n, (a, both) in
               enumerate(zip(only_a.matches, solution.matches, strict=True), start=1) if a != both]
    assert changed  # reference A alone credits fewer n-grams
    for key in (*changed, "r"):
        found = verdict(feedback, key)
        assert found.status == WRONG, key
        assert "reference A alone" in found.why or "reference A's length alone" in found.why
    bleu = verdict(feedback, "bleu")
    assert bleu.status == WRONG and "reference A alone" in bleu.why
    assert f"{solution.score:.2f}" in bleu.why


def test_only_reference_a_in_the_precision_is_named():
    exercise = own_exercise("Ga nu naar je startscherm.", ["Ga naar het startscherm.",
                                                          "Ga nu naar je beginscherm."],
                            ARTICLE_FORMULA, asks=["p_2"])
    solution = solve(exercise)  # p_2: 4/5 with both references, 1/5 against A alone
    found = verdict(check(solution, {"p_2": "1/5"}), "p_2")
    assert found.status == WRONG and "reference A alone" in found.why and "p_2 = 4/5" in found.why


# --- log10 instead of ln --------------------------------------------------------------------------

def _log10_bleu(precisions, bp, weights):
    """What a student gets with log10 in the sum and exp on top: 100·BP·exp(Σ w_n log10 p_n)."""
    return 100 * bp * math.exp(sum(w * math.log10(p) for w, p in zip(weights, precisions,
                                                                    strict=True)))


@pytest.mark.parametrize("sets", [READY_BY_KEY, DUTCH_BY_KEY], ids=["en", "nl"])
def test_log10_instead_of_ln_is_named(sets):
    solution = solve(sets["brevity"])  # p = 4/5, 3/4, 2/3, 1/2; BP = e^(1 − 7/5)
    p, bp = (4 / 5, 3 / 4, 2 / 3, 1 / 2), math.exp(1 - 7 / 5)
    mixed = _log10_bleu(p, bp, (0.25,) * 4)
    assert abs(mixed - solution.score) > 1  # a different number, not a rounding
    found = verdict(check(solution, {"bleu": f"{mixed:.2f}"}), "bleu")
    assert found.status == WRONG and "mixes log10 and e" in found.why
    assert "natural logarithm ln" in found.why and f"{solution.score:.2f}" in found.why
    # the other mix: 10 to the power of the natural-log sum
    other = 100 * bp * 10 ** (sum(math.log(x) for x in p) / 4)
    assert "mixes log10 and e" in verdict(check(solution, {"bleu": f"{other:.2f}"}),
                                          "bleu").why


def test_log10_in_a_predicted_geometric_mean_is_explained():
    hyp, refs = "the cat sat on the mat", ["the cat is on the mat", "a cat sat on the mat"]
    walk = walkthrough_with(hyp, refs, ARTICLE_FORMULA)
    mean_step = next(s for s in steps(walk) if s.key == "mean")
    precisions = [s.precision for s in walk.orders]
    mixed = math.exp(sum(0.25 * math.log10(x) for x in precisions))
    found = mean_step.prediction.check(f"{mixed:.4f}", solution_for(walk, hyp, refs))
    assert found.status == WRONG and "mixes log10 and e" in found.why


# --- BP without exp -------------------------------------------------------------------------------

@pytest.mark.parametrize("sets", [READY_BY_KEY, DUTCH_BY_KEY], ids=["en", "nl"])
def test_bp_without_exp_is_named(sets):
    solution = solve(sets["brevity"])  # c = 5, r = 7: 1 − r/c = −0.4, BP = e^−0.4 = 0.6703
    found = verdict(check(solution, {"bp": "-0.4"}), "bp")
    assert found.status == WRONG and "That is 1 − r/c = -0.4000, the exponent" in found.why
    assert "= 0.6703" in found.why
    negative = verdict(check(solution, {"bp": "-0.2"}), "bp")
    assert "never negative" in negative.why


# --- a wrong prediction in step-by-step mode is explained -----------------------------------------

def test_a_wrong_prediction_gets_an_explanation():
    hyp, refs = "the the the the the the the", ["the cat is on the mat",
                                                 "there is a cat on the mat"]
    walk = walkthrough_with(hyp, refs, ARTICLE_FORMULA)
    solution = solution_for(walk, hyp, refs)
    found = {s.key: s for s in steps(walk)}
    unclipped = found["p_1"].prediction.check("7/7", solution)  # no clipping: 7 of 7
    assert unclipped.status == WRONG and "p_1 = m_1/t_1 = 2/7" in unclipped.why
    zero = found["bleu"].prediction.check("20", solution)  # p_2 = 0: the article's formula
    assert zero.status == WRONG and "log 0 = −∞" in zero.why
    assert found["p_1"].prediction.check("2/7", solution).status == RIGHT
    weighted = walkthrough_with(hyp, refs, ARTICLE_FORMULA, weights=[2, 1, 1, 1])
    assert solution_for(weighted, hyp, refs) is None  # custom weights: no exercise to diagnose


def test_the_explanations_read_in_dutch():
    with in_language("nl"):
        solution = solve(ready_exercises(SAMPLE)[3])  # brevity, Dutch sentences
        swapped = check(solution, {"c": "7", "r": "5", "bp": "-0.4"})
        assert "c en r zijn verwisseld" in verdict(swapped, "c").why
        assert "de exponent" in verdict(swapped, "bp").why


# --- the mistakes named before: clipping, references, recall, lengths, the final step -------------

def test_unclipped_count_is_named():
    solution = solve(READY_BY_KEY["clipping"])
    feedback = check(solution, answers(solution, matches_1="9"))
    first = feedback.first_wrong
    assert first.key == "matches_1" and first.status == WRONG
    assert "without clipping" in first.why and "“auf” is 2 times" in first.why
    assert "m_1 = 8" in first.why
    assert feedback.summary().startswith("11 of 12 right; the first step to fix: m_1")


def test_references_added_up_is_named():
    # "the" 3 times in the candidate, once in each reference: clipped to 1 (the maximum over
    # the references); adding the references' counts would credit 2, no clipping 3; "cat" 1
    exercise = own_exercise("the the the cat", ["the cat", "the dog"], ARTICLE_FORMULA,
                            asks=["matches_1"])
    solution = solve(exercise)
    assert solution.matches[0] == 2
    assert "added up" in check(solution, {"matches_1": "3"}).verdicts[0].why
    assert "without clipping" in check(solution, {"matches_1": "4"}).verdicts[0].why


def test_totals_recall_and_upside_down_precision_are_named():
    solution = solve(READY_BY_KEY["clipping"])  # c = 10, r = 9, m_2 = 6, t_2 = 9
    assert "That is c" in verdict(check(solution, {"total_2": "10"}), "total_2").why
    recall = verdict(check(solution, {"p_2": "6/8"}), "p_2")  # the reference has 8 bigrams
    assert recall.status == WRONG and "recall" in recall.why
    assert "Upside down" in verdict(check(solution, {"p_2": "9/6"}), "p_2").why
    consistent = check(solution, {"matches_2": "6", "total_2": "10", "p_2": "0.6"})
    assert "one of them is wrong" in verdict(consistent, "p_2").why
    assert consistent.first_wrong.key == "total_2"


def test_smoothing_mistakes_are_named():
    article, smoothed = solve(READY_BY_KEY["zero"]), solve(READY_BY_KEY["smoothing"])
    assert "does not smooth" in verdict(check(article, {"p_4": "1/6"}), "p_4").why
    assert "uses smoothing exp" in verdict(check(smoothed, {"p_4": "0"}), "p_4").why
    zero = verdict(check(article, {"bleu": "32.47"}), "bleu")
    assert zero.status == WRONG and "log 0 = −∞" in zero.why


def test_length_mistakes_are_named():
    solution = solve(READY_BY_KEY["brevity"])  # c = 5 tokens, 4 words; r = 7
    assert "words between spaces" in verdict(check(solution, {"c": "4"}), "c").why
    # exp(1 − c/r) = 0.7515 (r and c swapped), c/r = 0.7143, 1 (no penalty), 1.2 (over 1)
    assert "swapped" in verdict(check(solution, {"bp": f"{math.exp(1 - 5 / 7):.4f}"}),
                                "bp").why
    assert "That is c/r" in verdict(check(solution, {"bp": "5/7"}), "bp").why
    assert "shorter" in verdict(check(solution, {"bp": "1"}), "bp").why
    assert "never more than 1" in verdict(check(solution, {"bp": "1.2"}), "bp").why
    several = solve(READY_BY_KEY["references"])  # lengths 5 (A) and 6, c = 6
    assert "reference A's length alone" in verdict(check(several, {"r": "5"}), "r").why
    assert "not added" in verdict(check(several, {"r": "11"}), "r").why


def test_final_step_mistakes_are_named():
    solution = solve(READY_BY_KEY["brevity"])
    p = (4 / 5, 3 / 4, 2 / 3, 1 / 2)
    bp = math.exp(-0.4)
    arithmetic = 100 * bp * sum(p) / 4
    assert "arithmetic mean" in verdict(check(solution, {"bleu": f"{arithmetic:.2f}"}),
                                        "bleu").why
    no_bp = 100 * math.prod(p) ** 0.25
    assert "BP is missing" in verdict(check(solution, {"bleu": f"{no_bp:.2f}"}), "bleu").why
    carried = check(solution, {"bp": "0.8", "bleu": f"{80 * math.prod(p) ** 0.25:.2f}"})
    assert "right for your own numbers" in verdict(carried, "bleu").why
    multiplied = 100 * math.exp(-0.4) * math.prod(p)
    assert "without taking the root" in verdict(check(solution, {"bleu": f"{multiplied:.2f}"}),
                                                 "bleu").why
    corpus = solve(READY_BY_KEY["corpus"])
    mean = sum(s.score for s in corpus.sentences) / 3
    assert "mean of the sentences" in verdict(check(corpus, {"bleu": f"{mean:.2f}"}),
                                              "bleu").why

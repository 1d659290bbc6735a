"""Exercises: the true values are sacrebleu's and a hand count; each answer is checked with its
stated tolerance, a recognised mistake is named, the worked solution holds the numbers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import sacrebleu
from conftest import read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.errors import InputError
from bleu.teaching.breakdown import ARTICLE_FORMULA, SENTENCE_DEFAULTS
from bleu.teaching.exercises import (
    READY,
    RIGHT,
    SKIPPED,
    TOLERANCES,
    UNREADABLE,
    WRONG,
    all_keys,
    check,
    own_exercise,
    parse_number,
    read_answer,
    ready_exercises,
    solve,
    tolerance_text,
    worked_solution,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_data"
READY_BY_KEY = {exercise.key: exercise for exercise in ready_exercises(SAMPLE)}


def sacre(exercise):
    """sacrebleu's BLEU of an exercise: its sentence BLEU with the same options for one pair,
    corpus BLEU for several."""
    options = exercise.options
    metric = sacrebleu.metrics.BLEU(smooth_method=options.smooth_method,
                                    effective_order=options.effective_order,
                                    max_ngram_order=options.max_ngram_order)
    hyps = [pair.hypothesis for pair in exercise.pairs]
    refs = [[pair.references[k] for pair in exercise.pairs]
            for k in range(len(exercise.pairs[0].references))]
    return metric.corpus_score(hyps, refs)


def verdict(feedback, key: str):
    """The verdict on ``key``."""
    return next(v for v in feedback.verdicts if v.key == key)


def answers(solution, **overrides: str) -> dict[str, str]:
    """Every asked quantity answered with its true value (as 0.xxxx / integers), then
    ``overrides``."""
    typed = {key: repr(solution.value(key)) for key in solution.exercise.asks}
    return {**typed, **overrides}


def test_ready_exercises_are_the_bundled_lines_easy_to_hard():
    levels = [exercise.level for exercise in READY_BY_KEY.values()]
    assert levels == sorted(levels) and len(levels) == len(READY) == 6
    for spec in READY:
        exercise = READY_BY_KEY[spec.key]
        hyps = read_lines(SAMPLE / f"generaltest2022.en-de.hyp.{spec.system}.de")
        for pair, line in zip(exercise.pairs, spec.segments, strict=True):
            assert pair.hypothesis == hyps[line - 1]
            assert pair.references == tuple(
                read_lines(SAMPLE / f"generaltest2022.en-de.ref.{k}.de")[line - 1]
                for k in spec.references)
        assert exercise.options in (ARTICLE_FORMULA, SENTENCE_DEFAULTS)


@pytest.mark.parametrize("key", [spec.key for spec in READY])
def test_every_true_value_is_sacrebleus(key):
    exercise = READY_BY_KEY[key]
    ours, theirs = solve(exercise), sacre(exercise)
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    assert (ours.matches, ours.totals) == (tuple(theirs.counts), tuple(theirs.totals))
    assert [100 * p for p in ours.precisions] == pytest.approx(theirs.precisions, abs=1e-9)
    assert (ours.c, ours.r) == (theirs.sys_len, theirs.ref_len)
    assert ours.bp == pytest.approx(theirs.bp, abs=1e-12)


def test_clipping_exercise_by_hand():
    # "Tippen Sie oben auf dem Bildschirm auf das Menüsymbol ." (10 tokens) against
    # "Tippen Sie oben im Bildschirm auf das Menüsymbol ." (9): "auf" twice, clipped to 1;
    # "dem" unmatched: m_1 = 8. Bigrams: "oben auf", "auf dem", "dem Bildschirm" unmatched: 6/9.
    solution = solve(READY_BY_KEY["clipping"])
    assert solution.matches[:2] == (8, 6) and solution.totals == (10, 9, 8, 7)
    assert (solution.c, solution.r, solution.bp) == (10, 9, 1.0)
    by_hand = 100 * (8 / 10 * 6 / 9 * 4 / 8 * 2 / 7) ** 0.25
    assert solution.score == pytest.approx(by_hand)


def test_zero_smoothing_and_brevity_by_hand():
    # "Dies ist ein anderes Problem ." against "Das ist ein anderes Thema .": p = 4/6, 2/5,
    # 1/4, 0/3; the article's formula gives 0; exp smoothing makes p_4 = 1/(2·3)
    assert solve(READY_BY_KEY["zero"]).score == 0.0
    smoothed = solve(READY_BY_KEY["smoothing"])
    assert smoothed.precisions[3] == pytest.approx(1 / 6)
    assert smoothed.score == pytest.approx(100 * (4 / 6 * 2 / 5 * 1 / 4 * 1 / 6) ** 0.25)
    # "Entschuldigung für die Unannehmlichkeiten ." (5) against a 7-token reference
    brevity = solve(READY_BY_KEY["brevity"])
    assert (brevity.c, brevity.r) == (5, 7)
    assert brevity.bp == pytest.approx(math.exp(1 - 7 / 5))
    assert brevity.score == pytest.approx(100 * math.exp(-0.4) * (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2)
                                          ** 0.25)


def test_corpus_exercise_adds_the_counts_by_hand():
    # the sentences of exercises 1, 2 and 4: m = (8+4+4, 6+2+3, 4+1+2, 2+0+1), t = (10+6+5,
    # 9+5+4, 8+4+3, 7+3+2), c = 21, r = 9 + 6 + 7 = 22
    solution = solve(READY_BY_KEY["corpus"])
    assert solution.matches == (16, 11, 7, 3) and solution.totals == (21, 18, 15, 12)
    assert (solution.c, solution.r) == (21, 22)
    by_hand = 100 * math.exp(1 - 22 / 21) * (16 / 21 * 11 / 18 * 7 / 15 * 3 / 12) ** 0.25
    assert solution.score == pytest.approx(by_hand)
    assert [s.score for s in solution.sentences][1] == 0.0  # the zero sentence alone


def test_several_references_clip_by_the_reference_that_has_most():
    # "Gehen Sie zu Ihrem Startbildschirm ." against A "Gehen Sie zum Startbildschirm ." (5)
    # and B "Wechseln Sie zu Ihrem Startbildschirm ." (6): every unigram is in one of them;
    # c = 6, the closest length is 6 (B): BP = 1
    exercise = READY_BY_KEY["references"]
    solution = solve(exercise)
    assert solution.matches == (6, 5, 3, 2) and (solution.r, solution.bp) == (6, 1.0)
    only_a = sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(
        exercise.pairs[0].hypothesis, [exercise.pairs[0].references[0]])
    assert only_a.score == 0.0 < solution.score


# --- reading answers ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "value", "percent"), [
    ("2/7", 2 / 7, False), ("0.2857", 0.2857, False), ("0,2857", 0.2857, False),
    ("28.57%", 28.57, True), ("28,57 %", 28.57, True), (" −0.5 ", -0.5, False),
    ("1e-2", 0.01, False), ("3 / 4", 0.75, False), (".5", 0.5, False),
])
def test_parse_number_reads_every_way_of_writing_it(text, value, percent):
    assert parse_number(text) == (pytest.approx(value), percent)


@pytest.mark.parametrize("text", ["abc", "2//7", "1/0", "0.2.3", "e"])
def test_parse_number_refuses_with_how_to_write_it(text):
    with pytest.raises(InputError, match=r"2/7|divides by 0"):
        parse_number(text)


def test_scales_are_read_and_said():
    assert read_answer("p_1", "28.57", 2 / 7).value == pytest.approx(0.2857)
    assert "read as 28.57%" in read_answer("p_1", "28.57", 2 / 7).note
    assert read_answer("p_1", "28.57%", 2 / 7).note == ""
    on_unit = read_answer("bleu", "0.4483", 44.83)
    assert on_unit.value == pytest.approx(44.83) and "0–1 scale" in on_unit.note
    assert read_answer("bleu", "0.40", 0.4).value == 0.40  # a true score under 1: x100 scale


def test_tolerances_are_the_stated_ones():
    solution = solve(READY_BY_KEY["brevity"])  # BP = 0.67032, BLEU = 44.826
    text = tolerance_text()
    assert "0.005" in text and "0.5" in text and "exact" in text
    assert TOLERANCES == {"count": 0.0, "precision": 0.005, "factor": 0.005, "score": 0.5}
    inside = check(solution, {"bp": "0.675", "bleu": "45.3", "c": "5", "r": "7"})
    assert [v.status for v in inside.verdicts] == [RIGHT] * 4 and inside.all_right
    outside = check(solution, {"bp": "0.676", "bleu": "45.4", "c": "5.0", "r": "7"})
    assert [v.status for v in outside.verdicts] == [RIGHT, RIGHT, WRONG, WRONG]


# --- which step is wrong, and why -----------------------------------------------------------------

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
    assert "exp smoothing" in verdict(check(smoothed, {"p_4": "0"}), "p_4").why
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
    several = solve(READY_BY_KEY["references"])  # lengths 5 and 6, c = 6
    assert "Not the shortest" in verdict(check(several, {"r": "5"}), "r").why


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
    corpus = solve(READY_BY_KEY["corpus"])
    mean = sum(s.score for s in corpus.sentences) / 3
    assert "mean of the sentences" in verdict(check(corpus, {"bleu": f"{mean:.2f}"}),
                                              "bleu").why


def test_unreadable_and_skipped_answers():
    solution = solve(READY_BY_KEY["brevity"])
    feedback = check(solution, {"c": "five", "r": ""})
    assert [v.status for v in feedback.verdicts] == [UNREADABLE, SKIPPED, SKIPPED, SKIPPED]
    assert "not a number" in feedback.first_wrong.why
    assert not feedback.all_right


@settings(max_examples=60, deadline=None)
@given(hyp=st.lists(st.sampled_from(["the", "a", "cat", "sat", "on", "mat", "."]),
                    min_size=1, max_size=9).map(" ".join),
       ref=st.lists(st.sampled_from(["the", "a", "cat", "sat", "on", "mat", "."]),
                    min_size=1, max_size=9).map(" ".join),
       sentence=st.booleans())
def test_true_answers_are_always_right(hyp, ref, sentence):
    options = SENTENCE_DEFAULTS if sentence else ARTICLE_FORMULA
    solution = solve(own_exercise(hyp, [ref], options))
    theirs = sacrebleu.metrics.BLEU(smooth_method=options.smooth_method,
                                    effective_order=options.effective_order).sentence_score(
        hyp, [ref])
    assert solution.score == pytest.approx(theirs.score, abs=1e-9)
    assert check(solution, answers(solution)).all_right
    assert set(solution.exercise.asks) == set(all_keys(4))


def test_worked_solution_holds_every_number():
    solution = solve(READY_BY_KEY["clipping"])
    steps = worked_solution(solution)
    text = "\n".join(line for step in steps for line in step.lines)
    assert steps[0].title.startswith("Tokens")
    assert "c = 10" in text and "p_1 = m_1/t_1 = 8/10 = 0.8000" in text
    assert "clipped: “auf” is 2 times in the candidate, at most 1" in text
    assert f"{solution.score:.2f}" in text and f"{solution.score / 100:.4f}" in text
    smoothed = "\n".join(line for step in worked_solution(solve(READY_BY_KEY["smoothing"]))
                         for line in step.lines)
    assert "exp smoothing, 1/(2^1·3)" in smoothed
    corpus = "\n".join(line for step in worked_solution(solve(READY_BY_KEY["corpus"]))
                       for line in step.lines)
    assert "m_1 = 8 + 4 + 4 = 16" in corpus and "r = 9 + 6 + 7 = 22" in corpus
    assert "is not the corpus BLEU" in corpus


def test_focus_keeps_the_asked_lengths():
    brevity = READY_BY_KEY["corpus"].focus(("c", "r", "bp"))
    assert brevity.asks == ("c", "r", "bp")
    clipping = READY_BY_KEY["clipping"].focus(("c", "r", "bp"))
    assert clipping.asks == ("c", "r", "bp")  # asks none of them: all of them


def test_own_exercise_refuses_no_reference():
    with pytest.raises(InputError, match="at least one reference"):
        own_exercise("a b", [], ARTICLE_FORMULA)

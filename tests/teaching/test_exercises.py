"""Exercises: the true values are sacrebleu's and a hand count, in both sets (English: the
bundled WMT22 segments; Dutch: sentences written for the app); each answer is read and checked
by the stated rule (tolerance, rounding half up to the decimals written); the worked solution
holds the numbers. The feedback for each common mistake: tests/teaching/test_mistakes.py."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import sacrebleu
from conftest import read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.errors import InputError
from bleu.i18n import in_language
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
READY_BY_KEY = {exercise.key: exercise for exercise in ready_exercises(SAMPLE, "en")}
DUTCH_BY_KEY = {exercise.key: exercise for exercise in ready_exercises(SAMPLE, "nl")}


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


def test_dutch_exercises_are_written_for_the_app_and_say_so():
    for key, exercise in DUTCH_BY_KEY.items():
        english = READY_BY_KEY[key]
        assert (exercise.level, exercise.options, exercise.asks) == (
            english.level, english.options, english.asks)
        assert exercise.origin.startswith("Written for this app") and "exercises/nl.json" in \
            exercise.origin
        assert all(not pair.hypothesis.startswith(("Tippen", "Gehen", "Dies")) for pair in
                   exercise.pairs)
    with in_language("nl"):
        dutch = {e.key: e for e in ready_exercises(SAMPLE)}
    assert dutch["clipping"].pairs == DUTCH_BY_KEY["clipping"].pairs  # the interface's language
    assert dutch["clipping"].lesson.startswith("De kandidaat-vertaling bevat twee keer “op”")


def test_dutch_exercises_by_hand():
    # 1. "Tik bovenaan op het scherm op het menupictogram ." (9 tokens) against "Tik bovenaan
    # het scherm op het menupictogram ." (8): "op" twice, once in the reference: m_1 = 8; the
    # bigram "op het" twice, once in the reference: m_2 = 6 of 8; 3-grams "het scherm op",
    # "scherm op het", "op het menupictogram", "het menupictogram .": 4 of 7; 4-grams 3 of 6
    clipping = solve(DUTCH_BY_KEY["clipping"])
    assert (clipping.matches, clipping.totals) == ((8, 6, 4, 3), (9, 8, 7, 6))
    assert (clipping.c, clipping.r, clipping.bp) == (9, 8, 1.0)
    assert clipping.score == pytest.approx(100 * (8 / 9 * 6 / 8 * 4 / 7 * 3 / 6) ** 0.25)
    # 2./3. "Dit is een ander probleem ." against "Dat is een ander onderwerp .": 4/6, 2/5, 1/4,
    # 0/3: 0 by the article's formula; exp smoothing makes p_4 = 1/(2·3)
    assert solve(DUTCH_BY_KEY["zero"]).score == 0.0
    assert solve(DUTCH_BY_KEY["smoothing"]).score == pytest.approx(
        100 * (4 / 6 * 2 / 5 * 1 / 4 * 1 / 6) ** 0.25)
    # 4. "Sorry voor het ongemak ." (5) against "Onze welgemeende excuses voor het ongemak ."
    # (7): 4/5, 3/4, 2/3, 1/2 and BP = e^(1 − 7/5)
    brevity = solve(DUTCH_BY_KEY["brevity"])
    assert (brevity.matches, brevity.c, brevity.r) == ((4, 3, 2, 1), 5, 7)
    assert brevity.score == pytest.approx(
        100 * math.exp(1 - 7 / 5) * (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25)
    # 5. "Ga nu naar je startscherm ." against A "Ga naar het startscherm ." (5) and B "Ga nu
    # naar je beginscherm ." (6): every unigram is in A or B (6/6); bigrams "Ga nu", "nu
    # naar", "naar je" (B) and "startscherm ." (A): 4/5; 3-grams 2/4, 4-grams 1/3; r = 6.
    # A alone: 4/6, 1/5, 0/4, 0/3 and r = 5: BLEU 0
    several = solve(DUTCH_BY_KEY["references"])
    assert (several.matches, several.r, several.bp) == ((6, 4, 2, 1), 6, 1.0)
    assert several.score == pytest.approx(100 * (1 * 4 / 5 * 2 / 4 * 1 / 3) ** 0.25)
    only_a = several.first_reference
    assert (only_a.matches, only_a.r, only_a.score) == ((4, 1, 0, 0), 5, 0.0)
    # 6. exercises 1, 2 and 4 as a corpus: m = (8+4+4, 6+2+3, 4+1+2, 3+0+1), t = (9+6+5,
    # 8+5+4, 7+4+3, 6+3+2), c = 20, r = 8 + 6 + 7 = 21
    corpus = solve(DUTCH_BY_KEY["corpus"])
    assert corpus.matches == (16, 11, 7, 4) and corpus.totals == (20, 17, 14, 11)
    assert (corpus.c, corpus.r) == (20, 21)
    assert corpus.score == pytest.approx(
        100 * math.exp(1 - 21 / 20) * (16 / 20 * 11 / 17 * 7 / 14 * 4 / 11) ** 0.25)


def test_a_length_exercise_gets_a_lesson_about_lengths():
    focused = READY_BY_KEY["references"].focus(("c", "r", "bp"))
    assert focused.asks == ("r", "bp") and "3-gram" not in focused.lesson
    assert "closest to c" in focused.lesson
    assert READY_BY_KEY["brevity"].focus(("c", "r", "bp")).lesson == \
        READY_BY_KEY["brevity"].lesson


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
@pytest.mark.parametrize("code", ["en", "nl"])
def test_every_true_value_is_sacrebleus(key, code):
    exercise = (READY_BY_KEY if code == "en" else DUTCH_BY_KEY)[key]
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
    assert "0.005" in text and "0.5" in text and "exact" in text and "half up" in text
    assert TOLERANCES == {"count": 0.0, "precision": 0.005, "factor": 0.005, "score": 0.5}
    inside = check(solution, {"bp": "0.675", "bleu": "45.3", "c": "5", "r": "7"})
    assert [v.status for v in inside.verdicts] == [RIGHT] * 4 and inside.all_right
    outside = check(solution, {"bp": "0.676", "bleu": "45.4", "c": "5.0", "r": "7"})
    assert [v.status for v in outside.verdicts] == [RIGHT, RIGHT, WRONG, WRONG]


def _bp_0_5647():
    """c = 7 tokens against r = 11: BP = exp(1 − 11/7) = 0.5647 (by hand: 11/7 = 1.5714,
    e^−0.5714 = 0.5647)."""
    solution = solve(own_exercise("a b c d e f g", ["a b c d e f g h i j k"], ARTICLE_FORMULA,
                                  asks=["bp"]))
    assert solution.bp == pytest.approx(math.exp(1 - 11 / 7)) and f"{solution.bp:.4f}" == "0.5647"
    return solution


@pytest.mark.parametrize(("typed", "status"), [
    ("0,57", RIGHT),  # from exp(1 − 1.57) = 0.5655, rounded half up to the two decimals asked
    ("0,56", RIGHT), ("0.565", RIGHT), ("0,5647", RIGHT), ("56,47%", RIGHT), ("0,566", RIGHT),
    ("0,5655", RIGHT),  # exp(1 − 1.57) written out: within the tolerance
    ("0,55", WRONG), ("0,58", WRONG), ("0,571", WRONG), ("0,6", WRONG), ("1", WRONG),
])
def test_an_answer_rounded_half_up_to_the_decimals_asked_is_right(typed, status):
    solution = _bp_0_5647()
    assert check(solution, {"bp": typed}).verdicts[0].status == status


def test_bleu_rounded_to_two_decimals_is_right_and_one_decimal_is_not_widened():
    solution = solve(READY_BY_KEY["brevity"])  # BLEU = 44.826
    assert verdict(check(solution, {"bleu": "45,33"}), "bleu").status == RIGHT  # 0.5 + 0.005
    assert verdict(check(solution, {"bleu": "45,3"}), "bleu").status == RIGHT
    assert verdict(check(solution, {"bleu": "45,4"}), "bleu").status == WRONG  # 0.574 > 0.5


def test_an_answer_of_0_gets_no_note_about_the_0_1_scale():
    reading = read_answer("bleu", "0", 33.58)
    assert reading.value == 0 and reading.note == ""
    assert "0–1" not in check(solve(READY_BY_KEY["brevity"]),
                               {"bleu": "0"}).verdicts[-1].note
    assert read_answer("bleu", "0,3358", 33.58).note  # a real 0–1 answer still says so


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

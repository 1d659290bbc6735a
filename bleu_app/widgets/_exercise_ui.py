"""The exercise form of How BLEU works and Brevity penalty ("Oefeningen"): pick a ready
exercise or type a pair, enter the numbers, check them, read why a step is wrong, open the
worked solution. All checking is ``bleu.teaching.exercises``; this draws it. In presentation
mode the form comes right after the exercise's pair, and the rules for answers sit behind a
help icon, so the form is on a projector's screen."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.errors import InputError
from bleu.i18n import language, tr
from bleu.teaching import exercises as core
from bleu.teaching.breakdown import presets
from bleu.teaching.examples import example
from bleu.teaching.formula import in_force
from bleu_app.session import _session
from bleu_app.widgets import _classroom

OWN = "own"
#: how a reference of an exercise is named (as its lesson names them: "reference A")
LETTERS = "ABCDEFGHIJ"


@st.cache_resource(show_spinner=False)
def _ready(code: str) -> tuple[core.Exercise, ...]:
    """The ready exercises for interface language ``code``, read once per process."""
    return core.ready_exercises(_session.SAMPLE_DIR, code)


def ready() -> tuple[core.Exercise, ...]:
    """The ready exercises in the interface's language (Dutch sentences in Dutch)."""
    return _ready(language())


def _own(prefix: str, focus: Sequence[str] | None) -> core.Exercise | None:
    """The student's own pair and preset, or None (with the reason shown) when incomplete."""
    state = st.session_state
    start = example("exercise")
    state.setdefault(f"{prefix}_own_candidate", start.candidate)
    state.setdefault(f"{prefix}_own_references", "\n".join(start.references))
    left, right = st.columns(2)
    candidate = left.text_area(tr("Candidate translation"), key=f"{prefix}_own_candidate",
                               height=80)
    references = [line for line in right.text_area(
        tr("Reference translation(s), one per line"), key=f"{prefix}_own_references",
        height=80).splitlines() if line.strip()]
    choices = {preset.key: preset for preset in presets()}
    chosen = st.radio(tr("Formula"), list(choices), format_func=lambda k: choices[k].name,
                      horizontal=True, key=f"{prefix}_own_preset")
    st.caption(escape_markdown(choices[chosen].description))
    try:
        exercise = core.own_exercise(candidate, references, choices[chosen].options)
    except InputError as error:
        st.error(escape_markdown(str(error)))
        return None
    return exercise.focus(focus) if focus else exercise


def _describe(exercise: core.Exercise) -> None:
    """The lesson, the pair (or the corpus) with its source, and the formula in force; in
    presentation mode the lesson and the pair side by side."""
    lesson, pair_place = st.columns(2) if _classroom.presenting() else (st, st)
    lesson.info(escape_markdown(exercise.lesson), icon=":material/school:")
    lines = []
    for k, pair in enumerate(exercise.pairs, start=1):
        head = tr("Sentence {k}").format(k=k) if exercise.corpus else tr("Candidate translation")
        lines.append(f"- **{escape_markdown(head)}**: {escape_markdown(pair.hypothesis)}")
        for letter, ref in zip(LETTERS, pair.references, strict=False):
            name = tr("reference {name}").format(name=letter)
            lines.append(f"  - *{escape_markdown(name)}*: {escape_markdown(ref)}")
    pair_place.markdown("\n".join(lines))
    pair_place.caption(escape_markdown(tr("Source: {origin}. Tokenizer {tokenize}, "
                                          "case-sensitive.").format(
        origin=exercise.origin, tokenize=exercise.options.tokenize)))
    st.caption(escape_markdown(in_force(exercise.options)))


def verdict_line(verdict: core.Verdict) -> str:
    """One checked answer as a Markdown list item: a coloured word (no emoji: "right" or
    "wrong", readable without an emoji font) and what was typed, with why where it is wrong."""
    text = tr("{label}: your answer {given}").format(label=verdict.label, given=verdict.given)
    if verdict.note:
        text += f" ({verdict.note})"
    if verdict.status == core.RIGHT:
        right = escape_markdown(tr("right"))
        return f"- :green-badge[{right}] {escape_markdown(text)}"
    mark = tr("wrong") if verdict.status == core.WRONG else tr("not a number")
    return (f"- :red-badge[{escape_markdown(mark)}] {escape_markdown(text)}. "
            f"{escape_markdown(verdict.why)}")


def _feedback(feedback: core.Feedback) -> None:
    first = feedback.first_wrong
    summary = escape_markdown(feedback.summary())
    if feedback.all_right:
        st.success(summary, icon=":material/check_circle:")
    elif first is None:
        st.info(summary)
    else:
        st.error(summary, icon=":material/error:")
    lines = [verdict_line(verdict) for verdict in feedback.answered]
    if lines:
        st.markdown("\n".join(lines))


def _solution(solution: core.Solution) -> None:
    with st.expander(tr("Worked solution"), icon=":material/checklist:"):
        for step in core.worked_solution(solution):
            st.markdown(f"**{escape_markdown(step.title)}**")
            st.markdown("\n".join(f"- {escape_markdown(line)}" for line in step.lines))


def show(prefix: str, keys: Sequence[str] | None = None, focus: Sequence[str] | None = None,
         ) -> None:
    """The exercise form: ``keys`` which ready exercises (all by default), ``focus`` which
    quantities they ask (their own by default); widget keys start with ``prefix``."""
    chosen_exercises = [e for e in ready() if keys is None or e.key in keys]
    by_key = {e.key: (e.focus(focus) if focus else e) for e in chosen_exercises}
    names = {**{k: e.title for k, e in by_key.items()}, OWN: tr("Your own pair")}
    presenting = _classroom.presenting()
    how = tr("Compute the numbers by hand, type them in and check them. Leave a box empty to "
             "skip it.")
    key = st.selectbox(tr("Exercise"), list(names), format_func=names.get,
                       key=f"{prefix}_choice",
                       help=how + ("\n\n" + core.tolerance_text() if presenting else ""))
    exercise = _own(prefix, focus) if key == OWN else by_key[key]
    if exercise is None:
        return
    _describe(exercise)
    solution = core.solve(exercise)  # a few sentences: milliseconds
    if not presenting:  # on a projector: behind the help icon of the exercise's name
        st.caption(escape_markdown(core.tolerance_text()))
    form_key = f"{prefix}_form_{key}"
    answers = {}
    with st.form(form_key, border=True):
        width = 3  # one row per order (m_n, t_n, p_n): a phone stacks them in that order
        for start in range(0, len(exercise.asks), width):
            row = exercise.asks[start:start + width]
            for column, quantity in zip(st.columns(width), row, strict=False):
                answers[quantity] = column.text_input(core.label(quantity),
                                                      key=f"{prefix}_{key}_{quantity}")
        checked = st.form_submit_button(tr("Check my answers"), key=f"{prefix}_check_{key}",
                                        type="primary")
    stored = f"{prefix}_feedback_{key}"
    if checked:
        st.session_state[stored] = (exercise, core.check(solution, answers))
    kept = st.session_state.get(stored)
    if kept is not None and kept[0] == exercise:
        _feedback(kept[1])
        _solution(solution)

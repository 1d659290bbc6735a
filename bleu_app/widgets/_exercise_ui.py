"""The exercise form of How BLEU works and Brevity penalty ("Oefeningen"): pick a ready
exercise or type a pair, enter the numbers, check them, read why a step is wrong, open the
worked solution. All checking is ``bleu.teaching.exercises``; this draws it."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.errors import InputError
from bleu.i18n import tr
from bleu.teaching import exercises as core
from bleu.teaching.breakdown import presets
from bleu_app.session import _session

OWN = "own"


@st.cache_resource(show_spinner=False)
def ready() -> tuple[core.Exercise, ...]:
    """The ready exercises on the bundled test set, read once per process."""
    return core.ready_exercises(_session.SAMPLE_DIR)


def _own(prefix: str, focus: Sequence[str] | None) -> core.Exercise | None:
    """The student's own pair and preset, or None (with the reason shown) when incomplete."""
    state = st.session_state
    state.setdefault(f"{prefix}_own_candidate", "the cat sat on the mat")
    state.setdefault(f"{prefix}_own_references", "the cat is on the mat")
    left, right = st.columns(2)
    candidate = left.text_area(tr("Candidate"), key=f"{prefix}_own_candidate", height=80)
    references = [line for line in right.text_area(
        tr("References, one per line"), key=f"{prefix}_own_references", height=80).splitlines()
        if line.strip()]
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
    st.info(escape_markdown(exercise.lesson), icon=":material/school:")
    lines = []
    for k, pair in enumerate(exercise.pairs, start=1):
        head = tr("Sentence {k}").format(k=k) if exercise.corpus else tr("Candidate")
        lines.append(f"- **{escape_markdown(head)}**: {escape_markdown(pair.hypothesis)}")
        for j, ref in enumerate(pair.references, start=1):
            lines.append("  - " + escape_markdown(tr("reference {j}: ").format(j=j) + ref))
    st.markdown("\n".join(lines))
    preset = next((p for p in presets() if p.options == exercise.options), None)
    formula = preset.name if preset is not None else tr("custom settings")
    st.caption(escape_markdown(tr("{origin}. Tokenizer {tokenize}, case-sensitive; formula: "
                                  "{formula}.").format(origin=exercise.origin,
                                                       tokenize=exercise.options.tokenize,
                                                       formula=formula)))


def _feedback(feedback: core.Feedback) -> None:
    first = feedback.first_wrong
    summary = escape_markdown(feedback.summary())
    if feedback.all_right:
        st.success(summary, icon=":material/check_circle:")
    elif first is None:
        st.info(summary)
    else:
        st.error(summary, icon=":material/error:")
    lines = []
    for verdict in feedback.answered:
        mark = "✅" if verdict.status == core.RIGHT else "❌"
        text = tr("{label}: you wrote {given}").format(label=verdict.label, given=verdict.given)
        if verdict.note:
            text += f" ({verdict.note})"
        if verdict.status == core.RIGHT:
            text += tr(": right.")
        else:
            text += ". " + verdict.why
        lines.append(f"- {mark} {escape_markdown(text)}")
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
    st.caption(escape_markdown(tr("Compute the numbers by hand, type them in and check them. "
                                  "Leave a box empty to skip it.")))
    key = st.selectbox(tr("Exercise"), list(names), format_func=names.get,
                       key=f"{prefix}_choice")
    exercise = _own(prefix, focus) if key == OWN else by_key[key]
    if exercise is None:
        return
    _describe(exercise)
    solution = core.solve(exercise)  # a few sentences: milliseconds
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

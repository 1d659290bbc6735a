"""How BLEU works, one step at a time: previous / next, the step's formula and the same formula
with the sentence's numbers, and (when asked) a prediction the student types before the step
is revealed. The steps are ``bleu.teaching.steps``; this draws one of them."""

from __future__ import annotations

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.display.formatting import tex
from bleu.i18n import tr
from bleu.teaching.breakdown import Walkthrough, ngram_frame, ngram_help
from bleu.teaching.exercises import RIGHT, SKIPPED, UNREADABLE
from bleu.teaching.steps import Step, steps
from bleu_app.widgets import _tables

STEP = "teach_step"  # the index of the step shown (a session value, moved by the buttons)
PREDICT = "teach_predict"  # the toggle: ask for a prediction before revealing
REVEALED = "teach_revealed"  # (example, step key) pairs whose number was revealed


def _move(by: int, count: int) -> None:
    st.session_state[STEP] = min(max(int(st.session_state.get(STEP, 0)) + by, 0), count - 1)


def _example(walk: Walkthrough) -> tuple:
    """What identifies the example: a new candidate or setting hides the numbers again."""
    return (walk.tokens, walk.reference_tokens, walk.options, walk.weights)


def _reveal(example: tuple, step: Step) -> None:
    revealed = set(st.session_state.get(REVEALED, ()))
    revealed.add((example, step.key))
    st.session_state[REVEALED] = revealed


def _table(walk: Walkthrough, step: Step) -> None:
    if step.order is None or not walk.tables[step.order - 1]:
        return
    help_config = {column: st.column_config.Column(column, help=text)
                   for column, text in ngram_help().items()}
    _tables.dataframe(ngram_frame(walk, step.order), hide_index=True,
                      column_config=help_config, key=f"teach_step_table_{step.order}")


def show(walk: Walkthrough) -> None:
    """The step the session is at, with the buttons to move and the prediction box."""
    found = steps(walk)
    index = min(max(int(st.session_state.get(STEP, 0)), 0), len(found) - 1)
    st.session_state[STEP] = index
    step = found[index]
    left, middle, right = st.columns([1, 3, 1], vertical_alignment="center")
    left.button(tr("Previous"), key="teach_step_previous", icon=":material/arrow_back:",
                on_click=_move, args=(-1, len(found)), disabled=index == 0,
                use_container_width=True)
    middle.progress((index + 1) / len(found),
                    text=tr("Step {k} of {count}: {title}").format(
                        k=index + 1, count=len(found), title=step.title))
    right.button(tr("Next"), key="teach_step_next", icon=":material/arrow_forward:",
                 on_click=_move, args=(1, len(found)), disabled=index == len(found) - 1,
                 use_container_width=True)
    st.toggle(tr("Ask me to predict each number first"), key=PREDICT)
    st.subheader(step.title)
    st.latex(tex(step.formula))
    example = _example(walk)
    prediction = step.prediction
    if bool(st.session_state.get(PREDICT)) and prediction is not None and \
            (example, step.key) not in st.session_state.get(REVEALED, set()):
        with st.form(f"teach_predict_form_{index}", border=True):
            guess = st.text_input(tr("Your prediction: {label}").format(
                label=prediction.label), key=f"teach_prediction_{step.key}")
            shown = st.form_submit_button(tr("Check and reveal"), key="teach_reveal",
                                          type="primary")
        if shown:
            verdict = prediction.check(guess)
            if verdict.status in (SKIPPED, UNREADABLE):
                st.warning(escape_markdown(verdict.why or tr("Type a number first.")))
                return
            st.session_state[f"teach_verdict_{step.key}"] = verdict
            _reveal(example, step)
            st.rerun()
        return
    verdict = st.session_state.get(f"teach_verdict_{step.key}")
    if verdict is not None and (example, step.key) in st.session_state.get(REVEALED, set()):
        said = tr("You predicted {given}; it is {expected}.").format(
            given=verdict.given, expected=verdict.expected_text)
        if verdict.status == RIGHT:
            st.success(escape_markdown(said + " " + tr("Right.")), icon=":material/check:")
        else:
            st.error(escape_markdown(said), icon=":material/close:")
    st.latex(tex(step.worked))
    if step.explanation:
        st.markdown(escape_markdown(step.explanation))
    _table(walk, step)

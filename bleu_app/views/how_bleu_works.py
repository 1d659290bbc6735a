"""How BLEU works: one candidate and its references, every step with its numbers; the steps one
at a time (with predictions); exercises that check the student's numbers.

Tokenizer and case follow the sidebar (they apply to every page); N, smoothing and effective
order are this page's own sentence-BLEU settings, starting at the article's formula, with
presets for it and for SacreBLEU's sentence BLEU and a button that copies the sidebar's. The
page says so, and says which formula is in force beside every BLEU it shows. The example
starts in the interface's language (``bleu.teaching.examples``). The page's example and view
live in its link (widgets/_example_link.py).
"""

import streamlit as st

from bleu.charts import teaching as charts
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import BP, COUNT, metric_delta, tex
from bleu.errors import InputError
from bleu.i18n import tr
from bleu.metrics.bleu.score import SMOOTH_DEFAULTS, BLEUOptions
from bleu.teaching import glossary
from bleu.teaching.breakdown import (
    ARTICLE_FORMULA,
    NOTHING,
    SMOOTH_METHODS,
    fmt_factor,
    fmt_log,
    fmt_score,
    fmt_unit,
    ngram_frame,
    ngram_help,
    notes,
    order_sweep,
    orders_frame,
    preset_of,
    presets,
    smoothing_comparison,
    smoothing_frame,
    tab_label,
    undefined_note,
    walkthrough,
)
from bleu.teaching.examples import example, source
from bleu.teaching.formula import in_force, natural_log, settings_text
from bleu.teaching.handout import handout_html
from bleu.teaching.option_names import on_off, smoothing_name, smoothing_names
from bleu_app.scoring import _learned
from bleu_app.session import _session, _state
from bleu_app.widgets import _charts, _classroom, _example_link, _exercise_ui, _steps_ui
from bleu_app.widgets._example_link import Field

PAGE = "how_bleu_works"
ORDER, SMOOTH, EFFECTIVE = "teach_order", "teach_smooth", "teach_effective"
CANDIDATE, REFERENCES, VIEW, CUSTOM = ("teach_candidate", "teach_references", "teach_view",
                                       "teach_custom_weights")
VIEWS = ("explain", "steps", "exercises")
LOW, HIGH = _state.MAX_NGRAM_ORDER_BOUNDS

state = st.session_state
state.setdefault(CANDIDATE, example("clipping").candidate)
state.setdefault(REFERENCES, "\n".join(example("clipping").references))


def _value_key(method: str) -> str:
    return f"teach_smooth_value_{method}"


def _value_bounds(text: str) -> float | None:
    method = state.get(SMOOTH, "none")
    return _example_link.number(0.0, _state.SMOOTH_VALUE_MAX.get(method, 0.0))(text)


FIELDS = (
    Field("ex_cand", CANDIDATE, _example_link.text_value, text=True),
    Field("ex_refs", REFERENCES, _example_link.text_value, text=True),
    Field("ex_n", ORDER, _example_link.integer(LOW, HIGH)),
    Field("ex_smooth", SMOOTH, _example_link.choice(SMOOTH_METHODS)),
    Field("ex_value", lambda: _value_key(state.get(SMOOTH, "none")), _value_bounds,
          _example_link.write_number),
    Field("ex_eff", EFFECTIVE, _example_link.boolean, _example_link.write_boolean),
    Field("ex_cw", CUSTOM, _example_link.boolean, _example_link.write_boolean),
    *(Field(f"ex_w{n}", f"teach_w_{n}", _example_link.number(0.0, 10.0),
            _example_link.write_number) for n in range(1, HIGH + 1)),
    Field("ex_view", VIEW, _example_link.choice(VIEWS)),
    Field("ex_step", _steps_ui.STEP, _example_link.integer(0, 4 * HIGH)),
    Field("ex_predict", _steps_ui.PREDICT, _example_link.boolean,
          _example_link.write_boolean),
    Field("ex_task", "teach_ex_choice",
          _example_link.choice([*(e.key for e in _exercise_ui.ready()), _exercise_ui.OWN])),
    _example_link.PRESENT,
)
#: widget values that must outlive a view that does not draw their widget
KEPT = (ORDER, SMOOTH, EFFECTIVE, CUSTOM, CANDIDATE, REFERENCES, _steps_ui.PREDICT,
        *(f"teach_w_{n}" for n in range(1, HIGH + 1)),
        *(_value_key(m) for m in SMOOTH_METHODS))


def _set_settings(options: BLEUOptions) -> None:
    """Put ``options``' N, smoothing (and value) and effective order into this page's widgets."""
    state[ORDER] = options.max_ngram_order
    state[SMOOTH] = options.smooth_method
    state[EFFECTIVE] = options.effective_order
    state[CUSTOM] = False
    if SMOOTH_DEFAULTS[options.smooth_method] is not None:
        state[_value_key(options.smooth_method)] = float(options.resolved_smooth_value or 0)


def _pick_segment() -> None:
    """Copy the chosen segment of the loaded data into the text areas."""
    data = _session.dataset()
    index = int(state["teach_segment"]) - 1
    state[CANDIDATE] = data.systems[state["teach_system"]].segments[index]
    state[REFERENCES] = "\n".join(
        ref.segments[index] for ref in data.references if ref.segments[index] is not None)


def _classic() -> None:
    state[CANDIDATE] = example("clipping").candidate
    state[REFERENCES] = "\n".join(example("clipping").references)


def pick_segment() -> None:
    """The loaded data's segments, one of which can replace the typed example."""
    data = _session.dataset()
    with st.expander(tr("Pick a segment of the loaded data"), expanded=False):
        p1, p2 = st.columns(2)
        p1.selectbox(tr("System"), list(data.systems), format_func=show_controls,
                     key="teach_system")
        p2.number_input(tr("Segment"), min_value=1, max_value=data.n_segments, step=1,
                        key="teach_segment")
        b1, b2 = st.columns(2)
        b1.button(tr("Use this segment"), key="teach_pick", on_click=_pick_segment)
        b2.button(tr("Back to the example with clipping"), key="teach_classic",
                  on_click=_classic)


def settings(opts: BLEUOptions) -> tuple[int, str, float | None, bool, list[float] | None]:
    """This page's sentence-BLEU settings (hidden in presentation mode, which names them)."""
    low, high = LOW, HIGH
    with _classroom.options_box("teach_settings", border=True):
        st.markdown(tr("**This page's sentence-BLEU settings**: they apply on this page only; "
                       "tokenizer and case come from the sidebar."))
        c1, c2, c3, c4 = st.columns(4)
        order = int(c1.number_input(tr("N (max n-gram order)"), low, high, step=1, key=ORDER,
                                    help=glossary.tip("precision")))
        method = c2.selectbox(tr("Smoothing"), SMOOTH_METHODS, key=SMOOTH,
                              format_func=smoothing_names(), help=glossary.tip("smoothing"))
        value = None
        if SMOOTH_DEFAULTS[method] is not None:
            state.setdefault(_value_key(method), float(SMOOTH_DEFAULTS[method]))
            value = c3.number_input(tr("Smoothing value"), 0.0,
                                    _state.SMOOTH_VALUE_MAX[method], step=0.1,
                                    key=_value_key(method))
        effective = c4.checkbox(tr("Effective order"), key=EFFECTIVE,
                                help=glossary.tip("effective"))
        custom = c4.checkbox(tr("Custom weights w_n"), key=CUSTOM)
        buttons = st.columns(3)
        for column, preset in zip(buttons, presets(), strict=False):
            column.button(preset.name, key=f"teach_use_{preset.key}", on_click=_set_settings,
                          args=(preset.options,), help=preset.description,
                          use_container_width=True)
        buttons[2].button(tr("Take over the sidebar's options"), key="teach_use_sidebar",
                          on_click=_set_settings, args=(opts,), use_container_width=True,
                          help=tr("Copy the sidebar's N, smoothing and effective order here "
                                  "({settings}).").format(settings=settings_text(opts)))
        weights = None
        if custom:
            columns = st.columns(order)
            weights = [columns[n].number_input(f"w_{n + 1}", 0.0, 10.0, 1.0, 0.05,
                                               key=f"teach_w_{n + 1}") for n in range(order)]
    return order, method, value, effective, weights


def formula_caption(options: BLEUOptions, weights) -> None:
    """Which BLEU this page computes, in words (also in presentation mode): the preset or the
    page's own settings, and that the sidebar's smoothing does not apply here."""
    preset = preset_of(options, weights)
    said = in_force(options, weights=weights)
    if preset is None and weights is not None and len(set(weights)) > 1:
        said += " " + tr("Custom weights w_n: {weights}.").format(
            weights=", ".join(fmt_factor(w) for w in weights))
    if not _classroom.presenting():
        said += " " + tr("The sidebar's N, smoothing and effective order are not used here.")
    st.caption(escape_markdown(said))


def explain(walk, candidate: str, references: list[str], common: dict, custom: bool,
            method: str, value: float | None, effective: bool, weights) -> None:
    """Every step at once: n-gram tables, the weighted mean, BP, the score, smoothing, N."""
    place = _classroom.charts(st)
    st.header(tr("1. Clipped n-gram precisions"), help=glossary.tip("ngram", "clipping"))
    help_texts = ngram_help()
    nothing = walk.orders[0].status == NOTHING
    st.caption(escape_markdown(tr("The candidate has {count} tokens after tokenization.").format(
        count=COUNT.text(len(walk.tokens)))) + " " + " ".join(
        f"**{escape_markdown(column)}**: {escape_markdown(text)}"
        for column, text in help_texts.items()))
    if nothing:  # one note for all orders (an empty candidate, or no word in a reference)
        st.info(escape_markdown(" ".join(notes(walk))), icon=":material/info:")
    else:
        help_config = {column: st.column_config.Column(column, help=text)
                       for column, text in help_texts.items()}
        tabs = st.tabs([tab_label(step) for step in walk.orders])
        for tab, step in zip(tabs, walk.orders, strict=True):
            with tab:
                if not step.defined:
                    st.info(escape_markdown(undefined_note(step)))
                    continue
                _classroom.table(ngram_frame(walk, step.order), key=f"teach_ngrams_{step.order}",
                                 column_config=help_config)
                st.caption(escape_markdown(tr(
                    "Credited {credited} of {total} {n}-grams: each count is clipped to how "
                    "often the n-gram occurs at most in one reference.").format(
                    credited=step.credited, total=step.total, n=step.order)))

    st.header(tr("2. The weighted geometric mean"), help=glossary.tip("geometric", "weights"))
    _classroom.table(orders_frame(walk), key="teach_orders",
                     column_config={tr("computation"): st.column_config.TextColumn(
                         width="large")})
    if not nothing:
        for note in notes(walk):
            st.info(escape_markdown(note), icon=":material/info:")
    _charts.show_table(place, charts.precisions_layout, *charts.precisions_parts(walk),
                       key="teach_precisions_chart")
    _charts.show_table(place, charts.log_terms_layout, *charts.log_terms_parts(walk),
                       key="teach_log_chart")
    log_sum = r"-\infty" if walk.log_sum == float("-inf") else fmt_log(walk.log_sum)
    st.latex(tex(rf"\sum_n w_n \log p_n = {log_sum} \quad \exp(\cdot) = "
                 rf"{fmt_factor(walk.geometric_mean)}"))
    st.caption(escape_markdown(natural_log()))

    st.header(tr("3. Brevity penalty"), help=glossary.tip("bp", "lengths"))
    m1, m2, m3 = st.columns(3)
    m1.metric(tr("c (candidate length)"), COUNT.text(walk.brevity.c))
    m2.metric(tr("r (reference length)"), COUNT.text(walk.brevity.r))
    m3.metric("BP", BP.text(walk.brevity.bp), help=glossary.tip("bp"))
    st.write(escape_markdown(walk.brevity.reason))

    st.header(tr("4. The score"), help=glossary.tip("scale"))
    st.latex(tex(walk.latex))
    s1, s2 = st.columns(2)
    s1.metric("BLEU", fmt_score(walk.score),
              help=tr("× 100, as SacreBLEU and most publications report it."))
    s2.metric(tr("BLEU on the article's 0–1 scale"), fmt_unit(walk.score),
              help=glossary.tip("scale"))
    st.caption(escape_markdown(in_force(walk.options, weights=walk.weights)))
    if walk.collapse and not nothing:
        st.warning(escape_markdown(walk.collapse))

    st.header(tr("Smoothing and effective order, side by side"),
              help=glossary.tip("smoothing", "effective"))
    st.caption(tr("The same sentence with each smoothing method (SacreBLEU's default values: "
                  "floor 0.1, add-k 1), with and without effective order; the p_n as they "
                  "count in the score."))
    rows = smoothing_comparison(candidate, references, weights=weights, **common)
    _classroom.table(smoothing_frame(rows), key="teach_smoothing")
    _charts.show_table(place, charts.smoothing_layout, *charts.smoothing_parts(rows),
                       key="teach_smoothing_chart")

    st.header(tr("Weights and N"))
    st.caption(escape_markdown(tr("Sentence BLEU for N = 1 to 4 with this page's smoothing "
                                  "({smoothing}) and effective order ({effective}).").format(
        smoothing=smoothing_name(method), effective=on_off(effective))))
    sweep = order_sweep(candidate, references, max_order=max(common["max_ngram_order"], 4),
                        smooth_method=method, smooth_value=value, effective_order=effective,
                        tokenize=common["tokenize"], lowercase=common["lowercase"])
    _charts.show_table(place, charts.order_sweep_layout, *charts.order_sweep_parts(sweep),
                       key="teach_sweep_chart")
    if custom:
        uniform = walkthrough(candidate, references, smooth_method=method,
                              smooth_value=value, effective_order=effective, **common)
        st.metric(tr("BLEU with your weights"), fmt_score(walk.score),
                  **metric_delta(walk.score - uniform.score, suffix=tr(
                      " against uniform weights ({score})").format(
                      score=fmt_score(uniform.score))))


def downloads(walk, candidate: str, references: list[str]) -> None:
    """The worked example as a printable handout, and as a blank worksheet."""
    left, right = st.columns(2)
    left.download_button(tr("Handout of this example (HTML, prints cleanly)"),
                         handout_html(walk, candidate, references), file_name="bleu_handout.html",
                         mime="text/html", key="teach_handout", icon=":material/print:")
    right.download_button(tr("Blank worksheet for students (HTML)"),
                          handout_html(walk, candidate, references, worksheet=True),
                          file_name="bleu_worksheet.html", mime="text/html",
                          key="teach_worksheet", icon=":material/edit_note:")


def example_lines(candidate: str, references: list[str]) -> str:
    """The example as a few lines of Markdown: the candidate, each reference, its source
    where it is the page's own example."""
    # the names outside the f-strings: Babel reads no tr() inside one (Python < 3.12)
    head, reference = tr("Candidate translation"), tr("Reference {k}")
    shown = [f"**{escape_markdown(head)}**: {escape_markdown(candidate)}"]
    shown += [f"**{escape_markdown(reference.format(k=k))}**: {escape_markdown(line)}"
              for k, line in enumerate(references, start=1)]
    return "  \n".join(shown)


def _own_example(candidate: str, references: list[str]) -> bool:
    start = example("clipping")
    return candidate == start.candidate and tuple(references) == start.references


if ORDER not in state:  # first visit: the article's formula (a link may then say otherwise)
    _set_settings(ARTICLE_FORMULA)
_example_link.restore(PAGE, FIELDS)
for key in KEPT:  # a value whose widget this run does not draw would otherwise be dropped
    if key in state:
        state[key] = state[key]
opts = _state.options()
presenting = _classroom.presenting()
_classroom.header(tr("How BLEU works"), PAGE)
view_names = {"explain": tr("All steps at once"), "steps": tr("Step by step"),
              "exercises": tr("Exercises")}
view = st.radio(tr("View"), VIEWS, format_func=view_names.get, horizontal=True, key=VIEW,
                label_visibility="collapsed")
if view == "exercises":
    _exercise_ui.show("teach_ex")
else:
    # on a projector, and one step at a time, the example is a few lines at the top and its
    # boxes and settings go below the steps, so the step's buttons and numbers come first
    # (on a phone too); containers keep this order whatever is drawn into them first
    compact = presenting or view == "steps"
    top, middle, end = st.container(), st.container(), st.container()
    bottom = end if compact else top
    typed = [x for x in state[REFERENCES].splitlines() if x.strip()]
    if compact:
        top.markdown(example_lines(state[CANDIDATE], typed))
    with bottom:
        case = tr("lowercased") if opts.lowercase else tr("case-sensitive")
        with _classroom.options_box("teach_pick_box"):
            st.caption(escape_markdown(tr(
                "Type a candidate translation and the reference translation(s), one per line, "
                "or pick a segment of the loaded data. Tokenizer and case come from the "
                "sidebar: {tokenize}, {case}.").format(tokenize=opts.tokenize, case=case)))
            pick_segment()
        inputs = st.expander(tr("Edit the example"), icon=":material/edit:") if compact \
            else st.container()
        left, right = inputs.columns(2)
        candidate = left.text_area(tr("Candidate translation"), key=CANDIDATE, height=100,
                                   help=glossary.tip("candidate"))
        references = [line for line in right.text_area(
            tr("Reference translation(s), one per line"), key=REFERENCES, height=100,
            help=glossary.tip("reference")).splitlines() if line.strip()]
        order, method, value, effective, weights = settings(opts)
    common = {"tokenize": opts.tokenize, "lowercase": opts.lowercase, "max_ngram_order": order}
    with middle:
        if _own_example(candidate, references):
            st.caption(escape_markdown(source("clipping")))
        try:
            walk = walkthrough(candidate, references, smooth_method=method, smooth_value=value,
                               effective_order=effective, weights=weights, **common)
        except InputError as error:
            st.error(escape_markdown(str(error)))
            _example_link.save(FIELDS)
            st.stop()
        formula_caption(walk.options, walk.weights)
        if view == "steps":
            _steps_ui.show(walk, candidate, references)
        else:
            explain(walk, candidate, references, common, bool(state.get(CUSTOM)), method,
                    value, effective, weights)
    if not presenting:  # a lecturer does not show these on the projector
        with end:
            _learned.pair_score(candidate, references)
            downloads(walk, candidate, references)
if not presenting:
    _example_link.share_box(FIELDS)
_example_link.save(FIELDS)

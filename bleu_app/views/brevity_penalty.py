"""Brevity penalty explorer: your own sentence, the BP curve (zoomed where the systems are),
what-ifs on length; exercises on c, r and BP. Each part is a fragment: a slider step reruns its
part only, on cached statistics. Every BLEU here is corpus BLEU with the sidebar's options, and
the page says so beside it. The own sentence and the view live in the page's link."""

from functools import partial

import pandas as pd
import streamlit as st

from bleu.charts import teaching as charts
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import (
    BP,
    COUNT,
    FACTOR,
    MISSING,
    RATIO,
    SCORE,
    SIGNED_PERCENT,
    SMALL_DELTA,
    Column,
    metric_delta,
)
from bleu.errors import InputError
from bleu.i18n import N_, language, tr
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import BLEUOptions
from bleu.teaching import glossary
from bleu.teaching.breakdown import fmt_score
from bleu.teaching.brevity import (
    SWEEP,
    length_buckets,
    length_whatif,
    positions_from_stats,
    sentence_brevity,
    zoom_window,
)
from bleu.teaching.examples import example
from bleu.teaching.formula import in_force, settings_text
from bleu_app.runtime import _cache
from bleu_app.scoring import _metrics
from bleu_app.session import _session, _state
from bleu_app.widgets import _charts, _classroom, _example_link, _exercise_ui
from bleu_app.widgets._example_link import Field

PAGE = "brevity_penalty"
OWN_CANDIDATE, OWN_REFERENCES, VIEW = "bp_candidate", "bp_references", "bp_view"
VIEWS = ("explore", "exercises")
#: the ready exercises about lengths, and what this page asks of them
EXERCISES, ASKED = ("brevity", "references", "corpus"), ("c", "r", "bp")
st.session_state.setdefault(OWN_CANDIDATE, example("brevity").candidate)
st.session_state.setdefault(OWN_REFERENCES, "\n".join(example("brevity").references))
FIELDS = (
    Field("bp_cand", OWN_CANDIDATE, _example_link.text_value, text=True),
    Field("bp_refs", OWN_REFERENCES, _example_link.text_value, text=True),
    Field("bp_view", VIEW, _example_link.choice(VIEWS)),
    Field("bp_task", "bp_ex_choice", _example_link.choice([*EXERCISES, _exercise_ui.OWN])),
    _example_link.PRESENT,
)


def position_columns() -> dict[str, Column]:
    """BP and c/r with the 4 decimals of the page's metrics; scores and counts by the app's
    rule."""
    return {"c": Column(COUNT, help=tr("Tokens of all candidate translations in the corpus")),
            "r": Column(COUNT, help=tr("Closest reference lengths, summed")),
            "c/r": Column(FACTOR), "BP": Column(BP), "BLEU": Column(SCORE),
            "system": Column(label=N_("system"))}


@_cache.data(max_entries=32)
def _whatif(system: TextFile, references: tuple[TextFile, ...], opts: BLEUOptions):
    return length_whatif(system.segments, [ref.segments for ref in references], SWEEP,
                         tokenize=opts.tokenize,
                         lowercase=opts.lowercase, smooth_method=opts.smooth_method,
                         smooth_value=opts.smooth_value, max_ngram_order=opts.max_ngram_order,
                         effective_order=opts.effective_order)


@_cache.data(max_entries=32)
def _whatif_specs(system: TextFile, references: tuple[TextFile, ...],
                  opts: BLEUOptions, lang: str) -> tuple[dict, dict]:
    """The two what-if charts of a system as validated Vega-Lite specs, built once per
    language (their titles): a slider step only adds its marker (``charts.mark_resize``)."""
    found = _whatif(system, references, opts)
    return (_charts.plain_spec(charts.whatif_chart(found)),
            _charts.plain_spec(charts.whatif_precisions_chart(found)))


@_cache.data(max_entries=16)
def _buckets(data: Dataset, opts: BLEUOptions):
    return length_buckets({name: file.segments for name, file in data.systems.items()},
                          data.reference_streams, tokenize=opts.tokenize,
                          lowercase=opts.lowercase)


@st.fragment
def curve(data: Dataset, opts: BLEUOptions) -> None:
    """Your own sentence in a box, and the BP curve with it and every system on it."""
    with st.container(border=True):
        st.markdown(tr("**Your own sentence**: c, r and BP, marked ◆ on the curve below"))
        left, right = st.columns(2)
        candidate = left.text_area(tr("Candidate translation"), key=OWN_CANDIDATE, height=80,
                                   help=glossary.tip("candidate"))
        references = [line for line in right.text_area(
            tr("Reference translation(s), one per line"), key=OWN_REFERENCES, height=80,
            help=glossary.tip("reference")).splitlines() if line.strip()]
        try:
            own = sentence_brevity(candidate, references, tokenize=opts.tokenize,
                                   lowercase=opts.lowercase)
        except InputError as error:
            st.error(escape_markdown(str(error)))
            own = None
        if own is not None:
            m1, m2, m3, m4 = st.columns(4)
            m1.metric(tr("c (candidate tokens)"), COUNT.text(own.c),
                      help=glossary.tip("lengths"))
            m2.metric(tr("r (closest reference)"), COUNT.text(own.r),
                      help=glossary.tip("lengths"))
            m3.metric("c/r", FACTOR.text(own.c / own.r) if own.r else MISSING)
            m4.metric(tr("BP of your sentence"), BP.text(own.bp), help=glossary.tip("bp"))
            st.caption(escape_markdown(own.reason))

    positions = positions_from_stats(_metrics.bleu_stats(data), opts)
    full, zoomed = st.columns(2)
    _charts.show(_classroom.charts(full), partial(charts.bp_curve_chart, sentence=own),
                 positions, width="stretch", key="bp_curve_chart")
    _charts.show(_classroom.charts(zoomed),
                 partial(charts.bp_curve_chart, window=zoom_window(positions)), positions,
                 width="stretch", key="bp_zoom_chart")
    _classroom.grid(pd.DataFrame([{
        "system": p.system, "c": p.sys_len, "r": p.ref_len, "c/r": p.ratio, "BP": p.bp,
        "BLEU": p.score} for p in positions]), position_columns(), key="bp_positions")
    _example_link.save(FIELDS)  # a fragment's rerun ends here: the link follows the sentence


@st.fragment
def whatif(data: Dataset, opts: BLEUOptions) -> None:
    """One system's corpus BLEU with every hypothesis resized; the slider's point marked."""
    st.header(tr("What if every candidate translation were shorter or longer?"),
              help=tr("The final tokens of every candidate translation are dropped (or "
                      "repeated), on tokens after tokenization; the resized text is scored "
                      "with tokenize=none, so the statistics are exact. The whole sweep is "
                      "computed once per system and kept: moving the slider only picks a "
                      "point."))
    w1, w2 = st.columns(2)
    system = w1.selectbox(tr("System"), list(data.systems), format_func=show_controls,
                          key="bp_system")
    percent = w2.slider(tr("Change the length of every candidate translation (%)"), min(SWEEP),
                        max(SWEEP), 0, step=5, key="bp_percent")
    with st.spinner(tr("Resizing every candidate translation…")):
        found = _whatif(data.systems[system], data.references, opts)
    point = next(p for p in found.points if p.percent == percent)
    base = found.baseline
    m1, m2, m3 = st.columns(3)
    m1.metric("BLEU", fmt_score(point.score), **metric_delta(point.score - base.score))
    m2.metric("BP", BP.text(point.bp), **metric_delta(point.bp - base.bp, SMALL_DELTA))
    m3.metric("c/r", FACTOR.text(point.ratio))
    st.caption(escape_markdown(tr("Corpus BLEU with the sidebar's options: {settings}.").format(
        settings=settings_text(opts))))
    rows = [{"": label, **{f"p_{n} (%)": p for n, p in enumerate(found_at.precisions, start=1)}}
            for label, found_at in ((tr("now"), point), (tr("at 0 %"), base))]
    _classroom.grid(pd.DataFrame(rows), {name: Column(SCORE) for name in rows[0] if name},
                 key="bp_precisions")
    best = found.best
    if best.percent < 0:
        st.info(escape_markdown(tr(
            "Shortening pays until {percent}% (c/r = {ratio}, BLEU {best} against {base}); "
            "beyond that, BP costs more than the precisions yield.").format(
            percent=SIGNED_PERCENT.text(best.percent), ratio=RATIO.text(best.ratio),
            best=SCORE.text(best.score), base=SCORE.text(base.score))))
    else:
        st.info(escape_markdown(tr(
            "Shortening does not pay for this system: the best BLEU in the sweep is at "
            "{percent}% (c/r = {ratio}, BLEU {best}).").format(
            percent=SIGNED_PERCENT.text(best.percent), ratio=RATIO.text(best.ratio),
            best=SCORE.text(best.score))))
    bleu_spec, precisions_spec = _whatif_specs(data.systems[system], data.references, opts,
                                               language())
    place = _classroom.charts(st)
    _charts.show_spec(place, charts.mark_resize(bleu_spec, found, percent),
                      key="bp_whatif_chart")
    _charts.show_spec(place, charts.mark_resize(precisions_spec, found, percent),
                      key="bp_whatif_precisions")


def explore(data: Dataset, opts: BLEUOptions) -> None:
    """The own sentence and the curve, the what-ifs, the lengths by sentence length."""
    st.caption(escape_markdown(tr(
        "BLEU's precisions reward short output; the brevity penalty BP = e^(1 − r/c) for c < r "
        "corrects that. c: the number of tokens of the candidate translations, r: the closest "
        "reference lengths.") + " " + in_force(opts, corpus=True, sidebar=True)))
    curve(data, opts)
    whatif(data, opts)
    st.header(tr("Length ratio by sentence length"))
    st.caption(tr("Segments grouped by the token length of their first reference; the ratio "
                  "is Σc/Σr over the group."))
    buckets = _buckets(data, opts)
    _charts.show(_classroom.charts(st), charts.buckets_chart, buckets, key="bp_buckets_chart")
    _classroom.grid(buckets, {"system": Column(label=N_("system")),
                           "bucket": Column(label=N_("bucket")),
                           "segments": Column(COUNT, label=N_("segments")),
                           "sys_len": Column(COUNT, label="c"), "ref_len": Column(COUNT, label="r"),
                           "ratio": Column(FACTOR, label="c/r"), "bp": Column(BP, label="BP")},
                 key="bp_buckets")


_example_link.restore(PAGE, FIELDS)
for key in (OWN_CANDIDATE, OWN_REFERENCES):  # kept while the exercises view does not draw them
    st.session_state[key] = st.session_state[key]
data, opts = _session.dataset(), _state.options()
_classroom.header(tr("Brevity penalty"), PAGE)
view_names = {"explore": tr("Explore"), "exercises": tr("Exercises")}
view = st.radio(tr("View"), VIEWS, format_func=view_names.get, horizontal=True, key=VIEW,
                label_visibility="collapsed")
if view == "exercises":
    _exercise_ui.show("bp_ex", keys=EXERCISES, focus=ASKED)
else:
    explore(data, opts)
if not _classroom.presenting():
    _example_link.share_box(FIELDS)
_example_link.save(FIELDS)

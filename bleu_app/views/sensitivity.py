"""Sensitivity: tokenizer and case, NLTK versus SacreBLEU, sentence versus corpus level against
human MQM judgments, and segmentation of text written without spaces. Presentable like the
other teaching pages (presentation mode, links to them); which BLEU each section computes is
said in words beside its numbers."""

from dataclasses import replace

import streamlit as st

from bleu.charts import teaching as charts
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import CORRELATION, COUNT, PRECISION, SCORE, Column
from bleu.errors import InputError
from bleu.evaluation.systems import match_scores
from bleu.explore.sensitivity import (
    mqm_correlation,
    nltk_crosscheck,
    segmentation_compare,
    tokenizer_grid,
)
from bleu.i18n import N_, labels, language, tr
from bleu.io import TextFile
from bleu.io.dataset import Dataset, load_folder
from bleu.io.scores.read import parse_scores
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.segment.scores import SegmentScores
from bleu.teaching.breakdown import SENTENCE_DEFAULTS
from bleu.teaching.formula import in_force
from bleu_app.runtime import _cache
from bleu_app.session import _samples, _session, _state
from bleu_app.widgets import _charts, _classroom, _example_link

ZH_DIR = _session.SAMPLE_DIR / "wmt22_en-zh_excerpt"
ZH_LABEL = N_("Sample: WMT22 English→Chinese, first 300 segments")


@st.cache_resource(show_spinner=False)
def _unspaced_sample() -> Dataset:
    return load_folder(ZH_DIR, ZH_LABEL)


@_cache.data(max_entries=8)
def _grid(data: Dataset, names: tuple[str, ...], smooth: str, order: int):
    return tokenizer_grid(_hyps(data, names), data.reference_streams, smooth_method=smooth,
                          max_ngram_order=order)


@_cache.data(max_entries=8)
def _crosscheck(system: TextFile, references: tuple[TextFile, ...], order: int, lang: str):
    """NLTK's numbers beside ours, and why they differ (written in ``lang``)."""
    return nltk_crosscheck(system.segments, [ref.segments for ref in references],
                           max_ngram_order=order)


@_cache.data(max_entries=4)
def _mqm(data: Dataset, scores: SegmentScores, tok: str, lowercase: bool):
    return mqm_correlation(_hyps(data), data.reference_streams, scores, tokenize=tok,
                           lowercase=lowercase)


@_cache.data(max_entries=8)
def _segmentation(system: TextFile, references: tuple[TextFile, ...]):
    return segmentation_compare(system.segments, [ref.segments for ref in references])


def _hyps(data: Dataset, names=None) -> dict[str, tuple[str, ...]]:
    return {n: f.segments for n, f in data.systems.items() if names is None or n in names}


PAGE = "sensitivity"
FIELDS = (_example_link.PRESENT,)


def said(text: str) -> None:
    """A caption of the app's own words (no user text)."""
    st.caption(escape_markdown(text))


_example_link.restore(PAGE, FIELDS)
data, opts = _session.dataset(), _state.options()
_classroom.header(tr("Sensitivity"), PAGE)
place = _classroom.charts(st)
st.caption(tr("The same translations, different numbers: what BLEU depends on besides the "
              "quality of the translation."))

# --- tokenizer x case ---------------------------------------------------------------------------
st.header(tr("Tokenizer and case"))
names = st.multiselect(tr("Systems"), list(data.systems), default=list(data.systems)[:4],
                       format_func=show_controls, key="sens_systems")
said(in_force(replace(opts, effective_order=False), corpus=True, sidebar=True,
              tokenizers=tr("every tokenizer, with and without lowercasing")))
if st.toggle(tr("Score the loaded systems under every tokenizer × case"), key="sens_grid_on"):
    if len(names) < 1:
        st.info(tr("Choose at least one system."))
    else:
        with st.spinner(tr("Scoring under every tokenizer…")):
            grid = _grid(data, tuple(names), opts.smooth_method, opts.max_ngram_order)
        table = grid.table().reset_index()
        _classroom.grid(table, {name: Column(SCORE) for name in table.columns[1:]},
                     key="sens_grid_table")
        _charts.show(place, charts.tokenizer_grid_chart, grid, key="sens_grid_chart")
        _classroom.grid(grid.spread().reset_index(), {name: Column(SCORE) for name in
                                                   ("min", "max", "spread")},
                     labels={"min": tr("min"), "max": tr("max"), "spread": tr("spread")},
                     key="sens_grid_spread")
        if grid.changed:
            st.warning(tr("The ranking of systems changes under: {settings} (compared with 13a, "
                          "mixed case).").format(settings=", ".join(
                              tr("{tokenizer} + lowercase").format(tokenizer=tok) if lc else tok
                              for tok, lc in grid.changed)))
        else:
            st.success(tr("The ranking of systems is the same under every tokenizer and case."))
        with st.expander(tr("Signatures")):
            cells = ["system", "tokenize", "lowercase", "score", "rank", "signature"]
            _classroom.grid(grid.cells[cells], {"system": Column(), "tokenize": Column(
                label=N_("tokenizer")), "lowercase": Column(), "score": Column(SCORE),
                "rank": Column(), "signature": Column()}, key="sens_grid_cells")

# --- NLTK cross-check ---------------------------------------------------------------------------
st.header(tr("Implementation cross-check: NLTK corpus_bleu"))
check_system = st.selectbox(tr("System"), list(data.systems),
                            format_func=show_controls, key="sens_nltk_system")
if st.toggle(tr("Run the cross-check"), key="sens_nltk_on"):
    try:
        with st.spinner(tr("Running NLTK…")):
            check = _crosscheck(data.systems[check_system], data.references,
                                opts.max_ngram_order, language())
    except InputError as error:
        st.warning(escape_markdown(str(error)))
    else:
        _classroom.grid(check.rows, {"implementation": Column(translated=True),
                                  "tokenization": Column(translated=True),
                                  "smoothing": Column(), "score": Column(SCORE)},
                     key="sens_nltk_table")
        st.markdown("\n".join(f"- {escape_markdown(reason)}" for reason in check.reasons))

# --- sentence versus corpus level -------------------------------------------------------------
st.header(tr("Sentence level versus corpus level, against human MQM judgments"))
SOURCES = {"bundled": N_("bundled WMT21 en-de MQM sample"),
           "loaded": N_("loaded data + an MQM file")}
choices = _classroom.options_box("sens_mqm_choice")  # hidden on a projector
source = choices.radio(tr("Data"), list(SOURCES), format_func=labels(SOURCES),
                       key="sens_mqm_source", horizontal=True)
mqm_data, mqm_scores = None, None
try:
    if source == "bundled":
        mqm_data, file_scores = _samples.mqm_sample()
        mqm_scores = match_scores(file_scores, list(mqm_data.systems)).scores
    else:
        upload = choices.file_uploader(tr("MQM avg_seg_scores TSV"), key="mqm_upload")
        if upload is not None:
            mqm_data = data
            mqm_scores = match_scores(parse_scores(upload.getvalue(), upload.name),
                                      list(data.systems)).scores
except (InputError, UnicodeDecodeError) as error:
    st.error(escape_markdown(str(error)))
if mqm_data is not None and mqm_scores is not None:
    try:
        with st.spinner(tr("Correlating with MQM…")):
            corr = _mqm(mqm_data, mqm_scores, opts.tokenize, opts.lowercase)
    except InputError as error:
        st.error(escape_markdown(str(error)))
    else:
        k1, k2, k3, k4 = st.columns(4)
        k1.metric(tr("Segment-level Kendall τ"), CORRELATION.text(corr.segment_tau))
        k2.metric(tr("Segment τ, per segment (mean)"),
                  CORRELATION.text(corr.segment_tau_grouped))
        k3.metric(tr("System-level Kendall τ"), CORRELATION.text(corr.system_tau))
        k4.metric(tr("System-level Pearson r"), CORRELATION.text(corr.system_pearson))
        st.caption(tr("{pairs} rated (system, segment) pairs from {systems} systems; MQM "
                      "system score: the mean over rated segments (negated MQM, higher is "
                      "better).").format(pairs=COUNT.text(len(corr.segments)),
                                         systems=len(corr.systems)))
        said(in_force(replace(SENTENCE_DEFAULTS, tokenize=opts.tokenize,
                              lowercase=opts.lowercase)))
        said(in_force(BLEUOptions(tokenize=opts.tokenize, lowercase=opts.lowercase),
                      corpus=True, sidebar=True) + " " + tr("Over the whole test set, as WMT "
                                                            "reports it."))
        left, right = st.columns(2)
        _charts.show(_classroom.charts(left), charts.mqm_segments_chart, corr,
                     key="sens_mqm_segments")
        _charts.show(_classroom.charts(right), charts.mqm_systems_chart, corr,
                     key="sens_mqm_systems")
        _classroom.grid(corr.systems, {"corpus_bleu": Column(SCORE), "mqm": Column(SCORE)},
                     labels={"system": tr("system"), "corpus_bleu": tr("corpus BLEU"),
                             "mqm": tr("MQM (mean, negated)")},
                     key="sens_mqm_table")

# --- languages without spaces -------------------------------------------------------------------
st.header(tr("Languages without spaces"))
unspaced = data if data.target_language in ("zh", "ja") else _unspaced_sample()
st.caption(escape_markdown(tr("Data: {label}.").format(label=tr(unspaced.label))))
said(in_force(BLEUOptions(), corpus=True, sidebar=True, tokenizers=tr("tokenizers zh, char and "
                                                                      "none")))
zh_system = st.selectbox(tr("System"), list(unspaced.systems),
                         format_func=show_controls, key="sens_zh_system")
table = _segmentation(unspaced.systems[zh_system], unspaced.references)
_classroom.grid(table, {"score": Column(SCORE), "hyp_tokens": Column(COUNT),
                     "ref_tokens": Column(COUNT), "tokens per segment": Column(PRECISION),
                     "one-token segments": Column(COUNT)},
             labels={"tokenize": tr("tokenizer"), "score": "BLEU", "hyp_tokens": tr("hyp tokens"),
                     "ref_tokens": tr("ref tokens"), "tokens per segment": tr("tokens per segment"),
                     "one-token segments": tr("one-token segments"), "example": tr("example"),
                     "precisions": tr("precisions")}, key="sens_zh_table")
_charts.show(place, charts.segmentation_chart, table, key="sens_zh_chart")
none = table[table.tokenize == "none"].iloc[0]
st.info(tr("With tokenize=none, {single} of {count} candidate translations are a single token "
           "(a whole sentence), so almost no n-gram can match: BLEU {score}.").format(
    single=COUNT.text(int(none["one-token segments"])),
    count=COUNT.text(len(unspaced.systems[zh_system].segments)), score=SCORE.text(none.score)))
_example_link.save(FIELDS)

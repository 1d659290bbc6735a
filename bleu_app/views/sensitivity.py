"""Sensitivity: tokenizer and case, NLTK versus sacrebleu, sentence versus corpus level against
human MQM judgments, and segmentation of text written without spaces."""

from operator import attrgetter

import streamlit as st

from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import COUNT, SCORE, Column, NumberFormat
from bleu.analysis.sensitivity import (
    mqm_correlation,
    nltk_crosscheck,
    segmentation_compare,
    tokenizer_grid,
)
from bleu.charts import teaching as charts
from bleu.errors import InputError
from bleu.io import TextFile
from bleu.io.dataset import Dataset, load_folder
from bleu.io.scores.mqm import MQM_ALIASES, parse_mqm
from bleu.io.scores.read import match_systems
from bleu.io.scores.table import SegmentScores
from bleu_app.views import _cache, _charts, _segment_scores, _session, _state, _tables

ZH_DIR = _session.SAMPLE_DIR / "wmt22_en-zh_excerpt"
ZH_LABEL = "Sample: WMT22 English→Chinese, first 300 segments"


@st.cache_resource(show_spinner=False)
def _unspaced_sample() -> Dataset:
    return load_folder(ZH_DIR, ZH_LABEL)


@st.cache_data(max_entries=8, show_spinner="Scoring under every tokenizer…",
               hash_funcs=_cache.HASH_FUNCS)
def _grid(data: Dataset, names: tuple[str, ...], smooth: str, order: int):
    return tokenizer_grid(_hyps(data, names), data.reference_streams, smooth_method=smooth,
                          max_ngram_order=order)


@st.cache_data(max_entries=8, show_spinner="Running NLTK…", hash_funcs=_cache.HASH_FUNCS)
def _crosscheck(system: TextFile, references: tuple[TextFile, ...], order: int):
    return nltk_crosscheck(system.segments, [ref.segments for ref in references],
                           max_ngram_order=order)


@st.cache_data(max_entries=4, show_spinner="Correlating with MQM…",
               hash_funcs={**_cache.HASH_FUNCS, SegmentScores: attrgetter("key")})
def _mqm(data: Dataset, scores: SegmentScores, tok: str, lowercase: bool):
    return mqm_correlation(_hyps(data), data.reference_streams, scores, tokenize=tok,
                           lowercase=lowercase)


@st.cache_data(max_entries=8, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _segmentation(system: TextFile, references: tuple[TextFile, ...]):
    return segmentation_compare(system.segments, [ref.segments for ref in references])


def _hyps(data: Dataset, names=None) -> dict[str, tuple[str, ...]]:
    return {n: f.segments for n, f in data.systems.items() if names is None or n in names}


data, opts = _session.dataset(), _state.options()
st.title("Sensitivity")
st.caption("The same translations, different numbers: what BLEU depends on besides quality.")

# --- tokenizer x case ---------------------------------------------------------------------------
st.header("Tokenizer and case")
names = st.multiselect("Systems", list(data.systems), default=list(data.systems)[:4],
                       format_func=show_controls, key="sens_systems")
if st.toggle("Score the loaded systems under every tokenizer × case", key="sens_grid_on"):
    if len(names) < 1:
        st.info("Choose at least one system.")
    else:
        grid = _grid(data, tuple(names), opts.smooth_method, opts.max_ngram_order)
        table = grid.table().reset_index()
        _tables.show(table, {name: Column(SCORE) for name in table.columns[1:]},
                     key="sens_grid_table")
        _charts.show(st, charts.tokenizer_grid_chart(grid), key="sens_grid_chart")
        _tables.show(grid.spread().reset_index(), {name: Column(SCORE) for name in
                                                   ("min", "max", "spread")},
                     key="sens_grid_spread")
        if grid.changed:
            st.warning("The ranking of systems changes under: " + ", ".join(
                f"{tok}{' + lowercase' if lc else ''}" for tok, lc in grid.changed)
                + " (compared with 13a, mixed case).")
        else:
            st.success("The ranking of systems is the same under every tokenizer and case.")
        with st.expander("Signatures"):
            _tables.dataframe(grid.cells[["system", "tokenize", "lowercase", "score", "rank",
                                     "signature"]], hide_index=True, key="sens_grid_cells")

# --- NLTK cross-check ---------------------------------------------------------------------------
st.header("Implementation cross-check: NLTK corpus_bleu")
check_system = st.selectbox("System", list(data.systems),
                            format_func=show_controls, key="sens_nltk_system")
if st.toggle("Run the cross-check", key="sens_nltk_on"):
    try:
        check = _crosscheck(data.systems[check_system], data.references, opts.max_ngram_order)
    except InputError as error:
        st.warning(escape_markdown(str(error)))
    else:
        _tables.dataframe(check.rows, hide_index=True, key="sens_nltk_table")
        st.markdown("\n".join(f"- {escape_markdown(reason)}" for reason in check.reasons))

# --- sentence versus corpus level -------------------------------------------------------------
st.header("Sentence level versus corpus level, against human MQM judgments")
source = st.radio("Data", ["bundled WMT21 en-de MQM sample", "loaded data + an MQM file"],
                  key="sens_mqm_source", horizontal=True)
mqm_data, mqm_scores = None, None
try:
    if source.startswith("bundled"):
        mqm_data, file_scores = _segment_scores.mqm_sample()
        mqm_scores = match_systems(file_scores, list(mqm_data.systems), MQM_ALIASES).scores
    else:
        upload = st.file_uploader("MQM avg_seg_scores TSV", key="mqm_upload")
        if upload is not None:
            mqm_data = data
            mqm_scores = parse_mqm(upload.getvalue().decode("utf-8"), upload.name)
except (InputError, UnicodeDecodeError) as error:
    st.error(escape_markdown(str(error)))
if mqm_data is not None and mqm_scores is not None:
    try:
        corr = _mqm(mqm_data, mqm_scores, opts.tokenize, opts.lowercase)
    except InputError as error:
        st.error(escape_markdown(str(error)))
    else:
        k1, k2, k3, k4 = st.columns(4)
        k1.metric("Segment-level Kendall τ", f"{corr.segment_tau:.3f}")
        k2.metric("Segment τ, per segment (mean)", f"{corr.segment_tau_grouped:.3f}")
        k3.metric("System-level Kendall τ", f"{corr.system_tau:.3f}")
        k4.metric("System-level Pearson r", f"{corr.system_pearson:.3f}")
        st.caption(f"{len(corr.segments):,} rated (system, segment) pairs from "
                   f"{len(corr.systems)} systems. Sentence BLEU: exp smoothing, effective order; "
                   "corpus BLEU over the whole test set; MQM system score: the mean over rated "
                   "segments (negated MQM, higher is better).")
        left, right = st.columns(2)
        _charts.show(left, charts.mqm_segments_chart(corr), key="sens_mqm_segments")
        _charts.show(right, charts.mqm_systems_chart(corr), key="sens_mqm_systems")
        _tables.show(corr.systems, {"corpus_bleu": Column(SCORE), "mqm": Column(SCORE)},
                     labels={"corpus_bleu": "corpus BLEU", "mqm": "MQM (mean, negated)"},
                     key="sens_mqm_table")

# --- languages without spaces -------------------------------------------------------------------
st.header("Languages without spaces")
unspaced = data if data.target_language in ("zh", "ja") else _unspaced_sample()
st.caption(escape_markdown(f"Data: {unspaced.label}."))
zh_system = st.selectbox("System", list(unspaced.systems),
                         format_func=show_controls, key="sens_zh_system")
table = _segmentation(unspaced.systems[zh_system], unspaced.references)
_tables.show(table, {"score": Column(SCORE), "hyp_tokens": Column(COUNT),
                     "ref_tokens": Column(COUNT), "tokens per segment": Column(NumberFormat(1)),
                     "one-token segments": Column(COUNT)},
             labels={"score": "BLEU"}, key="sens_zh_table")
_charts.show(st, charts.segmentation_chart(table), key="sens_zh_chart")
none = table[table.tokenize == "none"].iloc[0]
st.info(f"With tokenize=none, {int(none['one-token segments'])} of "
        f"{len(unspaced.systems[zh_system].segments)} hypotheses are a single token (a whole "
        f"sentence), so almost no n-gram can match: BLEU {none.score:.2f}.")

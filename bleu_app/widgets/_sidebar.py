"""The sidebar every page shares: what is loaded (with the uploaders), the options that apply to
every page, and the saved workspaces."""

from __future__ import annotations

import streamlit as st

from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT
from bleu.i18n import LANGUAGES, tr
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import SMOOTH_DEFAULTS
from bleu.metrics.tokenizers import available_tokenizers
from bleu.teaching.option_names import smoothing_names
from bleu_app import page_script
from bleu_app.session import _session, _state, _workspace
from bleu_app.session._state import kept, kept_index
from bleu_app.widgets import _uploads, _workspaces


def _data_caption(data: Dataset) -> str:
    """What is loaded, in one line."""
    text = tr("{label}: {systems} systems, {refs} reference(s), {segments} segments").format(
        label=tr(data.label), systems=len(data.systems), refs=data.n_refs,
        segments=COUNT.text(data.n_segments))
    return text + (tr(", with source") if data.source else "")


def data_sidebar() -> None:
    """The sidebar's Data area: a summary of what is loaded, a way to the Data page's drop zone,
    the sample, the uploaders by role, paste, system names. The summary is drawn last into its
    place at the top, so that it names the data an upload just loaded."""
    st.sidebar.header(tr("Data"))
    summary = st.sidebar.empty()
    st.sidebar.page_link(page_script("data"), label=tr("Load files on the Data page"))
    with st.sidebar.expander(tr("Upload by role"), expanded=False):
        _uploads.upload_section()
    with st.sidebar.expander(tr("Paste text"), expanded=False):
        _uploads.paste_section()
    st.sidebar.button(tr("Load the sample"), key="load_sample",
                      on_click=lambda: _workspace.load(_session.sample_dataset(),
                                                       tr("Loaded {label}.").format(
                                                           label=tr(_session.SAMPLE_LABEL))))
    with st.sidebar.expander(tr("System names"), expanded=False):
        _uploads.names_section(_session.dataset())
    summary.caption(escape_markdown(_data_caption(_session.dataset())))


def options_sidebar() -> None:
    """The sidebar's Options: they apply to every page; the signature shows them with scores."""
    state = st.session_state
    st.sidebar.header(tr("Options"))
    tokenizers = available_tokenizers()
    st.sidebar.selectbox(tr("Tokenizer"), tokenizers,
                         index=kept_index(_state.TOKENIZE, tokenizers, "13a"), key=_state.TOKENIZE,
                         help=tr("The default follows the target language, as WMT scores: zh for "
                              "Chinese, char for Japanese, 13a otherwise."))
    st.sidebar.checkbox(tr("Lowercase"), value=kept(_state.LOWERCASE, False), key=_state.LOWERCASE)
    method = st.sidebar.selectbox(
        tr("Smoothing"), _state.SMOOTH_METHODS,
        index=kept_index(_state.SMOOTH_METHOD, _state.SMOOTH_METHODS, "exp"),
        key=_state.SMOOTH_METHOD, format_func=smoothing_names())
    if SMOOTH_DEFAULTS[method] is not None:
        key = _state.smooth_value_key(method)
        st.sidebar.number_input(tr("Smoothing value"), min_value=0.0,
                                max_value=_state.SMOOTH_VALUE_MAX[method], step=0.1,
                                value=kept(key, float(SMOOTH_DEFAULTS[method])), key=key)
    low, high = _state.MAX_NGRAM_ORDER_BOUNDS
    st.sidebar.number_input(tr("Max n-gram order"), min_value=low, max_value=high, step=1,
                            value=kept(_state.MAX_NGRAM_ORDER, 4), key=_state.MAX_NGRAM_ORDER)
    st.sidebar.checkbox(tr("Effective order"), value=kept(_state.EFFECTIVE_ORDER, False),
                        key=_state.EFFECTIVE_ORDER,
                        help=tr("Average over the n-gram orders that exist (sacrebleu's "
                             "--effective-order, the default for sentence BLEU)."))
    names = list(_session.dataset().systems)
    if state.get(_state.BASELINE) not in names:
        state[_state.BASELINE] = names[0]
    st.sidebar.selectbox(tr("Baseline"), names, index=names.index(state[_state.BASELINE]),
                         format_func=show_controls, key=_state.BASELINE,
                         help=tr("p-values compare each system with this one (paired bootstrap)."))
    low, high = _state.N_BOOTSTRAP_BOUNDS
    st.sidebar.number_input(tr("Bootstrap resamples"), min_value=low, max_value=high, step=100,
                            value=kept(_state.N_BOOTSTRAP, 1000), key=_state.N_BOOTSTRAP)


def language_sidebar() -> None:
    """The interface language's switch (``session/_url.language`` chose its value; a change
    applies from the rerun it starts, which sets the language before drawing anything)."""
    codes = list(LANGUAGES)
    st.sidebar.selectbox(tr("Language"), codes, index=kept_index(_state.LANG, codes, "en"),
                         format_func=LANGUAGES.get, key=_state.LANG)


def sidebar() -> None:
    """Everything in the sidebar, in order: the language, data (it may set the tokenizer), then
    options."""
    language_sidebar()
    data_sidebar()
    options_sidebar()
    _workspaces.sidebar()

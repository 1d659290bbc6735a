"""Shareable state: the page, the chosen systems and the options live in the URL's query string.

``restore`` reads ``st.query_params`` once per session (first run), checks every value and sets
the widgets' session state before the sidebar is drawn; ``save`` writes the current state back
after each run. Only bundled samples are named (``sample=``); uploaded data, and the names of
uploaded systems, never go into the URL. Unknown or invalid values are ignored.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu.metrics.bleu.score import SMOOTH_DEFAULTS
from bleu.metrics.tokenizers import available_tokenizers
from bleu_app.views import _metrics, _segment_scores, _session, _state, _workspace

RESTORED = _state.URL_RESTORED
SAVED = _state.URL_STATE
PAGE = "page"
SAMPLE = "sample"
#: sample names in the URL -> the label of the loaded dataset
SAMPLES = {"wmt22-en-de": _session.SAMPLE_LABEL,
           "wmt21-en-de-mqm": _segment_scores.MQM_SAMPLE_LABEL}
#: option widgets kept in the URL
OPTIONS = _state.URL_OPTION_KEYS
#: system choices kept in the URL (only for a bundled sample)
SYSTEMS = (_state.BASELINE, "sentences_a", "sentences_b", "compare_a", "compare_b")
_BOOLEAN = {"true": True, "1": True, "false": False, "0": False}


def _integer(text: str, low: int, high: int) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if low <= value <= high else None


def _parse(key: str, text: str) -> Any:
    """The value of an option from its URL text, or None where it is not valid."""
    if key == _state.TOKENIZE:
        return text if text in available_tokenizers() else None
    if key in (_state.SMOOTH_METHOD, _state.SENTENCE_SMOOTH):
        return text if text in _state.SMOOTH_METHODS else None
    if key in (_state.LOWERCASE, _state.EFFECTIVE_ORDER):
        return _BOOLEAN.get(text.lower())
    if key == _state.MAX_NGRAM_ORDER:
        return _integer(text, *_state.MAX_NGRAM_ORDER_BOUNDS)
    if key == _state.N_BOOTSTRAP:
        return _integer(text, *_state.N_BOOTSTRAP_BOUNDS)
    if key == _state.OTHER_METRICS:
        return [name for name in text.split(",") if name in _metrics.METRICS]
    return None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def _page_name(page: Any) -> str:
    return page.url_path or "dashboard"


def restore(pages: list[Any], current: Any) -> None:
    """Apply the URL's state on a session's first run; switches to the URL's page if needed."""
    state = st.session_state
    if state.get(RESTORED):
        return
    state[RESTORED] = True
    params = st.query_params.to_dict()
    _session.dataset()
    if params.get(SAMPLE) == "wmt21-en-de-mqm":
        _segment_scores.load_mqm_sample()
    elif params.get(SAMPLE) == "wmt22-en-de" and \
            _session.dataset().label != _session.SAMPLE_LABEL:
        _workspace.load(_session.sample_dataset(), None)
    for key in OPTIONS:
        if key in params and (value := _parse(key, params[key])) is not None:
            state[key] = value
    method = state.get("smooth_method", "exp")
    raw = params.get("smooth_value")
    if raw is not None and SMOOTH_DEFAULTS.get(method) is not None:
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if 0 <= value <= _state.SMOOTH_VALUE_MAX[method]:  # the sidebar's bounds
            state[_state.smooth_value_key(method)] = value
    names = list(_session.dataset().systems)
    for key in SYSTEMS:
        if params.get(key) in names:
            state[key] = params[key]
    wanted = params.get(PAGE)
    target = next((page for page in pages if _page_name(page) == wanted), None)
    if target is not None and _page_name(target) != _page_name(current):
        st.switch_page(target)


def save(current: Any) -> None:
    """Write the page, options and (for a bundled sample) the chosen systems to the URL."""
    state = st.session_state
    saved: dict[str, str] = dict(state.get(SAVED, {}))
    saved[PAGE] = _page_name(current)
    for key in OPTIONS:
        if key in state:
            saved[key] = _text(state[key])
    method = state.get("smooth_method", "exp")
    if SMOOTH_DEFAULTS.get(method) is not None and _state.smooth_value_key(method) in state:
        saved["smooth_value"] = _text(state[_state.smooth_value_key(method)])
    else:
        saved.pop("smooth_value", None)
    label = _session.dataset().label
    sample = next((name for name, sample_label in SAMPLES.items() if sample_label == label), None)
    names = set(_session.dataset().systems)
    for key in SYSTEMS:
        if sample is not None and state.get(key) in names:
            saved[key] = state[key]
        elif sample is None or saved.get(key) not in names:
            saved.pop(key, None)
    if sample is not None:
        saved[SAMPLE] = sample
    else:
        saved.pop(SAMPLE, None)
    state[SAVED] = saved
    ours = {PAGE, SAMPLE, "smooth_value", *OPTIONS, *SYSTEMS}
    current = st.query_params.to_dict()
    wanted = {**{k: v for k, v in current.items() if k not in ours}, **saved}
    if current != wanted:  # parameters of other features (e.g. ``ws``) are kept as they are
        st.query_params.from_dict(wanted)

"""Shareable state: the page, the chosen systems and the options live in the URL's query string.

``restore`` reads ``st.query_params`` once per session (first run), checks every value and sets
the widgets' session state before the sidebar is drawn; ``save`` writes the current state back
after each run. Only bundled samples are named (``sample=``); uploaded data, and the names of
uploaded systems, never go into the URL. Unknown or invalid values are ignored.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu.metrics.bleu_score import SMOOTH_DEFAULTS
from bleu.metrics.tokenizers import available_tokenizers
from views import _common, _metrics

RESTORED = "url_restored"
SAVED = "url_state"
PAGE = "page"
SAMPLE = "sample"
#: sample names in the URL -> the label of the loaded dataset
SAMPLES = {"wmt22-en-de": _common.SAMPLE_LABEL, "wmt21-en-de-mqm": _metrics.MQM_SAMPLE_LABEL}
#: option widgets kept in the URL and how to read them
OPTIONS = ("tokenize", "lowercase", "smooth_method", "max_ngram_order", "effective_order",
           "n_bootstrap", "sentence_smooth", _metrics.OTHER)
#: system choices kept in the URL (only for a bundled sample)
SYSTEMS = ("baseline", "sentences_a", "sentences_b", "compare_a", "compare_b")
_BOOLEAN = {"true": True, "1": True, "false": False, "0": False}


def _integer(text: str, low: int, high: int) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if low <= value <= high else None


def _parse(key: str, text: str) -> Any:
    """The value of an option from its URL text, or None where it is not valid."""
    if key == "tokenize":
        return text if text in available_tokenizers() else None
    if key in ("smooth_method", "sentence_smooth"):
        return text if text in _common.SMOOTH_METHODS else None
    if key in ("lowercase", "effective_order"):
        return _BOOLEAN.get(text.lower())
    if key == "max_ngram_order":
        return _integer(text, 1, 9)
    if key == "n_bootstrap":
        return _integer(text, 100, 10000)
    if key == _metrics.OTHER:
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
    _common.dataset()
    if params.get(SAMPLE) == "wmt21-en-de-mqm":
        _metrics.load_mqm_sample()
    elif params.get(SAMPLE) == "wmt22-en-de" and \
            _common.dataset().label != _common.SAMPLE_LABEL:
        _common.commit(_common.sample_dataset(), None)
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
        if 0 <= value <= _common.SMOOTH_VALUE_MAX[method]:  # the sidebar's bounds
            state[f"smooth_value_{method}"] = value
    names = list(_common.dataset().systems)
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
    if SMOOTH_DEFAULTS.get(method) is not None and f"smooth_value_{method}" in state:
        saved["smooth_value"] = _text(state[f"smooth_value_{method}"])
    else:
        saved.pop("smooth_value", None)
    label = _common.dataset().label
    sample = next((name for name, sample_label in SAMPLES.items() if sample_label == label), None)
    names = set(_common.dataset().systems)
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

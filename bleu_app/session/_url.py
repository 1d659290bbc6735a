"""Shareable state: the page, the data (a workspace or a bundled sample), the chosen systems and
the options live in the URL's query string.

``restore`` reads ``st.query_params`` once, on a session's first run, before the sidebar is
drawn: first the data (``ws=`` opens a workspace, with the options it was saved with; else
``sample=`` a bundled sample), then the link's own options over them
(``bleu.workspace.precedence``: defaults < the workspace's saved options < the link's; the page
says which of the workspace's the link replaced), then the page. Every value is checked; unknown
or invalid ones are ignored. A ``ws=`` id that cannot be opened says so instead of showing any
page. After that the session owns the state and ``save`` writes the URL from it after each run:
``ws`` names the open workspace, ``sample`` a bundled sample; uploaded data, and the names of
uploaded systems, never go into the URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from bleu.evaluation import registry
from bleu.evaluation.registry import TEXT
from bleu.i18n import DEFAULT, LANGUAGES, from_locale, tr
from bleu.metrics.bleu.score import SMOOTH_DEFAULTS
from bleu.metrics.tokenizers import available_tokenizers
from bleu.workspace import Workspace
from bleu.workspace.precedence import Opening, opening
from bleu_app.session import _samples, _session, _state, _workspace

RESTORED = _state.URL_RESTORED
SAVED = _state.URL_STATE
PAGE = "page"
SAMPLE = "sample"
QUERY = _workspace.QUERY
SMOOTH_VALUE = "smooth_value"
#: the bundled samples a link may name (``Dataset.sample`` of the loaded data)
SAMPLES = (_session.SAMPLE, _samples.MQM_SAMPLE)
#: option widgets kept in the URL
OPTIONS = _state.URL_OPTION_KEYS
#: system choices kept in the URL (only for a bundled sample)
SYSTEMS = (_state.BASELINE, "sentences_a", "sentences_b", "compare_a", "compare_b")
LANG = _state.LANG
#: the parameters this module writes (others are kept as they are)
OURS = (PAGE, SAMPLE, QUERY, SMOOTH_VALUE, LANG, *OPTIONS, *SYSTEMS)
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
        return [name for name in text.split(",") if name in registry.names(TEXT)[1:]]
    if key == _state.RANKING:  # any metric's name: one not loaded ranks by BLEU (_significance)
        return text[:200] or None
    return None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def _page_name(page: Any) -> str:
    return page.url_path or "dashboard"


def link_options(params: Mapping[str, str], saved: Mapping[str, Any]) -> dict[str, Any]:
    """The options a link names, by widget key, the valid ones only; its smoothing value goes
    to the smoothing method in effect (the link's, else the workspace's, else the session's)."""
    found = {key: value for key in OPTIONS if key in params
             and (value := _parse(key, params[key])) is not None}
    method = found.get(_state.SMOOTH_METHOD) or saved.get(_state.SMOOTH_METHOD) \
        or st.session_state.get(_state.SMOOTH_METHOD, "exp")
    raw = params.get(SMOOTH_VALUE)
    if raw is not None and SMOOTH_DEFAULTS.get(method) is not None:
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if 0 <= value <= _state.SMOOTH_VALUE_MAX[method]:  # the sidebar's bounds
            found[_state.smooth_value_key(method)] = value
    return found


def _option_name(key: str) -> str:
    """How the page names an option (a smoothing value's key names its method)."""
    return {_state.TOKENIZE: tr("tokenizer"), _state.LOWERCASE: tr("lowercase"),
            _state.SMOOTH_METHOD: tr("smoothing"), _state.MAX_NGRAM_ORDER: tr("max n-gram order"),
            _state.EFFECTIVE_ORDER: tr("effective order"),
            _state.N_BOOTSTRAP: tr("bootstrap resamples"),
            _state.SENTENCE_SMOOTH: tr("sentence smoothing"),
            _state.OTHER_METRICS: tr("also compute"),
            _state.RANKING: tr("ranking metric")}.get(key, tr("smoothing value"))


def _say_overridden(found: Opening) -> None:
    """Tell the user which of the workspace's saved options the link replaced."""
    if not found.overridden:
        return
    changes = "; ".join(
        tr("{option} {link} (saved: {saved})").format(
            option=_option_name(key), link=_text(link),
            saved=_text(saved))
        for key, (saved, link) in found.overridden.items())
    _session.add_message("info", tr("This link's options are used instead of those the "
                                    "workspace was saved with: {changes}.").format(
        changes=changes))


def _open_data(params: Mapping[str, str]) -> Workspace | None:
    """The link's data: its workspace (None and the run stopped, saying why, where it cannot be
    opened), else its bundled sample, else the default sample."""
    wanted = params.get(QUERY)
    if wanted:
        found = _workspace.fetch(wanted)
        if not isinstance(found, Workspace):
            _workspace.cannot_open_link(wanted, found)  # stops the run
        return found
    _session.dataset()  # the default sample, committed before the link's options apply
    if params.get(SAMPLE) == _samples.MQM_SAMPLE:
        _samples.load_mqm_sample()
    elif params.get(SAMPLE) == _session.SAMPLE and _session.dataset().sample != _session.SAMPLE:
        _workspace.load(_session.sample_dataset(), None)
    return None


def browser_language() -> str | None:
    """The interface language of the browser's locale (``st.context.locale``, else the first
    language of its Accept-Language header), None where the interface does not speak it."""
    try:
        found = from_locale(st.context.locale)
        header = st.context.headers.get("Accept-Language") or ""
    except Exception:
        return None
    return found or from_locale(header.split(",")[0].split(";")[0])


def language() -> str:
    """The interface language of this run: the session's (the sidebar's switch), else on a
    session's first run the link's ``?lang=``, else the browser's, else English; kept in the
    session state under the switch's key."""
    state = st.session_state
    if state.get(LANG) not in LANGUAGES:
        wanted = st.query_params.get(LANG)
        state[LANG] = wanted if wanted in LANGUAGES else browser_language() or DEFAULT
    return state[LANG]


def restore(pages: list[Any], current: Any) -> None:
    """Apply the URL's state on a session's first run; switches to the URL's page if needed."""
    state = st.session_state
    if state.get(RESTORED):
        return
    state[RESTORED] = True
    params = st.query_params.to_dict()
    workspace = _open_data(params)
    link = link_options(params, workspace.options if workspace else {})
    if workspace is not None:
        _say_overridden(_workspace.enter(workspace, link))
    else:
        for key, value in opening({}, link).options.items():
            state[key] = value
    names = list(_session.dataset().systems)
    for key in SYSTEMS:
        if params.get(key) in names:
            state[key] = params[key]
    wanted = params.get(PAGE)
    target = next((page for page in pages if _page_name(page) == wanted), None)
    if target is not None and _page_name(target) != _page_name(current):
        st.switch_page(target)  # the data is in the session already: ``save`` writes ``ws``


def save(current: Any) -> None:
    """Write the page, the data's workspace or sample, the options and (for a bundled sample)
    the chosen systems to the URL."""
    state = st.session_state
    saved: dict[str, str] = dict(state.get(SAVED, {}))
    saved[PAGE] = _page_name(current)
    saved[LANG] = state.get(LANG, DEFAULT)
    for key in OPTIONS:
        if key in state:
            saved[key] = _text(state[key])
    method = state.get(_state.SMOOTH_METHOD, "exp")
    if SMOOTH_DEFAULTS.get(method) is not None and _state.smooth_value_key(method) in state:
        saved[SMOOTH_VALUE] = _text(state[_state.smooth_value_key(method)])
    else:
        saved.pop(SMOOTH_VALUE, None)
    data = _session.dataset()
    sample = data.sample if data.sample in SAMPLES else None
    names = set(data.systems)
    for key in SYSTEMS:
        if sample is not None and state.get(key) in names:
            saved[key] = state[key]
        elif sample is None or saved.get(key) not in names:
            saved.pop(key, None)
    for key, value in ((SAMPLE, sample), (QUERY, _workspace.current())):
        if value is None:
            saved.pop(key, None)
        else:
            saved[key] = value
    state[SAVED] = saved
    query = st.query_params.to_dict()
    wanted = {**{k: v for k, v in query.items() if k not in OURS}, **saved}
    if query != wanted:
        st.query_params.from_dict(wanted)

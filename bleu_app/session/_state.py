"""The app's session state in one place: every session key, the options' choices and bounds, and
the values that keyed widgets keep across reruns and pages.

Widget keys named in the project's design (``systems_upload``, ``tokenize``, ``baseline``...)
are stable: tests and scripts find widgets by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from bleu.metrics.bleu.score import SMOOTH_DEFAULTS, BLEUOptions

# --- loaded data ------------------------------------------------------------------------------
DATASET = "dataset"  # the committed bleu.io.dataset.Dataset
MESSAGES = "data_messages"  # [(kind, text)]: the last data action's outcome, shown on the page
UPLOADED = "uploaded_signature"  # the uploads last handled (so a rerun does not load them again)

# --- the interface language (sidebar; ``?lang=`` in the URL; session/_url.py) -----------------
LANG = "lang"

# --- options (sidebar) --------------------------------------------------------------------------
TOKENIZE = "tokenize"
LOWERCASE = "lowercase"
SMOOTH_METHOD = "smooth_method"
MAX_NGRAM_ORDER = "max_ngram_order"
EFFECTIVE_ORDER = "effective_order"
BASELINE = "baseline"
N_BOOTSTRAP = "n_bootstrap"
SENTENCE_SMOOTH = "sentence_smooth"  # sentence BLEU's smoothing (Sentences, Compare)
OTHER_METRICS = "other_metrics"  # chrF / chrF++ / TER to compute beside BLEU
RANKING = "ranking_metric"  # the metric that orders the dashboard's tables

SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
#: the largest smoothing value the sidebar takes: floor replaces a zero count by this many
#: matches, so above 1 it would beat a real match (and could push BLEU over 100); add-k adds k
#: to every count of order 2 and above
SMOOTH_VALUE_MAX = {"floor": 1.0, "add-k": 10.0}
MAX_NGRAM_ORDER_BOUNDS = (1, 9)
N_BOOTSTRAP_BOUNDS = (100, 10000)
#: what a workspace saves of the options, by widget key (smoothing values are added by method)
SAVED_OPTION_KEYS = (TOKENIZE, LOWERCASE, SMOOTH_METHOD, MAX_NGRAM_ORDER, EFFECTIVE_ORDER,
                     BASELINE, N_BOOTSTRAP)
#: what a link keeps of the options (the baseline only for a bundled sample: see session/_url.py)
URL_OPTION_KEYS = (TOKENIZE, LOWERCASE, SMOOTH_METHOD, MAX_NGRAM_ORDER, EFFECTIVE_ORDER,
                   N_BOOTSTRAP, SENTENCE_SMOOTH, OTHER_METRICS, RANKING)

# --- segment scores (Metrics & human scores page; scoring/_segment_scores.py) --------------------
SEGMENT_SCORES = "segment_scores"  # label -> bleu.metrics.segment.scores.SegmentScores, as read
#: label -> {system: (its texts, the error spans of each segment)} (``_segment_scores``)
SEGMENT_SCORE_SPANS = "segment_score_spans"
ALIASES = "external_aliases"  # label -> {file's system name -> loaded system name}
SCORES_FILE = "scores_file"
SCORES_ERROR = "scores_error"

# --- URL state (session/_url.py) ------------------------------------------------------------------
URL_RESTORED = "url_restored"
URL_STATE = "url_state"  # the query parameters this app owns, written back after each run


def smooth_value_key(method: str) -> str:
    """The widget key of ``method``'s smoothing value (one per method: each keeps its own)."""
    return f"smooth_value_{method}"


def kept(key: str, default: Any) -> Any:
    """The session's value of the keyed widget ``key`` (``default`` at first), to give the widget
    as its ``value=`` too: a freshly opened page then draws it at that value from the first
    message, instead of at the widget's minimum for a moment, which an upload or click in that
    moment sent back as the user's choice (options reset to their minimums)."""
    return st.session_state.setdefault(key, default)


def kept_index(key: str, choices: Sequence[Any], default: Any) -> int:
    """``kept`` for a selectbox: the position of the kept value among ``choices``."""
    value = kept(key, default)
    return list(choices).index(value) if value in choices else 0


def options() -> BLEUOptions:
    """The BLEU options chosen in the sidebar (they apply to every page)."""
    state = st.session_state
    method = state.get(SMOOTH_METHOD, "exp")
    value = (state.get(smooth_value_key(method)) if SMOOTH_DEFAULTS[method] is not None
             else None)
    return BLEUOptions(tokenize=state.get(TOKENIZE, "13a"),
                       lowercase=bool(state.get(LOWERCASE, False)), smooth_method=method,
                       smooth_value=value, max_ngram_order=int(state.get(MAX_NGRAM_ORDER, 4)),
                       effective_order=bool(state.get(EFFECTIVE_ORDER, False)))


def n_bootstrap() -> int:
    """The bootstrap resamples chosen in the sidebar."""
    return int(st.session_state.get(N_BOOTSTRAP, 1000))

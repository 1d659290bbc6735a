"""The app's heavy work, cached on content: Streamlit hashes a ``TextFile`` or ``Dataset`` by its
content key (``hash_funcs``), so a cached result always belongs to the data it was computed on.

References are tokenized and counted once per (reference set, options), each system once per
(system, reference set, options), the dashboard once per (data, options, baseline, resamples).
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np
import streamlit as st

from bleu.analysis.dashboard import Dashboard, build_dashboard
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu import BLEU
from bleu.metrics.bleu.score import BLEUOptions
from bleu_app.views import _session, _state

#: how Streamlit's caches hash the loaded data: by content, never by identity
HASH_FUNCS = {TextFile: attrgetter("key"), Dataset: attrgetter("key")}
#: above this many segments x systems, scoring shows a progress bar (one step per system)
PROGRESS_SEGMENTS = 100_000


@st.cache_resource(max_entries=4, show_spinner=False, hash_funcs=HASH_FUNCS)
def _metric(references: tuple[TextFile, ...], options: BLEUOptions) -> BLEU:
    """The references tokenized and counted once per (reference set, options)."""
    return BLEU(tokenize=options.tokenize, lowercase=options.lowercase,
                smooth_method=options.smooth_method, smooth_value=options.smooth_value,
                max_ngram_order=options.max_ngram_order,
                effective_order=options.effective_order, force=True,
                references=[list(ref.segments) for ref in references])


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=HASH_FUNCS)
def stats_of(system: TextFile, references: tuple[TextFile, ...],
             options: BLEUOptions) -> np.ndarray:
    """One system's statistics matrix against the references (cached on content)."""
    return _metric(references, options).segment_stats(system.segments)


def system_stats(data: Dataset, opts: BLEUOptions) -> dict[str, np.ndarray]:
    """The statistics matrix of every system, by name (cached on content and options)."""
    names = list(data.systems)
    bar = (st.progress(0.0, text="Scoring the systems")
           if data.n_segments * len(names) > PROGRESS_SEGMENTS else None)
    stats = {}
    for done, name in enumerate(names, start=1):
        stats[name] = stats_of(data.systems[name], data.references, opts)
        if bar is not None:
            bar.progress(done / len(names), text=f"Scored {done} of {len(names)} systems")
    if bar is not None:
        bar.empty()
    return stats


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH_FUNCS)
def _dashboard(data: Dataset, opts: BLEUOptions, baseline: str | None,
               n_samples: int) -> Dashboard:
    stats = {name: stats_of(file, data.references, opts)
             for name, file in data.systems.items()}
    return build_dashboard(stats, opts, data.n_refs, baseline=baseline, n_samples=n_samples)


def dashboard() -> Dashboard:
    """The corpus dashboard of the loaded data with the sidebar's options (cached)."""
    data, opts = _session.dataset(), _state.options()
    system_stats(data, opts)  # the per-system progress bar, before the cached whole
    baseline = st.session_state.get(_state.BASELINE)
    return _dashboard(data, opts, baseline if baseline in data.systems else None,
                      _session.n_bootstrap())

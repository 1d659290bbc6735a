"""Streamlit glue for chrF/chrF++/TER (our own, computed on demand, cached) and external scores.

The sidebar's "Also compute" choice (``_state.OTHER_METRICS``) says which metrics the pages show
beside BLEU. Each system's statistics are computed once per (metric, case, system, references),
one system at a time under a progress bar: a rerun (the user changed something, or left)
stops the work between two systems, and what was done stays cached. External scores live in
``st.session_state[_state.EXTERNAL]`` (the parsed file) and ``[_state.ALIASES]`` (file name ->
loaded name); they are matched to the loaded systems on use.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from bleu.analysis import metric_scores
from bleu.analysis.metric_scores import METRICS, MetricScores
from bleu.analysis.segments import sentence_options, sentence_scores
from bleu.errors import InputError
from bleu.io import TextFile
from bleu.io.dataset import Dataset, load_folder
from bleu.io.scores.read import Matching, match_systems, read_scores
from bleu.io.scores.table import SegmentScores
from bleu.metrics.base import SignificanceResult
from bleu_app.views import _compute, _session, _state, _workspace

MQM_SAMPLE_DIR = _session.SAMPLE_DIR / "wmt21_en-de_mqm"
MQM_SAMPLE_LABEL = "Sample: WMT21 newstest2021 English→German with Google MQM scores"
MQM_FILE = "mqm_newstest2021_ende.avg_seg_scores.tsv"
#: the MQM sample's name (``Dataset.sample``; ``?sample=`` in a link)
MQM_SAMPLE = "wmt21-en-de-mqm"


def sidebar() -> None:
    """The sidebar's choice of metrics to compute beside BLEU (on demand)."""
    st.sidebar.multiselect(
        "Also compute", METRICS, default=_state.kept(_state.OTHER_METRICS, []),
        key=_state.OTHER_METRICS,
        help="chrF, chrF++ and TER, each equal to sacrebleu's (signatures included), with "
             "paired bootstrap p-values. Computed once per data and options, then cached.")


def chosen() -> list[str]:
    """The metrics chosen in the sidebar, in display order."""
    picked = st.session_state.get(_state.OTHER_METRICS) or []
    return [name for name in METRICS if name in picked]


def add_more_hint(purpose: str) -> str:
    """A sentence naming the metrics not chosen yet ("" when all are), ending "to <purpose>"."""
    left = [name for name in METRICS if name not in chosen()]
    if not left:
        return ""
    names = left[0] if len(left) == 1 else f"{', '.join(left[:-1])} or {left[-1]}"
    return f"Add {names} under Also compute in the sidebar to {purpose}."


@st.cache_resource(max_entries=6, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _metric(metric: str, lowercase: bool, references: tuple[TextFile, ...]):
    """The metric with these references processed once (shared by the sessions)."""
    return metric_scores.make_metric(metric, lowercase=lowercase,
                                     references=[list(ref.segments) for ref in references])


@st.cache_data(max_entries=512, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _system_stats(metric: str, lowercase: bool, system: TextFile,
                  references: tuple[TextFile, ...]) -> np.ndarray:
    return _metric(metric, lowercase, references).segment_stats(system.segments)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _results(metric: str, lowercase: bool, data: Dataset) -> MetricScores:
    scorer = _metric(metric, lowercase, data.references)
    stats = {name: _system_stats(metric, lowercase, file, data.references)
             for name, file in data.systems.items()}
    return metric_scores.from_stats(metric, scorer.signature, scorer.scorer, stats)


def results(data: Dataset, metric: str) -> MetricScores:
    """``metric`` for every loaded system, one system at a time under a progress bar (cached)."""
    lowercase = _state.options().lowercase
    names = list(data.systems)
    bar = st.progress(0.0, text=f"Computing {metric}…")
    for done, name in enumerate(names):
        bar.progress(done / len(names), text=f"Computing {metric}: {done} of {len(names)} "
                                             f"systems done, {name} now")
        _system_stats(metric, lowercase, data.systems[name], data.references)
    bar.empty()
    return _results(metric, lowercase, data)


def all_results(data: Dataset) -> dict[str, MetricScores]:
    """Every chosen metric's results, by metric."""
    return {metric: results(data, metric) for metric in chosen()}


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _significance(metric: str, lowercase: bool, data: Dataset, baseline: str | None,
                  n_samples: int) -> dict[str, SignificanceResult]:
    return metric_scores.significance(_results(metric, lowercase, data), baseline=baseline,
                                      n_samples=n_samples)


def significance(data: Dataset, metric: str) -> dict[str, SignificanceResult]:
    """The paired bootstrap of ``metric`` against the sidebar's baseline (cached), as
    sacrebleu's ``--paired-bs``; call ``results`` first (it shows the progress)."""
    baseline = st.session_state.get(_state.BASELINE)
    baseline = baseline if baseline in data.systems and len(data.systems) > 1 else None
    return _significance(metric, _state.options().lowercase, data, baseline,
                         _session.n_bootstrap())


# -------------------------------------------------------------------------- external scores

def matching(data: Dataset) -> Matching | str | None:
    """The loaded external scores matched to the loaded systems; a string says why not."""
    scores: SegmentScores | None = st.session_state.get(_state.EXTERNAL)
    if scores is None:
        return None
    if scores.n_segments != data.n_segments:
        return (f"The external scores ({scores.source}) are for {scores.n_segments} segments; "
                f"the loaded data has {data.n_segments}. Load the matching test set.")
    try:
        return match_systems(scores, list(data.systems),
                             st.session_state.get(_state.ALIASES, {}))
    except InputError as error:
        return str(error)


def set_external(scores: SegmentScores | None, aliases: dict[str, str] | None = None) -> None:
    """Make ``scores`` the loaded external scores (None removes them)."""
    st.session_state[_state.EXTERNAL] = scores
    st.session_state[_state.ALIASES] = dict(aliases or {})


@st.cache_resource(show_spinner=False)
def mqm_sample() -> tuple[Dataset, SegmentScores]:
    """The bundled WMT21 en-de sample and its MQM file, read once per process."""
    data = replace(load_folder(MQM_SAMPLE_DIR, MQM_SAMPLE_LABEL), sample=MQM_SAMPLE)
    return data, read_scores(Path(MQM_SAMPLE_DIR) / MQM_FILE, n_segments=data.n_segments)


def load_mqm_sample() -> None:
    """Load the WMT21 en-de sample and its MQM scores (MQM's ``Nemo`` is ``NVIDIA-NeMo``)."""
    data, scores = mqm_sample()
    _workspace.load(data, f"Loaded {MQM_SAMPLE_LABEL}.")
    set_external(scores, {"Nemo": "NVIDIA-NeMo"})


def extra_columns(table: pd.DataFrame, data: Dataset, systems: tuple[str, ...]) -> pd.DataFrame:
    """The sentence table with chosen metrics' and external scores' columns for ``systems``."""
    extra: dict[str, np.ndarray] = {}
    for metric, found in all_results(data).items():
        for name in dict.fromkeys(systems):
            extra[f"{metric} {name}"] = np.asarray(found.sentence_scores[name])
    matched = matching(data)
    if isinstance(matched, Matching):
        external = matched.scores.by_system()
        for name in dict.fromkeys(systems):
            if name in external:
                extra[f"{matched.scores.label} {name}"] = np.asarray(external[name])
    if not extra:
        return table
    out = table.copy()
    for column, values in extra.items():
        out[column] = values[out["id"].to_numpy() - 1]
    return out


def sentence_bleu(data: Dataset) -> dict[str, np.ndarray]:
    """Sentence BLEU (sacrebleu's sentence defaults, the sidebar's tokenizer) of every system."""
    opts = _state.options()
    sentence = sentence_options(opts)
    return {name: np.asarray(sentence_scores(matrix, sentence))
            for name, matrix in _compute.system_stats(data, opts).items()}

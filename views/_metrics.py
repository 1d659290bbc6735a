"""Streamlit glue for chrF/chrF++/TER (computed on demand, cached) and external segment scores.

The sidebar's "Also compute" choice (key ``other_metrics``) says which sacrebleu metrics the pages
show; they are computed in chunks of segments with a progress bar, each chunk cached with
``st.cache_data`` on (metric, lowercase, system hash, reference hash, chunk), so a rerun or a
second page costs nothing. External scores live in ``st.session_state[EXTERNAL]`` (parsed file)
and ``[ALIASES]`` (file name -> loaded name); they are matched to the loaded systems on use.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from bleu.analysis import other_metrics
from bleu.analysis.external import ExternalScores, Matching, match_systems, read_scores
from bleu.analysis.other_metrics import METRICS, MetricResult, MetricSignificance
from bleu.analysis.segments import sentence_options, sentence_scores
from bleu.errors import InputError
from bleu.io.dataset import Dataset, load_folder
from views import _compute, _session, _state, _workspace

OTHER = "other_metrics"
EXTERNAL = "external_scores"
ALIASES = "external_aliases"
MQM_SAMPLE_DIR = _session.SAMPLE_DIR / "wmt21_en-de_mqm"
MQM_SAMPLE_LABEL = "Sample: WMT21 newstest2021 English→German with Google MQM scores"
MQM_FILE = "mqm_newstest2021_ende.avg_seg_scores.tsv"
CHUNK = other_metrics.CHUNK_SEGMENTS


def sidebar() -> None:
    """The sidebar's choice of sacrebleu metrics to compute beside BLEU (on demand)."""
    st.sidebar.multiselect(
        "Also compute (sacrebleu)", METRICS, default=_state.kept(OTHER, []), key=OTHER,
        help="chrF, chrF++ and TER by sacrebleu's own classes, with its signatures. Computed "
             "once per data and options (chrF takes about a second per 1000 segments and "
             "system, TER about ten), then cached.")


def chosen() -> list[str]:
    """The metrics chosen in the sidebar, in display order."""
    picked = st.session_state.get(OTHER) or []
    return [name for name in METRICS if name in picked]


@st.cache_data(max_entries=4096, show_spinner=False)
def _chunk(metric: str, lowercase: bool, system_key: str, references_key: str, start: int,
           stop: int, _hypotheses: tuple[str, ...],
           _references: tuple[tuple[str | None, ...], ...]) -> np.ndarray:
    stats = other_metrics.chunk_statistics(
        metric, {"s": _hypotheses[start:stop]}, [ref[start:stop] for ref in _references],
        lowercase=lowercase)
    return stats["s"]


@st.cache_data(max_entries=64, show_spinner=False)
def _results(metric: str, lowercase: bool, keys: tuple[tuple[str, str], ...],
             references_key: str, _stats: dict[str, np.ndarray],
             _references: tuple[tuple[str | None, ...], ...]) -> dict[str, MetricResult]:
    return other_metrics.results_from_stats(metric, _stats, _references, lowercase=lowercase)


def results(data: Dataset, metric: str) -> dict[str, MetricResult]:
    """``metric`` for every loaded system, computed chunk by chunk with a progress bar (cached)."""
    lowercase = _state.options().lowercase
    refs = data.reference_streams
    n = data.n_segments
    bar = st.progress(0.0, text=f"Computing {metric}…")
    parts: dict[str, list[np.ndarray]] = {name: [] for name in data.systems}
    total = n * len(data.systems)
    done = 0
    for name, file in data.systems.items():
        for start in range(0, n, CHUNK):
            stop = min(start + CHUNK, n)
            parts[name].append(_chunk(metric, lowercase, data.system_keys[name],
                                      data.references_key, start, stop, file.segments, refs))
            done += stop - start
            bar.progress(done / total, text=f"Computing {metric} with sacrebleu: "
                                            f"{done:,} of {total:,} segments")
    bar.empty()
    stats = {name: np.concatenate(matrices) for name, matrices in parts.items()}
    return _results(metric, lowercase, tuple(data.system_keys.items()), data.references_key,
                    stats, refs)


def all_results(data: Dataset) -> dict[str, dict[str, MetricResult]]:
    """Every chosen metric's results, by metric then system."""
    return {metric: results(data, metric) for metric in chosen()}


@st.cache_data(max_entries=64, show_spinner=False)
def _significance(metric: str, lowercase: bool, keys: tuple[tuple[str, str], ...],
                  references_key: str, baseline: str | None, n_samples: int,
                  _results: dict[str, MetricResult]) -> dict[str, MetricSignificance]:
    return other_metrics.paired_bootstrap(_results, baseline=baseline, n_samples=n_samples,
                                          lowercase=lowercase)


def significance(data: Dataset, metric: str,
                 found: dict[str, MetricResult]) -> dict[str, MetricSignificance]:
    """sacrebleu's paired bootstrap of ``metric`` against the sidebar's baseline (cached)."""
    baseline = st.session_state.get("baseline")
    baseline = baseline if baseline in data.systems and len(data.systems) > 1 else None
    return _significance(metric, _state.options().lowercase, tuple(data.system_keys.items()),
                         data.references_key, baseline,
                         int(st.session_state.get("n_bootstrap", 1000)), found)


# -------------------------------------------------------------------------- external scores

def matching(data: Dataset) -> Matching | str | None:
    """The loaded external scores matched to the loaded systems; a string says why not."""
    scores: ExternalScores | None = st.session_state.get(EXTERNAL)
    if scores is None:
        return None
    if scores.n_segments != data.n_segments:
        return (f"The external scores ({scores.source}) are for {scores.n_segments} segments; "
                f"the loaded data has {data.n_segments}. Load the matching test set.")
    try:
        return match_systems(scores, list(data.systems), st.session_state.get(ALIASES, {}))
    except InputError as error:
        return str(error)


def set_external(scores: ExternalScores | None, aliases: dict[str, str] | None = None) -> None:
    """Make ``scores`` the loaded external scores (None removes them)."""
    st.session_state[EXTERNAL] = scores
    st.session_state[ALIASES] = dict(aliases or {})


@st.cache_resource(show_spinner=False)
def mqm_sample() -> tuple[Dataset, ExternalScores]:
    """The bundled WMT21 en-de sample and its MQM file, read once per process."""
    data = load_folder(MQM_SAMPLE_DIR, MQM_SAMPLE_LABEL)
    return data, read_scores(Path(MQM_SAMPLE_DIR) / MQM_FILE, n_segments=data.n_segments)


def load_mqm_sample() -> None:
    """Load the WMT21 en-de sample and its MQM scores (MQM's ``Nemo`` is ``NVIDIA-NeMo``)."""
    data, scores = mqm_sample()
    _workspace.load(data, f"Loaded {MQM_SAMPLE_LABEL}.")
    set_external(scores, {"Nemo": "NVIDIA-NeMo"})


def extra_columns(table: pd.DataFrame, data: Dataset, systems: tuple[str, ...]) -> pd.DataFrame:
    """The sentence table with chosen metrics' and external scores' columns for ``systems``."""
    extra: dict[str, np.ndarray] = {}
    for metric, by_system in all_results(data).items():
        for name in dict.fromkeys(systems):
            extra[f"{metric} {name}"] = np.asarray(by_system[name].sentence_scores)
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

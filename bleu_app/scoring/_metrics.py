"""The app's one registry of metrics: BLEU, the metrics the sidebar adds (chrF, chrF++, TER) and
the segment scores of the session (``_segment_scores``), each as ``MetricScores`` that every
page shows, tests and exports the same way.

A text metric's statistics are computed once per (metric, its options, system, references) and
kept for every session (``_cache.stats_store``); references are prepared once per (metric,
options, reference set). Progress follows one rule for every metric: while systems must be
scored, a bar counts them (one step per system); a rerun stops the work between two systems,
and what was done stays stored.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd
import streamlit as st

from bleu.evaluation.scores import METRICS, TEXT_METRICS, MetricScores, from_stats, make_metric
from bleu.explore.segments import sentence_options, sentence_scores
from bleu.i18n import tr
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.base import Metric
from bleu.metrics.bleu.score import BLEUOptions
from bleu_app.runtime import _cache
from bleu_app.scoring import _segment_scores
from bleu_app.session import _state


def sidebar() -> None:
    """The sidebar's choice of metrics to compute beside BLEU (on demand)."""
    st.sidebar.multiselect(
        tr("Also compute"), METRICS, default=_state.kept(_state.OTHER_METRICS, []),
        key=_state.OTHER_METRICS,
        help=tr("chrF, chrF++ and TER, each equal to sacrebleu's (signatures included), with "
                "paired bootstrap p-values. Computed once per data and options, then kept. "
                "Segment scores (COMET, MQM...) are loaded on the Metrics & human scores page."))


def chosen() -> list[str]:
    """The metrics chosen in the sidebar, in display order."""
    picked = st.session_state.get(_state.OTHER_METRICS) or []
    return [name for name in METRICS if name in picked]


def add_more_hint(purpose: str) -> str:
    """A sentence naming the metrics not chosen yet ("" when all are), ending "to <purpose>"."""
    left = [name for name in METRICS if name not in chosen()]
    if not left:
        return ""
    names = left[0] if len(left) == 1 else tr("{first} or {last}").format(
        first=", ".join(left[:-1]), last=left[-1])
    return tr("Add {names} under Also compute in the sidebar to {purpose}.").format(
        names=names, purpose=purpose)


def names(data: Dataset) -> list[str]:
    """Every metric the pages show for the loaded data: BLEU, the sidebar's, the segment
    scores that match the loaded systems."""
    return ["BLEU", *chosen(), *_segment_scores.labels(data)]


def _options_key(name: str, options: BLEUOptions) -> Hashable:
    """What of the sidebar's options changes a text metric: all of BLEU's, chrF's lowercase,
    nothing for TER (sacrebleu's case-insensitive default, as papers report it)."""
    if name == "BLEU":
        return options
    return options.lowercase if name in ("chrF", "chrF++") else ()


@st.cache_resource(max_entries=6, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _metric(name: str, options: BLEUOptions, references: tuple[TextFile, ...]) -> Metric:
    """The metric with these references prepared once (shared by the sessions); call it with
    ``_options_key``'s options only (``_prepared``)."""
    return make_metric(name, options=options,
                       references=[list(ref.segments) for ref in references])


def _prepared(name: str, data: Dataset, options: BLEUOptions) -> Metric:
    relevant = options if name == "BLEU" else BLEUOptions(lowercase=options.lowercase
                                                          if name != "TER" else False)
    return _metric(name, relevant, data.references)


def _store_key(name: str, options: BLEUOptions, system: TextFile, data: Dataset) -> Hashable:
    return name, _options_key(name, options), system.key, data.references_key


def _text_stats(data: Dataset, name: str, options: BLEUOptions) -> dict[str, np.ndarray]:
    """Every system's statistics for a text metric: stored ones at once, the others one
    system at a time under a progress bar."""
    store = _cache.stats_store()
    found = {system: store.get(_store_key(name, options, file, data))
             for system, file in data.systems.items()}
    todo = [system for system, matrix in found.items() if matrix is None]
    if not todo:
        return found
    metric = _prepared(name, data, options)
    bar = st.progress(0.0, text=tr("Computing {metric}: {system} now").format(
        metric=name, system=todo[0]))
    for done, system in enumerate(todo, start=1):
        file = data.systems[system]
        found[system] = metric.segment_stats(file.segments)
        store.put(_store_key(name, options, file, data), found[system])
        following = tr(", {system} now").format(system=todo[done]) if done < len(todo) else ""
        bar.progress(done / len(todo), text=tr(
            "Computing {metric}: {done} of {total} systems done{following}").format(
            metric=name, done=done, total=len(todo), following=following))
    bar.empty()
    return found


@_cache.shared(max_entries=64)
def _text_scores(name: str, options: BLEUOptions, data: Dataset) -> MetricScores:
    metric = _prepared(name, data, options)
    stats = _text_stats(data, name, options)  # stored already: ``scores`` asked first
    return from_stats(name, metric.get_signature(), metric.scorer, stats)


def scores(data: Dataset, name: str) -> MetricScores:
    """``name`` for every system it scores: a text metric with the sidebar's options, or a
    segment-score set of the session (cached on content)."""
    if name in TEXT_METRICS:
        options = _state.options()
        _text_stats(data, name, options)  # the progress bar, outside the cached function
        return _text_scores(name, options, data)
    return _segment_scores.scores(data, name)


def bleu_stats(data: Dataset) -> dict[str, np.ndarray]:
    """Every system's BLEU statistics matrix with the sidebar's options."""
    return dict(scores(data, "BLEU").stats)


def all_scores(data: Dataset) -> dict[str, MetricScores]:
    """Every metric of ``names`` for the loaded data, by name."""
    return {name: scores(data, name) for name in names(data)}


def sentence_bleu(data: Dataset) -> dict[str, np.ndarray]:
    """Sentence BLEU (sacrebleu's sentence defaults, the sidebar's tokenizer) of every system."""
    sentence = sentence_options(_state.options())
    return {name: np.asarray(sentence_scores(matrix, sentence))
            for name, matrix in bleu_stats(data).items()}


def extra_columns(table: pd.DataFrame, data: Dataset, systems: tuple[str, ...]) -> pd.DataFrame:
    """The sentence table with every other metric's segment scores for ``systems`` (columns
    ``<metric> <system>``; NaN where a segment is unrated)."""
    extra: dict[str, np.ndarray] = {}
    for metric, found in all_scores(data).items():
        if metric == "BLEU":
            continue
        for name in dict.fromkeys(systems):
            if name in found.sentence_scores:
                extra[f"{metric} {name}"] = np.asarray(found.sentence_scores[name])
    if not extra:
        return table
    out = table.copy()
    for column, values in extra.items():
        out[column] = values[out["id"].to_numpy() - 1]
    return out

"""The app's face of the evaluation service: the loaded data as one ``bleu.evaluation.Evaluation``
with BLEU, the metrics the sidebar adds (chrF, chrF++, TER) and the session's segment scores,
kept once per server for the same data, options and metrics; every page shows, tests and exports
what it returns.

Statistics go into the server's store (``_cache.stats_store``), keyed on the metric, its options,
the system's text and the references, so another session, or another mix of metrics, takes them
from there. Progress follows one rule for every metric: while systems must be scored, a bar
counts them; a rerun stops the work between two systems, and what was done stays stored.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd
import streamlit as st

from bleu.evaluation import Evaluation, MetricProgress, MetricScores, registry
from bleu.evaluation.registry import TEXT
from bleu.explore.segments import sentence_options, sentence_scores
from bleu.i18n import tr
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.segment.scores import SegmentScores
from bleu_app.runtime import _cache
from bleu_app.scoring import _segment_scores
from bleu_app.session import _state


def addable() -> list[str]:
    """The metrics a user may add beside BLEU (the sidebar's "Also compute")."""
    return registry.names(TEXT)[1:]


def sidebar() -> None:
    """The sidebar's choice of metrics to compute beside BLEU (on demand)."""
    st.sidebar.multiselect(
        tr("Also compute"), addable(), default=_state.kept(_state.OTHER_METRICS, []),
        key=_state.OTHER_METRICS, placeholder=tr("Choose metrics"),
        help=tr("chrF, chrF++ and TER, each equal to sacrebleu's (signatures included), with "
                "paired bootstrap p-values. Computed once per data and options, then kept. "
                "Segment scores (COMET, MQM...) are loaded on the Metrics & human scores page."))


def chosen() -> list[str]:
    """The metrics chosen in the sidebar, in display order."""
    picked = st.session_state.get(_state.OTHER_METRICS) or []
    return [name for name in addable() if name in picked]


def add_more_hint(purpose: str) -> str:
    """A sentence naming the metrics not chosen yet ("" when all are), ending "to <purpose>"."""
    left = [name for name in addable() if name not in chosen()]
    if not left:
        return ""
    names = left[0] if len(left) == 1 else tr("{first} or {last}").format(
        first=", ".join(left[:-1]), last=left[-1])
    return tr("Add {names} under Also compute in the sidebar to {purpose}.").format(
        names=names, purpose=purpose)


def names(data: Dataset) -> list[str]:
    """Every metric the pages show for the loaded data: BLEU, the sidebar's, the segment
    scores that match the loaded systems."""
    return evaluation(data).metrics


#: a segment-score set as the evaluation's cache key holds it: label, scores, aliases
ScoreSet = tuple[str, SegmentScores, tuple[tuple[str, str], ...]]


@_cache.shared(max_entries=16)
def _evaluation(data: Dataset, options: BLEUOptions, chosen: tuple[str, ...],
                score_sets: tuple[ScoreSet, ...]) -> Evaluation:
    found = Evaluation.from_dataset(data, store=_cache.stats_store(), **asdict(options))
    for name in chosen:
        found.add_metric(name)
    for label, scores, aliases in score_sets:
        found.add_scores(scores, label=label, higher_is_better=scores.higher_is_better,
                         aliases=dict(aliases))
    return found


def evaluation(data: Dataset) -> Evaluation:
    """The loaded data's evaluation with the sidebar's options and metrics and the session's
    segment scores (one per server for the same of each; its scores computed once)."""
    return _evaluation(data, _state.options(), tuple(chosen()), _segment_scores.sets(data))


class _ProgressBar:
    """A bar counting the systems a metric still computes (drawn only when one must be)."""

    def __init__(self) -> None:
        self.bar: st.delta_generator.DeltaGenerator | None = None

    def __call__(self, step: MetricProgress) -> None:
        if step.done == 0:
            text = tr("Computing {metric}: {system} now").format(metric=step.metric,
                                                                 system=step.current)
        else:
            following = tr(", {system} now").format(system=step.current) if step.current else ""
            text = tr("Computing {metric}: {done} of {total} systems done{following}").format(
                metric=step.metric, done=step.done, total=step.total, following=following)
        if self.bar is None:
            self.bar = st.progress(step.done / step.total, text=text)
        else:
            self.bar.progress(step.done / step.total, text=text)
        if step.current is None:
            self.bar.empty()


def scores(data: Dataset, name: str) -> MetricScores:
    """``name`` for every system it scores (computed once per server, under a progress bar
    while systems are left)."""
    return evaluation(data).scores(name, progress=_ProgressBar())


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

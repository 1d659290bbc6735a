"""Significance where the comparison is, for every metric alike, cached on content: each
metric's dashboard results (bootstrap against the baseline, all pairs, clusters), the dashboard
that holds them, every pair by AR, and A against B (the Compare page; also on a subset of the
segments: a Sentences filter or a bucket)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import streamlit as st

from bleu.evaluation.paired import PairedComparison, paired_comparison
from bleu.evaluation.ranking import AllPairs, all_pairs
from bleu.evaluation.results import Dashboard, MetricResults, assemble_dashboard, metric_results
from bleu.evaluation.scores import MetricScores
from bleu.evaluation.service import both_rated
from bleu.io.dataset import Dataset
from bleu.metrics.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from bleu_app.runtime import _cache
from bleu_app.scoring import _metrics
from bleu_app.session import _session, _state

#: approximate randomization trials (sacrebleu's default for --paired-ar)
AR_TRIALS = DEFAULT_SAMPLES["ar"]
#: the seed of every test (sacrebleu's default)
SEED = DEFAULT_SEED


def n_samples(method: str) -> int:
    """Resamples of the bootstrap (the sidebar's), trials of approximate randomization, within
    the server's budget for the loaded data."""
    return _session.n_bootstrap() if method == "bs" else _session.resamples(AR_TRIALS).used


def baseline(data: Dataset) -> str | None:
    """The sidebar's baseline where it is one of the loaded systems (and there are two)."""
    chosen = st.session_state.get(_state.BASELINE)
    return chosen if chosen in data.systems and len(data.systems) > 1 else None


@_cache.shared(max_entries=64)
def _results(scores: MetricScores, chosen: str | None, samples: int) -> MetricResults:
    return metric_results(scores, baseline=chosen, n_samples=samples, seed=SEED)


def results(data: Dataset, metric: str) -> MetricResults:
    """A metric's bootstrap against the baseline and its all-pairs comparison (cached)."""
    return _results(_metrics.scores(data, metric), baseline(data), n_samples("bs"))


def ranking(data: Dataset) -> str:
    """The metric that orders the dashboard's tables (BLEU unless the user chose another)."""
    chosen = st.session_state.get(_state.RANKING)
    return chosen if chosen in _metrics.names(data) else "BLEU"


def dashboard(data: Dataset) -> Dashboard:
    """The corpus dashboard of every metric of the loaded data (each part cached)."""
    found = [results(data, metric) for metric in _metrics.names(data)]
    return assemble_dashboard(found[0], _state.options(), data.n_refs, found[1:],
                              ranking(data))


@_cache.shared(max_entries=32)
def _pairs(scores: MetricScores, method: str, samples: int,
           systems: tuple[str, ...] | None) -> AllPairs:
    stats = scores.stats if systems is None else {name: scores.stats[name] for name in systems
                                                  if name in scores.stats}
    found = all_pairs(stats, scores.scorer, method=method, n_samples=samples, seed=SEED)
    return replace(found, metric=scores.metric)


def pairs(data: Dataset, metric: str, method: str,
          systems: Sequence[str] | None = None) -> AllPairs:
    """Every pair of systems (or of ``systems``) compared on ``metric`` with ``method`` ("bs"
    or "ar"), Holm-corrected, clustered (cached); the bootstrap of all is the dashboard's."""
    if method == "bs" and systems is None:
        found = results(data, metric).pairs
        if found is not None:
            return found
    return _pairs(_metrics.scores(data, metric), method, n_samples(method),
                  None if systems is None else tuple(systems))


@_cache.shared(max_entries=64)
def _pair(scores: MetricScores, a: str, b: str, n_bootstrap: int,
          n_ar: int) -> PairedComparison:
    found = paired_comparison(scores.stats[a], scores.stats[b], scores.scorer,
                              n_bootstrap=n_bootstrap, n_ar=n_ar, seed=SEED)
    return replace(found, metric=scores.metric)


def pair_tests(data: Dataset, a: str, b: str,
               rows: Sequence[int] | None = None) -> list[PairedComparison]:
    """A against B on every metric that scores both: scores, A − B with its 95% bootstrap
    interval, paired bootstrap and approximate-randomization p-values (and, for segment
    scores, the t-test), cached; ``rows`` (0-based segments) tests a subset taken as a corpus
    of its own."""
    found = []
    for scores in _metrics.all_scores(data).values():
        if a not in scores.stats or b not in scores.stats:
            continue
        if rows is not None:
            scores = scores.subset(np.asarray(rows))
            if scores.is_segment_scores and not both_rated(scores, a, b):
                continue
        found.append(_pair(scores, a, b, n_samples("bs"), n_samples("ar")))
    return found




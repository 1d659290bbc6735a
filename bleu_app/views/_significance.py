"""Significance where the comparison is, cached on content: every pair of systems (the
dashboard's all-pairs view) and A against B (the Compare page), for BLEU and every metric the
sidebar adds (chrF, chrF++, TER through ``views._metrics``).

BLEU's statistics come from ``views._compute`` (cached per system); another metric's from
``_metrics.results``, whose ``MetricScores`` is hashed by its statistics' bytes, so a cached
result always belongs to the numbers it was computed from.
"""

from __future__ import annotations

import dataclasses
import hashlib

import streamlit as st

from bleu.analysis.compare import PairedComparison, paired_comparison
from bleu.analysis.metric_scores import MetricScores
from bleu.analysis.ranking import AllPairs, all_pairs
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import BLEUOptions
from bleu.metrics.significance import DEFAULT_SAMPLES
from bleu_app.views import _compute, _metrics, _session, _state

#: approximate randomization trials (sacrebleu's default for --paired-ar)
AR_TRIALS = DEFAULT_SAMPLES["ar"]


def _content(scores: MetricScores) -> tuple[str, ...]:
    """A ``MetricScores``'s cache key: its metric, signature and every system's statistics."""
    digest = hashlib.sha256()
    for name, matrix in scores.stats.items():
        digest.update(name.encode("utf-8") + b"\0" + matrix.tobytes())
    return scores.metric, scores.signature, digest.hexdigest()


HASH_FUNCS = {**_compute.HASH_FUNCS, MetricScores: _content}


def n_samples(method: str) -> int:
    """Resamples of the bootstrap (the sidebar's), trials of approximate randomization."""
    return _session.n_bootstrap() if method == "bs" else _session.resamples(AR_TRIALS).used


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=HASH_FUNCS)
def _bleu_pairs(data: Dataset, options: BLEUOptions, method: str, samples: int) -> AllPairs:
    stats = {name: _compute.stats_of(file, data.references, options)
             for name, file in data.systems.items()}
    return all_pairs(stats, options, method=method, n_samples=samples)


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=HASH_FUNCS)
def _metric_pairs(scores: MetricScores, method: str, samples: int) -> AllPairs:
    return all_pairs(scores.stats, scores.scorer, method=method, n_samples=samples)


def pairs(data: Dataset, metric: str, method: str) -> AllPairs:
    """Every pair of the loaded systems compared on ``metric`` ("BLEU" or one of the sidebar's)
    with ``method`` ("bs" or "ar"), Holm-corrected, clustered (cached). BLEU's statistics are
    the dashboard's (computed, with their progress bar, by ``_compute.system_stats``), and its
    bootstrap over all pairs is ``Dashboard.pairs``: use that one where the dashboard is."""
    if metric == "BLEU":
        return _bleu_pairs(data, _state.options(), method, n_samples(method))
    found = _metric_pairs(_metrics.results(data, metric), method, n_samples(method))
    return dataclasses.replace(found, metric=metric)  # named as in the sidebar (chrF, not chrF2)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH_FUNCS)
def _bleu_pair(a: TextFile, b: TextFile, references: tuple[TextFile, ...],
               options: BLEUOptions, n_bootstrap: int, n_ar: int) -> PairedComparison:
    return paired_comparison(_compute.stats_of(a, references, options),
                             _compute.stats_of(b, references, options), options,
                             n_bootstrap=n_bootstrap, n_ar=n_ar)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH_FUNCS)
def _metric_pair(scores: MetricScores, a: str, b: str, n_bootstrap: int,
                 n_ar: int) -> PairedComparison:
    return paired_comparison(scores.stats[a], scores.stats[b], scores.scorer,
                             n_bootstrap=n_bootstrap, n_ar=n_ar)


def pair_tests(data: Dataset, a: str, b: str) -> list[PairedComparison]:
    """A against B on BLEU and on every metric chosen in the sidebar: scores, A − B with its
    95% bootstrap interval, paired bootstrap and approximate-randomization p-values (cached)."""
    options = _state.options()
    found = [_bleu_pair(data.systems[a], data.systems[b], data.references, options,
                        n_samples("bs"), n_samples("ar"))]
    for metric, scores in _metrics.all_results(data).items():  # named as in the sidebar
        tested = _metric_pair(scores, a, b, n_samples("bs"), n_samples("ar"))
        found.append(dataclasses.replace(tested, metric=metric))
    return found

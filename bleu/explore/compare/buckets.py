"""Scores by bucket (sentence length, length difference, sentence BLEU, word frequency), each
bucket a corpus of its own with a bootstrap interval; compare-mt's word accuracy by frequency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...display.formatting import PLAIN
from ...errors import LengthMismatchError
from ...i18n import tr
from ...metrics.base import StatsScorer
from ...metrics.bleu.clipping import credited, lookup
from ...metrics.bleu.score import BLEUOptions
from ...metrics.significance import (
    DEFAULT_SEED,
    ScorerSource,
    as_scorer,
    bootstrap_ci_from_stats,
)
from .keys import LOW, SHIFT, pair_counts, token_stream, token_text

#: compare-mt's default cutoffs (value < cutoff[i] goes to bucket i; the rest to the last one)
LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)


LENGTH_DIFF_CUTOFFS = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)


SENTENCE_BLEU_CUTOFFS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)


FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def bucket_labels(cutoffs: Sequence[float]) -> list[str]:
    """compare-mt's labels: ``<c0``, ``k`` for a one-integer bucket, ``[a,b)``, ``>=last``."""
    write = PLAIN.text  # the number rule: a decimal comma in Dutch (and ";" between bounds)
    labels = []
    for i, cut in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{write(cut)}")
        elif isinstance(cut, int | np.integer) and cut - 1 == cutoffs[i - 1]:
            labels.append(write(cut - 1))
        else:
            labels.append(tr("[{low},{high})").format(low=write(cutoffs[i - 1]), high=write(cut)))
    labels.append(f">={write(cutoffs[-1])}")
    return labels


def assign_buckets(values: np.ndarray, cutoffs: Sequence[float]) -> np.ndarray:
    """The bucket of each value: the first i with value < cutoffs[i], else len(cutoffs)."""
    return np.searchsorted(np.asarray(cutoffs, np.float64), np.asarray(values, np.float64),
                           side="right")


def score_by_bucket(stats: Mapping[str, np.ndarray], buckets: Mapping[str, np.ndarray],
                    labels: Sequence[str], metric: StatsScorer | ScorerSource, *,
                    n_samples: int = 1000, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Each system's corpus score on each bucket of its segments (BLEU's options or any
    metric's scorer), with a bootstrap interval.

    ``buckets[name]`` gives each segment's bucket index for that system (into ``labels``);
    empty buckets (for segment scores: with no rated segment) are left out. Columns: system,
    bucket, label, segments, score, mean, low, high, ci.
    """
    scorer = as_scorer(metric)
    rows = []
    for name, matrix in stats.items():
        for index, label in enumerate(labels):
            members = np.flatnonzero(buckets[name] == index)
            if len(members) and _rated_in(scorer, matrix, members):
                found = bootstrap_ci_from_stats(matrix, scorer, n_samples=n_samples,
                                                seed=seed, rows=members)
                rows.append((name, index, label, len(members), found.score, found.mean,
                             found.low, found.high, found.ci))
    return pd.DataFrame(rows, columns=["system", "bucket", "label", "segments", "score", "mean",
                                       "low", "high", "ci"])


def _rated_in(scorer: StatsScorer, matrix: np.ndarray, members: np.ndarray) -> bool:
    """Whether any of ``members`` is rated (always, for metrics that rate every segment)."""
    column = scorer.rated_column
    return column is None or bool((np.asarray(matrix)[members, column] > 0).any())


@dataclass(frozen=True)
class FMeasureScorer:
    """compare-mt's word F-measure as a ``StatsScorer``: per segment (matches, output words,
    reference words); F = 2·matches / (output + reference), 0 without a match."""

    name: str = "F-measure"
    higher_is_better: bool = True
    integer_stats: bool = True
    float32_resamples: bool = False
    rated_column: int | None = None
    columns: int = 3

    def scores(self, sums: np.ndarray) -> np.ndarray:
        matches, output, reference = np.asarray(sums, dtype=np.float64).T
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(matches > 0, 2 * matches / (output + reference), 0.0)

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        return self.scores(sums)

    def score(self, sums: np.ndarray) -> float:
        return float(self.scores(np.asarray(sums)[None, :])[0])


def word_accuracy_by_frequency(systems: Mapping[str, Sequence[str]], reference: Sequence[str],
                               options: BLEUOptions, *,
                               cutoffs: Sequence[int] = FREQUENCY_CUTOFFS,
                               frequencies: Mapping[str, int] | None = None,
                               n_samples: int = 1000, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """compare-mt's word F-measure by word-frequency bucket, with bootstrap intervals.

    A word of the output matches an unused occurrence of it in the reference of the same
    segment; per bucket, F = 2·matches / (output words + reference words). A word's frequency
    comes from ``frequencies`` (training-data counts, compare-mt's ``--freq_count_file``; see
    ``bleu.io.read_frequencies``) or, without them, is counted in the reference; then the
    ``<1`` bucket (words the reference lacks, whose F is 0 by construction) says nothing and is
    left out, as are empty buckets. Columns: system, bucket, label, words (reference words in
    the bucket: its size), matches, output, score, mean, low, high, ci.
    """
    n_segments = len(reference)
    for name, lines in systems.items():
        if len(lines) != n_segments:
            raise LengthMismatchError(
                f"System {name!r} has {len(lines)} lines, the reference {n_segments}.")
    streams = [token_stream(reference, options),
               *(token_stream(lines, options) for lines in systems.values())]
    codes, vocabulary = pd.factorize(pd.Index([t for tokens, _ in streams for t in tokens],
                                              dtype=object))
    bounds = np.cumsum([0, *(len(tokens) for tokens, _ in streams)])
    ids = [codes[bounds[k] : bounds[k + 1]].astype(np.int64) for k in range(len(streams))]
    if frequencies is None:
        frequency = np.bincount(ids[0], minlength=len(vocabulary))
    else:
        counts = _case_folded(frequencies) if options.lowercase else frequencies
        frequency = np.array([counts.get(token_text(word), 0) for word in vocabulary],
                             np.int64)
    word_bucket = assign_buckets(frequency, cutoffs)
    n_buckets = len(cutoffs) + 1
    ref_keys, ref_counts = pair_counts(streams[0][1], ids[0])
    ref_matrix = _bucket_matrix(ref_keys, ref_counts, word_bucket, n_segments, n_buckets)
    labels = bucket_labels(cutoffs)
    scorer = FMeasureScorer()
    rows = []
    for name, (_, segment), tokens in zip(systems, streams[1:], ids[1:], strict=True):
        keys, counts = pair_counts(segment, tokens)
        matched = credited(counts, lookup(keys, ref_keys, ref_counts))
        out_matrix = _bucket_matrix(keys, counts, word_bucket, n_segments, n_buckets)
        match_matrix = _bucket_matrix(keys, matched, word_bucket, n_segments, n_buckets)
        for b in range(n_buckets):
            size, matches, output = (int(m[:, b].sum()) for m in (ref_matrix, match_matrix,
                                                                   out_matrix))
            if (size == 0 and output == 0) or (b == 0 and frequencies is None):
                continue
            bucket = np.stack([match_matrix[:, b], out_matrix[:, b], ref_matrix[:, b]], axis=1)
            found = bootstrap_ci_from_stats(bucket, scorer, n_samples=n_samples, seed=seed)
            rows.append((name, b, labels[b], size, matches, output, found.score, found.mean,
                         found.low, found.high, found.ci))
    return pd.DataFrame(rows, columns=["system", "bucket", "label", "words", "matches", "output",
                                       "score", "mean", "low", "high", "ci"])


def _case_folded(frequencies: Mapping[str, int]) -> dict[str, int]:
    """Training counts with the words lowercased (case variants summed), for lowercased BLEU."""
    folded: dict[str, int] = {}
    for word, count in frequencies.items():
        folded[word.lower()] = folded.get(word.lower(), 0) + count
    return folded


def _bucket_matrix(keys: np.ndarray, counts: np.ndarray, word_bucket: np.ndarray,
                   n_segments: int, n_buckets: int) -> np.ndarray:
    """(segments, buckets) sums of ``counts`` over (segment, word) keys."""
    flat = (keys >> SHIFT) * n_buckets + word_bucket[keys & LOW]
    return np.bincount(flat, weights=counts, minlength=n_segments * n_buckets).reshape(
        n_segments, n_buckets)

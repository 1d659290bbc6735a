"""Every metric for every system, one kind of thing: BLEU, chrF, chrF++ and TER (our own, equal
to sacrebleu's, with sacrebleu's signatures) and segment-score metrics (COMET, xCOMET, MQM, DA:
per-segment scores read from files or computed by a model).

Each system's per-segment statistics are computed once; its corpus score, every sentence score
and the significance tests (``bleu.metrics.significance``, with the metric's scorer) are all
computed from them, the same way for every metric. ``bleu.evaluation.Evaluation`` makes them
(one system at a time, with progress); this module holds what they are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from ..errors import InputError
from ..i18n import tr
from ..metrics.base import Metric, Signature, SignificanceResult, StatsScorer
from ..metrics.segment import SegmentScorer, segment_stats
from ..metrics.segment.scores import SegmentScores
from ..metrics.significance import (
    DEFAULT_SEED,
    bootstrap_ci_from_stats,
    paired_bootstrap_from_stats,
)


@dataclass(frozen=True)
class MetricScores:
    """One metric for every system it scores: statistics, corpus and sentence scores, the
    signature (None for segment scores, which come with their ``source`` instead), and the
    scorer that significance tests resample with."""

    metric: str
    sign: Signature | None
    scorer: StatsScorer
    stats: Mapping[str, np.ndarray]
    scores: Mapping[str, float]
    sentence_scores: Mapping[str, np.ndarray]
    source: str = ""
    #: segments of the test set (a subset keeps the full set's numbering)
    segment_ids: np.ndarray | None = field(default=None, compare=False)
    #: the text metric (``bleu.metrics.base.Metric``) that computed the statistics, with its
    #: references: its score objects and signatures are sacrebleu's (the command line prints
    #: them); None for segment scores and subsets
    text_metric: Metric | None = field(default=None, compare=False, repr=False)

    @property
    def higher_is_better(self) -> bool:
        return self.scorer.higher_is_better

    @property
    def is_segment_scores(self) -> bool:
        """Scores per segment from outside the text (they may leave segments unrated)."""
        return self.scorer.rated_column is not None

    @property
    def signature(self) -> str:
        """sacrebleu's signature of the scores ("" for segment scores)."""
        return "" if self.sign is None else self.sign.format()

    def tested_signature(self, method: str, n_samples: int, seed: int | None) -> str:
        """The signature beside a tested score, with sacrebleu's ``bs:``/``ar:`` and
        ``seed:`` fields as its ``--paired-bs``/``--paired-ar`` print them."""
        if self.sign is None:
            return f"{method}:{n_samples}|seed:{str(seed).lower()}"
        return self.sign.with_resampling(**{method: n_samples,
                                            "seed": str(seed).lower()}).format()

    @property
    def ranked(self) -> list[str]:
        """The systems best first (ties in the given order)."""
        sign = -1.0 if self.higher_is_better else 1.0
        return sorted(self.scores, key=lambda name: sign * self.scores[name])

    @cached_property
    def key(self) -> str:
        """A hash of the metric, its signature and every system's statistics (cache keys)."""
        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{self.metric}\0{self.signature}\0{self.higher_is_better}".encode())
        for name, matrix in self.stats.items():
            digest.update(name.encode("utf-8", "surrogatepass") + b"\0")
            digest.update(np.ascontiguousarray(matrix).tobytes())
        return digest.hexdigest()

    def subset(self, rows: np.ndarray) -> MetricScores:
        """The same metric on some segments only (a filter or a bucket): 0-based ``rows``, the
        subset taken as a corpus of its own."""
        rows = np.asarray(rows, dtype=np.intp)
        if len(rows) == 0:
            raise InputError(tr("The subset holds no segment: nothing to score or test."))
        stats = {name: np.asarray(matrix)[rows] for name, matrix in self.stats.items()}
        ids = rows if self.segment_ids is None else self.segment_ids[rows]
        return replace(from_stats(self.metric, self.sign, self.scorer, stats, self.source),
                       segment_ids=ids)


def from_stats(name: str, sign: Signature | None, scorer: StatsScorer,
               stats: Mapping[str, np.ndarray], source: str = "") -> MetricScores:
    """Corpus and sentence scores of every system from its statistics. Every array they hold
    is read-only (statistics as read-only views of the matrices given), so that one set can
    be shared by every session of a server without a copy."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return MetricScores(
            name, sign, scorer, {system: _read_only(matrix) for system, matrix in stats.items()},
            {system: scorer.score(np.asarray(matrix).sum(axis=0))
             for system, matrix in stats.items()},
            {system: _read_only(scorer.scores(matrix)) for system, matrix in stats.items()},
            source)


def _read_only(values: np.ndarray) -> np.ndarray:
    """A read-only view of ``values`` (the array itself stays as it was)."""
    view = np.asarray(values).view()
    view.setflags(write=False)
    return view


def from_segment_scores(scores: SegmentScores, systems: Sequence[str] | None = None,
                        ) -> MetricScores:
    """A segment-score metric (``SegmentScores``: matched to the loaded systems) as metric
    scores: each system's mean over its rated segments, tested on segments rated for both
    systems of a pair. ``systems`` orders the systems (default: the file's order); a system
    with no rated segment is left out."""
    by_system = scores.by_system()
    order = [name for name in (systems or scores.systems) if name in by_system]
    stats = {name: segment_stats(by_system[name], tr("{metric} scores of {system}").format(
                 metric=scores.label, system=name))
             for name in order}
    stats = {name: matrix for name, matrix in stats.items() if matrix[:, 1].any()}
    if not stats:
        raise InputError(tr("{source}: no segment is rated for any loaded system.").format(
            source=scores.source))
    return from_stats(scores.label, None, SegmentScorer(scores.label, scores.higher_is_better),
                      stats, scores.source)


def significance(scores: MetricScores, *, baseline: str | None = None, n_samples: int = 1000,
                 seed: int = DEFAULT_SEED) -> dict[str, SignificanceResult]:
    """sacrebleu's paired bootstrap of every system against ``baseline`` (its ``--paired-bs``);
    with no baseline, or one system, each system's own bootstrap mean and CI."""
    if baseline is not None and len(scores.stats) > 1:
        return paired_bootstrap_from_stats(scores.stats, scores.scorer, baseline=baseline,
                                           n_samples=n_samples, seed=seed)
    return {system: replace(bootstrap_ci_from_stats(matrix, scores.scorer, n_samples=n_samples,
                                                    seed=seed), name=system)
            for system, matrix in scores.stats.items()}

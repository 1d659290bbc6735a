"""chrF, chrF++ and TER beside BLEU for every system: our own metrics (``bleu.metrics.chrf``,
``bleu.metrics.ter``), equal to sacrebleu's, with sacrebleu's signatures.

Each system's per-segment statistics are computed once; its corpus score, every sentence score
and the significance tests (``bleu.metrics.significance``, with the metric's scorer) are all
computed from them. ``score_systems`` takes a ``progress`` callback that is called after each
system, so a caller can show progress and stop between systems.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import UnknownOptionError
from ..metrics.base import SignificanceResult, StatsScorer
from ..metrics.checks import References, check_references
from ..metrics.significance import bootstrap_ci_from_stats, paired_bootstrap_from_stats

#: the metrics computed beside BLEU, in display order
METRICS = ("chrF", "chrF++", "TER")
#: True where a higher score is better
HIGHER_IS_BETTER = {"BLEU": True, "chrF": True, "chrF++": True, "TER": False}


@dataclass(frozen=True)
class MetricScores:
    """One metric for every system: statistics, corpus and sentence scores, the signature, and
    the scorer that significance tests resample with."""

    metric: str
    signature: str
    scorer: StatsScorer
    stats: Mapping[str, np.ndarray]
    scores: Mapping[str, float]
    sentence_scores: Mapping[str, np.ndarray]

    @property
    def higher_is_better(self) -> bool:
        return HIGHER_IS_BETTER[self.metric]


def make_metric(name: str, *, lowercase: bool = False,
                references: References | None = None) -> Any:
    """Our ``CHRF`` or ``TER`` for ``name`` with sacrebleu's defaults; ``lowercase`` as BLEU's
    for chrF. TER keeps sacrebleu's (and tercom's) default, case-insensitive, whatever
    ``lowercase`` says: that is the TER papers report, and its signature says ``case:lc``."""
    if name in ("chrF", "chrF++"):
        from ..metrics.chrf import CHRF

        return CHRF(word_order=2 if name == "chrF++" else 0, lowercase=lowercase,
                    references=references)
    if name == "TER":
        from ..metrics.ter import TER

        return TER(references=references)
    raise UnknownOptionError(f"Unknown metric {name!r}: expected one of {', '.join(METRICS)}.")


def score_systems(name: str, systems: Mapping[str, Sequence[str]], references: References, *,
                  lowercase: bool = False,
                  progress: Callable[[int, int], None] | None = None) -> MetricScores:
    """``name`` for every system against ``references`` (processed once); ``progress`` is called
    with (systems done, systems in all) after each system."""
    check_references(references, None)
    metric = make_metric(name, lowercase=lowercase, references=references)
    stats: dict[str, np.ndarray] = {}
    for done, (system, hypotheses) in enumerate(systems.items(), start=1):
        matrix = metric.segment_stats(hypotheses)
        matrix.setflags(write=False)
        stats[system] = matrix
        if progress is not None:
            progress(done, len(systems))
    return from_stats(name, metric.signature, metric.scorer, stats)


def from_stats(name: str, signature: str, scorer: StatsScorer,
               stats: Mapping[str, np.ndarray]) -> MetricScores:
    """Corpus and sentence scores of every system from its statistics."""
    return MetricScores(
        name, signature, scorer, dict(stats),
        {system: scorer.score(matrix.sum(axis=0)) for system, matrix in stats.items()},
        {system: scorer.scores(matrix) for system, matrix in stats.items()})


def significance(scores: MetricScores, *, baseline: str | None = None, n_samples: int = 1000,
                 seed: int = 12345) -> dict[str, SignificanceResult]:
    """sacrebleu's paired bootstrap of every system against ``baseline`` (its ``--paired-bs``);
    with no baseline, or one system, each system's own bootstrap mean and CI."""
    if baseline is not None and len(scores.stats) > 1:
        return paired_bootstrap_from_stats(scores.stats, scores.scorer, baseline=baseline,
                                           n_samples=n_samples, seed=seed)
    return {system: replace(bootstrap_ci_from_stats(matrix, scores.scorer, n_samples=n_samples,
                                                    seed=seed), name=system)
            for system, matrix in scores.stats.items()}

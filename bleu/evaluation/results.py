"""What an evaluation says of each metric, as data: ``MetricResults`` (the paired bootstrap
against the baseline, every pair compared with Holm's correction, WMT's clusters) and the
``Dashboard`` of every metric (BLEU first, with its score objects: precisions, brevity penalty;
a ranking metric). Tables and exports of them are the explore views' (``bleu.explore``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..i18n import N_
from ..metrics.base import SignificanceResult
from ..metrics.bleu import signature
from ..metrics.bleu.score import BLEUOptions, BLEUScore, score_from_stats
from ..metrics.significance import DEFAULT_SEED
from ..number_rule import NumberFormat, score_formats
from .ranking import ALPHA, AllPairs, all_pairs
from .scores import MetricScores, significance

#: p-values below this are marked significant (sacrebleu marks them with "*" too)
SIGNIFICANCE_LEVEL = ALPHA


#: what the "vs baseline" column says (English in the data and files; shown translated)
BETTER, WORSE, NOT_SIGNIFICANT, BASELINE = (N_("better"), N_("worse"), N_("not significant"),
                                            N_("baseline"))


#: all pairs are compared (and clusters formed) for up to this many systems: 60 make 1,770
#: pairs, about a second; 1,000 would make half a million. Beyond, a user picks the systems.
MAX_PAIRED_SYSTEMS = 60


#: charts show at most this many systems, best first (and the baseline): a row per system
CHART_SYSTEMS = 30


def is_significant(result: SignificanceResult) -> bool:
    """True when a paired test found a difference to the baseline at ``SIGNIFICANCE_LEVEL``."""
    return result.p_value is not None and result.p_value < SIGNIFICANCE_LEVEL


def verdict(result: SignificanceResult, baseline: SignificanceResult | None,
            higher_is_better: bool = True) -> str:
    """What the paired test says of a system against the baseline, direction included."""
    if baseline is None or result.name == baseline.name or result.p_value is None:
        return BASELINE if baseline is not None and result.name == baseline.name else ""
    if not is_significant(result) or result.score == baseline.score:
        # equal scores are never "better" or "worse", whatever the test's p (sacrebleu's
        # bootstrap gives identical systems p = 1 / (N + 1))
        return NOT_SIGNIFICANT
    ahead = result.score > baseline.score if higher_is_better else result.score < baseline.score
    return BETTER if ahead else WORSE


@dataclass(frozen=True)
class MetricResults:
    """One metric on the dashboard: its scores, what the bootstrap says of each system
    (``significance``: mean, 95% CI and, with a baseline, the paired p-value), and with two or
    more systems every pair compared with the same resamples and seed (``pairs``: Holm-corrected
    p-values and WMT's ranking clusters)."""

    scores: MetricScores
    significance: Mapping[str, SignificanceResult]
    baseline: str | None
    n_samples: int
    seed: int
    pairs: AllPairs | None = None

    @property
    def metric(self) -> str:
        return self.scores.metric

    @property
    def higher_is_better(self) -> bool:
        return self.scores.higher_is_better

    @property
    def ranks(self) -> dict[str, str]:
        """Each system's cluster rank (empty with one system)."""
        return self.pairs.ranks if self.pairs is not None else {}

    @property
    def tested_signature(self) -> str:
        """The signature with the bootstrap's fields, as sacrebleu prints it for a test."""
        return self.scores.tested_signature("bs", self.n_samples, self.seed)

    @property
    def formats(self) -> tuple[NumberFormat, NumberFormat]:
        """How its scores and differences are written (``score_formats``)."""
        return score_formats(self.scores.scores.values())


    def only(self, systems: Sequence[str]) -> MetricResults:
        """The same results for some systems only (a chart's), in their order."""
        return replace(self, significance={name: self.significance[name] for name in systems
                                           if name in self.significance})



def metric_results(scores: MetricScores, *, baseline: str | None = None, n_samples: int = 1000,
                   seed: int = DEFAULT_SEED) -> MetricResults:
    """A metric's dashboard numbers: the paired bootstrap against ``baseline`` (each system's
    own CI without one, or where the metric does not score it: a segment-score file may leave
    it out) and, with two or more systems, every pair (named as ``scores``)."""
    paired = baseline in scores.stats and len(scores.stats) > 1
    found = significance(scores, baseline=baseline if paired else None, n_samples=n_samples,
                         seed=seed)
    pairs = None
    if 1 < len(scores.stats) <= MAX_PAIRED_SYSTEMS:
        pairs = replace(all_pairs(scores.stats, scores.scorer, method="bs",
                                  n_samples=n_samples, seed=seed), metric=scores.metric)
    return MetricResults(scores, {name: found[name] for name in scores.stats},
                         baseline if paired else None, n_samples, seed, pairs)


@dataclass(frozen=True)
class Dashboard:
    """Every number the corpus dashboard shows, for systems scored against the same references:
    each metric's ``MetricResults`` (``metrics``, BLEU first), BLEU's score objects with their
    precisions and brevity penalty (``scores``), and which metric orders the tables
    (``ranking``)."""

    scores: Mapping[str, BLEUScore]
    options: BLEUOptions
    n_refs: int
    n_segments: int
    metrics: Mapping[str, MetricResults]
    ranking: str = "BLEU"

    @property
    def bleu(self) -> MetricResults:
        return self.metrics["BLEU"]

    @property
    def significance(self) -> Mapping[str, SignificanceResult]:
        """BLEU's bootstrap results by system."""
        return self.bleu.significance

    @property
    def pairs(self) -> AllPairs | None:
        """BLEU's all-pairs comparison (None with one system)."""
        return self.bleu.pairs

    @property
    def baseline(self) -> str | None:
        return self.bleu.baseline

    @property
    def n_samples(self) -> int:
        return self.bleu.n_samples

    @property
    def seed(self) -> int:
        return self.bleu.seed

    @property
    def signature(self) -> str:
        """The BLEU signature of every score in the table."""
        return signature(self.options, self.n_refs)

    @property
    def bootstrap_signature(self) -> str:
        """The signature with the resampling fields, as sacrebleu prints it for ``--paired-bs``."""
        return self.bleu.tested_signature

    @property
    def ranked(self) -> list[str]:
        """The systems best first by the ranking metric (ties in the given order; systems that
        metric does not score last, best first by BLEU)."""
        ranked = self.metrics[self.ranking].scores.ranked
        return ranked + [name for name in self.bleu.scores.ranked if name not in ranked]

    def chart_systems(self, limit: int = CHART_SYSTEMS) -> list[str]:
        """The systems a chart shows: all, or the ``limit`` best by the ranking metric and the
        baseline (a chart has a row per system)."""
        shown = self.ranked[:limit]
        if self.baseline is not None and self.baseline not in shown:
            shown.append(self.baseline)
        return shown


def assemble_dashboard(bleu: MetricResults, options: BLEUOptions, n_refs: int,
                       others: Sequence[MetricResults] = (), ranking: str = "BLEU",
                       ) -> Dashboard:
    """The dashboard of metric results already computed (BLEU's, then the others in order)."""
    metrics = {"BLEU": bleu, **{found.metric: found for found in others}}
    if ranking not in metrics:
        raise ValueError(f"The ranking metric {ranking!r} is not one of {list(metrics)}.")
    sig = signature(options, n_refs)
    scores = {name: score_from_stats(np.asarray(matrix).sum(axis=0), options, sig)
              for name, matrix in bleu.scores.stats.items()}
    n_segments = len(next(iter(bleu.scores.stats.values())))
    return Dashboard(scores, options, n_refs, n_segments, metrics, ranking)

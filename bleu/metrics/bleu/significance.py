"""BLEU's significance tests on text, with sacrebleu's arguments: a paired bootstrap or approximate
randomization of systems (name -> hypotheses) against references, a system's bootstrap interval,
and the signature of a test. BLEU by default; ``metric=bleu.CHRF(...)`` or ``bleu.TER(...)``
tests another metric. The tests themselves are ``bleu.metrics.significance``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ...errors import LengthMismatchError, UnknownOptionError
from ..base import Progress, SignificanceResult, StatsScorer
from ..checks import References
from ..significance import (
    DEFAULT_SEED,
    bootstrap_ci_from_stats,
    check_samples,
    confidence_samples,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
    resampling_fields,
)
from ..significance.base import Reporter, check_system_names
from .api import BLEU, signature
from .score import BLEUOptions


def _metric_stats(references: References, metric: Any, bleu_options: dict[str, Any],
                  ) -> tuple[Callable[[Sequence[str]], np.ndarray], StatsScorer]:
    """A function from hypotheses to statistics, and the metric's scorer.

    BLEU with ``bleu_options`` by default (references tokenized once for all systems), or
    ``metric``: any metric object with ``segment_stats(hypotheses, references)`` and
    ``scorer`` (``bleu.CHRF``, ``bleu.TER``).
    """
    if metric is None:
        bleu = BLEU(**bleu_options, references=references)
        return bleu.segment_stats, bleu.scorer
    if bleu_options:
        raise UnknownOptionError(
            f"BLEU options {sorted(bleu_options)} were given with metric={metric!r}; give the "
            "options to the metric object instead.")
    return (lambda hypotheses: metric.segment_stats(hypotheses, references)), metric.scorer


def _system_stats(systems: Mapping[str, Sequence[str]], references: References,
                  baseline: str | None, metric: Any, bleu_options: dict[str, Any],
                  report: Reporter) -> tuple[dict[str, np.ndarray], StatsScorer]:
    """Each system's statistics and the metric's scorer; lengths checked first."""
    names = check_system_names(systems, baseline)
    stats_of, scorer = _metric_stats(references, metric, bleu_options)
    n_segments = len(references[0]) if references else 0
    for name in names:
        if not isinstance(systems[name], str) and len(systems[name]) != n_segments:
            raise LengthMismatchError(
                f"System {name!r} has {len(systems[name])} segments, but the references have "
                f"{n_segments}; every system needs one line per segment."
            )
    stats = {}
    for name in names:
        stats[name] = stats_of(systems[name])
        report.advance(1)
    return stats, scorer


def paired_bootstrap(systems: Mapping[str, Sequence[str]], references: References, *,
                     baseline: str | None = None, n_samples: int = 1000,
                     seed: int | None = DEFAULT_SEED, progress: Progress | None = None,
                     metric: Any = None, **bleu_options: Any) -> dict[str, SignificanceResult]:
    """Paired bootstrap test of systems (name -> hypotheses) against references, as sacrebleu's.

    The baseline is the first system unless ``baseline`` names one. BLEU with ``bleu_options``
    by default; ``metric=bleu.CHRF(...)`` or ``bleu.TER(...)`` tests another metric.
    """
    check_samples(n_samples)
    stats, scorer = _system_stats(systems, references, baseline, metric, bleu_options,
                                  Reporter(progress, len(systems), 0.0, 0.5))
    return paired_bootstrap_from_stats(
        stats, scorer, baseline=baseline, n_samples=n_samples, seed=seed,
        progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def paired_approximate_randomization(
    systems: Mapping[str, Sequence[str]], references: References, *,
    baseline: str | None = None, n_samples: int = 10000, n_confidence: int = -1,
    seed: int | None = DEFAULT_SEED, progress: Progress | None = None, metric: Any = None,
    **bleu_options: Any,
) -> dict[str, SignificanceResult]:
    """Paired approximate randomization test of systems against references, as sacrebleu's.

    ``n_confidence`` > 0 adds bootstrap means and CIs (0 means 1000; negative, none); the
    metric is chosen as in ``paired_bootstrap``.
    """
    check_samples(n_samples)
    confidence_samples(n_confidence)
    stats, scorer = _system_stats(systems, references, baseline, metric, bleu_options,
                                  Reporter(progress, len(systems), 0.0, 0.5))
    return paired_ar_from_stats(
        stats, scorer, baseline=baseline, n_samples=n_samples,
        n_confidence=n_confidence, seed=seed,
        progress=None if progress is None else (lambda f: progress(0.5 + 0.5 * f)),
    )


def bootstrap_ci(hypotheses: Sequence[str], references: References, *, n_samples: int = 1000,
                 seed: int | None = DEFAULT_SEED, metric: Any = None,
                 **bleu_options: Any) -> SignificanceResult:
    """One system's score with its bootstrap mean and 95% CI (sacrebleu's ``--confidence``);
    the metric is chosen as in ``paired_bootstrap``."""
    stats_of, scorer = _metric_stats(references, metric, bleu_options)
    return bootstrap_ci_from_stats(stats_of(hypotheses), scorer, n_samples=n_samples, seed=seed)


def significance_signature(options: BLEUOptions, n_refs: int, method: str, n_samples: int,
                           seed: int | None, n_confidence: int = -1) -> str:
    """sacrebleu's BLEU signature of a paired test or CI: ``nrefs:1|bs:1000|seed:12345|...``.

    ``method`` is "bs" (also for a single CI) or "ar"; AR with ``n_confidence`` adds ``bs:``.
    """
    return signature(options, n_refs, **resampling_fields(method, n_samples, seed, n_confidence))

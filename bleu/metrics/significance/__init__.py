"""Paired significance tests and bootstrap confidence intervals for any metric, with sacrebleu
2.6's numbers, in memory bounded by blocks of resamples. No metric is known here by name: a
test takes a ``StatsScorer`` (or options that name one); BLEU's tests on text, with sacrebleu's
arguments, are ``bleu.metrics.bleu.significance``.

Modules: ``base`` (defaults, checks, signature fields), ``draws`` (the resampling engine),
``groups`` (segments rated for both systems), ``bootstrap``, ``randomization``, ``pairs`` (all
pairs, Holm), ``paired_t`` (comet-compare's), ``student_t`` (its tail).

A metric's per-segment statistics sum to its corpus statistics, and a ``StatsScorer`` scores
sums (``bleu.metrics.base``). A bootstrap resample is a weights vector (how often each segment was
drawn) times the statistics matrix; an approximate-randomization trial is a 0/1 selector (which
system each segment comes from) times each system's matrix. Resamples are drawn and summed block
by block (``draws.CHUNK_CELLS`` resamples x segments at a time), so memory grows with the segments,
not with segments x resamples, and the numbers do not depend on the block size.

Parity with sacrebleu 2.6 (``sacrebleu.significance``), for the same seed:

- the same ``numpy.random.default_rng(seed)`` draws in the same order: the resample indices of
  ``choice`` (shared by every system of a paired bootstrap), for AR the selectors of
  ``integers(2, dtype=bool)`` followed, for a confidence interval, by ``choice``. Drawing in
  blocks gives the same numbers: integer draws keep their unused 32-bit half in the bit
  generator, and bool draws, which take 32 per 32-bit word within one call, are drawn in
  blocks of a multiple of 32 rows (tested against one-call draws);
- bootstrap resamples are scored as sacrebleu scores them, from float32 statistics
  (``StatsScorer.resample_scores``): counts are summed exactly (any order gives the same integer
  below 2**24), other statistics (TER's reference lengths) are added in float32 one segment at
  a time, as numpy sums the rows of sacrebleu's ``stats[idxs][k]``; AR trials and real scores
  come from float64 sums (``StatsScorer.scores``);
- mean and 95% interval from the sorted resample scores (the ``n // 40``-th from each end),
  ``p = (c + 1) / (N + 1)`` with ``c`` the trials whose statistic is strictly above the real one.

Deliberate differences: a seed of 0 is a seed (sacrebleu draws fresh entropy for 0); with
``seed=None`` one fresh seed is drawn and shared by all systems, so the test stays paired.
With add-k smoothing and a fractional k, sacrebleu's BLEU AR trials add k to int64 arrays in
place, so they are scored with k rounded down while the real scores use k; ours use k
throughout. Resample sums of counts are exact integers; sacrebleu's float32 sums stop being
exact beyond 2**24 tokens (a corpus of some 16 million tokens), where the two could differ.
"""

from .base import (
    DEFAULT_CONFIDENCE_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    ScorerSource,
    StatisticsShapeError,
    TooFewSystemsError,
    as_scorer,
    check_samples,
    confidence_samples,
    p_value,
    resampling_fields,
    resolve_seed,
)
from .bootstrap import (
    bootstrap_ci_from_stats,
    estimate_ci,
    paired_bootstrap_differences,
    paired_bootstrap_from_stats,
)
from .paired_t import PairedTTest, paired_t_test
from .pairs import PairwiseComparison, holm_bonferroni, pairwise_significance
from .randomization import paired_ar_from_stats

__all__ = [
    "DEFAULT_CONFIDENCE_SAMPLES", "DEFAULT_SAMPLES", "DEFAULT_SEED", "PairedTTest",
    "PairwiseComparison", "ScorerSource", "StatisticsShapeError", "TooFewSystemsError",
    "as_scorer", "bootstrap_ci_from_stats", "check_samples", "confidence_samples", "estimate_ci",
    "holm_bonferroni", "p_value", "paired_ar_from_stats", "paired_bootstrap_differences",
    "paired_bootstrap_from_stats",
    "paired_t_test",
    "pairwise_significance", "resampling_fields", "resolve_seed",
]

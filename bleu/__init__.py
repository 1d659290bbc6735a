"""BLEU Explorer's core: BLEU exactly as sacrebleu computes it, faster, with explanations.

No Streamlit here: everything the app shows is computable from Python (and a notebook).
"""

from ._version import __version__
from .errors import InputError
from .metrics.bleu import BLEU, corpus_bleu, segment_stats, sentence_bleu, signature
from .metrics.bleu_score import BLEUOptions, BLEUScore, score_from_stats, scores_from_stats
from .metrics.explain import explain
from .metrics.significance import (
    PairwiseComparison,
    SignificanceResult,
    bootstrap_ci,
    bootstrap_ci_from_stats,
    paired_approximate_randomization,
    paired_ar_from_stats,
    paired_bootstrap,
    paired_bootstrap_from_stats,
    pairwise_significance,
    significance_signature,
)

__all__ = [
    "BLEU",
    "BLEUOptions",
    "BLEUScore",
    "InputError",
    "PairwiseComparison",
    "SignificanceResult",
    "__version__",
    "bootstrap_ci",
    "bootstrap_ci_from_stats",
    "corpus_bleu",
    "explain",
    "paired_approximate_randomization",
    "paired_ar_from_stats",
    "paired_bootstrap",
    "paired_bootstrap_from_stats",
    "pairwise_significance",
    "score_from_stats",
    "scores_from_stats",
    "segment_stats",
    "sentence_bleu",
    "signature",
    "significance_signature",
]

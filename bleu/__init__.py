"""BLEU Explorer's core: BLEU, chrF and TER exactly as sacrebleu computes them, faster, with
explanations and significance tests.

No Streamlit here: everything the app shows is computable from Python (and a notebook). The
names below load on first use, so ``import bleu`` costs next to nothing: a script that scores
one file pays only for what it calls.
"""

from __future__ import annotations

import importlib
from typing import Any

from ._version import __version__

#: public name -> the module that defines it
_EXPORTS = {
    "BLEU": "metrics.bleu",
    "corpus_bleu": "metrics.bleu",
    "sentence_bleu": "metrics.bleu",
    "segment_stats": "metrics.bleu",
    "signature": "metrics.bleu",
    "BLEUOptions": "metrics.bleu.score",
    "BLEUScore": "metrics.bleu.score",
    "score_from_stats": "metrics.bleu.score",
    "scores_from_stats": "metrics.bleu.score",
    "CHRF": "metrics.chrf",
    "CHRFScore": "metrics.chrf",
    "corpus_chrf": "metrics.chrf",
    "sentence_chrf": "metrics.chrf",
    "TER": "metrics.ter",
    "TERScore": "metrics.ter",
    "corpus_ter": "metrics.ter",
    "sentence_ter": "metrics.ter",
    "explain": "metrics.bleu.explain",
    "SignificanceResult": "metrics.base",
    "PairwiseComparison": "metrics.significance",
    "bootstrap_ci": "metrics.bleu.significance",
    "bootstrap_ci_from_stats": "metrics.significance",
    "paired_approximate_randomization": "metrics.bleu.significance",
    "paired_ar_from_stats": "metrics.significance",
    "paired_bootstrap": "metrics.bleu.significance",
    "paired_bootstrap_from_stats": "metrics.significance",
    "pairwise_significance": "metrics.significance",
    "significance_signature": "metrics.bleu.significance",
    "set_threads": "metrics.threads",
    "InputError": "errors",
}
#: subpackages reachable as attributes (``bleu.charts.dashboard(...)`` after ``import bleu``)
_SUBPACKAGES = ("charts", "cli", "display", "evaluation", "explore", "io", "metrics", "teaching",
               "workspace")

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use (PEP 562)."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    elif name in _SUBPACKAGES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'bleu' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (and ``__version__``), whether loaded yet or not."""
    return sorted({"__version__", *_EXPORTS, *_SUBPACKAGES})

"""ROUGE-L of one hypothesis against its references, with Google's ``rouge-score`` (a Python
reimplementation of ROUGE-1.5.5, Lin 2004): longest-common-subsequence precision, recall and F1.

ROUGE was made for summaries and is read for its recall: how much of the reference the output
covers. For English the library's own tokenizer is used, with its Porter stemmer (ROUGE-1.5.5's
``-m``): it lowercases and keeps ``[a-z0-9]`` runs only, so it would delete every non-ASCII
letter ("für" → "f r", Chinese → nothing). For any other language the tokens are BLEU's (the
chosen tokenizer, lowercased), given to the library as its ``tokenizer``; nothing else changes.
Nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bleu.engine import tokenize_line
from .bleu.score import BLEUOptions

#: the language whose text rouge-score's default tokenizer (ASCII letters and digits) is for
ENGLISH = "en"


@dataclass(frozen=True)
class RougeL:
    """ROUGE-L against the best reference (highest F1, as ``score_multi``), each in 0..1."""

    precision: float
    recall: float
    fmeasure: float
    tokenizer: str  # "rouge-score (Porter stemmer)" or the BLEU tokenizer used


@dataclass(frozen=True)
class BleuTokens:
    """rouge-score's tokenizer interface over BLEU's tokenization, lowercased."""

    tokenize_name: str

    def tokenize(self, text: str) -> list[str]:
        return tokenize_line(text, BLEUOptions(tokenize=self.tokenize_name, lowercase=True))


def scorer(language: str, tokenize: str = "13a"):
    """The ``RougeScorer`` for ROUGE-L in ``language`` (see the module doc)."""
    from rouge_score.rouge_scorer import RougeScorer

    if language == ENGLISH:
        return RougeScorer(["rougeL"], use_stemmer=True)
    return RougeScorer(["rougeL"], tokenizer=BleuTokens(tokenize))


def rouge_l(hypothesis: str, references: Sequence[str], *, language: str = ENGLISH,
            tokenize: str = "13a") -> RougeL:
    """ROUGE-L F1, precision and recall of ``hypothesis`` against its best reference."""
    best = scorer(language, tokenize).score_multi(list(references), hypothesis)["rougeL"]
    name = "rouge-score (Porter stemmer)" if language == ENGLISH else f"BLEU's {tokenize}"
    return RougeL(best.precision, best.recall, best.fmeasure, name)

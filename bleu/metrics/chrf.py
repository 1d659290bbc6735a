"""chrF and chrF++ (Popović 2015, 2017) as sacrebleu 2.6 computes them: every number equal.

``CHRF`` mirrors ``sacrebleu.metrics.CHRF`` (same arguments and defaults; references given to
the constructor are prepared once), ``corpus_chrf`` and ``sentence_chrf`` its compat functions.
Character and word n-grams are counted by sorting integer keys, chunk by chunk on threads
(``chrf_stats``, ``chrf_counts``); scores come from ``CHRFScorer``, vectorized over rows.

Deliberate differences from sacrebleu, each refused with an ``InputError`` that says why:

- streams of different lengths (sacrebleu's API zips them, silently dropping segments), an
  empty corpus, a segment whose references are all None (sacrebleu fails with an IndexError
  or scores nonsense), non-string segments;
- ``references=[]`` is refused rather than read as "use the cached references" (pass None);
- ``char_order`` and ``word_order`` must be integers >= 0 with at least one n-gram order
  (sacrebleu scores 0 for every input, or divides by zero, with both 0; negative orders give
  meaningless numbers); ``beta`` must be >= 0 (sacrebleu takes a negative beta as its absolute
  value but names the score ``chrF-2``);
- ``CHRFScore.format(is_json=True)`` works without a signature (sacrebleu raises).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import MissingReferenceError
from .checks import References, check_text_stream
from .chrf_score import CHRFOptions, CHRFScore, CHRFScorer, signature
from .chrf_stats import ReferenceSet

__all__ = ["CHRF", "CHRFScore", "CHRFScorer", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


@dataclass(frozen=True)
class CHRFSignature:
    """What ``get_signature()`` returns, as sacrebleu's: ``format(short=False)`` and ``str``."""

    options: CHRFOptions
    n_refs: int

    def format(self, short: bool = False) -> str:
        return signature(self.options, self.n_refs, short)

    def __str__(self) -> str:
        return self.format()


class CHRF:
    """chrF (chrF++ with ``word_order=2``) with fixed options, as ``sacrebleu.metrics.CHRF``.

    Like sacrebleu's, the object remembers how many references per segment it last scored
    with (its signature's ``nrefs``).
    """

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: int = 2,
                 lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False, references: References | None = None) -> None:
        self.options = CHRFOptions(char_order, word_order, beta, lowercase, whitespace,
                                   eps_smoothing)
        #: the scorer of summed statistics (significance tests, per-segment scores)
        self.scorer = CHRFScorer(self.options)
        self._references = (ReferenceSet(references, self.options)
                            if references is not None else None)
        #: sacrebleu's ``nrefs`` of the references last used (-1: it varies); None before any
        self.n_refs: int | None = (self._references.n_refs
                                   if self._references is not None else None)

    @property
    def arguments(self) -> dict[str, Any]:
        """The constructor's arguments but the references (to make a twin with others)."""
        options = self.options
        return {"char_order": options.char_order, "word_order": options.word_order,
                "beta": options.beta, "lowercase": options.lowercase,
                "whitespace": options.whitespace, "eps_smoothing": options.eps_smoothing}

    def _reference_set(self, hypotheses: Sequence[str],
                       references: References | None) -> ReferenceSet:
        if references is None:
            if self._references is None:
                raise MissingReferenceError(
                    "No references given, and none were given to CHRF(references=...).")
            return self._references
        check_text_stream(hypotheses, "hypotheses")
        refs = ReferenceSet(references, self.options, len(hypotheses))
        self.n_refs = refs.n_refs
        return refs

    def segment_stats(self, hypotheses: Sequence[str], references: References | None = None,
                      ) -> np.ndarray:
        """One int64 row per segment: ``[hyp, ref, match]`` per character order, then per
        word order, against the segment's best reference (sacrebleu's
        ``_extract_corpus_statistics``)."""
        return self._reference_set(hypotheses, references).segment_stats(hypotheses)

    def score_stats(self, stats: np.ndarray) -> CHRFScore:
        """The corpus score of a statistics matrix (its rows summed)."""
        total = np.asarray(stats, dtype=np.int64).sum(axis=0)
        return self._score(float(self.scorer.scores(total[None])[0]))

    def corpus_score(self, hypotheses: Sequence[str], references: References | None = None,
                     ) -> CHRFScore:
        """chrF of a corpus; ``references`` (streams) None uses the constructor's."""
        return self.score_stats(self.segment_stats(hypotheses, references))

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> CHRFScore:
        """chrF of one segment against its references (a list of strings, None skipped)."""
        check_text_stream([hypothesis], "hypothesis")
        check_text_stream(references, "references", allow_none=True)
        return self.score_stats(self.segment_stats([hypothesis], [[ref] for ref in references]))

    def sentence_scores(self, hypotheses: Sequence[str], references: References | None = None,
                        ) -> np.ndarray:
        """Every segment's sentence score at once, equal to ``sentence_score`` of each."""
        return self.scorer.scores(self.segment_stats(hypotheses, references))

    def _score(self, score: float) -> CHRFScore:
        options = self.options
        return CHRFScore(score, options.char_order, options.word_order, options.beta)

    def get_signature(self) -> CHRFSignature:
        """The signature object (sacrebleu's ``get_signature``), once references are known."""
        if self.n_refs is None:
            raise ValueError("The number of references is unknown: score something first, or "
                             "give the references to CHRF(references=...).")
        return CHRFSignature(self.options, self.n_refs)

    @property
    def signature(self) -> str:
        """sacrebleu's signature string, ``version:`` naming this package."""
        return str(self.get_signature())


def corpus_chrf(hypotheses: Sequence[str], references: References, char_order: int = 6,
                word_order: int = 0, beta: int = 2, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """Corpus chrF, as ``sacrebleu.corpus_chrf`` (references: a list of reference streams)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str | None], char_order: int = 6,
                  word_order: int = 0, beta: int = 2, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """Sentence chrF, as ``sacrebleu.sentence_chrf`` (references: a list of strings)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)

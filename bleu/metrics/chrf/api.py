"""chrF and chrF++ (Popović 2015, 2017) as sacrebleu 2.6 computes them: every number equal.

``CHRF`` mirrors ``sacrebleu.metrics.CHRF`` (same arguments and defaults; references given to
the constructor are prepared once), ``corpus_chrf`` and ``sentence_chrf`` its compat functions,
``CHRF(...).scorer`` scores summed statistics for significance tests (``StatsScorer``).

How, in modules of one job each: ``chrf_text`` turns a chunk of segments into code points and
chrF++ words (``str.lower``, ``str.split``'s whitespace, sacrebleu's punctuation rule) with
integer ids; ``chrf_counts`` counts clipped n-gram matches by sorting exact int64 keys, all
orders from one sort (``chrf_scratch`` keeps its work buffers); ``chrf_stats`` prepares
references, runs chunks on threads and keeps each segment's best reference (highest F-score,
the first on a tie, as sacrebleu); ``chrf_fscore`` repeats sacrebleu's float arithmetic
operation by operation, vectorized (float64 for corpus and sentence scores, sacrebleu's float32
for bootstrap resamples); ``chrf_score`` holds the options, the signature and the score object.

sacrebleu's semantics kept: ``""`` is a real, empty reference and None means "no reference
here" (``nrefs`` is ``var`` when the count varies); a hypothesis' n-gram count is 0 for an
order where the reference has none; '(hi)' gives the words '(hi' and ')'; char_order 0 with
word orders is allowed (word n-grams only).

Deliberate differences from sacrebleu (each refusal is an ``InputError`` saying what is wrong
and what is expected):

- refused: streams of different lengths (sacrebleu's API zips them, silently dropping
  segments);
- refused with a message where sacrebleu fails with an IndexError (an empty corpus,
  ``references=[]``, a segment whose references are all None), or with a TypeError or
  AttributeError (a segment that is not a string);
- refused: ``char_order`` or ``word_order`` not an integer >= 0, or both 0 (sacrebleu then
  scores 0 whatever the input, or divides by zero with eps smoothing); ``beta`` not a number
  >= 0 (sacrebleu takes a negative beta as its absolute value but names the score chrF-2);
- ``CHRFScore.format(is_json=True)`` works without a signature (sacrebleu raises ValueError).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..base import Metric, Signature
from ..checks import References, check_text_stream
from .fscore import CHRFScorer
from .score import CHRFOptions, CHRFScore, chrf_signature
from .stats import ReferenceSet

__all__ = ["CHRF", "CHRFScore", "CHRFScorer", "corpus_chrf", "sentence_chrf"]


class CHRF(Metric):
    """chrF (chrF++ with ``word_order=2``) with fixed options, as ``sacrebleu.metrics.CHRF``."""

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: float = 2,
                 lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False, references: References | None = None) -> None:
        self.options = CHRFOptions(char_order, word_order, beta, lowercase, whitespace,
                                   eps_smoothing)
        super().__init__(CHRFScorer(self.options), references)

    @property
    def arguments(self) -> dict[str, Any]:
        """The constructor's arguments but the references (to make a twin with others)."""
        options = self.options
        return {"char_order": options.char_order, "word_order": options.word_order,
                "beta": options.beta, "lowercase": options.lowercase,
                "whitespace": options.whitespace, "eps_smoothing": options.eps_smoothing}

    def _prepare(self, references: References, n_segments: int | None = None) -> ReferenceSet:
        return ReferenceSet(references, self.options, n_segments)

    def _stats(self, hypotheses: Sequence[str], references: ReferenceSet) -> np.ndarray:
        """One int64 row per segment: ``[hyp, ref, match]`` per character order, then per
        word order, against the segment's best reference (sacrebleu's
        ``_extract_corpus_statistics``)."""
        return references.segment_stats(hypotheses)

    def _signature(self, n_refs: int, **resampling: Any) -> Signature:
        return chrf_signature(self.options, n_refs, **resampling)

    def score_stats(self, stats: np.ndarray) -> CHRFScore:
        """The corpus score of a statistics matrix (its rows summed)."""
        options = self.options
        score = self.scorer.score(np.asarray(stats, dtype=np.int64).sum(axis=0))
        return CHRFScore(score, options.char_order, options.word_order, options.beta)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> CHRFScore:
        """chrF of one segment against its references (a list of strings, None skipped)."""
        check_text_stream([hypothesis], "hypothesis")
        check_text_stream(references, "references", allow_none=True)
        return self.score_stats(self.segment_stats([hypothesis], [[ref] for ref in references]))


def corpus_chrf(hypotheses: Sequence[str], references: References, char_order: int = 6,
                word_order: int = 0, beta: float = 2, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """Corpus chrF, as ``sacrebleu.corpus_chrf`` (references: a list of reference streams)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str | None], char_order: int = 6,
                  word_order: int = 0, beta: float = 2, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """Sentence chrF, as ``sacrebleu.sentence_chrf`` (references: a list of strings)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)

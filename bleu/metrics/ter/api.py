"""The public TER API: ``TER``, ``corpus_ter``, ``sentence_ter``, ``TERScore``.

Every number equals sacrebleu 2.6.0's (``sacrebleu.metrics.TER``, translation edit rate after
tercom: shifts of up to 10 words over up to 50 positions, a beam edit distance of width 25,
the Tercom tokenizer's normalization and Asian support), computed by a compiled kernel
(``ter_kernel``, numba) on integer token ids. numba is imported when the first statistics are
computed, not when this module is.

Inputs as sacrebleu takes them: references are a list of streams (``refs[k][i]`` is the k-th
reference of segment i); ``None`` in a stream means "no reference here" (the segment is scored
against its other references and its reference length averages over those); ``""`` is a real,
empty reference. A segment's statistics are the fewest edits over its references and the
average reference length. As in sacrebleu, references are tokenized twice and hypotheses once
(``TercomTokenizer.reference_words``): with ``normalized=True`` the two differ on punctuation
runs before a digit, so a sentence scored against itself can have edits.

Deliberate differences from sacrebleu, each refused with an ``InputError`` that says where:

- streams of different lengths (sacrebleu's API silently scores the shortest common prefix);
- an empty corpus, a segment with no reference at all (sacrebleu divides by zero), and
  anything but strings (and None in references) where segments are expected;
- ``references=[]`` is refused rather than read as "use the cached references" (pass None);
- option values that are not booleans (sacrebleu would print them into the signature).

Besides, ``TERScore.format(is_json=True)`` works without a signature (sacrebleu raises).
As in sacrebleu, the signature's ``nrefs`` is that of the references last passed in (or given
to the constructor; scoring against the cached ones does not reset it); ``version:`` names
this package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import UnknownOptionError
from ..base import Metric, Signature
from ..checks import (
    References,
    check_hypotheses,
    check_references,
    check_text_stream,
    reference_presence,
)
from .engine import TERReferences, sentence_stats
from .score import (
    TEROptions,
    TERScore,
    TERScorer,
    corpus_sums,
    resample_sums,
    score_from_sums,
    ter_signature,
)
from .tokenizer import TercomTokenizer

__all__ = ["TER", "TERScore", "TERScorer", "corpus_ter", "resample_sums",
           "sentence_ter"]


def _options(**flags: Any) -> TEROptions:
    for name, value in flags.items():
        if not isinstance(value, bool | np.bool_):
            raise UnknownOptionError(f"TER's {name} must be True or False, got {value!r}.")
    return TEROptions(**{name: bool(value) for name, value in flags.items()})


class TER(Metric):
    """TER with fixed options, as ``sacrebleu.metrics.TER``; references given here are
    tokenized once, for every system scored against them."""

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False,
                 references: References | None = None) -> None:
        self.options = _options(normalized=normalized, no_punct=no_punct,
                                asian_support=asian_support, case_sensitive=case_sensitive)
        self.tokenizer = TercomTokenizer(**self.arguments)
        super().__init__(TERScorer(), references)

    @property
    def arguments(self) -> dict[str, bool]:
        """The constructor's arguments but the references (to make a twin with others)."""
        return dataclasses.asdict(self.options)

    def _prepare(self, references: References, n_segments: int | None = None) -> TERReferences:
        return TERReferences.build(references, self.tokenizer, n_segments)

    def _stats(self, hypotheses: Sequence[str], references: TERReferences) -> np.ndarray:
        """One row per segment, ``[num_edits, ref_length]`` (float64): the fewest edits over
        the segment's references and their average length (sacrebleu's
        ``_extract_corpus_statistics``)."""
        check_text_stream(hypotheses, "hypotheses")
        check_hypotheses(hypotheses, references.n_segments)
        return references.segment_stats(hypotheses, self.tokenizer)

    def _signature(self, n_refs: int, **resampling: Any) -> Signature:
        return ter_signature(self.options, n_refs, **resampling)

    def score_stats(self, stats: np.ndarray) -> TERScore:
        """The corpus score of a statistics matrix (its rows summed as sacrebleu sums them)."""
        return score_from_sums(*corpus_sums(stats))

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> TERScore:
        """TER of one segment against its references (a list of strings, None skipped)."""
        check_text_stream([hypothesis], "hypothesis")
        check_text_stream(references, "references", allow_none=True)
        present = [ref for ref in references if ref is not None]
        if not present:  # the shared checks refuse an empty list, and one of only None
            streams = [[ref] for ref in references]
            check_references(streams, 1)
            reference_presence(streams, 1)
        self.n_refs = len(present)
        return score_from_sums(*sentence_stats(
            self.tokenizer.words(hypothesis),
            [self.tokenizer.reference_words(ref) for ref in present]))


def corpus_ter(hypotheses: Sequence[str], references: References, normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERScore:
    """Corpus TER, as ``sacrebleu.corpus_ter`` (references: a list of reference streams)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str | None], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERScore:
    """Sentence TER, as ``sacrebleu.sentence_ter`` (references: a list of strings)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)

"""What if one hypothesis read differently? Its n-gram matches, its sentence BLEU and the
system's corpus BLEU, from the cached statistics matrix with that one row replaced.

Corpus BLEU is a function of the column sums of the statistics matrix, so editing segment i
changes the sums by (new row − old row): nothing else is rescored, and the result equals
``corpus_bleu`` on the edited corpus exactly (same integer sums, same arithmetic).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..i18n import tr
from ..metrics.bleu.explain import Explanation, explain
from ..metrics.bleu.score import BLEUOptions, BLEUScore, score_from_stats


@dataclass(frozen=True)
class EditedSegment:
    """One segment's hypothesis replaced: before and after, sentence and corpus."""

    segment: int  # 1-based
    explanation: Explanation  # the edited hypothesis against the segment's references
    old_row: tuple[int, ...]
    new_row: tuple[int, ...]
    sentence_before: float
    sentence_after: float
    corpus_before: BLEUScore
    corpus_after: BLEUScore

    @property
    def changed(self) -> bool:
        return self.old_row != self.new_row


def edit_segment(matrix: np.ndarray, segment: int, hypothesis: str,
                 references: Sequence[str | None], options: BLEUOptions,
                 sentence: BLEUOptions) -> EditedSegment:
    """Replace segment ``segment`` (1-based) of a system's statistics ``matrix`` (computed with
    ``options``) by the statistics of ``hypothesis``; ``sentence``: the sentence-BLEU options
    (same tokenization and N, their own smoothing and effective order)."""
    stats = np.asarray(matrix)
    if not 1 <= segment <= len(stats):
        raise InputError(tr("Segment {segment} does not exist: the corpus has {count}.").format(
            segment=segment, count=len(stats)))
    if (sentence.tokenize, sentence.lowercase, sentence.max_ngram_order) != (
            options.tokenize, options.lowercase, options.max_ngram_order):
        raise InputError(tr("The sentence options must tokenize as the corpus options do "
                         "(same tokenizer, case and N)."))
    found = explain(hypothesis, references, tokenize=sentence.tokenize,
                    lowercase=sentence.lowercase, smooth_method=sentence.smooth_method,
                    smooth_value=sentence.smooth_value,
                    max_ngram_order=sentence.max_ngram_order,
                    effective_order=sentence.effective_order)
    old = stats[segment - 1].astype(np.int64)
    new = np.asarray(found.stats, dtype=np.int64)
    total = stats.sum(axis=0, dtype=np.int64)
    return EditedSegment(
        segment, found, tuple(int(x) for x in old), tuple(int(x) for x in new),
        score_from_stats(old, sentence).score, found.score.score,
        score_from_stats(total, options), score_from_stats(total - old + new, options))

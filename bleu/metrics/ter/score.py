"""TER from summed statistics: the score object, its signature, and the scorer of many sums.

A segment's statistics are ``[num_edits, ref_length]`` (the fewest edits over its references
and their average length, as floats); a corpus sums them. The arithmetic is sacrebleu 2.6's
(``TER._compute_score_from_stats``): ``100 * (edits / length)``, 100 where there is no
reference text but edits, 0 where there is neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base import ScoreText, Signature


@dataclass(frozen=True)
class TEROptions:
    """The options that change a TER number (sacrebleu's ``TER`` arguments)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False


@dataclass(frozen=True)
class TERScore(ScoreText):
    """A corpus or sentence TER with sacrebleu's fields."""

    score: float
    num_edits: int
    ref_length: float
    name: str = field(default="TER")



def corpus_sums(stats: np.ndarray) -> tuple[int, float]:
    """The summed statistics of a corpus as sacrebleu sums its rows: edits as integers, reference
    lengths (averages, so not always integers) added left to right in float64 (``cumsum`` is
    sequential, unlike numpy's pairwise ``sum``)."""
    stats = np.asarray(stats, dtype=np.float64)
    edits = int(stats[:, 0].sum())  # integers below 2**53: exact in any order
    return edits, float(np.cumsum(stats[:, 1])[-1])


def score_from_sums(num_edits: int, ref_length: float) -> TERScore:
    """TER of summed statistics, step by step as sacrebleu computes it."""
    if ref_length > 0:
        rate = num_edits / ref_length
    elif num_edits > 0:
        rate = 1.0  # empty reference(s), non-empty hypothesis
    else:
        rate = 0.0  # both empty
    return TERScore(100 * rate, int(num_edits), ref_length)


def _rates(edits: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / lengths
    one, zero = edits.dtype.type(1.0), edits.dtype.type(0.0)
    return np.where(lengths > 0, ratio, np.where(edits > 0, one, zero))


class TERScorer:
    """TER's ``StatsScorer`` (``bleu.metrics.base``): scores rows of summed statistics."""

    name = "TER"
    higher_is_better = False
    #: reference lengths are averages over the references: float32 sums of them are inexact,
    #: so resample sums must be added in sacrebleu's order (``resample_sums``)
    integer_stats = False
    #: sacrebleu resamples TER in float32, one segment after the other
    float32_resamples = True
    rated_column = None
    #: ``[num_edits, ref_length]`` per segment
    columns = 2

    def score(self, sums: np.ndarray) -> float:
        """TER of one row of summed statistics, exactly as ``corpus_score`` computes it."""
        return score_from_sums(int(sums[0]), float(sums[1])).score

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """``100 * edits / length`` per row in float64, as ``corpus_score`` computes it."""
        sums = np.asarray(sums, dtype=np.float64)
        return 100 * _rates(sums[..., 0], sums[..., 1])

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of float32 resample sums as sacrebleu computes them: the division and the
        product by 100 in float32 (NumPy >= 2 keeps a float32 times a Python int in float32).
        Returned as float32, as sacrebleu's resample scores are (its mean and CI follow)."""
        sums = np.asarray(sums, dtype=np.float32)
        return np.float32(100) * _rates(sums[..., 0], sums[..., 1])

    def resample_sums(self, stats: np.ndarray, indices: np.ndarray) -> np.ndarray:
        """See ``resample_sums``."""
        return resample_sums(stats, indices)


def resample_sums(stats: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``np.array(stats, dtype="float32")[indices][k].sum(0)`` for every resample k at once.

    numpy sums axis 0 of a C-ordered (n, 2) float32 array one row after the other (the inner
    loop runs over the 2 columns, so no pairwise summation), rounding to float32 at each step:
    here the same additions in the same order, for all resamples at once, one segment at a time.
    Returns a (resamples, 2) float32 array.
    """
    stats32 = np.asarray(stats, dtype=np.float32)
    indices = np.asarray(indices)
    sums = np.zeros((len(indices), stats32.shape[1]), np.float32)
    for column in np.ascontiguousarray(indices.T):
        sums += stats32[column]
    return sums


#: the short names of TER's own signature fields (sacrebleu's ``--short``)
SHORT_NAMES = {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"}


def ter_signature(options: TEROptions, n_refs: int, **resampling: Any) -> Signature:
    """sacrebleu's TER signature (``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|
    version:...``); ``resampling`` takes a test's or CI's ``bs``, ``ar`` and ``seed``."""
    yes_no = {True: "yes", False: "no"}
    own = [("case", "mixed" if options.case_sensitive else "lc"), ("tok", "tercom"),
           ("norm", yes_no[options.normalized]), ("punct", yes_no[not options.no_punct]),
           ("asian", yes_no[options.asian_support])]
    return Signature.build(n_refs, own, SHORT_NAMES, **resampling)


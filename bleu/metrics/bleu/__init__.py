"""BLEU (Papineni et al. 2002) exactly as sacrebleu 2.6 computes it.

``api`` holds the calls a sacrebleu user makes (``BLEU``, ``corpus_bleu``, ``sentence_bleu``,
``segment_stats``, signatures), ``engine`` the segment statistics, ``score`` scores of summed
statistics (smoothing, brevity penalty, the score object), ``explain`` one segment's n-grams.
"""

from .api import (
    BLEU,
    SHORT_NAMES,
    bleu_signature,
    corpus_bleu,
    segment_stats,
    sentence_bleu,
    signature,
)
from .score import BLEUOptions, BLEUScore, BLEUScorer

__all__ = ["BLEU", "SHORT_NAMES", "BLEUOptions", "BLEUScore",
           "BLEUScorer", "bleu_signature", "corpus_bleu", "segment_stats", "sentence_bleu",
           "signature"]

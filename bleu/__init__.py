"""BLEU Explorer's core: BLEU exactly as sacrebleu computes it, faster, with explanations.

No Streamlit here: everything the app shows is computable from Python (and a notebook).
"""

__version__ = "0.1.0"

from .errors import InputError
from .metric import BLEU, corpus_bleu, segment_stats, sentence_bleu, signature
from .score import BLEUOptions, BLEUScore, score_from_stats, scores_from_stats

__all__ = [
    "BLEU",
    "BLEUOptions",
    "BLEUScore",
    "InputError",
    "__version__",
    "corpus_bleu",
    "score_from_stats",
    "scores_from_stats",
    "segment_stats",
    "sentence_bleu",
    "signature",
]

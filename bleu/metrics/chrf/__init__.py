"""chrF and chrF++ (Popović 2015, 2017) exactly as sacrebleu 2.6 computes them; ``api`` says
how, module by module."""

from .api import CHRF, CHRFScore, CHRFScorer, corpus_chrf, sentence_chrf

__all__ = ["CHRF", "CHRFScore", "CHRFScorer", "corpus_chrf", "sentence_chrf"]

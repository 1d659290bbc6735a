"""TER (translation edit rate, after tercom) exactly as sacrebleu 2.6 computes it; ``api``
says how, module by module."""

from .api import TER, TERScore, TERScorer, corpus_ter, resample_sums, sentence_ter

__all__ = ["TER", "TERScore", "TERScorer", "corpus_ter", "resample_sums", "sentence_ter"]

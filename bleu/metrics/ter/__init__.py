"""TER (translation edit rate, after tercom) exactly as sacrebleu 2.6 computes it; ``api``
says how, module by module. Names load their module on first use, so ``score`` (the options)
is light to import."""

from ..._lazy import lazy_names

__all__ = ["TER", "TERScore", "TERScorer", "corpus_ter", "resample_sums", "sentence_ter"]
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "api"))

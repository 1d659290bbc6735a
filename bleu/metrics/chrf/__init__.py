"""chrF and chrF++ (Popović 2015, 2017) exactly as sacrebleu 2.6 computes them; ``api`` says
how, module by module. Names load their module on first use, so ``score`` (the options) is
light to import."""

from ..._lazy import lazy_names

__all__ = ["CHRF", "CHRFScore", "CHRFScorer", "corpus_chrf", "sentence_chrf"]
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "api"))

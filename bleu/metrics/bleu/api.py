"""The public BLEU API: ``BLEU``, ``corpus_bleu``, ``sentence_bleu`` and ``segment_stats``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import UnknownOptionError
from ..base import Signature
from ..checks import References, check_text_stream
from ..tokenizers import get_tokenizer
from .engine import ReferenceTable, segment_stats_once, warn_if_tokenized
from .score import BLEUOptions, BLEUScore, BLEUScorer, score_from_stats

#: sacrebleu's tokenizer for a target language given as ``trg_lang`` (13a otherwise)
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


#: the short names of BLEU's own signature fields (sacrebleu's ``--short``)
SHORT_NAMES = {"case": "c", "eff": "e", "tok": "tok", "smooth": "s"}


def bleu_signature(options: BLEUOptions, n_refs: int, **resampling: Any) -> Signature:
    """sacrebleu's BLEU signature, fields in its order, ``version:`` naming this package;
    ``resampling`` takes a test's or CI's ``bs``, ``ar`` and ``seed``."""
    own = [("case", "lc" if options.lowercase else "mixed"),
           ("eff", "yes" if options.effective_order else "no"),
           ("tok", get_tokenizer(options.tokenize).signature),
           ("smooth", options.smooth_label())]
    return Signature.build(n_refs, own, SHORT_NAMES, **resampling)


def signature(options: BLEUOptions, n_refs: int, **resampling: Any) -> str:
    """The BLEU signature's long form (see ``bleu_signature``)."""
    return bleu_signature(options, n_refs, **resampling).format()


class BLEU:
    """BLEU with fixed options; references given here are tokenized and counted once.

    Mirrors ``sacrebleu.metrics.BLEU`` (same arguments, in the same order): ``corpus_score`` and
    ``sentence_score`` return ``BLEUScore`` objects whose numbers equal sacrebleu's.
    """

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: str | None = None,
                 smooth_method: str = "exp", smooth_value: float | None = None,
                 max_ngram_order: int = 4, effective_order: bool = False, trg_lang: str = "",
                 references: References | None = None) -> None:
        if tokenize is None:
            tokenize = LANGUAGE_TOKENIZERS.get(trg_lang, "13a")
        self.options = BLEUOptions(
            tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method,
            smooth_value=smooth_value, max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        get_tokenizer(self.options.tokenize)  # refuse an unknown tokenizer now, not later
        self.force = force
        self._table = ReferenceTable(references, self.options) if references is not None else None

    @property
    def scorer(self) -> BLEUScorer:
        """Scores of summed statistics, for significance tests (``bleu.metrics.significance``)."""
        return BLEUScorer(self.options)

    def _stats(self, hypotheses: Sequence[str], references: References | None,
               ) -> tuple[np.ndarray, int]:
        """The statistics matrix and the references per segment: against ``references`` used
        this once, or (None) against the cached ones."""
        if references is not None:
            return segment_stats_once(references, hypotheses, self.options)
        if self._table is None:
            raise ValueError("No references given, and none were given to BLEU(references=...).")
        return self._table.segment_stats(hypotheses), self._table.n_refs

    def segment_stats(self, hypotheses: Sequence[str], references: References | None = None,
                      ) -> np.ndarray:
        """One row per segment: ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int64)."""
        stats = self._stats(hypotheses, references)[0]  # checks the hypotheses too
        if not self.force:
            warn_if_tokenized(hypotheses)
        return stats

    def get_signature(self, n_refs: int | None = None, **resampling: Any) -> Signature:
        """The signature object (sacrebleu's ``get_signature``): its references per segment
        (the cached references', else 1), with a test's or CI's resampling fields."""
        if n_refs is None:
            n_refs = self._table.n_refs if self._table is not None else 1
        return bleu_signature(self.options, n_refs, **resampling)

    def signature(self, n_refs: int | None = None, **resampling: Any) -> str:
        """The signature's long form."""
        return self.get_signature(n_refs, **resampling).format()

    def score_stats(self, stats: np.ndarray, n_refs: int | None = None) -> BLEUScore:
        """The corpus score of a statistics matrix (its rows summed)."""
        return score_from_stats(np.asarray(stats).sum(axis=0), self.options,
                                self.signature(n_refs))

    def corpus_score(self, hypotheses: Sequence[str], references: References | None = None,
                     ) -> BLEUScore:
        stats, n_refs = self._stats(hypotheses, references)  # checks the hypotheses first
        if not self.force:
            warn_if_tokenized(hypotheses)
        return self.score_stats(stats, n_refs)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """BLEU of one segment against its references (a list of strings)."""
        check_text_stream([hypothesis], "hypothesis")
        check_text_stream(references, "references", allow_none=True)
        stats, n_refs = segment_stats_once([[ref] for ref in references], [hypothesis],
                                           self.options)
        return self.score_stats(stats, n_refs)


def _effective(effective_order: bool | None, use_effective_order: bool | None,
               default: bool) -> bool:
    """Our ``effective_order`` and sacrebleu's ``use_effective_order`` name the same option."""
    if effective_order is not None and use_effective_order is not None \
            and bool(effective_order) != bool(use_effective_order):
        raise UnknownOptionError(
            f"effective_order={effective_order!r} and use_effective_order="
            f"{use_effective_order!r} disagree; they are the same option, give one.")
    chosen = effective_order if effective_order is not None else use_effective_order
    return default if chosen is None else bool(chosen)


def corpus_bleu(hypotheses: Sequence[str], references: References, smooth_method: str = "exp",
                smooth_value: float | None = None, force: bool = False, lowercase: bool = False,
                tokenize: str = "13a", use_effective_order: bool | None = None, *,
                max_ngram_order: int = 4, effective_order: bool | None = None) -> BLEUScore:
    """Corpus BLEU with ``sacrebleu.corpus_bleu``'s arguments, in its order (references: a list
    of reference streams); ``effective_order`` is ``use_effective_order`` by our name."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  max_ngram_order=max_ngram_order,
                  effective_order=_effective(effective_order, use_effective_order, False))
    return metric.corpus_score(hypotheses, references)


def sentence_bleu(hypothesis: str, references: Sequence[str | None], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False,
                  tokenize: str = "13a", use_effective_order: bool | None = None, *,
                  max_ngram_order: int = 4, effective_order: bool | None = None) -> BLEUScore:
    """Sentence BLEU with ``sacrebleu.sentence_bleu``'s arguments and defaults (exp smoothing,
    effective order)."""
    metric = BLEU(lowercase=lowercase, force=True, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  max_ngram_order=max_ngram_order,
                  effective_order=_effective(effective_order, use_effective_order, True))
    return metric.sentence_score(hypothesis, references)


def segment_stats(hypotheses: Sequence[str], references: References, *, tokenize: str = "13a",
                  lowercase: bool = False, max_ngram_order: int = 4) -> np.ndarray:
    """The statistics matrix: one int64 row per segment (see ``BLEU.segment_stats``)."""
    metric = BLEU(lowercase=lowercase, force=True, tokenize=tokenize,
                  max_ngram_order=max_ngram_order)
    return metric.segment_stats(hypotheses, references)

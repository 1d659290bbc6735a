"""The public BLEU API: ``BLEU``, ``corpus_bleu``, ``sentence_bleu`` and ``segment_stats``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import UnknownOptionError
from ..base import Metric, Signature
from ..checks import References, check_text_stream
from ..tokenizers import get_tokenizer, language_tokenizer
from .engine import ReferenceTable, segment_stats_once, warn_if_tokenized
from .score import BLEUOptions, BLEUScore, BLEUScorer, score_from_stats

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


class BLEU(Metric):
    """BLEU with fixed options; references given here are tokenized and counted once.

    Mirrors ``sacrebleu.metrics.BLEU`` (same arguments, in the same order): ``corpus_score`` and
    ``sentence_score`` return ``BLEUScore`` objects whose numbers equal sacrebleu's.
    """

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: str | None = None,
                 smooth_method: str = "exp", smooth_value: float | None = None,
                 max_ngram_order: int = 4, effective_order: bool = False, trg_lang: str = "",
                 references: References | None = None) -> None:
        if tokenize is None:
            tokenize = language_tokenizer(trg_lang)
        self.options = BLEUOptions(
            tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method,
            smooth_value=smooth_value, max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        get_tokenizer(self.options.tokenize)  # refuse an unknown tokenizer now, not later
        self.force = force
        super().__init__(BLEUScorer(self.options), references)

    @property
    def arguments(self) -> dict[str, Any]:
        """The constructor's arguments but the references (to make a twin with others)."""
        options = self.options
        return {"lowercase": options.lowercase, "force": self.force,
                "tokenize": options.tokenize, "smooth_method": options.smooth_method,
                "smooth_value": options.smooth_value,
                "max_ngram_order": options.max_ngram_order,
                "effective_order": options.effective_order}

    def _prepare(self, references: References, n_segments: int | None = None,
                 ) -> ReferenceTable:
        return ReferenceTable(references, self.options)

    def _stats(self, hypotheses: Sequence[str], references: ReferenceTable) -> np.ndarray:
        return references.segment_stats(hypotheses)

    def _stats_once(self, hypotheses: Sequence[str], references: References,
                    ) -> tuple[np.ndarray, int]:
        """References used once skip the table: each chunk encoded, counted and matched in one
        task (``segment_stats_once``)."""
        return segment_stats_once(references, hypotheses, self.options)

    def _signature(self, n_refs: int, **resampling: Any) -> Signature:
        return bleu_signature(self.options, n_refs, **resampling)

    def segment_stats(self, hypotheses: Sequence[str], references: References | None = None,
                      ) -> np.ndarray:
        """One row per segment: ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (int64);
        warns, as sacrebleu, when the hypotheses look tokenized (unless ``force``)."""
        stats = super().segment_stats(hypotheses, references)  # checks the hypotheses too
        if not self.force:
            warn_if_tokenized(hypotheses)
        return stats

    def score_stats(self, stats: np.ndarray) -> BLEUScore:
        """The corpus score of a statistics matrix (its rows summed), with the signature of
        the references last used (1 reference before any)."""
        n_refs = self.n_refs if self.n_refs is not None else 1
        return score_from_stats(np.asarray(stats).sum(axis=0), self.options,
                                self._signature(n_refs).format())

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """BLEU of one segment against its references (a list of strings)."""
        check_text_stream([hypothesis], "hypothesis")
        check_text_stream(references, "references", allow_none=True)
        stats, self.n_refs = segment_stats_once([[ref] for ref in references], [hypothesis],
                                                self.options)
        return self.score_stats(stats)


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

"""Why a sentence got its BLEU: each n-gram, where it occurs, how it was clipped, by which ref.

``explain`` works on one segment with plain Python (a sentence has a few dozen n-grams); its
``stats`` row has the layout of ``bleu.segment_stats`` rows and its ``score`` is computed from
that row, so what the app shows is the number BLEU reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import MissingReferenceError
from ..checks import check_text_stream
from ..tokenizers import get_tokenizer
from .api import signature
from .clipping import credited, credited_occurrences
from .engine import tokenize_line
from .score import BLEUOptions, BLEUScore, brevity_penalty, score_from_stats


@dataclass(frozen=True)
class NgramMatch:
    """One distinct hypothesis n-gram: where it occurs, and how much of it the references credit.

    ``credited = min(count, max_ref_count)``; ``credited_positions`` are the first ``credited``
    occurrences (BLEU does not say which occurrences match: the earliest ones is our convention).
    """

    ngram: tuple[str, ...]
    positions: tuple[int, ...]  # start token index of each occurrence in the hypothesis
    count: int
    ref_counts: tuple[int, ...]  # count in each reference, aligned with the input (0 for None)
    max_ref_count: int
    best_reference: int | None  # first reference holding max_ref_count; None when none has it
    credited: int

    @property
    def order(self) -> int:
        return len(self.ngram)

    @property
    def text(self) -> str:
        return " ".join(self.ngram)

    @property
    def credited_positions(self) -> tuple[int, ...]:
        return credited_occurrences(self.positions, self.credited)


@dataclass(frozen=True)
class ReferenceExplanation:
    """One reference: its tokens and, per order, where its n-grams that the hypothesis has start."""

    index: int
    text: str
    tokens: tuple[str, ...]
    matched_positions: tuple[tuple[int, ...], ...]  # [n-1]: starts of matching n-grams, sorted

    @property
    def length(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True)
class OrderSummary:
    """Clipped matches and total n-grams of one order, and their precision in percent."""

    order: int
    matches: int
    total: int

    @property
    def precision(self) -> float:
        return 100.0 * self.matches / self.total if self.total else 0.0


@dataclass(frozen=True)
class Explanation:
    """Everything behind one segment's BLEU, ready for highlighting and tables."""

    hypothesis: str
    hypothesis_tokens: tuple[str, ...]
    references: tuple[ReferenceExplanation | None, ...]  # aligned with the input; None stays None
    ngrams: tuple[tuple[NgramMatch, ...], ...]  # [n-1]: distinct n-grams, by first position
    orders: tuple[OrderSummary, ...]
    ref_len: int  # closest reference length (the shorter one on a tie), used by the BP
    ref_len_reference: int  # index of the first reference that has that length
    stats: tuple[int, ...]  # [hyp_len, ref_len, matches_1..N, totals_1..N]
    score: BLEUScore
    options: BLEUOptions

    @property
    def hyp_len(self) -> int:
        return len(self.hypothesis_tokens)

    @property
    def bp(self) -> float:
        return brevity_penalty(self.hyp_len, self.ref_len)


def _positions(tokens: Sequence[str], n: int) -> dict[tuple[str, ...], list[int]]:
    """Each distinct n-gram of ``tokens`` with its start positions, in order of first occurrence."""
    found: dict[tuple[str, ...], list[int]] = {}
    for start in range(len(tokens) - n + 1):
        found.setdefault(tuple(tokens[start : start + n]), []).append(start)
    return found


def _closest(hyp_len: int, lengths: dict[int, int]) -> tuple[int, int]:
    """(reference length closest to ``hyp_len``, shorter on a tie; index of the first such ref)."""
    best_len = min(lengths.values(), key=lambda length: (abs(hyp_len - length), length))
    index = next(k for k, length in lengths.items() if length == best_len)
    return best_len, index


def explain(hypothesis: str, references: Sequence[str | None], *, tokenize: str = "13a",
            lowercase: bool = False, smooth_method: str = "exp",
            smooth_value: float | None = None, max_ngram_order: int = 4,
            effective_order: bool = True) -> Explanation:
    """The n-gram matches of one hypothesis against its references, with sentence BLEU.

    Defaults are ``sentence_bleu``'s; ``None`` in ``references`` means "no reference here".
    """
    check_text_stream([hypothesis], "hypothesis")
    check_text_stream(references, "references", allow_none=True)
    options = BLEUOptions(tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method,
                          smooth_value=smooth_value, max_ngram_order=max_ngram_order,
                          effective_order=effective_order)
    get_tokenizer(options.tokenize)  # an unknown tokenizer is refused before any work
    present = {k: ref for k, ref in enumerate(references) if ref is not None}
    if not present:
        raise MissingReferenceError(
            f"explain() needs at least one reference; got {len(references)}, all None or none."
        )
    hyp_tokens = tuple(tokenize_line(hypothesis, options))
    ref_tokens = {k: tuple(tokenize_line(ref, options)) for k, ref in present.items()}
    order = options.max_ngram_order
    all_ngrams, summaries = [], []
    matched: dict[int, list[tuple[int, ...]]] = {k: [] for k in present}
    for n in range(1, order + 1):
        hyp_grams = _positions(hyp_tokens, n)
        ref_grams = {k: _positions(tokens, n) for k, tokens in ref_tokens.items()}
        ngrams = []
        for gram, where in hyp_grams.items():
            ref_counts = tuple(len(ref_grams[k].get(gram, ())) if k in ref_grams else 0
                               for k in range(len(references)))
            best = max(ref_counts)
            ngrams.append(NgramMatch(
                ngram=gram, positions=tuple(where), count=len(where), ref_counts=ref_counts,
                max_ref_count=best, best_reference=ref_counts.index(best) if best else None,
                credited=int(credited(len(where), best)),
            ))
        for k, grams in ref_grams.items():
            starts = (s for gram, where in grams.items() if gram in hyp_grams for s in where)
            matched[k].append(tuple(sorted(starts)))
        all_ngrams.append(tuple(ngrams))
        summaries.append(OrderSummary(n, sum(g.credited for g in ngrams),
                                      max(len(hyp_tokens) - n + 1, 0)))
    ref_len, ref_len_reference = _closest(len(hyp_tokens), {k: len(t) for k, t in
                                                           ref_tokens.items()})
    stats = (len(hyp_tokens), ref_len, *(s.matches for s in summaries),
             *(s.total for s in summaries))
    score = score_from_stats(stats, options, signature(options, len(present)))
    explained_refs = tuple(
        ReferenceExplanation(k, ref, ref_tokens[k], tuple(matched[k])) if ref is not None else None
        for k, ref in enumerate(references)
    )
    return Explanation(hypothesis, hyp_tokens, explained_refs, tuple(all_ngrams),
                       tuple(summaries), ref_len, ref_len_reference, stats, score, options)

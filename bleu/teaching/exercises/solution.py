"""An exercise (a pair, or several: a corpus; the options to score it with; what is asked) and
its solution: every true number, and the numbers that common mistakes give, so that a wrong
answer can be recognised.

The true values are ``bleu.corpus_bleu`` (equal to sacrebleu's) on the exercise's pairs: for
one pair that is sentence BLEU under the exercise's options; for several, corpus BLEU, whose
counts are the sums of the sentences'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...metrics.bleu import corpus_bleu
from ...metrics.bleu.explain import Explanation, explain
from ...metrics.bleu.score import BLEUOptions
from ..breakdown import Walkthrough, require_reference, walkthrough_with
from .quantities import LENGTHS, MEAN, order_of


@dataclass(frozen=True)
class Pair:
    """A candidate and its references."""

    hypothesis: str
    references: tuple[str, ...]


@dataclass(frozen=True)
class Exercise:
    """A pair (or several: a corpus), the options to score it with and what the student is
    asked; ``origin`` says where the text comes from."""

    key: str
    title: str
    lesson: str
    level: int
    pairs: tuple[Pair, ...]
    options: BLEUOptions
    asks: tuple[str, ...]
    origin: str
    length_lesson: str = ""  # the lesson when only lengths and BP are asked ("" = the same)

    @property
    def corpus(self) -> bool:
        """Whether the exercise is about corpus BLEU (several pairs)."""
        return len(self.pairs) > 1

    @property
    def several_references(self) -> bool:
        """Whether a pair has more than one reference."""
        return any(len(pair.references) > 1 for pair in self.pairs)

    def focus(self, keys: Sequence[str]) -> Exercise:
        """The same exercise asking only the quantities of ``keys`` it asks (all of ``keys``
        when it asks none of them), with its lesson about lengths where only c, r and BP are
        left to ask."""
        asks = tuple(key for key in self.asks if key in keys) or tuple(keys)
        lengths_only = self.length_lesson and all(key in LENGTHS for key in asks)
        return replace(self, asks=asks,
                       lesson=self.length_lesson if lengths_only else self.lesson)


@dataclass(frozen=True)
class SentenceNumbers:
    """One pair's numbers, and the wrong numbers that common mistakes give."""

    explanation: Explanation
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    unclipped: tuple[int, ...]  # matches without clipping
    summed_clip: tuple[int, ...]  # clipped against the sum of the references' counts
    ref_totals: tuple[int, ...]  # n-grams of the reference whose length is r (for recall)
    score: float

    @property
    def c(self) -> int:
        return self.explanation.hyp_len

    @property
    def r(self) -> int:
        return self.explanation.ref_len

    @property
    def ref_lengths(self) -> tuple[int, ...]:
        return tuple(ref.length for ref in self.explanation.references if ref is not None)


@dataclass(frozen=True)
class Solution:
    """Every true number of an exercise (p_n as the score uses them, on the 0-1 scale; BLEU
    x100, as sacrebleu prints it). ``first_reference``: the same exercise scored against each
    pair's first reference alone, where a pair has several (what a student who reads only
    reference A computes); None otherwise."""

    exercise: Exercise
    sentences: tuple[SentenceNumbers, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    c: int
    r: int
    bp: float
    score: float
    walk: Walkthrough | None  # one pair: every step (n-gram tables...); None for a corpus
    first_reference: Solution | None = None

    @property
    def order(self) -> int:
        return len(self.matches)

    @property
    def weights(self) -> tuple[float, ...]:
        return (1.0 / self.order,) * self.order

    @property
    def mean(self) -> float:
        """The geometric mean exp(Σ w_n log p_n) as the score uses it (over the orders
        effective order keeps): BLEU / (100 · BP)."""
        return self.score / (100 * self.bp) if self.bp > 0 else 0.0

    def value(self, key: str) -> float:
        """The true value of a quantity (``matches_2``, ``p_1``, ``c``, ``bp``, ``mean``,
        ``bleu``)."""
        if key.startswith(("matches_", "total_", "p_")):
            n = order_of(key) - 1
            table = {"matches": self.matches, "total": self.totals, "p": self.precisions}
            return float(table[key.rsplit("_", 1)[0]][n])
        return float({"c": self.c, "r": self.r, "bp": self.bp, MEAN: self.mean,
                      "bleu": self.score}[key])

    def summed(self, name: str) -> tuple[int, ...]:
        """A per-order count (``unclipped``, ``summed_clip``, ``ref_totals``) over the pairs."""
        return tuple(sum(getattr(s, name)[n] for s in self.sentences)
                     for n in range(self.order))


def geometric_mean(precisions: Sequence[float], weights: Sequence[float],
                   log=math.log) -> float:
    """exp(Σ w_n log p_n), 0 when a p_n is 0 or less; ``log``: the logarithm used (a
    mistake's: ``math.log10``)."""
    if any(p <= 0 for p in precisions):
        return 0.0
    return math.exp(math.fsum(w * log(p) for w, p in zip(weights, precisions, strict=True)))


def _sentence(pair: Pair, options: BLEUOptions) -> SentenceNumbers:
    require_reference(pair.references)
    ex = explain(pair.hypothesis, list(pair.references), tokenize=options.tokenize,
                 lowercase=options.lowercase, max_ngram_order=options.max_ngram_order)
    closest = ex.references[ex.ref_len_reference]
    order = options.max_ngram_order
    unclipped = tuple(sum(g.count for g in ex.ngrams[n] if g.max_ref_count > 0)
                      for n in range(order))
    summed_clip = tuple(sum(min(g.count, sum(g.ref_counts)) for g in ex.ngrams[n])
                        for n in range(order))
    ref_totals = tuple(max(closest.length - n, 0) for n in range(order))
    score = corpus_bleu([pair.hypothesis], [[ref] for ref in pair.references],
                        **arguments(options)).score
    return SentenceNumbers(ex, tuple(s.matches for s in ex.orders),
                           tuple(s.total for s in ex.orders), unclipped, summed_clip,
                           ref_totals, score)


def arguments(options: BLEUOptions) -> dict[str, object]:
    """``options`` as ``bleu.corpus_bleu``'s keyword arguments."""
    return {"tokenize": options.tokenize, "lowercase": options.lowercase,
            "smooth_method": options.smooth_method, "smooth_value": options.smooth_value,
            "max_ngram_order": options.max_ngram_order,
            "effective_order": options.effective_order}


def solve(exercise: Exercise) -> Solution:
    """The true numbers of ``exercise`` (``bleu.corpus_bleu`` on its pairs)."""
    options = exercise.options
    sentences = tuple(_sentence(pair, options) for pair in exercise.pairs)
    depth = max(len(pair.references) for pair in exercise.pairs)
    streams = [[pair.references[k] if k < len(pair.references) else None
                for pair in exercise.pairs] for k in range(depth)]
    found = corpus_bleu([pair.hypothesis for pair in exercise.pairs], streams,
                        **arguments(options))
    walk = None
    if not exercise.corpus:
        walk = walkthrough_with(exercise.pairs[0].hypothesis, exercise.pairs[0].references,
                                options)
    first = None
    if exercise.several_references:
        first = solve(replace(exercise, pairs=tuple(Pair(p.hypothesis, p.references[:1])
                                                    for p in exercise.pairs)))
    return Solution(exercise, sentences, tuple(found.counts), tuple(found.totals),
                    tuple(p / 100 for p in found.precisions), found.sys_len, found.ref_len,
                    found.bp, found.score, walk, first)

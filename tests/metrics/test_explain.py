"""bleu.explain(): the n-gram matches behind one sentence's BLEU, checked by hand and at scale."""

from __future__ import annotations

import dataclasses
import math

import pytest
from conftest import counter_segment_stats, segment_text
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import bleu
from bleu.errors import InvalidTextError, MissingReferenceError, UnknownOptionError
from bleu.metrics.bleu.engine import tokenize_line
from bleu.metrics.bleu.explain import Explanation, NgramMatch


def _gram(explanation: Explanation, text: str) -> NgramMatch:
    n = len(text.split())
    return next(g for g in explanation.ngrams[n - 1] if g.text == text)


def test_clipping_worked_by_hand() -> None:
    """Papineni et al.'s example: 'the' seven times against 'the cat is on the mat'."""
    ex = bleu.explain("the the the the the the the", ["the cat is on the mat"])
    assert ex.hypothesis_tokens == ("the",) * 7
    the = _gram(ex, "the")
    assert the.positions == (0, 1, 2, 3, 4, 5, 6)
    assert (the.count, the.max_ref_count, the.best_reference, the.credited) == (7, 2, 0, 2)
    assert the.credited_positions == (0, 1)
    assert ex.orders[0].matches == 2 and ex.orders[0].total == 7
    assert ex.orders[0].precision == pytest.approx(100 * 2 / 7)  # p1 = 2/7
    the_the = _gram(ex, "the the")
    assert (the_the.count, the_the.max_ref_count, the_the.credited) == (6, 0, 0)
    assert the_the.best_reference is None
    assert [len(grams) for grams in ex.ngrams] == [1, 1, 1, 1]  # one distinct n-gram per order
    # the reference's two 'the' are the matched unigrams; none of its bigrams is in the hypothesis
    assert ex.references[0].matched_positions == ((0, 4), (), (), ())
    # c = 7 > r = 6: no brevity penalty. Totals 7, 6, 5, 4; matches 2, 0, 0, 0.
    assert ex.ref_len == 6 and ex.bp == 1.0
    assert ex.stats == (7, 6, 2, 0, 0, 0, 7, 6, 5, 4)
    # exp smoothing: each zero-match order n gets 100 / (2^k * total_n), k = 1, 2, 3.
    p = [100 * 2 / 7, 100 / (2 * 6), 100 / (4 * 5), 100 / (8 * 4)]
    assert ex.score.precisions == pytest.approx(p)
    assert ex.score.score == pytest.approx(math.exp(sum(math.log(x) for x in p) / 4))
    assert ex.score.score == pytest.approx(7.8098, abs=1e-4)
    # without smoothing, p2 = 0 and BLEU is 0
    assert bleu.explain("the the the the the the the", ["the cat is on the mat"],
                        smooth_method="none").score.score == 0.0


def test_brevity_penalty_worked_by_hand() -> None:
    """c = 2 < r = 6: BP = exp(1 - r/c) = exp(1 - 6/2) = exp(-2) = 0.1353..."""
    ex = bleu.explain("the cat", ["the cat is on the mat"])
    assert (ex.hyp_len, ex.ref_len) == (2, 6)
    assert ex.bp == pytest.approx(math.exp(1 - 6 / 2)) == pytest.approx(0.1353352832366127)
    # p1 = 2/2, p2 = 1/1; no 3- or 4-grams, so the effective order is 2: BLEU = BP * 100
    assert ex.stats == (2, 6, 2, 1, 0, 0, 2, 1, 0, 0)
    assert ex.score.score == pytest.approx(100 * math.exp(-2))
    assert ex.score.bp == ex.bp
    theirs = SacreBLEU(effective_order=True).sentence_score("the cat", ["the cat is on the mat"])
    assert ex.score.score == pytest.approx(theirs.score, abs=1e-9)


def test_different_references_supply_the_max() -> None:
    ex = bleu.explain("a a b b", ["a a c", "b b a"], tokenize="none")
    a, b = _gram(ex, "a"), _gram(ex, "b")
    assert (a.ref_counts, a.max_ref_count, a.best_reference, a.credited) == ((2, 1), 2, 0, 2)
    assert (b.ref_counts, b.max_ref_count, b.best_reference, b.credited) == ((0, 2), 2, 1, 2)
    assert _gram(ex, "a a").best_reference == 0
    assert _gram(ex, "b b").best_reference == 1
    assert _gram(ex, "a b").best_reference is None
    # clipping takes the max per n-gram over references, not the best single reference
    assert ex.orders[0].matches == 4 and ex.orders[1].matches == 2
    assert ex.references[0].matched_positions[:2] == ((0, 1), (0,))
    assert ex.references[1].matched_positions[:2] == ((0, 1, 2), (0,))
    # lengths 3 and 3 for a hypothesis of 4: the first reference of that length is named
    assert (ex.ref_len, ex.ref_len_reference) == (3, 0)


def test_ties_none_and_empty_references() -> None:
    ex = bleu.explain("a x c", [None, "a y", "a z w x", ""], tokenize="none")
    a = _gram(ex, "a")
    assert a.ref_counts == (0, 1, 1, 0) and a.best_reference == 1  # first of the tied refs
    assert ex.references[0] is None and ex.references[3].tokens == ()
    # hypothesis length 3: lengths 2 and 4 tie at distance 1, the shorter (2, reference 1) wins
    assert (ex.ref_len, ex.ref_len_reference) == (2, 1)
    assert ex.score.signature.startswith("nrefs:3|")  # None is not a reference
    assert _gram(ex, "x").best_reference == 2


def test_markup_passes_through_unchanged() -> None:
    """HTML and markdown are text: the tokens keep every character (escaping is the app's job)."""
    text = '<b>bold</b> **x** [link](http://a.b) <script>alert("x")</script> &lt; `c`'
    ex = bleu.explain(text, [text], tokenize="none")
    assert ex.hypothesis_tokens == tuple(text.split())
    assert ex.references[0].tokens == tuple(text.split())
    assert ex.score.score == pytest.approx(100.0)
    ex13a = bleu.explain(text, [text])
    assert ex13a.hypothesis_tokens == tuple(Tokenizer13a()(text).split())
    assert "<" in ex13a.hypothesis_tokens and "script" in ex13a.hypothesis_tokens


def test_options_shape_the_explanation() -> None:
    ex = bleu.explain("The Cat sat", ["the cat sat down"], lowercase=True, max_ngram_order=2)
    assert ex.hypothesis_tokens == ("the", "cat", "sat")
    assert len(ex.ngrams) == len(ex.orders) == 2
    assert ex.stats == (3, 4, 3, 2, 3, 2)
    assert ex.options.max_ngram_order == 2 and "case:lc" in ex.score.signature
    with pytest.raises(dataclasses.FrozenInstanceError):
        ex.ref_len = 0  # type: ignore[misc]


def test_score_equals_sentence_bleu() -> None:
    hyp, refs = "It wasn't surprising, was it?", ["It was not surprising.", "No surprise there."]
    for kwargs in ({}, {"smooth_method": "floor"}, {"effective_order": False},
                   {"tokenize": "intl", "max_ngram_order": 3}):
        ours = bleu.explain(hyp, refs, **kwargs).score
        assert ours == bleu.sentence_bleu(hyp, refs, **kwargs), kwargs


def test_every_segment_of_a_real_test_set(wmt21_en_de: tuple[dict[str, list[str]],
                                                            list[list[str]]]) -> None:
    """WMT21 en-de, 1002 segments, 3 references: credited sums and totals are the matrix rows."""
    systems, refs = wmt21_en_de
    hyps = systems["Online-W"]
    rows = bleu.segment_stats(hyps, refs)
    options = bleu.BLEUOptions(effective_order=True)
    sacre = SacreBLEU(effective_order=True)
    for i, hyp in enumerate(hyps):
        seg = [stream[i] for stream in refs]
        ex = bleu.explain(hyp, seg)
        credited = [sum(g.credited for g in grams) for grams in ex.ngrams]
        totals = [sum(g.count for g in grams) for grams in ex.ngrams]
        assert [ex.hyp_len, ex.ref_len, *credited, *totals] == rows[i].tolist(), i
        assert list(ex.stats) == rows[i].tolist(), i
        assert ex.score.score == bleu.score_from_stats(rows[i], options).score, i
        if i % 50 == 0:
            assert ex.score.score == pytest.approx(sacre.sentence_score(hyp, seg).score,
                                                   abs=1e-9), i


@settings(max_examples=200, deadline=None)
@given(hyp=segment_text, refs=st.lists(st.one_of(segment_text, st.none()), min_size=1,
                                       max_size=3).filter(lambda r: any(x is not None for x in r)),
       tokenize=st.sampled_from(["none", "13a", "intl", "zh", "char"]))
def test_explain_agrees_with_counter_statistics(hyp: str, refs: list[str | None],
                                                tokenize: str) -> None:
    options = bleu.BLEUOptions(tokenize=tokenize)
    ex = bleu.explain(hyp, refs, tokenize=tokenize)
    refs_tokens = [tokenize_line(r, options) for r in refs if r is not None]
    assert list(ex.stats) == counter_segment_stats(tokenize_line(hyp, options), refs_tokens, 4)
    for grams in ex.ngrams:
        for g in grams:
            for start in g.positions:
                assert ex.hypothesis_tokens[start: start + g.order] == g.ngram
    for ref in ex.references:
        if ref is None:
            continue
        for n, starts in enumerate(ex.references[ref.index].matched_positions, start=1):
            hyp_grams = {g.ngram for g in ex.ngrams[n - 1]}
            assert all(ref.tokens[s: s + n] in hyp_grams for s in starts)
            assert len(starts) == sum(1 for s in range(ref.length - n + 1)
                                      if ref.tokens[s: s + n] in hyp_grams)


def test_refusals() -> None:
    with pytest.raises(MissingReferenceError, match="at least one reference"):
        bleu.explain("a b", [])
    with pytest.raises(MissingReferenceError):
        bleu.explain("a b", [None, None])
    with pytest.raises(InvalidTextError, match="hypothesis"):
        bleu.explain(b"a b", ["a b"])  # type: ignore[arg-type]
    with pytest.raises(InvalidTextError, match="references"):
        bleu.explain("a b", ["a b", 3])  # type: ignore[list-item]
    with pytest.raises(UnknownOptionError, match="tokenizer"):
        bleu.explain("a b", ["a b"], tokenize="moses")

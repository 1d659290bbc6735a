"""A versus B: every number checked against a direct recomputation (corpus_bleu, Counters)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import _bootstrap_resample

import bleu
from bleu.evaluation import paired
from bleu.explore import compare
from bleu.metrics.bleu.score import BLEUOptions

FOLDER = DATA_DIR / "wmt21_newstest2021_en-de"
N = 100


@pytest.fixture(scope="module")
def pair():
    refs = [read_lines(FOLDER / f"newstest2021.en-de.ref.{k}.de")[:N] for k in "AC"]
    a = read_lines(FOLDER / "newstest2021.en-de.hyp.Facebook-AI.de")[:N]
    b = read_lines(FOLDER / "newstest2021.en-de.hyp.Online-W.de")[:N]
    return a, b, refs, bleu.segment_stats(a, refs), bleu.segment_stats(b, refs)


def test_leave_one_out_and_swap_equal_rescoring(pair):
    a, b, refs, stats_a, stats_b = pair
    frame = compare.contributions(stats_a, stats_b, BLEUOptions())
    base_a = sacrebleu.corpus_bleu(a, refs).score
    base_b = sacrebleu.corpus_bleu(b, refs).score
    for i in (0, 17, 64, N - 1):
        drop = [r[:i] + r[i + 1:] for r in refs]
        loo_a = bleu.corpus_bleu(a[:i] + a[i + 1:], drop).score - base_a
        loo_b = bleu.corpus_bleu(b[:i] + b[i + 1:], drop).score - base_b
        swap = bleu.corpus_bleu([*a[:i], b[i], *a[i + 1:]], refs).score - base_a
        row = frame.iloc[i]
        assert row["id"] == i + 1
        assert row[compare.LOO_A] == pytest.approx(loo_a, abs=1e-9)
        assert row[compare.LOO_B] == pytest.approx(loo_b, abs=1e-9)
        assert row[compare.LOO_GAP] == pytest.approx(loo_a - loo_b, abs=1e-9)
        assert row[compare.SWAP] == pytest.approx(swap, abs=1e-9)
    assert list(frame.columns) == list(compare.contribution_columns())


def test_deciding_segments_rank_by_absolute_swap(pair):
    *_, stats_a, stats_b = pair
    frame = compare.contributions(stats_a, stats_b, BLEUOptions())
    top = compare.deciding_segments(frame, 5)
    assert list(top["id"]) == list(frame.iloc[np.argsort(-frame[compare.SWAP].abs().to_numpy(),
                                                          kind="stable")[:5]]["id"])
    with pytest.raises(bleu.InputError):
        compare.deciding_segments(frame, 5, by="nope")


def _sacrebleus_difference_interval(metric, a, b, refs, n: int = 200) -> tuple[float, float]:
    """The 95% interval of A − B from sacrebleu's own bootstrap resamples (its seed draws the
    same segments for both systems): differences sorted, the n // 40-th from each end."""
    _, resampled_a = _bootstrap_resample(metric._extract_corpus_statistics(a, refs), metric, n)
    _, resampled_b = _bootstrap_resample(metric._extract_corpus_statistics(b, refs), metric, n)
    differences = np.sort([x.score - y.score for x, y in zip(resampled_a, resampled_b,
                                                             strict=True)])
    return differences[n // 40], differences[-(n // 40) - 1]


def test_paired_comparison_equals_bleus_tests_and_sacrebleus_resamples(pair):
    a, b, refs, stats_a, stats_b = pair
    found = paired.paired_comparison(stats_a, stats_b, BLEUOptions(), n_bootstrap=200,
                                      n_ar=300)
    systems = {"A": a, "B": b}
    bootstrap = bleu.paired_bootstrap(systems, refs, baseline="A", n_samples=200)
    randomized = bleu.paired_approximate_randomization(systems, refs, baseline="A",
                                                       n_samples=300)
    assert found.p_bootstrap == bootstrap["B"].p_value
    assert found.p_ar == randomized["B"].p_value
    assert found.score_a == pytest.approx(sacrebleu.corpus_bleu(a, refs).score, abs=1e-9)
    assert found.delta == pytest.approx(found.score_a - sacrebleu.corpus_bleu(b, refs).score,
                                        abs=1e-9)
    low, high = _sacrebleus_difference_interval(SacreBLEU(), a, b, refs)
    assert found.low == pytest.approx(low, abs=1e-9)
    assert found.high == pytest.approx(high, abs=1e-9)


@pytest.mark.parametrize("name", ["chrF", "TER"])
def test_difference_interval_of_chrf_and_ter_equals_sacrebleus_resamples(pair, name):
    # float32 resample sums, as sacrebleu's: A's score minus B's on each of its resamples
    a, b, refs, *_ = pair
    ours = getattr(bleu, name.upper())(references=refs)
    found = paired.paired_comparison(ours.segment_stats(a), ours.segment_stats(b), ours.scorer,
                                      n_bootstrap=200, n_ar=50)
    low, high = _sacrebleus_difference_interval(getattr(sacrebleu.metrics, name.upper())(), a,
                                                b, refs)
    assert found.low == pytest.approx(low, abs=1e-9)
    assert found.high == pytest.approx(high, abs=1e-9)


def test_paired_comparison_of_another_metric(pair):
    a, b, refs, *_ = pair
    chrf = bleu.CHRF(references=refs)
    found = paired.paired_comparison(chrf.segment_stats(a), chrf.segment_stats(b),
                                      chrf.scorer, n_bootstrap=100, n_ar=100)
    expected = bleu.paired_bootstrap({"A": a, "B": b}, refs, baseline="A", n_samples=100,
                                     metric=bleu.CHRF())
    assert found.metric == "chrF2" and found.p_bootstrap == expected["B"].p_value
    assert found.score_b == pytest.approx(sacrebleu.corpus_chrf(b, refs).score, abs=1e-9)


def test_verdicts_by_hand():
    def made(delta: float, p_bs: float, p_ar: float, higher: bool = True):
        return paired.PairedComparison("m", higher, 50 + delta, 50, 0, 0, p_bs, p_ar,
                                        100, 100, 1)

    assert made(1.0, 0.01, 0.02).verdict("X", "Y") == "X better"
    assert made(-1.0, 0.01, 0.2).verdict("X", "Y") == "Y better (bootstrap only)"
    assert made(1.0, 0.3, 0.01).verdict() == "A better (AR only)"
    assert made(1.0, 0.3, 0.2).verdict() == "not significant"
    assert made(1.0, 0.01, 0.01, higher=False).verdict("X", "Y") == "Y better"  # TER-like
    table = compare.paired_table([made(1.0, 0.01, 0.02)], "X", "Y")
    assert list(table.columns) == list(compare.paired_columns("X", "Y"))
    assert table["95% CI"].iloc[0] == "[+0.00, +0.00]" and table["X"].iloc[0] == "51.00"
    comet = paired.PairedComparison("COMET", True, 0.8125, 0.8, 0.001, 0.02, 0.01, 0.02, 100,
                                     100, 1)
    unit = compare.paired_table([comet], "X", "Y")  # a 0..1 score: 4 places, not 2
    assert unit["A − B"].iloc[0] == "+0.0125" and unit["X"].iloc[0] == "0.8125"


def test_ngram_differences_hand_example():
    # ref: "the cat sat on the mat"; A credits "the" twice, B once and "dog" never.
    refs = [["the cat sat on the mat"]]
    diffs = compare.ngram_differences(["the cat the mat"], ["a cat sat dog"], refs,
                                      BLEUOptions(tokenize="none"), top=50)
    a_better = diffs.a_better.set_index("ngram")
    b_better = diffs.b_better.set_index("ngram")
    assert a_better.loc["the", "matched A"] == 2 and a_better.loc["the", "matched B"] == 0
    assert a_better.loc["the", "in A"] == 2 and a_better.loc["the", "in B"] == 0
    assert a_better.loc["the mat", "order"] == 2
    assert b_better.loc["cat sat", "matched B"] == 1
    assert b_better.loc["sat", "difference"] == -1
    assert "cat" not in a_better.index and "cat" not in b_better.index  # both credit it once
    assert a_better.loc["the", "segments"] == (1,)


def test_ngram_differences_agree_with_statistics_and_explain(pair):
    a, b, refs, stats_a, stats_b = pair
    diffs = compare.ngram_differences(a, b, refs, BLEUOptions(), top=10**6)
    frame = pd.concat([diffs.a_better, diffs.b_better])
    # every order: sum of (matched_a - matched_b) over all differing n-grams = stats difference
    for n in range(1, 5):
        rows = frame[frame["order"] == n]
        expected = int(stats_a[:, 1 + n].sum() - stats_b[:, 1 + n].sum())
        assert int(rows[compare.DIFFERENCE].sum()) == expected
    # per segment, a listed n-gram is credited differently, as explain() says
    row = diffs.a_better.iloc[0]
    gram = tuple(row["ngram"].split())
    for segment in row["segments"][:5]:
        i = segment - 1
        seg_refs = [r[i] for r in refs]
        credit = [{g.ngram: g.credited for g in bleu.explain(h, seg_refs).ngrams[len(gram) - 1]}
                  .get(gram, 0) for h in (a[i], b[i])]
        assert credit[0] != credit[1]


def test_bucket_labels_and_assignment():
    # compare-mt: value < cutoff[i] -> bucket i; labels <c0, k for one integer, [a,b), >=last
    assert compare.bucket_labels((10, 20, 30)) == ["<10", "[10,20)", "[20,30)", ">=30"]
    assert compare.bucket_labels((-1, 0, 1, 5)) == ["<-1", "-1", "0", "[1,5)", ">=5"]
    assert list(compare.assign_buckets(np.array([9, 10, 19, 30, 99]), (10, 20, 30))) == \
        [0, 1, 1, 3, 3]


def test_bleu_by_bucket_equals_corpus_bleu_of_the_bucket(pair):
    a, _, refs, stats_a, _ = pair
    lengths = stats_a[:, 1]
    buckets = compare.assign_buckets(lengths, compare.LENGTH_CUTOFFS)
    frame = compare.score_by_bucket({"A": stats_a}, {"A": buckets},
                                   compare.bucket_labels(compare.LENGTH_CUTOFFS), BLEUOptions(),
                                   n_samples=200)
    for _, row in frame.iterrows():
        members = np.flatnonzero(buckets == row["bucket"])
        expected = sacrebleu.corpus_bleu([a[i] for i in members],
                                         [[r[i] for i in members] for r in refs]).score
        assert row["segments"] == len(members)
        assert row["score"] == pytest.approx(expected, abs=1e-9)
        assert row["low"] <= row["high"]
        assert row["ci"] == pytest.approx((row["high"] - row["low"]) / 2)


def test_word_accuracy_hand_example():
    # reference corpus frequencies: the=3, cat=2, sat=1, a=1, dog=1
    reference = ["the cat sat", "the the cat a dog"]
    systems = {"A": ["the cat cat", "the dog bird"]}
    frame = compare.word_accuracy_by_frequency(systems, reference, BLEUOptions(tokenize="none"),
                                               cutoffs=(1, 2, 3), n_samples=50)
    rows = frame.set_index("label")
    # freq 0 (<1) holds only output words the reference lacks ("bird"), F = 0 by construction:
    # with frequencies counted in the reference that bucket says nothing and is left out
    assert "<1" not in rows.index
    # freq 1: ref words sat, a, dog (3); output dog (1); matched dog (1): F = 2*1/(1+3)
    assert rows.loc["1", "words"] == 3 and rows.loc["1", "matches"] == 1
    assert rows.loc["1", "score"] == pytest.approx(2 * 1 / (1 + 3))
    # freq 2: cat; ref 2, output 2 (seg 1 has it twice, its ref once), matched 1
    assert rows.loc["2", "score"] == pytest.approx(2 * 1 / (2 + 2))
    # freq 3 (>=3): the; ref 3, output 2, matched 2
    assert rows.loc[">=3", "score"] == pytest.approx(2 * 2 / (2 + 3))


def test_word_accuracy_with_training_frequencies():
    # training counts (compare-mt's frequency file): the=100, cat=2, dog=1; bird, sat, a: 0
    reference = ["the cat sat", "the the cat a dog"]
    systems = {"A": ["the cat cat", "the dog bird"]}
    frame = compare.word_accuracy_by_frequency(
        systems, reference, BLEUOptions(tokenize="none"), cutoffs=(1, 2, 3), n_samples=50,
        frequencies={"the": 100, "cat": 2, "dog": 1})
    rows = frame.set_index("label")
    # freq 0: reference words sat, a (2); output bird (1); no match: F = 0, the bucket is kept
    assert rows.loc["<1", "words"] == 2 and rows.loc["<1", "output"] == 1
    assert rows.loc["<1", "score"] == 0
    # freq 1: dog; ref 1, output 1, matched 1
    assert rows.loc["1", "score"] == pytest.approx(2 * 1 / (1 + 1))
    # freq >= 3: the; ref 3, output 2, matched 2
    assert rows.loc[">=3", "score"] == pytest.approx(2 * 2 / (2 + 3))
    # lowercased BLEU folds the training counts' case variants together
    folded = compare.word_accuracy_by_frequency(
        systems, reference, BLEUOptions(tokenize="none", lowercase=True), cutoffs=(1, 2, 3),
        n_samples=50, frequencies={"The": 60, "the": 40, "cat": 2, "dog": 1})
    assert folded.set_index("label").loc[">=3", "words"] == 3


def test_word_accuracy_counts_match_counters(pair):
    a, _, refs, *_ = pair
    frame = compare.word_accuracy_by_frequency({"A": a}, refs[0], BLEUOptions(), n_samples=20)
    tok = sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()
    ref_tokens = [tok(line).split() for line in refs[0]]
    out_tokens = [tok(line).split() for line in a]
    matched = sum(sum((Counter(o) & Counter(r)).values())
                  for o, r in zip(out_tokens, ref_tokens, strict=True))
    vocabulary = {word for tokens in ref_tokens for word in tokens}
    assert frame["matches"].sum() == matched
    assert frame["words"].sum() == sum(map(len, ref_tokens))
    # the output words the reference lacks fall in the <1 bucket, left out without frequencies
    assert frame["output"].sum() == sum(w in vocabulary for tokens in out_tokens for w in tokens)


def test_document_scores_equal_corpus_bleu_per_document(pair):
    _, b, refs, stats_a, stats_b = pair
    documents = [f"doc{i // 25}" for i in range(N)]
    frame = compare.document_scores({"A": stats_a, "B": stats_b}, documents, BLEUOptions())
    assert list(frame["document"]) == ["doc0", "doc1", "doc2", "doc3"]
    assert list(frame["first"]) == [1, 26, 51, 76]
    for k, row in frame.iterrows():
        part = slice(25 * k, 25 * (k + 1))
        expected = sacrebleu.corpus_bleu(b[part], [r[part] for r in refs]).score
        assert row["segments"] == 25
        assert row["B"] == pytest.approx(expected, abs=1e-9)

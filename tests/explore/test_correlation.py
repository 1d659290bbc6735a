"""bleu.correlation against scipy.stats computed in the test, on random ties and on the bundled
MQM sample (sentence BLEU of the WMT21 en-de systems against Google's MQM)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu
from bleu.evaluation.systems import match_scores
from bleu.explore import correlation
from bleu.io.scores.read import read_scores

REPO = Path(__file__).resolve().parents[2]
MQM_DIR = REPO / "sample_data" / "wmt21_en-de_mqm"

values = st.lists(st.integers(-3, 3), min_size=2, max_size=60)


@settings(max_examples=200, deadline=None)
@given(values, st.data())
def test_coefficients_equal_scipys(x, data):
    y = data.draw(st.lists(st.integers(-4, 4), min_size=len(x), max_size=len(x)))
    x, y = np.array(x, dtype=float), np.array(y, dtype=float) + 0.5 * np.array(x)
    for ours, theirs in ((correlation.pearson, scipy.stats.pearsonr),
                         (correlation.spearman, scipy.stats.spearmanr),
                         (correlation.kendall, scipy.stats.kendalltau)):
        if len(set(x)) < 2 or len(set(y)) < 2:
            assert math.isnan(ours(x, y))
        else:
            assert ours(x, y) == pytest.approx(theirs(x, y).statistic, abs=1e-12)


def test_large_series_with_many_ties():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 20, 5000).astype(float)
    y = x + rng.normal(0, 4, 5000).round()
    assert correlation.kendall(x, y) == pytest.approx(scipy.stats.kendalltau(x, y).statistic,
                                                      abs=1e-12)
    assert correlation.spearman(x, y) == pytest.approx(scipy.stats.spearmanr(x, y).statistic,
                                                       abs=1e-12)


def test_nan_pairs_are_dropped():
    found = correlation.correlate("m", "segment", [1, 2, np.nan, 4, 3], [2, 1, 5, np.nan, 7])
    assert found.n == 3
    assert found.kendall == pytest.approx(scipy.stats.kendalltau([1, 2, 3], [2, 1, 7]).statistic)


def test_mqm_sample_segment_and_system_level():
    refs = [(MQM_DIR / f"newstest2021.en-de.ref.{k}.de").read_text("utf-8").split("\n")[:-1]
            for k in ("A", "C", "D")]
    names = ["Facebook-AI", "NVIDIA-NeMo", "Online-W", "VolcTrans-GLAT"]
    systems = {name: (MQM_DIR / f"newstest2021.en-de.hyp.{name}.de").read_text("utf-8")
               .split("\n")[:-1] for name in names}
    mqm = match_scores(read_scores(MQM_DIR / "mqm_newstest2021_ende.avg_seg_scores.tsv",
                                    n_segments=1002), names, {"Nemo": "NVIDIA-NeMo"}).scores
    external = mqm.by_system()
    sentence = {name: np.array([bleu.sentence_bleu(h, [r[i] for r in refs]).score
                                for i, h in enumerate(hyps)]) for name, hyps in systems.items()}
    seg = correlation.segment_correlation("BLEU", sentence, external)
    x = np.concatenate([sentence[n][~np.isnan(external[n])] for n in names])
    y = np.concatenate([external[n][~np.isnan(external[n])] for n in names])
    assert seg.n == len(x) == 4 * 527
    assert seg.pearson == pytest.approx(scipy.stats.pearsonr(x, y).statistic, abs=1e-12)
    assert seg.spearman == pytest.approx(scipy.stats.spearmanr(x, y).statistic, abs=1e-12)
    assert seg.kendall == pytest.approx(scipy.stats.kendalltau(x, y).statistic, abs=1e-12)
    corpus = {name: bleu.corpus_bleu(hyps, refs).score for name, hyps in systems.items()}
    system = correlation.system_correlation("BLEU", corpus, external)
    means = [float(np.nanmean(external[n])) for n in names]
    assert system.n == 4
    assert system.pearson == pytest.approx(
        scipy.stats.pearsonr([corpus[n] for n in names], means).statistic, abs=1e-12)
    assert system.kendall == pytest.approx(
        scipy.stats.kendalltau([corpus[n] for n in names], means).statistic, abs=1e-12)
    table = correlation.correlation_table([seg, system])
    assert list(table["level"]) == ["segment", "system"]


def _brute_counts(metric, human, epsilon):
    """Every pair looked at, as mt-metrics-eval's matrix version does (``|dm| <= epsilon``)."""
    found = dict.fromkeys(("concordant", "discordant", "ties_human", "ties_metric", "ties_both"), 0)
    for i in range(len(metric)):
        for j in range(i + 1, len(metric)):
            dm, dh = metric[i] - metric[j], human[i] - human[j]
            metric_tie, human_tie = abs(dm) <= epsilon, dh == 0
            key = ("ties_both" if metric_tie and human_tie else "ties_metric" if metric_tie
                   else "ties_human" if human_tie
                   else "concordant" if (dm > 0) == (dh > 0) else "discordant")
            found[key] += 1
    return correlation.PairCounts(**found)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=0, max_size=40), st.data(),
       st.sampled_from([0.0, 0.1, 0.3, 0.7, 1.0, 2.5]))
def test_pair_counts_equal_every_pair_looked_at(x, data, epsilon):
    y = data.draw(st.lists(st.integers(0, 4), min_size=len(x), max_size=len(x)))
    metric = np.array(x, dtype=float) * 0.3  # steps of 0.3: sums that round, ties at epsilon
    human = np.array(y, dtype=float)
    found = correlation.pair_counts(metric, human, epsilon)
    assert found == _brute_counts(metric, human, epsilon)
    assert found.pairs == len(x) * (len(x) - 1) // 2


def test_pair_counts_threshold_equal_to_a_difference_ties_that_pair():
    # 0.3 - 0.1 is 0.19999999999999998 in binary floating point, below 0.2; as a threshold
    # it is a tie of that very pair (mt-metrics-eval takes its thresholds from differences)
    metric, human = np.array([0.1, 0.3]), np.array([1.0, 2.0])
    epsilon = abs(metric[1] - metric[0])
    assert correlation.pair_counts(metric, human, epsilon).ties_metric == 1
    assert correlation.pair_counts(metric, human, np.nextafter(epsilon, 0)).concordant == 1


def test_pair_counts_refuse_nan_and_negative_threshold():
    with pytest.raises(bleu.InputError, match="NaN"):
        correlation.pair_counts([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(bleu.InputError, match="epsilon"):
        correlation.pair_counts([1.0, 2.0], [1.0, 2.0], -0.5)

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
from bleu.analysis import correlation
from bleu.io.scores.read import match_systems, read_scores

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
    mqm = match_systems(read_scores(MQM_DIR / "mqm_newstest2021_ende.avg_seg_scores.tsv",
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

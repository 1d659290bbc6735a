"""Segment-score metrics (COMET, MQM, ...) through the one significance module: every number
equals a direct numpy computation on the same resample indices, and the paired t-test equals
``scipy.stats.ttest_rel``, on the WMT21 en-de MQM scores in sample_data and on generated scores
(ties, all equal, unrated segments, lower is better)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from bleu.evaluation.paired import paired_comparison
from bleu.evaluation.ranking import all_pairs
from bleu.io.scores.read import read_scores
from bleu.metrics.segment import SegmentScorer, segment_stats
from bleu.metrics.significance import (
    StatisticsShapeError,
    bootstrap_ci_from_stats,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
    paired_t_test,
    pairwise_significance,
)

MQM = Path(__file__).resolve().parents[2] / "sample_data" / "wmt21_en-de_mqm" / \
    "mqm_newstest2021_ende.avg_seg_scores.tsv"
SEED = 12345


def _mqm() -> dict[str, np.ndarray]:
    scores = read_scores(MQM, n_segments=1002)
    keep = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")
    return {name: scores.scores(name) for name in keep}


def _indices(n_rows: int, n_samples: int) -> np.ndarray:
    """sacrebleu's resample indices (``rng.choice``), which ours draw too."""
    return np.random.default_rng(SEED).choice(n_rows, size=(n_samples, n_rows), replace=True)


def _direct_interval(values: np.ndarray, indices: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Mean and CI half-width of resampled means, sorted, the ``n // 40``-th from each end."""
    means = values[indices].mean(axis=1)
    ordered = np.sort(means)
    lower = len(ordered) // 40
    return float(means.mean()), float((ordered[-lower - 1] - ordered[lower]) / 2), means


def _direct_bootstrap_p(a: np.ndarray, b: np.ndarray, indices: np.ndarray) -> float:
    diffs = np.abs(b[indices].mean(axis=1) - a[indices].mean(axis=1))
    real = abs(a.mean() - b.mean())
    return (np.count_nonzero(diffs - diffs.mean() > real) + 1) / (len(diffs) + 1)


def _scorer(higher: bool = True) -> SegmentScorer:
    return SegmentScorer("MQM", higher_is_better=higher)


def test_mqm_paired_bootstrap_equals_numpy_on_the_same_indices() -> None:
    systems = _mqm()
    stats = {name: segment_stats(values) for name, values in systems.items()}
    found = paired_bootstrap_from_stats(stats, _scorer(), n_samples=500, seed=SEED)
    base = systems["Facebook-AI"]
    rated_base = ~np.isnan(base)
    mean, ci, _ = _direct_interval(base[rated_base], _indices(int(rated_base.sum()), 500))
    assert found["Facebook-AI"].score == pytest.approx(np.nanmean(base), rel=1e-12)
    assert found["Facebook-AI"].mean == pytest.approx(mean, rel=1e-12)
    assert found["Facebook-AI"].ci == pytest.approx(ci, rel=1e-12)
    for name in ("Online-W", "UEdin", "VolcTrans-GLAT"):
        values = systems[name]
        joint = rated_base & ~np.isnan(values)
        indices = _indices(int(joint.sum()), 500)
        mean, ci, _ = _direct_interval(values[joint], indices)
        result = found[name]
        assert result.score == pytest.approx(np.nanmean(values), rel=1e-12)
        assert result.mean == pytest.approx(mean, rel=1e-12)
        assert result.ci == pytest.approx(ci, rel=1e-12)
        assert result.p_value == _direct_bootstrap_p(base[joint], values[joint], indices)
        assert result.n_segments == int(joint.sum())


def test_mqm_difference_interval_equals_numpy_on_the_same_indices() -> None:
    # A − B on each resample of the segments rated for both, sorted, the 500 // 40 = 12th
    # from each end
    systems = _mqm()
    a, b = systems["Facebook-AI"], systems["UEdin"]
    found = paired_comparison(segment_stats(a), segment_stats(b), _scorer(), n_bootstrap=500,
                              n_ar=50, seed=SEED)
    joint = ~np.isnan(a) & ~np.isnan(b)
    indices = _indices(int(joint.sum()), 500)
    differences = np.sort(a[joint][indices].mean(axis=1) - b[joint][indices].mean(axis=1))
    assert found.n_segments == int(joint.sum()) < len(a)
    assert found.low == pytest.approx(differences[12], rel=1e-12)
    assert found.high == pytest.approx(differences[-13], rel=1e-12)


def test_mqm_t_test_equals_scipy() -> None:
    systems = _mqm()
    for name in ("Online-W", "UEdin", "VolcTrans-GLAT"):
        a, b = systems["Facebook-AI"], systems[name]
        joint = ~np.isnan(a) & ~np.isnan(b)
        expected = scipy_stats.ttest_rel(a[joint], b[joint])
        found = paired_t_test(segment_stats(a), segment_stats(b), _scorer())
        assert found.n_segments == int(joint.sum()) == 527
        assert found.t == pytest.approx(float(expected.statistic), rel=1e-12)
        assert found.p_value == pytest.approx(float(expected.pvalue), rel=1e-9, abs=1e-300)
        assert found.degrees_of_freedom == 526


def test_unrated_segments_of_either_system_leave_the_pair_test() -> None:
    # A rates segments 0-5, B 2-7, C all: the A-B test uses 2-5 only, A-C 0-5.
    a = np.array([1, 2, 3, 4, 5, 6, np.nan, np.nan], float)
    b = np.array([np.nan, np.nan, 3, 1, 4, 1, 5, 9], float)
    c = np.array([2, 7, 1, 8, 2, 8, 1, 8], float)
    stats = {"A": segment_stats(a), "B": segment_stats(b), "C": segment_stats(c)}
    found = paired_bootstrap_from_stats(stats, _scorer(), n_samples=200, seed=SEED)
    assert found["B"].n_segments == 4 and found["C"].n_segments == 6
    joint = ~np.isnan(a) & ~np.isnan(b)
    assert found["B"].p_value == _direct_bootstrap_p(a[joint], b[joint], _indices(4, 200))
    assert found["B"].score == pytest.approx(np.nanmean(b))  # its own rated segments
    pairs = pairwise_significance(stats, _scorer(), n_samples=200, seed=SEED)
    assert pairs.segments.tolist() == [[0, 4, 6], [4, 0, 6], [6, 6, 0]]
    rated_bc = ~np.isnan(b)
    assert pairs.p_values[1, 2] == _direct_bootstrap_p(b[rated_bc], c[rated_bc],
                                                       _indices(6, 200))


def test_ar_tests_on_rated_segments_as_a_direct_randomization() -> None:
    a = np.array([0.1, 0.5, np.nan, 0.7, 0.2, 0.9, 0.4, 0.3, np.nan, 0.8])
    b = np.array([0.2, 0.4, 0.6, 0.9, np.nan, 0.8, 0.6, 0.1, 0.3, 0.9])
    found = paired_ar_from_stats({"A": segment_stats(a), "B": segment_stats(b)}, _scorer(),
                                 n_samples=640, seed=SEED)
    joint = ~np.isnan(a) & ~np.isnan(b)
    x, y = a[joint], b[joint]
    swap = np.random.default_rng(SEED).integers(2, size=(640, len(x)), dtype=bool)
    pseudo_a = np.where(swap, x, y).mean(axis=1)
    pseudo_b = np.where(swap, y, x).mean(axis=1)
    real = abs(x.mean() - y.mean())
    expected = (np.count_nonzero(np.abs(pseudo_a - pseudo_b) > real) + 1) / 641
    assert found["B"].p_value == expected
    assert found["B"].n_segments == int(joint.sum())


def test_lower_is_better_ranks_low_scores_first() -> None:
    penalties = {"good": segment_stats([0.0, 1.0, 0.0, 0.5] * 25),
                 "bad": segment_stats([5.0, 4.0, 6.0, 5.5] * 25)}
    ranked = all_pairs(penalties, _scorer(higher=False), n_samples=300)
    assert ranked.names == ("good", "bad")
    assert ranked.clusters == (("good",), ("bad",))
    raised = all_pairs(penalties, _scorer(higher=True), n_samples=300)
    assert raised.names == ("bad", "good")


def test_equal_systems_and_ties() -> None:
    same = segment_stats([0.5] * 20)
    found = paired_bootstrap_from_stats({"A": same, "B": same}, _scorer(), n_samples=100)
    # sacrebleu's rule, kept for every metric: p = (c + 1) / (N + 1) with c the resamples whose
    # centred difference is strictly above the real one; for identical systems c = 0
    values = np.full(20, 0.5)
    assert found["B"].p_value == _direct_bootstrap_p(values, values, _indices(20, 100)) == 1 / 101
    t = paired_t_test(same, same, _scorer())
    expected = scipy_stats.ttest_rel(np.full(20, 0.5), np.full(20, 0.5))
    assert math.isnan(t.t) and math.isnan(float(expected.statistic))
    assert math.isnan(t.p_value) and math.isnan(float(expected.pvalue))
    shifted = paired_t_test(segment_stats([0.75] * 20), same, _scorer())  # exact differences
    with np.errstate(all="ignore"):
        expected = scipy_stats.ttest_rel(np.full(20, 0.75), np.full(20, 0.5))
    assert shifted.t == float(expected.statistic) == math.inf
    assert shifted.p_value == float(expected.pvalue) == 0.0


def test_refusals_name_what_is_missing() -> None:
    a = segment_stats([1.0, np.nan, np.nan])
    b = segment_stats([np.nan, 2.0, 3.0])
    with pytest.raises(StatisticsShapeError, match="rated for both"):
        paired_bootstrap_from_stats({"A": a, "B": b}, _scorer(), n_samples=10)
    with pytest.raises(StatisticsShapeError, match="at least 2 segments rated for both"):
        paired_t_test(a, b, _scorer())
    with pytest.raises(StatisticsShapeError, match="No segment of the system is rated"):
        bootstrap_ci_from_stats(segment_stats([np.nan, np.nan]), _scorer(), n_samples=10)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.floats(-30, 30)),
                          st.one_of(st.none(), st.integers(-3, 3).map(float))),
                min_size=3, max_size=40))
def test_generated_scores(rows: list[tuple[float | None, float | None]]) -> None:
    a = np.array([np.nan if x is None else x for x, _ in rows])
    b = np.array([np.nan if y is None else y for _, y in rows])
    joint = ~np.isnan(a) & ~np.isnan(b)
    if joint.sum() < 2:
        return
    found = paired_bootstrap_from_stats({"A": segment_stats(a), "B": segment_stats(b)},
                                        _scorer(), n_samples=80, seed=SEED)
    indices = _indices(int(joint.sum()), 80)
    mean, ci, _ = _direct_interval(b[joint], indices)
    assert found["B"].mean == pytest.approx(mean, rel=1e-9, abs=1e-9)
    assert found["B"].ci == pytest.approx(ci, rel=1e-9, abs=1e-9)
    assert found["B"].p_value == _direct_bootstrap_p(a[joint], b[joint], indices)
    with np.errstate(all="ignore"):
        expected = scipy_stats.ttest_rel(a[joint], b[joint])
    t = paired_t_test(segment_stats(a), segment_stats(b), _scorer())
    if math.isnan(float(expected.statistic)):
        assert math.isnan(t.t)
    else:
        assert t.t == pytest.approx(float(expected.statistic), rel=1e-9)
        assert t.p_value == pytest.approx(float(expected.pvalue), rel=1e-8, abs=1e-15)

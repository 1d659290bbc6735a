"""bleu.explore.meta_eval against mt-metrics-eval (github.com/google-research/mt-metrics-eval,
commit 68a481a): the worked examples of its own tests (stats_test.py, tau_optimization_test.py),
written out here with the values they state; values its functions printed where named so; hand
counts written out; and a brute-force search over every candidate epsilon on generated scores
and on the WMT21 English-German MQM sample."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu
from bleu.errors import InputError
from bleu.evaluation.systems import match_scores
from bleu.explore import correlation, meta_eval
from bleu.io.scores.read import read_scores

REPO = Path(__file__).resolve().parents[2]
MQM_DIR = REPO / "sample_data" / "wmt21_en-de_mqm"
N = math.nan


def _by_system(matrix):
    return {f"s{i}": np.array(row, dtype=float) for i, row in enumerate(matrix)}


def _agrees(metric, human, epsilon):
    """One pair at a time, as the papers define it: +1 agreed, -1 not (tau_eq's view)."""
    metric_tie, human_tie = abs(metric) <= epsilon, human == 0
    if metric_tie or human_tie:
        return metric_tie and human_tie
    return (metric > 0) == (human > 0)


def _brute(rows, statistic, epsilon):
    """The mean over groups of acc_eq or tau_eq, every pair looked at."""
    values = []
    for x, y in rows:
        agreed = [_agrees(x[i] - x[j], y[i] - y[j], epsilon)
                  for i in range(len(x)) for j in range(i + 1, len(x))]
        acc = sum(agreed) / len(agreed)
        values.append(acc if statistic == "acc_eq" else 2 * acc - 1)
    return sum(values) / len(values)


def _brute_rows(metric, human, grouping):
    x, y = np.array(metric, dtype=float), np.array(human, dtype=float)
    groups = {"none": [(x.ravel(), y.ravel())], "item": list(zip(x.T, y.T, strict=True)),
              "system": list(zip(x, y, strict=True))}[grouping]
    rows = []
    for xs, ys in groups:
        rated = ~(np.isnan(xs) | np.isnan(ys))
        if rated.sum() >= 2:
            rows.append((xs[rated], ys[rated]))
    return rows


# stats_test.py testKendallVariants: Correlation(1, gold=[1, 2, 2, 3, 4], metric=[2, 1, 1.5, 5, 3])
GOLD, METRIC = [1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3]


def test_kendall_variants_of_mt_metrics_eval_tests():
    assert meta_eval.kendall_variant(METRIC, GOLD, "b") == pytest.approx(0.316227766)
    assert meta_eval.kendall_variant(METRIC, GOLD, "23") == pytest.approx(0.2)
    assert meta_eval.kendall_variant(METRIC, GOLD, "acc23") == pytest.approx(0.6)
    assert meta_eval.kendall_variant(METRIC, GOLD, "acc23", epsilon=2) == pytest.approx(0.4)
    # by hand: of the 10 pairs, the gold tie (2, 2) is a metric non-tie (1 vs 1.5), and the
    # metric inverts (1,2)->(2,1), (1,2)->(2,1.5) and (3,4)->(5,3): 6 concordant, 3 discordant
    counts = correlation.pair_counts(METRIC, GOLD)
    assert (counts.concordant, counts.discordant, counts.ties_human) == (6, 3, 1)


def test_positive_epsilon_example_of_mt_metrics_eval_tests():
    # stats_test.py testKendallVariantsWithPositiveEpsilon: KendallVariants(x, y) takes x as the
    # gold and y as the metric, whose differences up to epsilon tie
    gold, metric = [1, 1, 1, 2, 2, 3, 4], [1, 1, 2, 2, 4, 3, 3]
    assert meta_eval.kendall_variant(metric, gold, "23") == pytest.approx((14 - 7) / 21)
    assert meta_eval.kendall_variant(metric, gold, "23", 0.1) == pytest.approx((14 - 7) / 21)
    # with epsilon 1: 13 metric ties, 3 of them human ties too, 1 discordant, 7 concordant
    assert meta_eval.kendall_variant(metric, gold, "23", 1.0) == \
        pytest.approx((7 + 3 - 1 - 10 - 0) / 21)


def test_tie_calibration_example_of_mt_metrics_eval_tests():
    # stats_test.py: KendallWithTiesOpt(variant='acc23', sample_rate=1.0) on the same data is 0.7
    found = meta_eval.segment_tie_calibration("m", {"s": METRIC}, {"s": GOLD}, grouping="none")
    assert found.best.value == pytest.approx(0.7)
    # by hand: epsilon 0.5 ties the metric's 1 and 1.5, which the gold ties (2, 2): 7 of 10
    assert found.best.epsilon == 0.5
    assert (found.best.calibrated, found.best.pairs, found.best.groups) == (True, 10, 1)


@pytest.mark.parametrize(("human", "taus", "best"), [
    # tau_optimization_test.py test_zero_threshold_is_best and test_nonzero_threshold_is_best
    ([1, 2, 3, 4], [6 / 6, 4 / 6, 3 / 6, 1 / 6, 0 / 6], 0.0),
    ([1, 1, 1, 4], [3 / 6, 3 / 6, 4 / 6, 4 / 6, 3 / 6], 4.0),
])
def test_search_examples_of_tau_optimization_tests(human, taus, best):
    found = meta_eval.segment_tie_calibration("m", {"s": [0, 2, 6, 8]}, {"s": human},
                                              grouping="none")
    assert list(found.thresholds) == [0, 2, 4, 6, 8]
    assert list(found.values) == pytest.approx(taus)
    assert found.best.epsilon == best
    assert list(found.curve().columns) == ["epsilon", "acc_eq"]


def test_regression_example_of_tau_optimization_tests():
    # tau_optimization_test.py test_regression_example: rows are groups (grouping "system"
    # here), None is NaN, the last row all unrated
    metric = [[0, 5, 2, 3, 2], [N, 2, 1, 5, 3], [9, 1, 5, 3, 8], [9, 3, 4, 4, 1], [N] * 5]
    human = [[1, 5, 2, 1, 1], [4, 2, 2, 1, 4], [5, 9, 2, 8, 7], [7, 6, N, 3, 2], [N] * 5]
    found = meta_eval.segment_tie_calibration("m", _by_system(metric), _by_system(human),
                                              grouping="system")
    assert list(found.thresholds) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert list(found.values) == pytest.approx(
        [0.4666666666666667, 0.4916666666666668, 0.38333333333333347, 0.29166666666666674,
         0.2666666666666667, 0.2, 0.15833333333333335, 0.15833333333333335, 0.1166666666666667],
        abs=1e-12)
    assert (found.best.epsilon, found.best.groups) == (1.0, 4)
    assert found.best.value == pytest.approx(0.4916666666666668, abs=1e-12)


def test_equal_values_keep_the_smallest_epsilon():
    # mt-metrics-eval's KendallWithTiesOpt(variant='23', num_sys=4, average_by='item',
    # sample_rate=1.0) on these scores printed -0.13333333333333325 at epsilon 3.0, and
    # -0.1333333333333333 at epsilon 1.0: the same -2/15, apart by its running float sum
    human = [[3, 3, 0, 0, 3], [3, 0, N, 3, 1], [N, 3, 1, 1, 2], [N, 0, 0, N, 3]]
    metric = [[5.9, 3.9, 4.0, 1.0, 2.9], [4.9, 0.0, 1.3, 0.9, 2.3], [5.3, 0.9, 2.3, 2.3, 5.6],
              [1.6, 3.0, 1.0, 0.9, 4.9]]
    found = meta_eval.segment_tie_calibration("m", _by_system(metric), _by_system(human),
                                              statistic="tau_eq", grouping="item")
    assert found.best.epsilon == 1.0
    assert found.best.value == pytest.approx(-2 / 15, abs=1e-15)
    assert found.values[list(found.thresholds).index(3.0)] == found.best.value


def test_system_pairwise_accuracy_by_hand():
    # human means: A 3, B 2, C 2 (mean of 1 and 3; NaN unrated), D 0; metric: A 30, B 20, C 25,
    # D 25. Pairs: AB, AC, AD agree; BC human tie / metric not: no; BD human B > D, metric
    # B < D: no; CD metric tie / human not: no. 3 of 6; tau_eq (3 - 3) / 6 = 0.
    external = {"A": [3, 3], "B": [2, N], "C": [1, 3], "D": [0, 0], "E": [N, N]}
    corpus = {"A": 30.0, "B": 20.0, "C": 25.0, "D": 25.0, "E": 10.0, "F": 5.0}
    found = meta_eval.system_pairwise_accuracy("BLEU", corpus, external)
    assert (found.value, found.pairs, found.level, found.epsilon) == (3 / 6, 6, "system", 0.0)
    tau = meta_eval.system_pairwise_accuracy("BLEU", corpus, external, statistic="tau_eq")
    assert tau.value == pytest.approx(0.0)
    # epsilon 5 ties every metric pair but A-B (10 apart): B-C agrees now (tied in the human
    # means too), A-C, A-D and B-D no longer do, C-D still does not: A-B and B-C, 2 of 6
    at_five = meta_eval.system_pairwise_accuracy("BLEU", corpus, external, epsilon=5.0)
    assert at_five.value == pytest.approx(2 / 6)
    # epsilon 10 ties all: B-C alone agrees, 1 of 6; so the best is no tie at all
    found = meta_eval.system_tie_calibration("BLEU", corpus, external)
    assert list(found.thresholds) == [0.0, 5.0, 10.0]
    assert list(found.values) == pytest.approx([3 / 6, 2 / 6, 1 / 6])
    assert (found.best.value, found.best.epsilon, found.best.calibrated) == (3 / 6, 0.0, True)


def test_item_grouping_by_hand():
    # segment 1: A 0.9/h 2, B 0.5/h 1, C 0.5/h 1 -> AB, AC agree, BC tied in both: 3 of 3;
    # segment 2: A 0.1/h 1, B 0.2/h NaN, C 0.3/h 2 -> only AC, agree: 1 of 1;
    # segment 3: A only rated: left out. Mean over the 2 segments: 1.0
    metric = {"A": [0.9, 0.1, 0.4], "B": [0.5, 0.2, 0.6], "C": [0.5, 0.3, 0.6]}
    human = {"A": [2, 1, 1], "B": [1, N, N], "C": [1, 2, N]}
    found = meta_eval.segment_pairwise_accuracy("m", metric, human, grouping="item")
    assert (found.value, found.pairs, found.groups) == (1.0, 4, 2)
    # no grouping: the 6 rated points pooled, 15 pairs, counted by the brute force of this file
    pooled = meta_eval.segment_pairwise_accuracy("m", metric, human, grouping="none")
    assert pooled.value == pytest.approx(_brute(_brute_rows(list(metric.values()),
                                                            list(human.values()), "none"),
                                                "acc_eq", 0.0))
    assert pooled.pairs == 15


def test_lower_is_better_is_turned_around():
    metric = {"A": [1.0, 3.0], "B": [2.0, 1.0], "C": [0.5, 2.0]}
    human = {"A": [5.0, 1.0], "B": [2.0, 4.0], "C": [6.0, 2.0]}
    penalties = {name: [-v for v in values] for name, values in human.items()}
    plain = meta_eval.segment_tie_calibration("m", metric, human, grouping="none").best
    flipped = meta_eval.segment_tie_calibration(
        "m", {k: [-v for v in vs] for k, vs in metric.items()}, penalties, grouping="none",
        metric_higher_is_better=False, human_higher_is_better=False).best
    assert flipped == plain
    against = meta_eval.segment_pairwise_accuracy("m", metric, penalties, grouping="none")
    turned = meta_eval.segment_pairwise_accuracy("m", metric, penalties, grouping="none",
                                                 human_higher_is_better=False)
    assert turned.value != against.value
    assert turned.value == meta_eval.segment_pairwise_accuracy("m", metric, human,
                                                               grouping="none").value


scores = st.lists(st.lists(st.one_of(st.integers(0, 5), st.just(None)), min_size=3, max_size=3),
                  min_size=2, max_size=5)


@settings(max_examples=150, deadline=None)
@given(scores, st.data(), st.sampled_from(["none", "item", "system"]),
       st.sampled_from(["acc_eq", "tau_eq"]))
def test_calibration_is_the_first_maximum_over_every_candidate(human, data, grouping,
                                                              statistic):
    metric = data.draw(st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3),
                                min_size=len(human), max_size=len(human)))
    metric = [[v * 0.1 + 0.05 * (h or 0) for v, h in zip(row, hs, strict=True)]
              for row, hs in zip(metric, human, strict=True)]
    human = [[N if v is None else v for v in row] for row in human]
    rows = _brute_rows(metric, human, grouping)
    if not rows:
        with pytest.raises(InputError, match="nothing to compare"):
            meta_eval.segment_tie_calibration("m", _by_system(metric), _by_system(human),
                                              grouping=grouping)
        return
    found = meta_eval.segment_tie_calibration("m", _by_system(metric), _by_system(human),
                                              statistic=statistic, grouping=grouping)
    candidates = sorted({0.0} | {abs(x[i] - x[j]) for x, _ in rows
                                 for i in range(len(x)) for j in range(i + 1, len(x))})
    values = [_brute(rows, statistic, epsilon) for epsilon in candidates]
    assert list(found.thresholds) == candidates
    assert list(found.values) == pytest.approx(values, abs=1e-12)
    best = max(values)
    first = next(i for i, v in enumerate(values) if v > best - 1e-12)
    assert found.best.epsilon == candidates[first]
    fixed = meta_eval.segment_pairwise_accuracy("m", _by_system(metric), _by_system(human),
                                                statistic=statistic, grouping=grouping,
                                                epsilon=found.best.epsilon)
    assert fixed.value == pytest.approx(found.best.value, abs=1e-12)
    assert (fixed.pairs, fixed.groups) == (found.best.pairs, found.best.groups) == \
        (sum(len(x) * (len(x) - 1) // 2 for x, _ in rows), len(rows))


def test_large_group_curve_equals_counts_at_each_epsilon():
    # 1,450 rated points pooled (1,050,525 pairs; groups over 1,000 points are enumerated point by
    # point): the search's curve against pair_counts (checked pair by pair in
    # test_correlation.py) at the best and at evenly spread candidates
    rng = np.random.default_rng(7)
    human = rng.integers(0, 5, (3, 500)).astype(float)
    metric = human + rng.integers(0, 40, (3, 500)) / 8
    human[0, :50] = N
    found = meta_eval.segment_tie_calibration("m", _by_system(metric), _by_system(human),
                                              statistic="tau_eq", grouping="none")
    assert found.best.pairs == 1450 * 1449 // 2
    picks = {int(found.thresholds.tolist().index(found.best.epsilon)),
             *np.linspace(0, len(found.thresholds) - 1, 12).astype(int).tolist()}
    for index in sorted(picks):
        fixed = meta_eval.segment_pairwise_accuracy(
            "m", _by_system(metric), _by_system(human), statistic="tau_eq", grouping="none",
            epsilon=float(found.thresholds[index]))
        assert fixed.value == pytest.approx(found.values[index], abs=1e-12)
    assert found.best.value == pytest.approx(max(found.values), abs=0)


@pytest.fixture(scope="module")
def mqm_sample():
    refs = [(MQM_DIR / f"newstest2021.en-de.ref.{k}.de").read_text("utf-8").split("\n")[:-1]
            for k in ("A", "C", "D")]
    names = ["Facebook-AI", "NVIDIA-NeMo", "Online-W", "VolcTrans-GLAT"]
    systems = {name: (MQM_DIR / f"newstest2021.en-de.hyp.{name}.de").read_text("utf-8")
               .split("\n")[:-1] for name in names}
    mqm = match_scores(read_scores(MQM_DIR / "mqm_newstest2021_ende.avg_seg_scores.tsv",
                                    n_segments=1002), names, {"Nemo": "NVIDIA-NeMo"}).scores
    chrf = {name: np.array([bleu.sentence_chrf(h, [r[i] for r in refs]).score
                            for i, h in enumerate(hyps)]) for name, hyps in systems.items()}
    corpus = {name: bleu.corpus_bleu(hyps, refs).score for name, hyps in systems.items()}
    return chrf, corpus, mqm.by_system()


def test_mqm_sample_item_grouping_equals_every_pair_looked_at(mqm_sample):
    chrf, corpus, external = mqm_sample
    found = meta_eval.segment_tie_calibration("chrF", chrf, external, grouping="item")
    rows = _brute_rows(list(chrf.values()), list(external.values()), "item")
    assert (found.best.groups, found.best.pairs) == (len(rows), 6 * len(rows))
    assert found.best.value == pytest.approx(_brute(rows, "acc_eq", found.best.epsilon),
                                             abs=1e-12)
    untied = meta_eval.segment_pairwise_accuracy("chrF", chrf, external, grouping="item")
    assert untied.value == pytest.approx(_brute(rows, "acc_eq", 0.0), abs=1e-12)
    assert found.best.value >= untied.value
    # system level, four systems: six pairs of corpus BLEU against mean MQM, looked at one by one
    means = {name: float(np.nanmean(values)) for name, values in external.items()}
    names = list(corpus)
    agreed = [(corpus[a] > corpus[b]) == (means[a] > means[b])
              for i, a in enumerate(names) for b in names[i + 1:]]
    system = meta_eval.system_pairwise_accuracy("BLEU", corpus, external)
    assert (system.value, system.pairs) == (sum(agreed) / 6, 6)
    table = meta_eval.meta_evaluation_table([found.best, untied, system])
    assert list(table["level"]) == ["segment", "segment", "system"]
    assert list(table["calibrated"]) == [True, False, False]


def test_clear_errors():
    with pytest.raises(InputError, match=r"at least 2 systems.*found 1: A"):
        meta_eval.system_pairwise_accuracy("BLEU", {"A": 1.0, "B": 2.0}, {"A": [1.0], "B": [N]})
    with pytest.raises(InputError, match="No system has both"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1.0]}, {"B": [1.0]})
    with pytest.raises(InputError, match="B: 3 m scores and 2 external"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1, 2], "B": [1, 2, 3]},
                                            {"A": [1, 2], "B": [1, 2]})
    with pytest.raises(InputError, match="No segment has two systems"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1, 2], "B": [1, 2]},
                                            {"A": [1, N], "B": [N, 2]})
    with pytest.raises(InputError, match="Unknown grouping 'sys'"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1, 2]}, {"A": [1, 2]}, grouping="sys")
    with pytest.raises(InputError, match="Unknown statistic"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1, 2]}, {"A": [1, 2]}, statistic="tau")
    with pytest.raises(InputError, match="Unknown Kendall variant"):
        meta_eval.kendall_variant([1, 2], [1, 2], "c")
    with pytest.raises(InputError, match="epsilon must be 0 or more"):
        meta_eval.segment_pairwise_accuracy("m", {"A": [1, 2]}, {"A": [1, 2]}, epsilon=-1)
    with pytest.raises(InputError, match=r"every pair: 45 here, more than 10\."):
        meta_eval.segment_tie_calibration("m", {"A": list(range(10))}, {"A": list(range(10))},
                                          grouping="none", max_pairs=10)

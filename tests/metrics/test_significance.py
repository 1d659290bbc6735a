"""Paired bootstrap, approximate randomization and bootstrap CIs against sacrebleu 2.6.

The oracle is sacrebleu itself: its ``PairedTest`` and ``corpus_score(n_bootstrap=)`` called here
on WMT21 en-de (4 systems, 3 references; tests/data's first 100 segments, and the whole set in
the full sweep), and the recorded paired_bs / paired_ar / bleu_bootstrap_ci cases of
tests/data/sacrebleu_cases. With the same seed, scores, p-values, means and CIs must be equal
(==, as the CLI's JSON prints them in full): that needs sacrebleu's float32 arithmetic on
resamples (scoring them in float64 moves the TED CIs by about 4e-7), the math module's log and
exp (numpy's may differ in the last bit), and for a single system's interval the exact
``statistics.mean`` sacrebleu takes there.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from functools import cache
from typing import Any

import numpy as np
import pytest
from conftest import (
    REPO_DATA,
    SHARED_DATA,
    case_param,
    read_lines,
    sacrebleu_cases,
    ted_lines,
    wmt17_case_data,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.significance import PairedTest, _bootstrap_resample

import bleu
from bleu.errors import InputError, LengthMismatchError, UnknownOptionError
from bleu.evaluation import registry
from bleu.metrics import significance
from bleu.metrics.bleu.score import BLEUOptions, BLEUScorer
from bleu.metrics.significance import draws

#: sacrebleu's TER searches each hypothesis-reference pair once per session (conftest)
pytestmark = pytest.mark.usefixtures("sacrebleu_ter_once")

SYSTEMS = ("Facebook-AI", "Online-W", "UEdin", "VolcTrans-GLAT")
OUR_VERSION = f"bleu-explorer-{bleu.__version__}"


@cache
def _wmt21(full: bool) -> tuple[dict[str, list[str]], list[list[str]]]:
    folder = (SHARED_DATA if full else REPO_DATA) / "wmt21_newstest2021_en-de"
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    return {name: read_lines(folder / f"newstest2021.en-de.hyp.{name}.de")
            for name in SYSTEMS}, refs


def _subset(n_lines: int | None) -> tuple[dict[str, list[str]], list[list[str]]]:
    """The first ``n_lines`` segments (at most 100: tests/data's cut); None: the whole set."""
    systems, refs = _wmt21(n_lines is None)
    return ({name: hyps[:n_lines] for name, hyps in systems.items()},
            [ref[:n_lines] for ref in refs])


def _sacrebleu_paired(systems: dict[str, list[str]], refs: list[list[str]], test_type: str,
                      n_samples: int, n_ar_confidence: int = -1, **options: Any,
                      ) -> tuple[str, list[tuple[str, Any]]]:
    """sacrebleu's signature and (name, Result) rows for a paired test, baseline first."""
    metric = SacreBLEU(references=refs, **options)
    signatures, scores = PairedTest(list(systems.items()), {"BLEU": metric}, references=None,
                                    test_type=test_type, n_samples=n_samples,
                                    n_ar_confidence=n_ar_confidence)()
    return str(signatures["BLEU"]), list(zip(scores["System"], scores["BLEU"], strict=True))


def _assert_same(ours: dict[str, bleu.SignificanceResult], expected: list[tuple[str, Any]],
                 ) -> None:
    assert list(ours) == [name for name, _ in expected]
    for name, result in expected:
        mine = ours[name]
        assert mine.name == name
        assert mine.score == result.score, name
        for field in ("p_value", "mean", "ci"):
            theirs, value = getattr(result, field), getattr(mine, field)
            if theirs is None:
                assert value is None, (name, field)
            else:
                assert value == float(theirs), (name, field)


def _assert_signature(ours: str, theirs: str) -> None:
    assert OUR_VERSION in ours
    assert ours.replace(OUR_VERSION, "2.6.0") == theirs


@pytest.fixture(autouse=True)
def _sacrebleu_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """sacrebleu reads its seed from the environment: pin it to the default for every test."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


OPTION_SETS = [
    pytest.param({}, id="default"),
    pytest.param({"lowercase": True, "tokenize": "intl"}, id="lc-intl"),
    pytest.param({"smooth_method": "floor"}, id="floor"),
    pytest.param({"smooth_method": "floor", "smooth_value": 0.3}, id="floor-0.3"),
    pytest.param({"smooth_method": "add-k", "smooth_value": 0.7}, id="add-k-0.7"),
    pytest.param({"smooth_method": "none"}, id="none"),
    pytest.param({"effective_order": True}, id="effective"),
    pytest.param({"max_ngram_order": 2, "tokenize": "char"}, id="order2-char"),
]


# ---------------------------------------------------------------- parity with PairedTest


@pytest.mark.parametrize("n_lines", [6, 100])
@pytest.mark.parametrize("options", OPTION_SETS)
def test_paired_bootstrap_equals_sacrebleu(options: dict[str, Any], n_lines: int) -> None:
    # 6 segments: many resamples have no 3- or 4-gram match, so every smoothing branch runs.
    systems, refs = _subset(n_lines)
    signature, expected = _sacrebleu_paired(systems, refs, "bs", 1000, **options)
    _assert_same(bleu.paired_bootstrap(systems, refs, **options), expected)
    stats_options = BLEUOptions(**options)
    _assert_signature(bleu.significance_signature(stats_options, 3, "bs", 1000, 12345), signature)


# A fractional add-k is left out here: see test_ar_with_fractional_add_k_uses_k_throughout.
AR_OPTION_SETS = [*OPTION_SETS[:4], pytest.param({"smooth_method": "add-k", "smooth_value": 2},
                                                 id="add-k-2"), *OPTION_SETS[5:]]
AR_CASES = [pytest.param(100, options.values[0], n_confidence,
                         id=f"100-{options.id}-{n_confidence}")
            for options in (AR_OPTION_SETS[0], AR_OPTION_SETS[4], AR_OPTION_SETS[6])
            for n_confidence in (-1, 0, 300)]
# 6 segments: 64 distinct selections, so many trials tie with the real difference exactly.
AR_CASES += [pytest.param(6, options.values[0], 0, id=f"6-{options.id}-0")
             for options in AR_OPTION_SETS]


@pytest.mark.parametrize(("n_lines", "options", "n_confidence"), AR_CASES)
def test_paired_ar_equals_sacrebleu(n_lines: int, options: dict[str, Any],
                                    n_confidence: int) -> None:
    systems, refs = _subset(n_lines)
    signature, expected = _sacrebleu_paired(systems, refs, "ar", 2000, n_confidence, **options)
    ours = bleu.paired_approximate_randomization(systems, refs, n_samples=2000,
                                                 n_confidence=n_confidence, **options)
    _assert_same(ours, expected)
    sig = bleu.significance_signature(BLEUOptions(**options), 3, "ar", 2000, 12345, n_confidence)
    _assert_signature(sig, signature)


def test_ar_with_fractional_add_k_uses_k_throughout() -> None:
    """Deliberate difference: sacrebleu's AR trials score int64 sums and add k in place there,
    which rounds k down, while its real scores add k; ours add k everywhere."""
    row = [40, 42, 30, 18, 9, 4, 40, 39, 38, 37]
    quirky = SacreBLEU(smooth_method="add-k", smooth_value=0.7)
    as_int64 = quirky._compute_score_from_stats(np.array(row, dtype=np.int64)).score
    as_list = quirky._compute_score_from_stats(list(row)).score
    with_zero = SacreBLEU(smooth_method="add-k", smooth_value=0)._compute_score_from_stats(row)
    assert as_int64 == with_zero.score != as_list
    # Two systems that differ in one segment: every trial is the real pair or its swap, so no
    # trial differs by more than the real difference and p is 1 / (N + 1).
    systems, refs = _subset(6)
    pair = {"a": systems["UEdin"], "b": [*systems["UEdin"][:5], systems["Online-W"][5]]}
    options = {"smooth_method": "add-k", "smooth_value": 0.7}
    ours = bleu.paired_approximate_randomization(pair, refs, n_samples=500, **options)
    assert ours["a"].score != ours["b"].score
    assert ours["b"].p_value == 1 / 501
    _, theirs = _sacrebleu_paired(pair, refs, "ar", 500, **options)
    assert theirs[1][1].p_value != 1 / 501
    assert ours["b"].score == pytest.approx(theirs[1][1].score, rel=0, abs=1e-9)


@pytest.mark.full_data
def test_full_wmt21_bootstrap_and_ar_equal_sacrebleu() -> None:
    systems, refs = _subset(None)
    assert len(refs[0]) == 1002
    _, expected = _sacrebleu_paired(systems, refs, "bs", 1000)
    _assert_same(bleu.paired_bootstrap(systems, refs), expected)
    _, expected = _sacrebleu_paired(systems, refs, "ar", 3000, 0)
    _assert_same(bleu.paired_approximate_randomization(systems, refs, n_samples=3000,
                                                       n_confidence=0), expected)


@pytest.mark.parametrize("seed", ["7", "0", "none"])
def test_seed_from_environment_equals_ours(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    systems, refs = _subset(80)
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    signature, expected = _sacrebleu_paired(systems, refs, "bs", 500)
    ours_seed = None if seed == "none" else int(seed)
    _assert_signature(bleu.significance_signature(BLEUOptions(), 3, "bs", 500, ours_seed),
                      signature)
    if seed != "7":
        # sacrebleu draws fresh entropy for every system when the seed is 0 or None, so only the
        # deterministic parts (scores and the baseline's row under seed 0) can be compared.
        ours = bleu.paired_bootstrap(systems, refs, n_samples=500, seed=ours_seed)
        for name, result in expected:
            assert ours[name].score == pytest.approx(result.score, rel=0, abs=1e-9)
        if seed == "0":
            assert ours[expected[0][0]].mean == expected[0][1].mean
        return
    _assert_same(bleu.paired_bootstrap(systems, refs, n_samples=500, seed=7), expected)
    _, expected = _sacrebleu_paired(systems, refs, "ar", 1000, 200)
    _assert_same(bleu.paired_approximate_randomization(systems, refs, n_samples=1000,
                                                       n_confidence=200, seed=7), expected)


def test_named_baseline_goes_first_and_equals_sacrebleu_with_it_first() -> None:
    systems, refs = _subset(100)
    reordered = {"UEdin": systems["UEdin"], **{k: v for k, v in systems.items() if k != "UEdin"}}
    _, expected = _sacrebleu_paired(reordered, refs, "bs", 1000)
    _assert_same(bleu.paired_bootstrap(systems, refs, baseline="UEdin"), expected)
    _, expected = _sacrebleu_paired(reordered, refs, "ar", 1000)
    _assert_same(bleu.paired_approximate_randomization(systems, refs, baseline="UEdin",
                                                       n_samples=1000), expected)


# ------------------------------------------------------------------- recorded cases


def _case_systems(case: dict[str, Any]) -> tuple[dict[str, list[str]], list[list[str]]]:
    names = [row["system"] for row in case["expected"]["results"]]
    if "data_file" in case:
        data = wmt17_case_data()
        return {name: data["systems"][name] for name in names}, [data["references"]]
    return {name: ted_lines(name) for name in names}, [ted_lines("ref")]


@pytest.mark.parametrize("case", [case_param(c) for c in sacrebleu_cases()
                                  if c["kind"] in ("paired_bs", "paired_ar")])
def test_recorded_paired_cases(case: dict[str, Any]) -> None:
    systems, refs = _case_systems(case)
    options = {"tokenize": "none"} if "tokenize='none'" in case["call"] else {}
    if case["kind"] == "paired_bs":
        ours = bleu.paired_bootstrap(systems, refs, n_samples=case["n_samples"], **options)
    else:
        ours = bleu.paired_approximate_randomization(systems, refs, n_samples=case["n_samples"],
                                                     **options)
    assert next(iter(ours)) == case["baseline"]
    rows = case["expected"]["results"]
    assert list(ours) == [row["system"] for row in rows]
    for row in rows:
        mine = ours[row["system"]]
        assert mine.score == pytest.approx(row["score"], rel=0, abs=1e-9)
        for field in ("p_value", "mean", "ci"):
            if row[field] is None:
                assert getattr(mine, field) is None
            else:
                assert getattr(mine, field) == row[field]
    method = "bs" if case["kind"] == "paired_bs" else "ar"
    sig = bleu.significance_signature(BLEUOptions(**options), 1, method, case["n_samples"], 12345)
    _assert_signature(sig, case["expected"]["signature"])


@pytest.mark.parametrize("case", [case_param(c) for c in sacrebleu_cases()
                                  if c["kind"] == "bleu_bootstrap_ci"])
def test_recorded_bootstrap_ci_cases(case: dict[str, Any]) -> None:
    ours = bleu.bootstrap_ci(case["hyps"], case["refs"], n_samples=1000)
    expected = case["expected"]
    assert ours.score == pytest.approx(expected["score"], rel=0, abs=1e-9)
    assert ours.mean == expected["mean"]
    assert ours.ci == expected["ci"]
    assert ours.p_value is None
    sig = bleu.significance_signature(BLEUOptions(), 2, "bs", 1000, 12345)
    _assert_signature(sig, expected["signature"])


# -------------------------------------------------------------- confidence intervals


@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[3], OPTION_SETS[6]])
def test_bootstrap_ci_equals_sacrebleu_corpus_score(options: dict[str, Any]) -> None:
    systems, refs = _subset(100)
    hyps = systems["UEdin"]
    theirs = SacreBLEU(**options).corpus_score(hyps, refs, n_bootstrap=700)
    ours = bleu.bootstrap_ci(hyps, refs, n_samples=700, **options)
    assert ours.score == pytest.approx(theirs.score, rel=0, abs=1e-9)
    assert ours.mean == theirs._mean
    assert ours.ci == theirs._ci


@pytest.mark.full_data
def test_ci_of_a_bucket_equals_sacrebleu_on_the_bucket_lines() -> None:
    systems, refs = _subset(None)
    hyps = systems["Online-W"]
    metric = bleu.BLEU(references=refs)
    stats = metric.segment_stats(hyps)
    long_rows = stats[:, 0] >= 30  # a length bucket, as a boolean mask
    chosen = np.flatnonzero(long_rows)
    assert 50 < len(chosen) < len(hyps)
    theirs = SacreBLEU().corpus_score([hyps[i] for i in chosen],
                                      [[ref[i] for i in chosen] for ref in refs], n_bootstrap=1000)
    for rows in (long_rows, chosen, chosen.tolist()):
        ours = bleu.bootstrap_ci_from_stats(stats, metric.options, rows=rows)
        assert ours.score == pytest.approx(theirs.score, rel=0, abs=1e-9)
        assert ours.mean == theirs._mean
        assert ours.ci == theirs._ci


# ------------------------------------------------------------ resample arithmetic


@st.composite
def _summed_stats(draw: st.DrawFn) -> tuple[list[int], int]:
    order = draw(st.integers(1, 4))
    sys_len = draw(st.integers(0, 3000))
    totals = [max(sys_len - n, 0) for n in range(order)]
    matches = [draw(st.integers(0, t)) for t in totals]
    for n in range(1, order):  # fewer n-gram matches than (n-1)-gram matches, as in real text
        matches[n] = min(matches[n], matches[n - 1])
    ref_len = draw(st.integers(0, 3100))
    return [sys_len, ref_len, *matches, *totals], order


@settings(max_examples=200, deadline=None)
@given(_summed_stats(), st.sampled_from(["exp", "floor", "add-k", "none"]),
       st.sampled_from([None, 0.01, 0.3, 1, 2.5]), st.booleans())
def test_resample_scores_equal_sacrebleus_float32_scoring(
    row: tuple[list[int], int], method: str, value: float | None, effective: bool,
) -> None:
    stats, order = row
    value = None if method in ("exp", "none") else value
    metric = SacreBLEU(smooth_method=method, smooth_value=value, max_ngram_order=order,
                       effective_order=effective)
    # sacrebleu scores each resample from its float32 sum, exactly like this:
    theirs = metric._compute_score_from_stats(np.array(stats, dtype="float32")).score
    options = BLEUOptions(smooth_method=method, smooth_value=value, max_ngram_order=order,
                          effective_order=effective)
    ours = bleu.scores_from_stats(np.array([stats]), options, float32=True)[0]
    assert ours == pytest.approx(theirs, rel=1e-13, abs=1e-13)


@pytest.mark.parametrize("n_segments", [1, 5, 7, 3000])
def test_block_draws_equal_sacrebleus_one_call_draws(n_segments: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn block by block (a few rows at a time here), the AR selectors, then the resample
    indices, are exactly sacrebleu's one-call ``integers(2, dtype=bool)`` and ``choice``."""
    monkeypatch.setattr(draws, "CHUNK_CELLS", 3 * n_segments)
    ours_rng, theirs_rng = np.random.default_rng(3), np.random.default_rng(3)
    selectors = np.concatenate(list(draws.selector_blocks(ours_rng, n_segments, 101)))
    np.testing.assert_array_equal(selectors, theirs_rng.integers(2, size=(101, n_segments),
                                                                 dtype=bool))
    indices = np.concatenate(list(draws.draw_blocks(ours_rng, n_segments, 301)))
    np.testing.assert_array_equal(indices, theirs_rng.choice(n_segments, size=(301, n_segments),
                                                             replace=True))


def test_small_blocks_give_sacrebleus_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory is bounded by blocks of resamples; the numbers must not depend on the block."""
    monkeypatch.setattr(draws, "CHUNK_CELLS", 7 * 100)
    systems, refs = _subset(100)
    _, expected = _sacrebleu_paired(systems, refs, "bs", 300)
    _assert_same(bleu.paired_bootstrap(systems, refs, n_samples=300), expected)
    _, expected = _sacrebleu_paired(systems, refs, "ar", 500, 200)
    _assert_same(bleu.paired_approximate_randomization(systems, refs, n_samples=500,
                                                       n_confidence=200), expected)


def test_int32_draws_line_up_with_choice_under_frequent_rejection() -> None:
    # _draw_indices relies on this: with n = 2**30 + 1, Lemire's method rejects about 1 draw in
    # 4, so the rejected 32-bit draws must line up too.
    n = 2**30 + 1
    ours = np.random.default_rng(11).integers(0, n, size=(40, 25), dtype=np.int32)
    theirs = np.random.default_rng(11).choice(n, size=(40, 25), replace=True)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("scale", [1, 10_000_000])
def test_resampled_sums_are_exact_integers(scale: int) -> None:
    # scale 1 takes the float32 product, 1e7 (sums beyond 2**24) the float64 one.
    rng = np.random.default_rng(5)
    stats = rng.integers(0, 40, size=(300, 10)) * scale
    indices = rng.integers(0, 300, size=(50, 300))
    resampler = draws.Resampler([stats], BLEUScorer(BLEUOptions(max_ngram_order=4)))
    np.testing.assert_array_equal(resampler.sums(indices), stats[indices].sum(axis=1))


def test_resampled_float_sums_are_numpys_float32_sums_as_sacrebleu_takes_them() -> None:
    """Statistics that are not counts (TER's average reference lengths) are summed in float32,
    as numpy sums sacrebleu's ``np.array(stats, dtype="float32")[idxs][k]`` along axis 0."""
    rng = np.random.default_rng(6)
    stats = np.stack([rng.integers(0, 30, 500), rng.integers(1, 90, 500) / 3], axis=1)
    indices = rng.integers(0, 500, size=(40, 500))
    scorer = _FloatScorer()
    ours = draws.Resampler([stats], scorer).sums(indices)
    theirs = np.array(stats, dtype="float32")[indices]
    for k in range(len(indices)):
        np.testing.assert_array_equal(ours[k], theirs[k].sum(0))


class _FloatScorer:
    """A stand-in metric with two float statistics per segment (as TER's)."""

    name, higher_is_better, integer_stats, columns = "float", True, False, 2
    float32_resamples, rated_column = True, None

    def scores(self, sums: np.ndarray) -> np.ndarray:
        return sums[:, 0] / sums[:, 1]

    resample_scores = scores

    def score(self, sums: np.ndarray) -> float:
        return float(sums[0] / sums[1])


# ------------------------------------------------------- from stats, pairwise, holm


@cache
def _stats() -> tuple[dict[str, np.ndarray], BLEUOptions]:
    systems, refs = _subset(100)
    metric = bleu.BLEU(references=refs)
    return {name: metric.segment_stats(hyps) for name, hyps in systems.items()}, metric.options


def test_from_stats_equals_text_api() -> None:
    systems, refs = _subset(100)
    stats, options = _stats()
    assert bleu.paired_bootstrap_from_stats(stats, options) == bleu.paired_bootstrap(systems, refs)
    assert (bleu.paired_ar_from_stats(stats, options, n_samples=500, n_confidence=100)
            == bleu.paired_approximate_randomization(systems, refs, n_samples=500,
                                                     n_confidence=100))


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_pairwise_entries_equal_paired_tests_with_each_baseline(method: str) -> None:
    stats, options = _stats()
    n = 700
    comparison = bleu.pairwise_significance(stats, options, method=method, n_samples=n)
    assert comparison.names == SYSTEMS
    assert comparison.method == method
    test = bleu.paired_bootstrap_from_stats if method == "bs" else bleu.paired_ar_from_stats
    for a, base in enumerate(SYSTEMS):
        assert math.isnan(comparison.p_values[a, a]) and math.isnan(comparison.adjusted[a, a])
        results = test(stats, options, baseline=base, n_samples=n)
        for b, other in enumerate(SYSTEMS):
            if a != b:
                assert comparison.p_values[a, b] == results[other].p_value
    upper = np.triu_indices(len(SYSTEMS), 1)
    np.testing.assert_array_equal(comparison.adjusted[upper],
                                  significance.holm_bonferroni(comparison.p_values[upper]))


def test_pairwise_default_samples_are_sacrebleus() -> None:
    stats, options = _stats()
    two = dict(list(stats.items())[:2])
    comparison = bleu.pairwise_significance(two, options, method="ar")
    names = list(two)
    expected = bleu.paired_ar_from_stats(two, options)[names[1]].p_value
    assert comparison.p_values[0, 1] == expected
    assert round(expected * 10001) == pytest.approx(expected * 10001)  # (c + 1) / 10001


def test_holm_bonferroni_by_hand() -> None:
    # sorted: 0.01 * 4 = 0.04; 0.02 * 3 = 0.06; 0.03 * 2 = 0.06; 0.5 * 1 = 0.5
    p = [0.03, 0.5, 0.01, 0.02]
    np.testing.assert_allclose(significance.holm_bonferroni(p), [0.06, 0.5, 0.04, 0.06])
    # the step-down maximum: 0.04 * 2 = 0.08 < 0.03 * 3 = 0.09, so 0.04 gets 0.09
    np.testing.assert_allclose(significance.holm_bonferroni([0.04, 0.03, 0.6]), [0.09, 0.09, 0.6])
    # capped at 1: 0.6 * 2 = 1.2 -> 1, and 0.7 * 1 = 0.7 is raised to the running maximum 1
    np.testing.assert_allclose(significance.holm_bonferroni([0.7, 0.6]), [1.0, 1.0])


def test_identical_systems_give_the_smallest_p_count() -> None:
    # Identical statistics: every resample difference is 0, so no trial exceeds the real 0.
    stats, options = _stats()
    same = {"a": stats["UEdin"], "b": stats["UEdin"].copy(), "c": stats["Online-W"]}
    for seed in (12345, None):  # seed None: one fresh seed shared by all, so still paired
        bs = bleu.paired_bootstrap_from_stats(same, options, n_samples=300, seed=seed)
        assert bs["b"].p_value == 1 / 301 and bs["b"].mean == bs["a"].mean
        ar = bleu.paired_ar_from_stats(same, options, n_samples=300, seed=seed)
        assert ar["b"].p_value == 1 / 301


# --------------------------------------------------------------------- progress


@pytest.mark.parametrize("run", ["bs", "ar", "text", "pairwise"])
def test_progress_is_reported_per_chunk_and_ends_at_one(run: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(draws, "CHUNK_CELLS", 100 * 100)  # 100 resamples per chunk
    stats, options = _stats()
    seen: list[float] = []
    if run == "bs":
        bleu.paired_bootstrap_from_stats(stats, options, progress=seen.append)
    elif run == "ar":
        bleu.paired_ar_from_stats(stats, options, n_samples=1000, n_confidence=0,
                                  progress=seen.append)
    elif run == "text":
        systems, refs = _subset(100)
        bleu.paired_bootstrap(systems, refs, progress=seen.append)
    else:
        bleu.pairwise_significance(stats, options, progress=seen.append)
    assert seen[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in seen)
    assert seen == sorted(seen)
    assert 5 <= len(seen) <= 40  # per chunk, never per resample


# ------------------------------------------------------------------ results, errors


def test_results_are_plain_floats_and_serialize_to_json() -> None:
    stats, options = _stats()
    results = bleu.paired_bootstrap_from_stats(stats, options, n_samples=200)
    text = json.dumps([dataclasses.asdict(r) for r in results.values()])
    assert json.loads(text)[1]["name"] == SYSTEMS[1]
    for result in results.values():
        assert all(type(v) is float for v in (result.score, result.mean, result.ci))
    with pytest.raises(dataclasses.FrozenInstanceError):
        results[SYSTEMS[0]].score = 1.0  # type: ignore[misc]


def test_bad_input_raises_clear_errors() -> None:
    systems, refs = _subset(20)
    stats, options = _stats()
    one = {"UEdin": systems["UEdin"]}
    with pytest.raises(significance.TooFewSystemsError, match=r"at least 2 systems.*got 1"):
        bleu.paired_bootstrap(one, refs)
    with pytest.raises(significance.TooFewSystemsError, match="got 0"):
        bleu.paired_ar_from_stats({}, options)
    with pytest.raises(significance.TooFewSystemsError, match="dict"):
        bleu.pairwise_significance([stats["UEdin"]], options)  # type: ignore[arg-type]
    short = {**systems, "UEdin": systems["UEdin"][:19]}
    with pytest.raises(LengthMismatchError, match=r"'UEdin' has 19 segments.*references have 20"):
        bleu.paired_approximate_randomization(short, refs)
    cut = {**stats, "Online-W": stats["Online-W"][:10]}
    with pytest.raises(LengthMismatchError, match=r"'Online-W' has 10 segments.*has 100"):
        bleu.paired_bootstrap_from_stats(cut, options)
    for bad in (0, -5, 1.5, True):
        with pytest.raises(UnknownOptionError, match="n_samples must be an integer >= 1"):
            bleu.paired_bootstrap(systems, refs, n_samples=bad)
        with pytest.raises(UnknownOptionError, match="n_samples must be an integer >= 1"):
            bleu.bootstrap_ci_from_stats(stats["UEdin"], options, n_samples=bad)
    with pytest.raises(UnknownOptionError, match="baseline 'nope' is not one of the systems"):
        bleu.paired_bootstrap_from_stats(stats, options, baseline="nope")
    with pytest.raises(UnknownOptionError, match="n_confidence must be an integer"):
        bleu.paired_ar_from_stats(stats, options, n_confidence=0.5)  # type: ignore[arg-type]
    with pytest.raises(UnknownOptionError, match="Unknown method 'xx'"):
        bleu.pairwise_significance(stats, options, method="xx")
    with pytest.raises(significance.StatisticsShapeError, match=r"shape \(100, 6\)"):
        bleu.paired_bootstrap_from_stats({k: v[:, :6] for k, v in stats.items()}, options)
    with pytest.raises(significance.StatisticsShapeError, match="rows selects no segment"):
        bleu.bootstrap_ci_from_stats(stats["UEdin"], options, rows=[])
    with pytest.raises(significance.StatisticsShapeError, match=r"mask of shape \(3,\)"):
        bleu.bootstrap_ci_from_stats(stats["UEdin"], options, rows=np.ones(3, bool))
    with pytest.raises(UnknownOptionError, match="seed must be"):
        bleu.paired_bootstrap_from_stats(stats, options, seed=-1)
    for error in (significance.TooFewSystemsError, significance.StatisticsShapeError):
        assert issubclass(error, InputError)


# ------------------------------------------------------- chrF and TER through the same tests

SACRE_METRICS = {"chrF": lambda: SacreCHRF(), "chrF++": lambda: SacreCHRF(word_order=2),
                 "TER": lambda: SacreTER()}


@pytest.mark.parametrize("small_blocks", [False, True])
@pytest.mark.parametrize("name", list(SACRE_METRICS))
def test_other_metrics_paired_tests_equal_sacrebleu(name: str, small_blocks: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """One bootstrap and one AR for every metric: chrF's integer statistics and TER's float
    ones (averaged reference lengths: thirds here) give sacrebleu's p-values, means and CIs,
    whatever the block of resamples."""
    if small_blocks:
        monkeypatch.setattr(draws, "CHUNK_CELLS", 7 * 100)
    systems, refs = _subset(100)
    ours_metric = registry.get(name).make(refs)
    stats = {system: ours_metric.segment_stats(hyps) for system, hyps in systems.items()}
    for method, n, n_conf in (("bs", 300, -1), ("ar", 400, 150)):
        expected = _sacrebleu_paired_other(name, 100, method, n, n_conf,
                                           os.environ["SACREBLEU_SEED"])
        if method == "bs":
            ours = bleu.paired_bootstrap_from_stats(stats, ours_metric.scorer, n_samples=n)
        else:
            ours = bleu.paired_ar_from_stats(stats, ours_metric.scorer, n_samples=n,
                                             n_confidence=n_conf)
        _assert_same(ours, expected)


@cache
def _sacrebleu_paired_other(name: str, n_lines: int, method: str, n: int, n_conf: int,
                            seed: str) -> tuple[tuple[str, Any], ...]:
    """sacrebleu's PairedTest rows of a chrF or TER on the first ``n_lines`` segments, baseline
    first: once per session for these arguments (``seed`` is the SACREBLEU_SEED it reads), as
    the block size varies only our side."""
    assert os.environ["SACREBLEU_SEED"] == seed
    systems, refs = _subset(n_lines)
    sacre_metric = _with_refs(SACRE_METRICS[name](), refs)
    _, scores = PairedTest(list(systems.items()), {name: sacre_metric}, references=None,
                           test_type=method, n_samples=n, n_ar_confidence=n_conf)()
    key = next(k for k in scores if k != "System")
    return tuple(zip(scores["System"], scores[key], strict=True))


def _with_refs(metric: Any, refs: list[list[str]]) -> Any:
    """A sacrebleu metric like ``metric`` with the references cached (as its CLI builds it)."""
    if isinstance(metric, SacreTER):
        return SacreTER(references=refs)
    return SacreCHRF(word_order=metric.word_order, references=refs)


@pytest.mark.parametrize("options", [
    {}, {"smooth_method": "floor"}, {"smooth_method": "add-k", "smooth_value": 2},
    {"smooth_method": "none"}, {"effective_order": True}, {"lowercase": True},
    {"max_ngram_order": 2}, {"tokenize": "char"}])
def test_bleu_resample_scores_equal_sacrebleus_bit_for_bit(options: dict[str, Any]) -> None:
    """sacrebleu's own ``_bootstrap_resample`` (float32 sums, seed 12345) against our scorer of
    the same resamples' sums: equal to the last bit (logs and exps by the math module)."""
    systems, refs = _subset(100)
    hyps = systems["Online-W"]
    theirs = SacreBLEU(**options)
    stats = np.array(theirs._extract_corpus_statistics(hyps, refs), dtype=np.int64)
    _, expected = _bootstrap_resample(stats.tolist(), theirs, 300)
    indices = np.random.default_rng(12345).choice(len(stats), size=(300, len(stats)))
    ours = BLEUScorer(BLEUOptions(**options)).resample_scores(stats[indices].sum(axis=1))
    assert ours.tolist() == [score.score for score in expected]


@pytest.mark.parametrize("metric", ["chrF", "chrF++", "TER"])
def test_single_system_interval_of_every_metric_equals_sacrebleus(metric: str) -> None:
    """``corpus_score(n_bootstrap=)``'s mean is ``statistics.mean`` of float32 scores for chrF
    and TER (a float32 itself), not numpy's mean: equal, not merely close."""
    systems, refs = _subset(100)
    hyps = systems["UEdin"]
    theirs = {"chrF": SacreCHRF(), "chrF++": SacreCHRF(word_order=2), "TER": SacreTER()}[metric]
    expected = theirs.corpus_score(hyps, refs, n_bootstrap=500)
    ours = bleu.bootstrap_ci(hyps, refs, n_samples=500, metric=registry.get(metric).make())
    assert (ours.score, ours.mean, ours.ci) == (
        expected.score, float(expected._mean), float(expected._ci))

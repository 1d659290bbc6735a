"""bleu.explore.thresholds against the numbers MT-Thresholds publishes (Kocmi, Zouhar, Federmann,
Post 2024), read from github.com/kocmitom/MT-Thresholds at commit 2905992: the README's example
and the paper's table of thresholds (appendix/main_thresholds.tex), written out below."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu.errors import InputError
from bleu.explore import thresholds

LEVELS = (0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95)

# appendix/main_thresholds.tex: the difference each metric needs for each estimated accuracy
# ("-": never reached, None here); the rows in the table's order, named as the table names them.
TABLE = {
    "BLEU": ("bleu", 2, (0.27, 0.52, 0.78, 1.06, 1.39, 1.79, 2.34, 3.35, None, None)),
    "ChrF": ("chrf", 2, (0.14, 0.33, 0.54, 0.76, 1.00, 1.28, 1.63, 2.12, 3.05, None)),
    "spBLEU200": ("spBLEU200", 2, (0.25, 0.52, 0.82, 1.13, 1.49, 1.91, 2.46, 3.28, 5.57, None)),
    "Bleurt_default": ("bleurt-default", 2,
                       (0.23, 0.66, 1.11, 1.59, 2.11, 2.71, 3.43, 4.39, 5.98, None)),
    "Bleurt_20": ("bleurt-20", 2, (0.02, 0.17, 0.33, 0.49, 0.66, 0.85, 1.07, 1.35, 1.73, 2.44)),
    "Comet_20": ("comet20", 2, (0.08, 0.36, 0.65, 0.96, 1.29, 1.67, 2.10, 2.66, 3.45, 5.10)),
    "Comet_22": ("comet22", 2, (0.03, 0.10, 0.18, 0.26, 0.35, 0.45, 0.56, 0.71, 0.94, 1.53)),
    "Comet_21^QE": ("comet21qe", 3,
                    (0.003, 0.008, 0.013, 0.019, 0.025, 0.032, 0.041, 0.052, 0.073, None)),
    "CometKiwi_22^QE": ("cometkiwi22", 2,
                        (0.01, 0.08, 0.16, 0.24, 0.33, 0.42, 0.53, 0.67, 0.85, 1.18)),
    "xCOMET_XXL": ("xcomet-XXL", 2, (0.02, 0.19, 0.37, 0.56, 0.76, 0.98, 1.24, 1.55, 1.99, 2.74)),
    "xCOMET_XL": ("xcomet-XL", 2, (0.05, 0.19, 0.34, 0.50, 0.67, 0.86, 1.08, 1.37, 1.80, 2.82)),
    "spBLEU101": ("spBLEU101", 2, (0.29, 0.49, 0.71, 0.95, 1.24, 1.63, 2.26, None, None, None)),
    "CometKiwi_XXL^QE": ("cometkiwi-xxl", 2,
                         (0.06, 0.22, 0.39, 0.57, 0.77, 0.98, 1.24, 1.58, 2.08, 3.39)),
    "BertScore": ("bertscore", 2, (0.04, 0.12, 0.20, 0.29, 0.38, 0.49, 0.62, 0.80, 1.08, None)),
    "CometKiwi_XL^QE": ("cometkiwi23-xl-src", 2,
                        (0.04, 0.15, 0.26, 0.39, 0.52, 0.66, 0.84, 1.06, 1.40, 2.24)),
    "MetricX_Large^23": ("metricx-23-large", 2,
                         (0.01, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.09, 0.12, None)),
    "MetricX-QE_Large^23": ("metricx-23-qe-large", 2,
                            (0.00, 0.02, 0.03, 0.04, 0.06, 0.08, 0.10, 0.12, 0.16, 0.22)),
}


def test_readme_example_one_bleu_is_64_percent():
    # README.md and python-tool/README.md: "mt-thresholds bleu 1.00" -> "accuracy is 63.989%"
    found = thresholds.human_agreement("BLEU", 1.00)
    assert round(found.accuracy * 100, 3) == 63.989
    assert (found.metric, found.delta) == ("bleu", 1.0)
    assert "Navigating the Metrics Maze" in found.source and "MT-Thresholds" in found.source


def test_readme_example_chrf_for_the_same_accuracy_as_one_bleu():
    # README.md: "ChrF needs 0.710 difference for the same accuracy as BLEU"
    # (`mt-thresholds chrf 0.63989 --delta`; the README's Python line says 0.665, which the
    # package's own formula does not give: -ln(93.0 / 63.989 - 1) / 1.1143 = 0.710)
    accuracy = thresholds.human_agreement("BLEU", 1.00).accuracy
    assert round(thresholds.delta_for_accuracy("chrF", accuracy), 3) == 0.710


@pytest.mark.parametrize("row", sorted(TABLE))
def test_paper_table_of_thresholds(row):
    name, decimals, deltas = TABLE[row]
    assert set(TABLE[r][0] for r in TABLE) == set(thresholds.PARAMETERS)
    for level, published in zip(LEVELS, deltas, strict=True):
        found = thresholds.delta_for_accuracy(name, level)
        if published is None:
            assert found is None, (row, level, found)
        else:
            assert round(found, decimals) == published, (row, level, found)
            assert thresholds.human_agreement(name, found).accuracy == pytest.approx(level)


def test_every_source_name_is_known_under_its_own_name():
    for name in thresholds.PARAMETERS:
        assert thresholds.source_name(name) == name


@pytest.mark.parametrize(("ours", "source"), [
    ("BLEU", "bleu"), ("sacreBLEU", "bleu"), ("chrF", "chrf"), ("chrF2", "chrf"),
    ("Unbabel/wmt22-comet-da", "comet22"), ("COMET-22", "comet22"), ("wmt20-comet-da", "comet20"),
    ("Unbabel/XCOMET-XL", "xcomet-XL"), ("xCOMET-XXL", "xcomet-XXL"),
    ("Unbabel/wmt22-cometkiwi-da", "cometkiwi22"),
    ("Unbabel/wmt23-cometkiwi-da-xl", "cometkiwi23-xl-src"),
    ("Unbabel/wmt23-cometkiwi-da-xxl", "cometkiwi-xxl"), ("wmt21-comet-qe-da", "comet21qe"),
    ("lucadiliello/BLEURT-20", "bleurt-20"), ("BERTScore", "bertscore"),
    ("google/metricx-23-large-v2p0", "metricx-23-large"),
    ("google/metricx-23-qe-large-v2p0", "metricx-23-qe-large"), ("spBLEU-200", "spBLEU200"),
])
def test_names_used_in_score_files_and_model_ids(ours, source):
    assert thresholds.source_name(ours) == source
    assert thresholds.human_agreement(ours, 1.0).metric == source


@pytest.mark.parametrize("name", ["TER", "chrF++", "COMET", "xCOMET", "CometKiwi", "BLEURT",
                                  "MetricX", "MetricX-24", "MQM", "XCOMET-XL-QE", ""])
def test_unknown_or_ambiguous_metrics_have_no_estimate(name):
    assert thresholds.human_agreement(name, 1.0) is None
    assert thresholds.delta_for_accuracy(name, 0.7) is None


def test_sign_is_ignored_and_scale_reaches_the_source_scale():
    assert thresholds.human_agreement("MetricX-23-large", -0.04) == \
        thresholds.human_agreement("MetricX-23-large", 0.04)
    by_hundredths = thresholds.human_agreement("wmt22-comet-da", 0.0035, scale=100)
    assert by_hundredths.delta == pytest.approx(0.35)
    # the table: Comet_22 needs 0.35 for 70%
    assert by_hundredths.accuracy == pytest.approx(0.70, abs=0.005)


def test_the_fit_is_not_clamped_below_a_coin_toss():
    # a / (1 + e^0) = a / 2: 88.33 / 2 percent for BLEU at no difference
    assert thresholds.human_agreement("BLEU", 0).accuracy == pytest.approx(0.88333 / 2, abs=1e-5)


@given(st.sampled_from(sorted(thresholds.PARAMETERS)), st.floats(0.01, 20))
def test_delta_for_accuracy_inverts_human_agreement(name, delta):
    accuracy = thresholds.human_agreement(name, delta).accuracy
    assert accuracy <= thresholds.human_agreement(name, delta * 1.5 + 0.01).accuracy
    ceiling = thresholds.PARAMETERS[name][0] / 100
    if 0.5 <= accuracy < 0.99 * ceiling:  # short of the plateau, where the inverse is steep
        assert thresholds.delta_for_accuracy(name, accuracy) == pytest.approx(delta, rel=1e-6)


def test_bad_numbers_are_refused():
    with pytest.raises(InputError, match="finite"):
        thresholds.human_agreement("BLEU", math.nan)
    for accuracy in (0.4, 1.2):
        with pytest.raises(InputError, match=r"between 0\.5 and 1"):
            thresholds.delta_for_accuracy("BLEU", accuracy)

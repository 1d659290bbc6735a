"""The sentence that says the metrics disagree on A against B: one metric "finds", several
"find" (issue 36: "BLEU find ... significantly better"), the level written by the number rule."""

from __future__ import annotations

from bleu.evaluation.paired import PairedComparison, disagreement
from bleu.i18n import in_language


def compared(metric: str, a_wins: bool, higher_is_better: bool = True) -> PairedComparison:
    a, b = (60.0, 50.0) if a_wins == higher_is_better else (50.0, 60.0)
    return PairedComparison(metric, higher_is_better, a, b, -1.0, 1.0, 0.001, 0.001, 1000,
                            10000, 12345)


def test_one_metric_finds_several_find() -> None:
    said = disagreement([compared("BLEU", True), compared("chrF", False),
                         compared("TER", False, higher_is_better=False)], "A", "B")
    assert said is not None
    assert said.startswith("The metrics disagree on the winner: BLEU finds A significantly "
                           "better, chrF, TER find B significantly better (paired bootstrap, "
                           "p < 0.05).")
    assert disagreement([compared("BLEU", True), compared("chrF", True)], "A", "B") is None


def test_the_level_takes_the_interface_languages_decimal_sign() -> None:
    with in_language("nl"):
        said = disagreement([compared("BLEU", True), compared("chrF", False)], "A", "B")
    assert said is not None and "0,05" in said and "0.05" not in said

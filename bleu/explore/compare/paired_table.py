"""A against B on every metric as one table: scores, A − B with its 95% interval, both p-values
(and the t-test of segment scores), which way each test goes."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...display.formatting import COUNT, DELTA, LEVEL, P_VALUE, SCORE, Column, score_formats
from ...evaluation.paired import PairedComparison
from ...evaluation.ranking import ALPHA
from ...i18n import tr


def paired_columns(a: str, b: str) -> dict[str, Column]:
    """How ``paired_table``'s columns are shown: format and help."""
    return {
        "metric": Column(help=tr("TER, MetricX and MQM penalties: lower is better; the others: "
                                 "higher is better."), label=tr("metric")),
        a: Column(SCORE, tr("Corpus score of {system} (A).").format(system=a), label=a),
        b: Column(SCORE, tr("Corpus score of {system} (B).").format(system=b), label=b),
        "A − B": Column(DELTA, tr("Score of A minus score of B.")),
        "95% CI": Column(help=tr("95% bootstrap interval of A − B (the paired bootstrap's "
                                 "resamples)."), label=tr("95% CI")),
        "p (bootstrap)": Column(P_VALUE, tr("Paired bootstrap resampling (Koehn 2004), as "
                                            "sacrebleu --paired-bs."), label=tr("p (bootstrap)")),
        "p (AR)": Column(P_VALUE, tr("Approximate randomization (Riezler & Maxwell 2005), as "
                                  "sacrebleu --paired-ar.")),
        "p (t-test)": Column(P_VALUE, tr("Segment scores: Student's paired t-test of the segment "
                                      "scores, as comet-compare reports it (– for metrics of "
                                         "the text: their corpus score is not a mean)."),
                                label=tr("p (t-test)")),
        "segments": Column(COUNT, tr("Segments tested: for segment scores, those rated for "
                                     "both systems."), label=tr("segments")),
        "verdict": Column(help=tr("Which system is better at p < {level}, and by which "
                                  "tests.").format(level=LEVEL.text(ALPHA)), label=tr("verdict")),
    }


def paired_table(results: Sequence[PairedComparison], a: str, b: str,
                 n_segments: int | None = None) -> pd.DataFrame:
    """One row per metric: both scores and A − B with its 95% interval (written by that
    metric's rule: 2 decimals for BLEU, 4 for a 0..1 score such as COMET), the p-values, the
    segments tested (``n_segments`` for metrics that test every one), the verdict."""
    rows = []
    for found in results:
        score, delta = score_formats((found.score_a, found.score_b))
        rows.append({
            "metric": found.metric, a: score.text(found.score_a), b: score.text(found.score_b),
            "A − B": delta.text(found.delta),
            "95% CI": f"[{delta.text(found.low)}, {delta.text(found.high)}]",
            "p (bootstrap)": found.p_bootstrap, "p (AR)": found.p_ar,
            "p (t-test)": None if found.t_test is None else found.t_test.p_value,
            "segments": found.n_segments if found.n_segments is not None else n_segments,
            "verdict": found.verdict(a, b)})
    return pd.DataFrame(rows, columns=list(paired_columns(a, b))).astype(
        {"p (t-test)": "float64"})

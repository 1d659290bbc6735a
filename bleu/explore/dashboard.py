"""The corpus dashboard's numbers: per-system scores, confidence intervals and p-values for
every metric (BLEU, chrF, chrF++, TER, segment scores), as data.

Every metric goes one way: its ``MetricScores`` (``metric_scores``) become ``MetricResults``
(the paired bootstrap against the baseline, every pair compared, WMT's clusters); the
``Dashboard`` holds them all, BLEU first with its own extras (precisions, brevity penalty). The
tables, the LaTeX, the CSV and the JSON report are all views of one ``Dashboard``, so every
download shows the same numbers. Tables list the systems best first by the metric that ranks,
with WMT's cluster rank (``bleu.evaluation.ranking``) and the signed difference to the baseline.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..display.escaping import safe_csv
from ..display.formatting import (
    BP,
    COUNT,
    DELTA,
    LEVEL,
    P_VALUE,
    PRECISION,
    RATIO,
    SCORE,
    UNIT_SCORE,
    Column,
    NumberFormat,
    score_formats,
    text_frame,
)
from ..evaluation.ranking import AllPairs
from ..evaluation.results import (
    SIGNIFICANCE_LEVEL,
    Dashboard,
    MetricResults,
    is_significant,
    verdict,
)
from ..i18n import N_, tr
from ..metrics.base import SignificanceResult
from ..metrics.bleu.score import BLEUOptions, BLEUScore
from .thresholds import human_agreement

#: the columns every metric's table has, between ``system`` and the metric's own (the
#: data's names; the pages show them translated)
DELTA_COLUMN, CI_COLUMN, MEAN_COLUMN, P_COLUMN, VERDICT_COLUMN = (
    N_("Δ vs baseline"), N_("95% CI ±"), N_("bootstrap mean"), N_("p-value"), N_("vs baseline"))
#: how often humans agree with a difference of that size (``thresholds.human_agreement``)
AGREE_COLUMN = N_("humans agree")


















def effective_weights(score: BLEUScore, options: BLEUOptions) -> tuple[float, ...]:
    """The weight of each n-gram order in log BLEU: 1/N, or 1/(orders present) with eff. order."""
    order = options.max_ngram_order
    if not options.effective_order:
        return (1.0 / order,) * order
    present = 0
    for total in score.totals[:order]:
        if total == 0:
            break
        present += 1
    present = max(present, 1)
    return tuple(1.0 / present if n < present else 0.0 for n in range(order))


def log_decomposition(score: BLEUScore, options: BLEUOptions) -> dict[str, float | None]:
    """log(BLEU/100) split into its parts: ``w_n * log(p_n/100)`` per order, and ``log BP``.

    The parts sum to ``log(score/100)``; a part is None where its factor is 0 (log is -inf),
    which is also where BLEU is 0.
    """
    parts: dict[str, float | None] = {}
    for n, (weight, precision) in enumerate(
            zip(effective_weights(score, options), score.precisions, strict=True), start=1):
        if weight == 0.0:
            parts[f"{n}-gram"] = 0.0
        else:
            parts[f"{n}-gram"] = weight * math.log(precision / 100) if precision > 0 else None
    parts["brevity penalty"] = math.log(score.bp) if score.bp > 0 else None
    return parts


def comparison_columns(metric: str, higher_is_better: bool = True,
                       formats: tuple[NumberFormat, NumberFormat] = (SCORE, DELTA),
                       ) -> dict[str, Column]:
    """How ``comparison_table``'s columns are shown: format (``formats``: scores' and
    differences', ``score_formats``) and help."""
    score, delta = formats
    level = LEVEL.text(SIGNIFICANCE_LEVEL)
    return {
        "system": Column(),
        "rank": Column(help=tr("WMT's ranking clusters: systems share a rank when the paired "
                               "bootstrap over all pairs (Holm-corrected, p < {level}) cannot "
                               "separate them; see All pairs.").format(level=level)),
        metric: Column(score, (tr("Corpus {metric}, as sacrebleu computes it (higher is "
                                  "better).") if higher_is_better else
                               tr("Corpus {metric}, as sacrebleu computes it (lower is "
                                  "better).")).format(metric=metric), label=metric),
        DELTA_COLUMN: Column(delta, tr("{metric} minus the baseline's {metric}; – for the "
                                       "baseline.").format(metric=metric)),
        AGREE_COLUMN: Column(RATIO, tr("How often humans agree with a system-level difference of "
                                    "this size: the share of system pairs in Kocmi et al. "
                                    "(2024, MT-Thresholds) that humans ordered as the metric "
                                    "did; – where the source has no estimate for the metric.")),
        CI_COLUMN: Column(score, tr("Half the width of the 95% bootstrap interval (sacrebleu's "
                                 "μ ± this).")),
        MEAN_COLUMN: Column(score, tr("Mean of the bootstrap resamples' scores (sacrebleu's μ).")),
        P_COLUMN: Column(P_VALUE, tr("Paired bootstrap against the baseline, as sacrebleu's "
                                  "--paired-bs; – for the baseline.")),
        VERDICT_COLUMN: Column(help=(tr(
            "better / worse: significantly (p < {level}) in that direction (higher {metric} is "
            "better); not significant: no difference the test can tell.") if higher_is_better
            else tr("better / worse: significantly (p < {level}) in that direction (lower "
                    "{metric} is better); not significant: no difference the test can tell.")
        ).format(level=level, metric=metric), translated=True),
    }


def metric_columns(found: MetricResults) -> dict[str, Column]:
    """How ``metric_table`` of a metric's results is shown (its scores' number formats)."""
    return comparison_columns(found.metric, found.higher_is_better, found.formats)


def metric_table(found: MetricResults) -> pd.DataFrame:
    """``comparison_table`` of one metric's results (cluster ranks where all pairs ran)."""
    return comparison_table(found.significance, metric=found.metric,
                            higher_is_better=found.higher_is_better, baseline=found.baseline,
                            ranks=found.ranks or None)


def comparison_table(results: Mapping[str, SignificanceResult], *, metric: str,
                     higher_is_better: bool = True, baseline: str | None = None,
                     ranks: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per system, best first: rank, score, signed difference to the baseline, the
    bootstrap's 95% CI and mean, the paired p-value and which way it goes.

    ``results``: a paired bootstrap's results by system (``SignificanceResult``); ``ranks``:
    rank labels by system (``AllPairs.ranks``), else a dash.
    """
    base = results.get(baseline) if baseline is not None else None
    order = sorted(results, key=lambda name: (-1 if higher_is_better else 1)
                   * results[name].score)
    unit = score_formats(r.score for r in results.values())[0] is UNIT_SCORE
    rows = []
    for name in order:
        result = results[name]
        delta = None if base is None or name == baseline else result.score - base.score
        agreement = None if delta is None else human_agreement(metric, delta,
                                                               scale=100.0 if unit else 1.0)
        rows.append({
            "system": name,
            "rank": (ranks or {}).get(name, "–"),
            metric: result.score,
            DELTA_COLUMN: delta,
            AGREE_COLUMN: None if agreement is None else agreement.accuracy,
            CI_COLUMN: result.ci,
            MEAN_COLUMN: result.mean,
            P_COLUMN: result.p_value,
            VERDICT_COLUMN: verdict(result, base, higher_is_better),
        })
    table = pd.DataFrame(rows, columns=list(comparison_columns(metric)))
    return table.astype({DELTA_COLUMN: "float64", AGREE_COLUMN: "float64", CI_COLUMN: "float64",
                         MEAN_COLUMN: "float64", P_COLUMN: "float64"})


def table_columns(order: int) -> dict[str, Column]:
    """How the BLEU table's columns are shown (``results_table``): format and help."""
    return {
        **comparison_columns("BLEU"),
        **{f"p{n}": Column(PRECISION, tr("{n}-gram precision (%): clipped matches / {n}-grams "
                                         "in the output").format(n=n), label=f"p{n}")
           for n in range(1, order + 1)},
        "BP": Column(BP, tr("Brevity penalty: exp(1 − ref len / hyp len) when the output is "
                            "shorter than the references, else 1.")),
        "ratio": Column(RATIO, tr("Length ratio: hyp len / ref len."), label=tr("ratio")),
        "hyp len": Column(COUNT, tr("Tokens in the output."), label=tr("hyp len")),
        "ref len": Column(COUNT, tr("Tokens in the references (per segment, the closest "
                                    "length)."), label=tr("ref len")),
    }


def results_table(dashboard: Dashboard) -> pd.DataFrame:
    """The BLEU table: ``comparison_table``'s columns, then p1..pN, BP, length ratio, lengths."""
    ranks = dashboard.pairs.ranks if dashboard.pairs is not None else None
    table = comparison_table(dashboard.significance, metric="BLEU",
                             baseline=dashboard.baseline, ranks=ranks)
    order = dashboard.options.max_ngram_order
    extra = pd.DataFrame([
        {**{f"p{n}": score.precisions[n - 1] for n in range(1, order + 1)},
         "BP": score.bp, "ratio": score.ratio, "hyp len": score.sys_len,
         "ref len": score.ref_len}
        for score in (dashboard.scores[name] for name in table["system"])])
    return pd.concat([table, extra], axis=1)


def summary_columns(dashboard: Dashboard) -> dict[str, Column]:
    """How ``summary_table``'s columns are shown: format and help."""
    columns = {"system": Column(),
               "rank": Column(help=tr(
                   "WMT's ranking clusters by {metric}: systems share a rank when the paired "
                   "bootstrap over all pairs (Holm-corrected, p < {level}) cannot separate "
                   "them.").format(metric=dashboard.ranking,
                                   level=LEVEL.text(SIGNIFICANCE_LEVEL)))}
    for name, found in dashboard.metrics.items():
        what = (tr("mean over the segments rated for the system")
                if found.scores.is_segment_scores
                else tr("corpus score, as sacrebleu computes it"))
        better = tr("higher is better") if found.higher_is_better else tr("lower is better")
        columns[name] = Column(found.formats[0], tr("{metric}: {what} ({better}).").format(
            metric=name, what=what, better=better), label=name)
        columns[f"{name} rank"] = Column(
            help=tr("The system's cluster rank by {metric}.").format(metric=name),
            label=tr("{metric} rank").format(metric=name))
    return columns


def summary_table(dashboard: Dashboard) -> pd.DataFrame:
    """One row per system, best first by the ranking metric: its cluster rank by that metric,
    then every metric's score and rank side by side (– where a metric does not score the
    system), so a glance shows where the metrics agree."""
    rows = []
    for name in dashboard.ranked:
        row: dict[str, object] = {"system": name,
                                  "rank": dashboard.metrics[dashboard.ranking].ranks.get(name,
                                                                                         "–")}
        for metric, found in dashboard.metrics.items():
            row[metric] = found.scores.scores.get(name)
            row[f"{metric} rank"] = found.ranks.get(name, "–")
        rows.append(row)
    table = pd.DataFrame(rows, columns=list(summary_columns(dashboard)))
    return table.astype({metric: "float64" for metric in dashboard.metrics})


def export_table(dashboard: Dashboard) -> pd.DataFrame:
    """Every number of every metric, one row per system in BLEU's table order: BLEU's columns
    as ``results_table`` names them and its tested signature (``signature``), then each other
    metric's columns and signature prefixed with its name (``chrF``, ``chrF Δ vs baseline``,
    ..., ``chrF signature``)."""
    table = results_table(dashboard)
    table["signature"] = dashboard.bootstrap_signature
    for metric, found in dashboard.metrics.items():
        if metric == "BLEU":
            continue
        other = metric_table(found).drop(columns="system").set_axis(
            [column if column == metric else f"{metric} {column}"
             for column in metric_table(found).columns[1:]], axis=1)
        other.index = metric_table(found)["system"]
        other[f"{metric} signature"] = found.tested_signature
        if found.scores.is_segment_scores:
            other[f"{metric} segments"] = [found.significance[name].n_segments
                                           for name in other.index]
        table = table.join(other, on="system")
    return table


def table_csv(dashboard: Dashboard) -> str:
    """``export_table`` as CSV, full precision, that ``pandas.read_csv`` reads back as it is
    (the signatures are columns, not comment lines); names a spreadsheet would run as
    formulas are neutralised (``escaping.safe_csv``)."""
    return safe_csv(export_table(dashboard))


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (system names often hold ``_``, ``#`` or ``&``)."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def _latex_score(found: MetricResults, name: str) -> str:
    """A metric's score of one system for the LaTeX table, starred where the paired test
    against the baseline is significant (-- where the metric does not score the system)."""
    if name not in found.scores.scores:
        return "--"
    text = found.formats[0].text(found.scores.scores[name])
    result = found.significance[name]
    return text + ("$^*$" if is_significant(result) and name != found.baseline else "")


def table_latex(dashboard: Dashboard) -> str:
    """The results table as a booktabs LaTeX tabular, best first by BLEU, numbers by the app's
    rule (``bleu.display.formatting``); a significant p-value is starred, as sacrebleu marks
    it, and every other metric adds a column of scores starred where significantly different
    from the baseline. The signatures follow as LaTeX comments."""
    order = dashboard.options.max_ngram_order
    frame = results_table(dashboard)
    shown = text_frame(frame, table_columns(order))
    others = [found for metric, found in dashboard.metrics.items() if metric != "BLEU"]
    head = ["Rank", "System", "BLEU", r"$\Delta$", r"95\% CI", "$p$",
            *(f"$p_{n}$" for n in range(1, order + 1)), "BP", "ratio", "hyp len", "ref len",
            *(latex_escape(found.metric) for found in others)]
    lines = [r"\begin{tabular}{ll" + "r" * (len(head) - 2) + "}", r"\toprule",
             " & ".join(head) + r" \\", r"\midrule"]
    for (_, row), (_, text) in zip(frame.iterrows(), shown.iterrows(), strict=True):
        p_value = text[P_COLUMN].replace("–", "--")
        if row[P_COLUMN] < SIGNIFICANCE_LEVEL:
            p_value += "$^*$"
        cells = [text["rank"].replace("–", "--"), latex_escape(row["system"]), text["BLEU"],
                 text[DELTA_COLUMN].replace("–", "--"), rf"$\pm${text[CI_COLUMN]}", p_value,
                 *(text[f"p{n}"] for n in range(1, order + 1)), text["BP"], text["ratio"],
                 text["hyp len"].replace(",", "{,}"), text["ref len"].replace(",", "{,}"),
                 *(_latex_score(found, row["system"]) for found in others)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}",
              f"% {latex_escape(dashboard.bootstrap_signature)}",
              *(f"% {latex_escape(found.metric)}: {latex_escape(found.tested_signature)}"
                for found in others)]
    return "\n".join(lines) + "\n"


def json_report(dashboard: Dashboard, **about: object) -> str:
    """Every number of the dashboard as JSON, with the signatures; ``about`` adds context fields.

    Systems come best first, each with its rank, its difference to the baseline and what the
    paired test says of it; ``all_pairs`` holds the all-pairs p-values (raw and Holm-adjusted,
    in the systems' order) and the ranking clusters.
    """
    table = results_table(dashboard).set_index("system")
    baseline = dashboard.baseline
    systems = []
    for name in dashboard.ranked:
        score, result = dashboard.scores[name], dashboard.significance[name]
        row = table.loc[name]
        systems.append({
            "name": name, "rank": row["rank"], "score": score.score,
            "delta": None if baseline is None or name == baseline
            else score.score - dashboard.scores[baseline].score,
            "mean": result.mean, "ci": result.ci, "p_value": result.p_value,
            "significant": is_significant(result), "versus_baseline": row[VERDICT_COLUMN],
            "human_agreement": _finite(row[AGREE_COLUMN]),
            "counts": list(score.counts), "totals": list(score.totals),
            "precisions": list(score.precisions), "bp": score.bp, "ratio": score.ratio,
            "sys_len": score.sys_len, "ref_len": score.ref_len,
            "log_decomposition": log_decomposition(score, dashboard.options),
            "verbose_score": score.format(signature=dashboard.signature),
        })
    report = {
        **about,
        "signature": dashboard.signature,
        "bootstrap_signature": dashboard.bootstrap_signature,
        "options": {
            "tokenize": dashboard.options.tokenize, "lowercase": dashboard.options.lowercase,
            "smooth_method": dashboard.options.smooth_method,
            "smooth_value": dashboard.options.resolved_smooth_value,
            "max_ngram_order": dashboard.options.max_ngram_order,
            "effective_order": dashboard.options.effective_order,
        },
        "n_refs": dashboard.n_refs, "n_segments": dashboard.n_segments,
        "baseline": baseline, "n_samples": dashboard.n_samples, "seed": dashboard.seed,
        "significance_level": SIGNIFICANCE_LEVEL,
        "systems": systems,
        "all_pairs": None if dashboard.pairs is None else pairs_report(dashboard.pairs),
        "ranking": dashboard.ranking,
        "metrics": {metric: metric_report(found) for metric, found in dashboard.metrics.items()},
    }
    return json.dumps(report, indent=1, ensure_ascii=False, allow_nan=False)


def _finite(value: float | None) -> float | None:
    """A number for JSON (None for a missing or NaN one: JSON has no NaN)."""
    return None if value is None or math.isnan(value) else float(value)


def metric_report(found: MetricResults) -> dict[str, object]:
    """One metric's numbers as JSON-ready data: every system best first with its rank, score,
    difference to the baseline, bootstrap mean and CI, p-value and verdict; the signature (with
    the bootstrap's fields), and the all-pairs comparison."""
    table = metric_table(found).set_index("system")
    base = found.scores.scores.get(found.baseline) if found.baseline else None
    systems = []
    for name in found.scores.ranked:
        result, row = found.significance[name], table.loc[name]
        systems.append({
            "name": name, "rank": row["rank"], "score": _finite(result.score),
            "delta": None if base is None or name == found.baseline
            else _finite(result.score - base),
            "mean": _finite(result.mean), "ci": _finite(result.ci),
            "p_value": _finite(result.p_value), "significant": is_significant(result),
            "versus_baseline": row[VERDICT_COLUMN], "n_segments": result.n_segments,
            "human_agreement": _finite(row[AGREE_COLUMN])})
    return {"higher_is_better": found.higher_is_better,
            "signature": found.scores.signature, "tested_signature": found.tested_signature,
            "source": found.scores.source or None, "baseline": found.baseline,
            "systems": systems,
            "all_pairs": None if found.pairs is None else pairs_report(found.pairs)}


def pairs_report(pairs: AllPairs) -> dict[str, object]:
    """An all-pairs comparison as JSON-ready data (NaN on the diagonal written as null)."""
    def matrix(values: np.ndarray) -> list[list[float | None]]:
        return [[None if math.isnan(v) else float(v) for v in row] for row in values]

    return {"metric": pairs.metric, "method": pairs.method, "n_samples": pairs.n_samples,
            "seed": pairs.seed, "alpha": pairs.alpha, "systems": list(pairs.names),
            "p_values": matrix(pairs.p_values), "holm_adjusted": matrix(pairs.adjusted),
            "clusters": [list(group) for group in pairs.clusters],
            "segments": None if pairs.segments is None else pairs.segments.tolist()}


def ranking_table(pairs: AllPairs) -> pd.DataFrame:
    """One row per system, best first: rank (cluster range), cluster number, system, score."""
    ranks = pairs.ranks
    number = {name: k for k, group in enumerate(pairs.clusters, start=1) for name in group}
    return pd.DataFrame({
        "rank": [ranks[name] for name in pairs.names],
        "cluster": [number[name] for name in pairs.names],
        "system": list(pairs.names),
        pairs.metric: list(pairs.scores),
    })


def pairs_frame(pairs: AllPairs) -> pd.DataFrame:
    """One row per ordered pair (row system, column system), diagonal included: the score
    difference row − column, raw and Holm-adjusted p-values, and whether it is significant."""
    n = len(pairs.names)
    rows, columns = np.divmod(np.arange(n * n), n)
    return pd.DataFrame({
        "row": [pairs.names[i] for i in rows],
        "column": [pairs.names[j] for j in columns],
        "delta": pairs.deltas[rows, columns],
        "p_value": pairs.p_values[rows, columns],
        "adjusted": pairs.adjusted[rows, columns],
        "significant": pairs.significant[rows, columns],
    })

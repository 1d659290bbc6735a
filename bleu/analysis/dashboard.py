"""The corpus dashboard's numbers: per-system scores, confidence intervals and p-values, as data.

Built from statistics matrices (one per system, same references); the table, the LaTeX, the CSV
and the JSON report are all views of one ``Dashboard``, so every download shows the same numbers.
Tables list the systems best first, with WMT's cluster rank (``bleu.analysis.ranking``) and the
signed difference to the baseline; ``comparison_table`` is the same table for any metric
(chrF, TER: lower is better).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..metrics.base import SignificanceResult
from ..metrics.bleu import signature
from ..metrics.bleu.score import BLEUOptions, BLEUScore, score_from_stats
from ..metrics.significance import bootstrap_ci_from_stats, paired_bootstrap_from_stats
from .escaping import safe_csv
from .formatting import COUNT, DELTA, P_VALUE, PRECISION, RATIO, SCORE, Column, text_frame
from .ranking import ALPHA, AllPairs, all_pairs

#: p-values below this are marked significant (sacrebleu marks them with "*" too)
SIGNIFICANCE_LEVEL = ALPHA
SIGNIFICANT_MARK = "*"
#: what the "vs baseline" column says
BETTER, WORSE, NOT_SIGNIFICANT, BASELINE = "better", "worse", "not significant", "baseline"
#: the columns every metric's table has, between ``system`` and the metric's own
DELTA_COLUMN, CI_COLUMN, MEAN_COLUMN, P_COLUMN, VERDICT_COLUMN = (
    "Δ vs baseline", "95% CI ±", "bootstrap mean", "p-value", "vs baseline")


def is_significant(result: SignificanceResult) -> bool:
    """True when a paired test found a difference to the baseline at ``SIGNIFICANCE_LEVEL``."""
    return result.p_value is not None and result.p_value < SIGNIFICANCE_LEVEL


def verdict(result: SignificanceResult, baseline: SignificanceResult | None,
            higher_is_better: bool = True) -> str:
    """What the paired test says of a system against the baseline, direction included."""
    if baseline is None or result.name == baseline.name or result.p_value is None:
        return BASELINE if baseline is not None and result.name == baseline.name else ""
    if not is_significant(result):
        return NOT_SIGNIFICANT
    ahead = result.score > baseline.score if higher_is_better else result.score < baseline.score
    return BETTER if ahead else WORSE


@dataclass(frozen=True)
class Dashboard:
    """Every number the corpus dashboard shows, for systems scored against the same references:
    each system's BLEU (``scores``) and what the bootstrap says of it (``significance``: mean,
    95% CI and, with a baseline, the paired test's p-value), both in the systems' order; and,
    with two or more systems, every pair compared by the paired bootstrap with the same
    resamples and seed (``pairs``: Holm-corrected p-values and WMT's ranking clusters)."""

    scores: Mapping[str, BLEUScore]
    significance: Mapping[str, SignificanceResult]
    options: BLEUOptions
    n_refs: int
    n_segments: int
    baseline: str | None
    n_samples: int
    seed: int
    pairs: AllPairs | None = None

    @property
    def signature(self) -> str:
        """The BLEU signature of every score in the table."""
        return signature(self.options, self.n_refs)

    @property
    def bootstrap_signature(self) -> str:
        """The signature with the resampling fields, as sacrebleu prints it for ``--paired-bs``."""
        return signature(self.options, self.n_refs, bs=self.n_samples, seed=self.seed)

    @property
    def ranked(self) -> list[str]:
        """The systems best first (ties in the given order)."""
        return sorted(self.scores, key=lambda name: -self.scores[name].score)


def build_dashboard(stats: Mapping[str, np.ndarray], options: BLEUOptions, n_refs: int, *,
                    baseline: str | None = None, n_samples: int = 1000,
                    seed: int = 12345) -> Dashboard:
    """Score each system from its statistics matrix and add bootstrap CIs, p-values and the
    all-pairs comparison.

    With two or more systems and a baseline, CIs and p-values come from one paired bootstrap
    (sacrebleu's ``--paired-bs``); otherwise each system gets its own bootstrap CI.
    """
    if not stats:
        raise ValueError("build_dashboard needs at least one system's statistics.")
    if baseline is not None and baseline not in stats:
        raise ValueError(f"The baseline {baseline!r} is not one of the systems: {list(stats)}.")
    sig = signature(options, n_refs)
    n_segments = len(next(iter(stats.values())))
    paired = baseline is not None and len(stats) > 1
    if paired:
        found = paired_bootstrap_from_stats(dict(stats), options, baseline=baseline,
                                            n_samples=n_samples, seed=seed)
    else:
        found = {name: replace(bootstrap_ci_from_stats(matrix, options, n_samples=n_samples,
                                                       seed=seed), name=name)
                 for name, matrix in stats.items()}
    scores = {name: score_from_stats(np.asarray(matrix).sum(axis=0), options, sig)
              for name, matrix in stats.items()}
    pairs = (all_pairs(stats, options, method="bs", n_samples=n_samples, seed=seed)
             if len(stats) > 1 else None)
    return Dashboard(scores, {name: found[name] for name in stats}, options, n_refs, n_segments,
                     baseline if paired else None, n_samples, seed, pairs)


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


def comparison_columns(metric: str, higher_is_better: bool = True) -> dict[str, Column]:
    """How ``comparison_table``'s columns are shown: format and help."""
    direction = "higher" if higher_is_better else "lower"
    return {
        "system": Column(),
        "rank": Column(help="WMT's ranking clusters: systems share a rank when the paired "
                            "bootstrap over all pairs (Holm-corrected, p < "
                            f"{SIGNIFICANCE_LEVEL}) cannot separate them; see All pairs."),
        metric: Column(SCORE, f"Corpus {metric}, as sacrebleu computes it ({direction} is "
                              "better)."),
        DELTA_COLUMN: Column(DELTA, f"{metric} minus the baseline's {metric}; – for the "
                                    "baseline."),
        CI_COLUMN: Column(SCORE, "Half the width of the 95% bootstrap interval (sacrebleu's "
                                 "μ ± this)."),
        MEAN_COLUMN: Column(SCORE, "Mean of the bootstrap resamples' scores (sacrebleu's μ)."),
        P_COLUMN: Column(P_VALUE, "Paired bootstrap against the baseline, as sacrebleu's "
                                  "--paired-bs; – for the baseline."),
        VERDICT_COLUMN: Column(help=f"better / worse: significantly (p < {SIGNIFICANCE_LEVEL}) "
                                    f"in that direction ({direction} {metric} is better); "
                                    "not significant: no difference the test can tell."),
    }


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
    rows = []
    for name in order:
        result = results[name]
        rows.append({
            "system": name,
            "rank": (ranks or {}).get(name, "–"),
            metric: result.score,
            DELTA_COLUMN: (None if base is None or name == baseline
                           else result.score - base.score),
            CI_COLUMN: result.ci,
            MEAN_COLUMN: result.mean,
            P_COLUMN: result.p_value,
            VERDICT_COLUMN: verdict(result, base, higher_is_better),
        })
    table = pd.DataFrame(rows, columns=list(comparison_columns(metric)))
    return table.astype({DELTA_COLUMN: "float64", CI_COLUMN: "float64", MEAN_COLUMN: "float64",
                         P_COLUMN: "float64"})


def table_columns(order: int) -> dict[str, Column]:
    """How the BLEU table's columns are shown (``results_table``): format and help."""
    return {
        **comparison_columns("BLEU"),
        **{f"p{n}": Column(PRECISION, f"{n}-gram precision (%): clipped matches / {n}-grams "
                                      "in the output") for n in range(1, order + 1)},
        "BP": Column(RATIO, "Brevity penalty: exp(1 − ref len / hyp len) when the output is "
                            "shorter than the references, else 1."),
        "ratio": Column(RATIO, "Length ratio: hyp len / ref len."),
        "hyp len": Column(COUNT, "Tokens in the output."),
        "ref len": Column(COUNT, "Tokens in the references (per segment, the closest length)."),
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


def table_csv(dashboard: Dashboard) -> str:
    """The results table as CSV, full precision, with the signature as a trailing comment line;
    names a spreadsheet would run as formulas are neutralised (``escaping.safe_csv``)."""
    text = safe_csv(results_table(dashboard))
    return text + f"# {dashboard.bootstrap_signature}\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (system names often hold ``_``, ``#`` or ``&``)."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def table_latex(dashboard: Dashboard) -> str:
    """The results table as a booktabs LaTeX tabular, best first, numbers by the app's rule
    (``bleu.analysis.formatting``); a significant p-value is starred, as sacrebleu marks it."""
    order = dashboard.options.max_ngram_order
    frame = results_table(dashboard)
    shown = text_frame(frame, table_columns(order))
    head = ["Rank", "System", "BLEU", r"$\Delta$", r"95\% CI", "$p$",
            *(f"$p_{n}$" for n in range(1, order + 1)), "BP", "ratio", "hyp len", "ref len"]
    lines = [r"\begin{tabular}{ll" + "r" * (len(head) - 2) + "}", r"\toprule",
             " & ".join(head) + r" \\", r"\midrule"]
    for (_, row), (_, text) in zip(frame.iterrows(), shown.iterrows(), strict=True):
        p_value = text[P_COLUMN].replace("–", "--")
        if row[P_COLUMN] < SIGNIFICANCE_LEVEL:
            p_value += "$^*$"
        cells = [text["rank"].replace("–", "--"), latex_escape(row["system"]), text["BLEU"],
                 text[DELTA_COLUMN].replace("–", "--"), rf"$\pm${text[CI_COLUMN]}", p_value,
                 *(text[f"p{n}"] for n in range(1, order + 1)), text["BP"], text["ratio"],
                 text["hyp len"].replace(",", "{,}"), text["ref len"].replace(",", "{,}")]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}",
              f"% {latex_escape(dashboard.bootstrap_signature)}"]
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
    }
    return json.dumps(report, indent=1, ensure_ascii=False)


def pairs_report(pairs: AllPairs) -> dict[str, object]:
    """An all-pairs comparison as JSON-ready data (NaN on the diagonal written as null)."""
    def matrix(values: np.ndarray) -> list[list[float | None]]:
        return [[None if math.isnan(v) else float(v) for v in row] for row in values]

    return {"metric": pairs.metric, "method": pairs.method, "n_samples": pairs.n_samples,
            "seed": pairs.seed, "alpha": pairs.alpha, "systems": list(pairs.names),
            "p_values": matrix(pairs.p_values), "holm_adjusted": matrix(pairs.adjusted),
            "clusters": [list(group) for group in pairs.clusters]}

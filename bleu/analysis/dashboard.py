"""The corpus dashboard's numbers: per-system scores, confidence intervals and p-values, as data.

Built from statistics matrices (one per system, same references); the table, the LaTeX, the CSV
and the JSON report are all views of one ``Dashboard``, so every download shows the same numbers.
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
from ..metrics.bleu_score import BLEUOptions, BLEUScore, score_from_stats
from ..metrics.significance import bootstrap_ci_from_stats, paired_bootstrap_from_stats

#: p-values below this are marked significant (sacrebleu marks them with "*" too)
SIGNIFICANCE_LEVEL = 0.05
SIGNIFICANT_MARK = "*"


def is_significant(result: SignificanceResult) -> bool:
    """True when a paired test found a difference to the baseline at ``SIGNIFICANCE_LEVEL``."""
    return result.p_value is not None and result.p_value < SIGNIFICANCE_LEVEL


@dataclass(frozen=True)
class Dashboard:
    """Every number the corpus dashboard shows, for systems scored against the same references:
    each system's BLEU (``scores``) and what the bootstrap says of it (``significance``: mean,
    95% CI and, with a baseline, the paired test's p-value), both in the systems' order."""

    scores: Mapping[str, BLEUScore]
    significance: Mapping[str, SignificanceResult]
    options: BLEUOptions
    n_refs: int
    n_segments: int
    baseline: str | None
    n_samples: int
    seed: int

    @property
    def signature(self) -> str:
        """The BLEU signature of every score in the table."""
        return signature(self.options, self.n_refs)

    @property
    def bootstrap_signature(self) -> str:
        """The signature with the resampling fields, as sacrebleu prints it for ``--paired-bs``."""
        return signature(self.options, self.n_refs, bs=self.n_samples, seed=self.seed)


def build_dashboard(stats: Mapping[str, np.ndarray], options: BLEUOptions, n_refs: int, *,
                    baseline: str | None = None, n_samples: int = 1000,
                    seed: int = 12345) -> Dashboard:
    """Score each system from its statistics matrix and add bootstrap CIs and p-values.

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
    return Dashboard(scores, {name: found[name] for name in stats}, options, n_refs, n_segments,
                     baseline if paired else None, n_samples, seed)


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


def results_table(dashboard: Dashboard) -> pd.DataFrame:
    """One row per system: BLEU, bootstrap mean and 95% CI, p-value, mark, p1..pN, BP, lengths."""
    order = dashboard.options.max_ngram_order
    rows = []
    for name, score in dashboard.scores.items():
        result = dashboard.significance[name]
        row: dict[str, object] = {
            "system": name,
            "BLEU": score.score,
            "mean": result.mean,
            "95% CI ±": result.ci,
            "p-value": result.p_value,
            "sig.": SIGNIFICANT_MARK if is_significant(result) else "",
        }
        row.update({f"p{n}": score.precisions[n - 1] for n in range(1, order + 1)})
        row.update({"BP": score.bp, "ratio": score.ratio, "hyp_len": score.sys_len,
                    "ref_len": score.ref_len})
        rows.append(row)
    table = pd.DataFrame(rows)
    return table.astype({"p-value": "float64", "mean": "float64", "95% CI ±": "float64"})


def table_csv(dashboard: Dashboard) -> str:
    """The results table as CSV, full precision, with the signature as a trailing comment line."""
    text = results_table(dashboard).to_csv(index=False, lineterminator="\n")
    return text + f"# {dashboard.signature}\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell (system names often hold ``_``, ``#`` or ``&``)."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def table_latex(dashboard: Dashboard) -> str:
    """The results table as a booktabs LaTeX tabular, numbers as sacrebleu prints them."""
    order = dashboard.options.max_ngram_order
    head = ["System", "BLEU", r"95\% CI", "$p$", *(f"$p_{n}$" for n in range(1, order + 1)),
            "BP", "ratio", "hyp len", "ref len"]
    lines = [r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}", r"\toprule",
             " & ".join(head) + r" \\", r"\midrule"]
    for name, score in dashboard.scores.items():
        result = dashboard.significance[name]
        p_value = "--" if result.p_value is None else f"{result.p_value:.4f}"
        if is_significant(result):
            p_value += "$^*$"
        cells = [latex_escape(name), f"{score.score:.2f}",
                 "--" if result.ci is None else rf"$\pm${result.ci:.2f}", p_value,
                 *(f"{p:.1f}" for p in score.precisions), f"{score.bp:.3f}",
                 f"{score.ratio:.3f}", str(score.sys_len), str(score.ref_len)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}",
              f"% {latex_escape(dashboard.bootstrap_signature)}"]
    return "\n".join(lines) + "\n"


def json_report(dashboard: Dashboard, **about: object) -> str:
    """Every number of the dashboard as JSON, with the signatures; ``about`` adds context fields."""
    systems = []
    for name, score in dashboard.scores.items():
        result = dashboard.significance[name]
        systems.append({
            "name": name, "score": score.score, "mean": result.mean, "ci": result.ci,
            "p_value": result.p_value, "significant": is_significant(result),
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
        "baseline": dashboard.baseline, "n_samples": dashboard.n_samples, "seed": dashboard.seed,
        "significance_level": SIGNIFICANCE_LEVEL,
        "systems": systems,
    }
    return json.dumps(report, indent=1, ensure_ascii=False)

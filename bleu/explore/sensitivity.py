"""How much BLEU depends on choices that are not the translation: tokenizer, case, implementation,
sentence versus corpus level (against human MQM judgments), and segmentation of unspaced text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..display.formatting import COUNT, DELTA, EXACT, PLAIN, PRECISION, SCORE, TINY
from ..errors import InputError, MissingExtraError
from ..i18n import tr
from ..metrics.bleu import BLEU
from ..metrics.bleu.engine import tokenize_line
from ..metrics.bleu.score import BLEUOptions, score_from_stats
from ..metrics.checks import References
from ..metrics.segment.scores import SegmentScores
from ..metrics.tokenizers import available_tokenizers

Systems = Mapping[str, Sequence[str]]


class NoMatchingSystemsError(InputError):
    """None of the loaded systems has human scores in the MQM file."""


def _ranks(scores: Sequence[float]) -> list[int]:
    """1 = best; equal scores share the better rank."""
    return [1 + sum(other > s for other in scores) for s in scores]


@dataclass(frozen=True)
class TokenizerGrid:
    """Every system under every tokenizer x lowercase: one row per (config, system)."""

    cells: pd.DataFrame  # system, tokenize, lowercase, score, rank, signature
    baseline: tuple[str, bool]  # the config rankings are compared with
    changed: tuple[tuple[str, bool], ...]  # configs whose ranking differs from the baseline

    def table(self) -> pd.DataFrame:
        """Systems as rows, configs as columns (``tok`` or ``tok+lc``), BLEU in the cells."""
        cells = self.cells.assign(config=[f"{t}+lc" if lc else t for t, lc in
                                          zip(self.cells.tokenize, self.cells.lowercase,
                                              strict=True)])
        return cells.pivot(index="system", columns="config", values="score").reindex(
            columns=list(dict.fromkeys(cells.config)))

    def spread(self) -> pd.DataFrame:
        """Per system: lowest, highest BLEU over the configs and their difference."""
        g = self.cells.groupby("system", sort=False).score
        return pd.DataFrame({"min": g.min(), "max": g.max(), "spread": g.max() - g.min()})


def tokenizer_grid(systems: Systems, references: References, *,
                   tokenizers: Sequence[str] | None = None, smooth_method: str = "exp",
                   max_ngram_order: int = 4, baseline: tuple[str, bool] = ("13a", False),
                   ) -> TokenizerGrid:
    """Corpus BLEU of each system for every available tokenizer x (mixed case, lowercase)."""
    names = tuple(tokenizers) if tokenizers is not None else available_tokenizers()
    rows, rankings = [], {}
    for tok in names:
        for lc in (False, True):
            metric = BLEU(tokenize=tok, lowercase=lc, force=True, smooth_method=smooth_method,
                          max_ngram_order=max_ngram_order, references=references)
            scores = {name: metric.corpus_score(list(h)) for name, h in systems.items()}
            ranks = _ranks([s.score for s in scores.values()])
            rankings[(tok, lc)] = tuple(ranks)
            rows += [{"system": name, "tokenize": tok, "lowercase": lc, "score": s.score,
                      "rank": rank, "signature": s.signature}
                     for (name, s), rank in zip(scores.items(), ranks, strict=True)]
    base = rankings.get(baseline, next(iter(rankings.values())))
    changed = tuple(cfg for cfg, ranks in rankings.items() if ranks != base)
    return TokenizerGrid(pd.DataFrame(rows), baseline, changed)


# --- implementation cross-check with NLTK -----------------------------------------------------

#: our smoothing (method, value) and the NLTK SmoothingFunction method that computes the same
NLTK_PAIRS = (("none", None, "method0"), ("floor", 0.1, "method1"), ("add-k", 1, "method2"),
              ("exp", None, "method3"))


@dataclass(frozen=True)
class CrossCheck:
    """Our BLEU beside NLTK's corpus_bleu on the same data, and why they differ."""

    rows: pd.DataFrame  # implementation, tokenization, smoothing, score
    reasons: tuple[str, ...]
    #: our unsmoothed formula on NLTK's totals (ours + 1 per hypothesis shorter than n)
    nltk_totals_score: float


def nltk_crosscheck(hypotheses: Sequence[str], references: References, *,
                    max_ngram_order: int = 4) -> CrossCheck:
    """Ours (13a; tokenize=none) and NLTK corpus_bleu (whitespace split) under each smoothing.

    Needs nltk (a dependency of bleu-explorer; missing only where it was left out).
    """
    try:
        from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    except ImportError:
        raise MissingExtraError(tr(
            "The NLTK cross-check needs nltk, a dependency of bleu-explorer that is missing "
            "here: pip install nltk.")) from None
    order = max_ngram_order
    hyp_tokens = [h.split() for h in hypotheses]
    ref_tokens = [[r.split() for r in (stream[i] for stream in references) if r is not None]
                  for i in range(len(hypotheses))]
    smoothing = SmoothingFunction()
    weights = (1.0 / order,) * order
    common = {"max_ngram_order": order}
    ours_13a = BLEU(tokenize="13a", **common).corpus_score(hypotheses, references)
    rows = [{"implementation": "bleu-explorer (= sacrebleu)", "tokenization": "13a",
             "smoothing": "exp", "score": ours_13a.score}]
    none_scores = {}
    for method, value, nltk_name in NLTK_PAIRS:
        ours = BLEU(tokenize="none", force=True, smooth_method=method, smooth_value=value,
                    **common).corpus_score(hypotheses, references)
        theirs = 100 * corpus_bleu(ref_tokens, hyp_tokens, weights=weights,
                                   smoothing_function=getattr(smoothing, nltk_name))
        none_scores[method] = ours
        label = method if value is None else f"{method} {PLAIN.text(value)}"
        rows += [{"implementation": "bleu-explorer (= sacrebleu)", "tokenization": "none",
                  "smoothing": label, "score": ours.score},
                 {"implementation": "NLTK corpus_bleu", "tokenization": "whitespace split",
                  "smoothing": f"{nltk_name} (≈ {label})", "score": theirs}]
    frame = pd.DataFrame(rows)
    short = [sum(len(t) < n for t in hyp_tokens) for n in range(1, order + 1)]
    base = none_scores["none"]
    stats = np.array([base.sys_len, base.ref_len, *base.counts,
                      *(t + k for t, k in zip(base.totals, short, strict=True))])
    adjusted = score_from_stats(stats, BLEUOptions(tokenize="none", smooth_method="none",
                                                   max_ngram_order=order)).score
    reasons = _crosscheck_reasons(hyp_tokens, hypotheses, ours_13a.score, none_scores, frame,
                                  short, adjusted)
    return CrossCheck(frame, reasons, adjusted)


def _crosscheck_reasons(hyp_tokens: list[list[str]], hypotheses: Sequence[str], score_13a: float,
                        none_scores: dict, frame: pd.DataFrame, short: list[int],
                        adjusted: float) -> tuple[str, ...]:
    none_exp = none_scores["exp"]
    n_13a = sum(len(tokenize_line(h, BLEUOptions())) for h in hypotheses)
    n_ws = sum(len(t) for t in hyp_tokens)
    reasons = [
        tr("Tokenization: 13a splits punctuation and symbols from words ({n_13a} hypothesis "
           "tokens against {n_ws} from a whitespace split), which moves BLEU by {delta} "
           "({score_13a} with 13a, {score_none} with tokenize=none, the multi-bleu.perl "
           "convention on raw text).").format(
            n_13a=COUNT.text(n_13a), n_ws=COUNT.text(n_ws),
            delta=DELTA.text(score_13a - none_exp.score), score_13a=SCORE.text(score_13a),
            score_none=SCORE.text(none_exp.score)),
        tr("Scale: NLTK returns a number in 0..1; it is multiplied by 100 here."),
    ]
    nltk_rows = frame[frame.implementation == "NLTK corpus_bleu"].score.to_numpy()
    ours_rows = frame[(frame.tokenization == "none")].score.to_numpy()
    delta = float(np.max(np.abs(nltk_rows - ours_rows)))
    if any(short):
        listed = ", ".join(tr("{k} for n={n}").format(k=COUNT.text(k), n=n)
                           for n, k in enumerate(short, start=1) if k)
        reasons.append(tr(
            "Short hypotheses: NLTK counts max(1, number of n-grams) in each segment's total, "
            "so a hypothesis with fewer than n tokens adds 1 to the total of order n ({listed}); "
            "sacrebleu adds 0. Largest difference: {delta} BLEU. With those totals our formula "
            "gives {adjusted}, NLTK method0 {nltk}.").format(
            listed=listed, delta=TINY.text(delta), adjusted=EXACT.text(adjusted),
            nltk=EXACT.text(nltk_rows[0])))
    else:
        reasons.append(tr(
            "Same numbers (largest difference {delta} BLEU, float rounding): both clip each "
            "n-gram by its largest count in any one reference, take the reference length "
            "closest to each hypothesis (the shorter on a tie), and apply the same BP.").format(
            delta=TINY.text(delta)))
    counts = none_exp.counts
    if all(counts):
        reasons.append(tr(
            "Smoothing: every order has matches in the corpus totals, so no smoothing method "
            "changes anything here; smoothing matters for single sentences."))
    else:
        zero = [n for n, c in enumerate(counts, start=1) if not c]
        reasons.append(tr(
            "Smoothing: order(s) {orders} have no matches in the whole corpus; NLTK method0 "
            "then uses the smallest float instead of 0 (a score of about 0), the others smooth "
            "as their sacrebleu counterpart.").format(orders=", ".join(map(str, zero))))
    reasons.append(tr("Case: neither side lowercases here; a missing reference (None) is "
                      "dropped from that segment's reference list on the NLTK side."))
    return tuple(reasons)


# --- sentence versus corpus level against MQM ---------------------------------------------------

def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b (ties corrected), by comparing all pairs in blocks; NaN if undefined."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(x)
    if n < 2:
        return math.nan
    balance, block = 0.0, 1024
    for start in range(0, n, block):
        dx = np.sign(x[start : start + block, None] - x[None, :])
        dy = np.sign(y[start : start + block, None] - y[None, :])
        balance += float((dx * dy).sum())
    balance /= 2  # every pair was counted twice (i, j) and (j, i)
    pairs = n * (n - 1) / 2

    def tied(values: np.ndarray) -> float:
        counts = np.unique(values, return_counts=True)[1]
        return float((counts * (counts - 1) / 2).sum())

    denominator = math.sqrt((pairs - tied(x)) * (pairs - tied(y)))
    return balance / denominator if denominator else math.nan


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r; NaN when fewer than 2 points or a constant series."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) < 2 or np.std(x) == 0 or np.std(y) == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


@dataclass(frozen=True)
class MQMCorrelation:
    """Sentence BLEU vs MQM per segment, and corpus BLEU vs MQM per system."""

    segments: pd.DataFrame  # system, segment (1-based), sentence_bleu, mqm: rated segments only
    systems: pd.DataFrame  # system, corpus_bleu, mqm (mean over rated segments)
    segment_tau: float  # pooled over all rated (system, segment) pairs
    segment_tau_grouped: float  # tau across systems within a segment, averaged over segments
    system_tau: float
    system_pearson: float


def mqm_correlation(systems: Systems, references: References, mqm: SegmentScores, *,
                    tokenize: str = "13a", lowercase: bool = False) -> MQMCorrelation:
    """Kendall tau of sentence BLEU with MQM (segments) next to Kendall/Pearson (systems).

    Sentence BLEU uses sacrebleu's sentence defaults (exp smoothing, effective order); corpus
    BLEU is over the whole test set, as WMT reports it; MQM system scores are means over rated
    segments. Only systems in both the data and the MQM file take part.
    """
    matched = [name for name in systems if name in mqm.systems]
    if not matched:
        raise NoMatchingSystemsError(tr(
            "No loaded system has MQM scores in {source}: loaded {systems}, MQM has "
            "{rated}.").format(source=mqm.source, systems=sorted(systems),
                               rated=sorted(mqm.systems)))
    n_segments = len(next(iter(systems.values())))
    if mqm.n_segments > n_segments:
        raise InputError(tr(
            "{source} rates segment {rated}, but the loaded data has {segments} segments: the "
            "MQM file is for another test set.").format(source=mqm.source, rated=mqm.n_segments,
                                                        segments=n_segments))
    sentence = BLEU(tokenize=tokenize, lowercase=lowercase, force=True, effective_order=True,
                    references=references)
    corpus = BLEU(tokenize=tokenize, lowercase=lowercase, force=True, references=references)
    seg_rows, sys_rows = [], []
    for name in matched:
        stats = sentence.segment_stats(list(systems[name]))
        rated = mqm.rated_segments(name)
        human = mqm.scores(name)
        seg_rows += [{"system": name, "segment": int(i) + 1,
                      "sentence_bleu": score_from_stats(stats[i], sentence.options).score,
                      "mqm": float(human[i])} for i in rated]
        corpus_score = corpus.score_stats(stats).score
        sys_rows.append({"system": name, "corpus_bleu": corpus_score,
                         "mqm": mqm.system_score(name)})
    segments, per_system = pd.DataFrame(seg_rows), pd.DataFrame(sys_rows)
    grouped = [kendall_tau_b(g.sentence_bleu, g.mqm) for _, g in segments.groupby("segment")
               if len(g) > 1]
    grouped = [t for t in grouped if not math.isnan(t)]
    return MQMCorrelation(
        segments, per_system,
        kendall_tau_b(segments.sentence_bleu, segments.mqm),
        float(np.mean(grouped)) if grouped else math.nan,
        kendall_tau_b(per_system.corpus_bleu, per_system.mqm),
        pearson(per_system.corpus_bleu, per_system.mqm),
    )


# --- languages without spaces -----------------------------------------------------------------

def segmentation_compare(hypotheses: Sequence[str], references: References, *,
                         tokenizers: Sequence[str] = ("zh", "char", "none")) -> pd.DataFrame:
    """The same output scored with each tokenizer, with token counts and one example segment.

    ``one-token segments`` counts hypotheses that are a single token: unspaced text under
    ``none`` is one "word" per sentence, so almost nothing can match.
    """
    rows = []
    per_tok = {tok: [tokenize_line(h, BLEUOptions(tokenize=tok)) for h in hypotheses]
               for tok in tokenizers}
    # the example: the first segment where the tokenizers disagree most (count of token counts)
    spread = [len({len(per_tok[tok][i]) for tok in tokenizers}) for i in range(len(hypotheses))]
    example = int(np.argmax(spread)) if spread else 0
    for tok in tokenizers:
        tokens = per_tok[tok]
        s = BLEU(tokenize=tok, force=True).corpus_score(hypotheses, references)
        rows.append({"tokenize": tok, "score": s.score, "hyp_tokens": s.sys_len,
                     "ref_tokens": s.ref_len,
                     "tokens per segment": s.sys_len / max(len(hypotheses), 1),
                     "one-token segments": sum(len(t) == 1 for t in tokens),
                     "example": " | ".join(tokens[example][:25]) if tokens else "",
                     "precisions": "/".join(PRECISION.text(p) for p in s.precisions)})
    return pd.DataFrame(rows)

"""The brevity penalty explored: its curve, where systems sit on it, and length what-ifs.

What-ifs change lengths on TOKENS: hypotheses and references are lowercased (if asked) and
tokenized once with the chosen tokenizer, tokens are joined by single spaces, and everything is
then scored with ``tokenize="none"``. Splitting that text on whitespace gives back exactly the
same tokens, so at 0 % the what-if score equals ``corpus_bleu`` with the original tokenizer, and
dropping or repeating a token changes the statistics by exactly that token.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import UnknownOptionError
from ..i18n import tr
from ..metrics.bleu import BLEU
from ..metrics.bleu.engine import tokenize_line
from ..metrics.bleu.explain import explain
from ..metrics.bleu.score import BLEUOptions, brevity_penalty, score_from_stats
from ..metrics.checks import References
from .breakdown import BrevityStep, brevity_step, require_reference

#: default what-if sweep: -50 % .. +50 % in steps of 5
SWEEP = tuple(range(-50, 55, 5))
#: default sentence-length buckets (reference tokens): [0,10), [10,20), ... [50, inf)
LENGTH_EDGES = (0, 10, 20, 30, 40, 50)


def bp_curve(low: float = 0.2, high: float = 1.5, points: int = 131) -> pd.DataFrame:
    """BP = e^(1 - r/c) against the length ratio c/r (1 from c/r >= 1 on), sampled evenly."""
    ratio = np.linspace(low, high, points)
    bp = np.where(ratio < 1, np.exp(1 - 1 / np.maximum(ratio, 1e-12)), 1.0)
    return pd.DataFrame({"ratio": ratio, "bp": bp})


@dataclass(frozen=True)
class SystemLength:
    """Where a system sits on the BP curve."""

    system: str
    sys_len: int
    ref_len: int
    ratio: float
    bp: float
    score: float


def positions_from_stats(stats: Mapping[str, np.ndarray], options: BLEUOptions,
                         ) -> tuple[SystemLength, ...]:
    """Each system's corpus c, r, c/r, BP and BLEU from its segment statistics matrix."""
    out = []
    for name, matrix in stats.items():
        s = score_from_stats(np.asarray(matrix).sum(axis=0), options)
        out.append(SystemLength(name, s.sys_len, s.ref_len, s.ratio, s.bp, s.score))
    return tuple(out)


def zoom_window(positions: Sequence[SystemLength], *, margin: float = 0.15,
                min_width: float = 0.04) -> tuple[float, float]:
    """The c/r range to zoom the BP curve to: the systems' ratios with ``margin`` of their
    spread on each side, at least ``min_width`` wide (corpus ratios often differ by < 0.05).
    When every system is within 0.1 of 1 the window also holds 1, where the curve bends."""
    ratios = [p.ratio for p in positions] or [1.0]
    if all(abs(r - 1) <= 0.1 for r in ratios):
        ratios.append(1.0)
    low, high = min(ratios), max(ratios)
    pad = max((high - low) * margin, (min_width - (high - low)) / 2, 0.0)
    return low - pad, high + pad


def sentence_brevity(hypothesis: str, references: Sequence[str | None], *,
                     tokenize: str = "13a", lowercase: bool = False) -> BrevityStep:
    """c, r, BP and the reason for one sentence, exactly as sentence BLEU computes them."""
    require_reference(references)
    return brevity_step(explain(hypothesis, references, tokenize=tokenize, lowercase=lowercase,
                                max_ngram_order=1))


def _pretokenize(lines: Sequence[str | None], options: BLEUOptions) -> list[list[str] | None]:
    return [None if line is None else tokenize_line(line, options) for line in lines]


def resize(tokens: Sequence[str], percent: float) -> list[str]:
    """Drop (percent < 0) or repeat (percent > 0) final tokens: k = round(len * |percent| / 100).

    Lengthening appends the last k tokens again (cycling through the sentence when k > len).
    """
    length = len(tokens)
    k = math.floor(length * abs(percent) / 100 + 0.5)
    if percent < 0:
        return list(tokens[: max(length - k, 0)])
    if length == 0:
        return []
    return [*tokens, *(tokens[(length - k + i) % length] for i in range(k))]


@dataclass(frozen=True)
class WhatIfPoint:
    """BLEU of one system after every hypothesis was resized by ``percent``."""

    percent: float
    sys_len: int
    ref_len: int
    ratio: float
    bp: float
    score: float
    precisions: tuple[float, ...]


@dataclass(frozen=True)
class WhatIf:
    """A sweep of resizings and the best one: where a shorter output stops paying."""

    points: tuple[WhatIfPoint, ...]
    best: WhatIfPoint  # the highest score (the smallest |percent| on a tie)
    baseline: WhatIfPoint  # percent 0 (computed even when the sweep lacks it)

    def frame(self) -> pd.DataFrame:
        rows = [{"percent": p.percent, "ratio": p.ratio, "bp": p.bp, "score": p.score,
                 **{f"p{n}": v for n, v in enumerate(p.precisions, start=1)}}
                for p in self.points]
        return pd.DataFrame(rows)


def length_whatif(hypotheses: Sequence[str], references: References,
                  percents: Sequence[float] = SWEEP, *, tokenize: str = "13a",
                  lowercase: bool = False, smooth_method: str = "exp",
                  smooth_value: float | None = None, max_ngram_order: int = 4,
                  effective_order: bool = False) -> WhatIf:
    """Corpus BLEU, BP and p_n of one system with every hypothesis shortened/lengthened.

    Each percentage resizes every hypothesis's token list with ``resize``; see the module doc
    for why scoring is done on tokens with ``tokenize="none"``.
    """
    if not percents or any(p < -100 for p in percents):
        raise UnknownOptionError(
            tr("percents must be a non-empty list of numbers >= -100, got {percents}.").format(
                percents=repr(list(percents)))
        )
    options = BLEUOptions(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_ngram_order)
    hyp_tokens = _pretokenize(hypotheses, options)
    refs = [[None if t is None else " ".join(t) for t in _pretokenize(stream, options)]
            for stream in references]
    metric = BLEU(tokenize="none", force=True, smooth_method=smooth_method,
                  smooth_value=smooth_value, max_ngram_order=max_ngram_order,
                  effective_order=effective_order, references=refs)

    def point(percent: float) -> WhatIfPoint:
        resized = [" ".join(resize(tokens or [], percent)) for tokens in hyp_tokens]
        s = metric.corpus_score(resized)
        return WhatIfPoint(float(percent), s.sys_len, s.ref_len, s.ratio, s.bp, s.score,
                           s.precisions)

    points = tuple(point(p) for p in percents)
    best = max(points, key=lambda p: (p.score, -abs(p.percent)))
    baseline = next((p for p in points if p.percent == 0), None) or point(0)
    return WhatIf(points, best, baseline)


def length_buckets(systems: Mapping[str, Sequence[str]], references: References, *,
                   edges: Sequence[int] = LENGTH_EDGES, tokenize: str = "13a",
                   lowercase: bool = False) -> pd.DataFrame:
    """Length ratio Σc/Σr per sentence-length bucket per system.

    A segment's bucket is the token length of its first reference (the same buckets for every
    system); c and r are the BP's lengths (r: the closest reference length).
    """
    options = BLEUOptions(tokenize=tokenize, lowercase=lowercase)
    first = [next((stream[i] for stream in references if stream[i] is not None), "")
             for i in range(len(references[0]))]
    lengths = np.array([len(tokenize_line(line, options)) for line in first])
    labels = [f"{lo}–{hi - 1}" for lo, hi in itertools.pairwise(edges)]
    labels.append(f"{edges[-1]}+")
    bucket = np.searchsorted(np.asarray(edges), lengths, side="right") - 1
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, references=references, force=True)
    rows = []
    for name, hyps in systems.items():
        stats = metric.segment_stats(list(hyps))
        for b, label in enumerate(labels):
            mask = bucket == b
            c, r = int(stats[mask, 0].sum()), int(stats[mask, 1].sum())
            rows.append({"system": name, "bucket": label, "segments": int(mask.sum()),
                         "sys_len": c, "ref_len": r, "ratio": c / r if r else math.nan,
                         "bp": brevity_penalty(c, r) if r else math.nan})
    return pd.DataFrame(rows)

"""Where BLEU and another metric disagree: the systems the two rank most differently, and the
segments one scores high and the other low (each score placed among its own metric's, so a
0..100 BLEU and a 0..1 COMET compare), best first by the size of the disagreement."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputError
from ..evaluation.scores import MetricScores
from ..i18n import tr

SYSTEM, SEGMENT, GAP = "system", "id", "gap"


def _positions(scores: MetricScores, systems: list[str]) -> dict[str, int]:
    """Each system's place (1 = best) by ``scores``, among ``systems``."""
    ranked = [name for name in scores.ranked if name in systems]
    return {name: place for place, name in enumerate(ranked, start=1)}


def system_disagreement(first: MetricScores, second: MetricScores) -> pd.DataFrame:
    """One row per system both metrics score: its place by each (1 = best, each in its own
    direction), the difference (second's place − first's), both scores; the systems the two
    place furthest apart first."""
    systems = [name for name in first.scores if name in second.scores]
    if len(systems) < 2:
        raise InputError(tr("{first} and {second} score {count} system(s) in common; comparing "
                            "their rankings needs two.").format(
            first=first.metric, second=second.metric, count=len(systems)))
    place_first, place_second = _positions(first, systems), _positions(second, systems)
    frame = pd.DataFrame({
        SYSTEM: systems,
        f"{first.metric} place": [place_first[name] for name in systems],
        f"{second.metric} place": [place_second[name] for name in systems],
        first.metric: [first.scores[name] for name in systems],
        second.metric: [second.scores[name] for name in systems]})
    frame["place difference"] = frame[f"{second.metric} place"] - frame[f"{first.metric} place"]
    order = np.lexsort((frame[f"{first.metric} place"], -frame["place difference"].abs()))
    return frame.iloc[order].reset_index(drop=True)


def percentiles(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Each value's place among the others as a fraction (0 worst .. 1 best; ties share the
    mean of their places); NaN stays NaN."""
    values = np.asarray(values, dtype=float)
    out = np.full(len(values), np.nan)
    rated = np.flatnonzero(~np.isnan(values))
    if len(rated) == 0:
        return out
    oriented = values[rated] if higher_is_better else -values[rated]
    ranks = pd.Series(oriented).rank(method="average").to_numpy()
    out[rated] = (ranks - 1) / max(len(rated) - 1, 1)
    return out


def segment_disagreement(first: np.ndarray, second: np.ndarray, *, first_name: str = "BLEU",
                         second_name: str = "metric", first_higher: bool = True,
                         second_higher: bool = True, k: int = 20) -> pd.DataFrame:
    """The ``k`` segments (rated by both) whose places among all segments differ most between
    the two metrics: columns ``id`` (1-based), both scores, both places (0 worst .. 1 best) and
    ``gap`` (second's place − first's: positive where the second metric likes the segment
    more than the first does)."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if first.shape != second.shape:
        raise InputError(tr("{n_first} {first} scores against {n_second} {second} scores: give "
                            "one of each per segment.").format(
            n_first=len(first), first=first_name, n_second=len(second), second=second_name))
    both = ~np.isnan(first) & ~np.isnan(second)
    if both.sum() < 2:
        raise InputError(tr("Fewer than 2 segments have both a {first} and a {second} score: "
                            "nothing to compare.").format(first=first_name, second=second_name))
    rated = np.flatnonzero(both)
    place_first = percentiles(first[rated], first_higher)
    place_second = percentiles(second[rated], second_higher)
    gap = place_second - place_first
    order = np.argsort(-np.abs(gap), kind="stable")[:k]
    return pd.DataFrame({
        SEGMENT: rated[order] + 1, first_name: first[rated][order],
        second_name: second[rated][order], f"{first_name} place": place_first[order],
        f"{second_name} place": place_second[order], GAP: gap[order]})

"""Meta-evaluation beside the correlations: how often a metric orders pairs as humans do.

Pairwise accuracy (Kocmi et al. 2021, "To Ship or Not to Ship"): of every pair of systems, the
fraction the metric orders as the human scores do, a pair tied in both counting as agreed.
Deutsch, Foster and Freitag (2023, "Ties Matter") carry it to segments, where ties are common:
acc_eq = (concordant + tied in both) / pairs and tau_eq = (concordant + tied in both - the
others) / pairs, and *tie calibration* picks the threshold epsilon below which two metric scores
count as tied, the one that maximises the statistic.

Definitions as mt-metrics-eval (github.com/google-research/mt-metrics-eval, commit 68a481a)
implements them, read there and written anew: ``stats.Agreement`` (the system-level accuracy,
which is acc_eq at epsilon 0), ``stats.KendallVariants`` (variants "acc23" = acc_eq, "23" =
tau_eq, "b"; metric pairs with ``|difference| <= epsilon`` tie, human pairs only when equal) and
``stats.KendallWithTiesOpt`` / ``tau_optimization.tau_optimization`` with ``sample_rate=1``
(every pair, as its WMT23 and WMT24 task sets run it): the candidates are 0 and every pair's
metric difference, the statistic is the plain mean over groups, the first maximum wins. Here the
search counts in integers, so equal values tie exactly (mt-metrics-eval's running float sum can
let rounding pick a larger epsilon among equals).

Grouping is its ``average_by``: "none" pools every (system, segment) point, "item" compares the
systems on each segment and averages over segments (WMT's segment-level choice), "system"
compares each system's segments and averages over systems. Unrated points (NaN in either
series) are dropped; a group left with fewer than two points is left out of the mean.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..display.formatting import COUNT
from ..errors import InputError
from ..i18n import tr
from .correlation import ArrayLike, PairCounts, pair_counts, system_level_external

#: our names of the statistics, with mt-metrics-eval's variant name for each
STATISTICS = {"acc_eq": "acc23", "tau_eq": "23"}
#: mt-metrics-eval's ``average_by`` values, "system" for its "sys"
GROUPINGS = ("none", "item", "system")
#: Kendall variants computed from pair counts, named as in mt-metrics-eval
KENDALL_VARIANTS = ("acc23", "23", "b")
#: tie calibration keeps every pair in memory (about 40 bytes each): refuse beyond this
MAX_CALIBRATION_PAIRS = 10_000_000

Rows = list[tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class MetaEvaluation:
    """One metric's agreement with the human scores on pairs, at one level and grouping."""

    metric: str
    level: str  # "system" or "segment"
    statistic: str  # "acc_eq" or "tau_eq"
    grouping: str  # "none", "item" or "system"
    value: float
    epsilon: float  # metric differences up to this count as ties (0: equal scores only)
    calibrated: bool  # epsilon chosen here, to maximise value
    pairs: int  # pairs compared, over all groups
    groups: int  # groups averaged (1 without grouping)


@dataclass(frozen=True)
class TieCalibration:
    """The calibrated result and the whole search: the statistic at each candidate epsilon."""

    best: MetaEvaluation
    thresholds: np.ndarray = field(compare=False, repr=False)
    values: np.ndarray = field(compare=False, repr=False)

    def curve(self) -> pd.DataFrame:
        """One row per candidate epsilon, ascending: epsilon and the statistic there."""
        return pd.DataFrame({"epsilon": self.thresholds, self.best.statistic: self.values})


def kendall_variant(metric: ArrayLike, human: ArrayLike, variant: str = "acc23",
                    epsilon: float = 0.0) -> float:
    """mt-metrics-eval's ``KendallVariants(human, metric, variant, epsilon)`` on two series."""
    return _from_counts(pair_counts(metric, human, epsilon), _known(variant, KENDALL_VARIANTS,
                                                                    "Kendall variant"))


def system_pairwise_accuracy(metric: str, corpus_scores: Mapping[str, float],
                             external: Mapping[str, ArrayLike], *, statistic: str = "acc_eq",
                             epsilon: float = 0.0, metric_higher_is_better: bool = True,
                             human_higher_is_better: bool = True) -> MetaEvaluation:
    """System level: corpus scores against the mean rated external score of each system.

    At epsilon 0, acc_eq is Kocmi et al.'s pairwise accuracy. Systems in only one mapping, or
    with no rated segment, are left out; fewer than 2 left is an error.
    """
    _known(statistic, tuple(STATISTICS), "statistic")
    _check_epsilon(epsilon)
    rows = _system_rows(metric, corpus_scores, external, metric_higher_is_better,
                        human_higher_is_better)
    return _evaluate(metric, "system", rows, statistic, "none", epsilon)


def segment_pairwise_accuracy(metric: str, metric_scores: Mapping[str, ArrayLike],
                              external: Mapping[str, ArrayLike], *, statistic: str = "acc_eq",
                              grouping: str = "item", epsilon: float = 0.0,
                              metric_higher_is_better: bool = True,
                              human_higher_is_better: bool = True) -> MetaEvaluation:
    """Segment level: each system's segment scores against its external ones (NaN: unrated).

    Give the epsilon calibrated on other data to apply it here; systems in only one mapping
    are left out.
    """
    _known(statistic, tuple(STATISTICS), "statistic")
    _check_epsilon(epsilon)
    rows = _segment_rows(metric, metric_scores, external, grouping, metric_higher_is_better,
                         human_higher_is_better)
    return _evaluate(metric, "segment", rows, statistic, grouping, epsilon)


def system_tie_calibration(metric: str, corpus_scores: Mapping[str, float],
                           external: Mapping[str, ArrayLike], *, statistic: str = "acc_eq",
                           metric_higher_is_better: bool = True,
                           human_higher_is_better: bool = True) -> TieCalibration:
    """``system_pairwise_accuracy`` at the epsilon that maximises it."""
    _known(statistic, tuple(STATISTICS), "statistic")
    rows = _system_rows(metric, corpus_scores, external, metric_higher_is_better,
                        human_higher_is_better)
    return _calibrate(metric, "system", rows, statistic, "none", MAX_CALIBRATION_PAIRS)


def segment_tie_calibration(metric: str, metric_scores: Mapping[str, ArrayLike],
                            external: Mapping[str, ArrayLike], *, statistic: str = "acc_eq",
                            grouping: str = "item", metric_higher_is_better: bool = True,
                            human_higher_is_better: bool = True,
                            max_pairs: int = MAX_CALIBRATION_PAIRS) -> TieCalibration:
    """``segment_pairwise_accuracy`` at the epsilon that maximises it, searched over every pair
    (grouping "none" on many segments has millions: ``max_pairs`` refuses beyond)."""
    _known(statistic, tuple(STATISTICS), "statistic")
    rows = _segment_rows(metric, metric_scores, external, grouping, metric_higher_is_better,
                         human_higher_is_better)
    return _calibrate(metric, "segment", rows, statistic, grouping, max_pairs)


def meta_evaluation_table(results: Sequence[MetaEvaluation]) -> pd.DataFrame:
    """One row per result: metric, level, statistic, grouping, value, epsilon, calibrated,
    pairs, groups."""
    columns = ["metric", "level", "statistic", "grouping", "value", "epsilon", "calibrated",
               "pairs", "groups"]
    return pd.DataFrame([{name: getattr(r, name) for name in columns} for r in results],
                        columns=columns)


def _known(value: str, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise InputError(tr("Unknown {what} {value!r}: use one of {allowed}.").format(
            what=what, value=value, allowed=", ".join(allowed)))
    return value


def _check_epsilon(epsilon: float) -> None:
    if not epsilon >= 0:
        raise InputError(tr("The tie threshold epsilon must be 0 or more, found {epsilon}.")
                         .format(epsilon=epsilon))


def _from_counts(counts: PairCounts, variant: str) -> float:
    pairs = counts.pairs
    if pairs == 0:
        return math.nan
    agreed = counts.concordant + counts.ties_both
    if variant == "acc23":
        return agreed / pairs
    if variant == "23":
        return (2 * agreed - pairs) / pairs
    tied_metric = counts.ties_metric + counts.ties_both
    tied_human = counts.ties_human + counts.ties_both
    if pairs in (tied_metric, tied_human):
        return math.nan
    return ((counts.concordant - counts.discordant) / math.sqrt(pairs - tied_metric)
            / math.sqrt(pairs - tied_human))


def _oriented(values: ArrayLike, higher_is_better: bool) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return values if higher_is_better else -values


def _system_rows(metric: str, corpus_scores: Mapping[str, float],
                 external: Mapping[str, ArrayLike], metric_higher: bool,
                 human_higher: bool) -> Rows:
    means = system_level_external(external)
    names = [name for name in corpus_scores if name in means
             and not math.isnan(means[name]) and not math.isnan(float(corpus_scores[name]))]
    if len(names) < 2:
        raise InputError(tr(
            "Pairwise accuracy compares systems two by two: it needs at least 2 systems with a "
            "{metric} score and rated external scores, found {count}{names} ({metric} has "
            "{scored}, the external scores have {rated}).").format(
                metric=metric, count=len(names), names=": " + ", ".join(names) if names else "",
                scored=sorted(corpus_scores), rated=sorted(external)))
    return [(_oriented([corpus_scores[name] for name in names], metric_higher),
             _oriented([means[name] for name in names], human_higher))]


def _segment_rows(metric: str, metric_scores: Mapping[str, ArrayLike],
                  external: Mapping[str, ArrayLike], grouping: str, metric_higher: bool,
                  human_higher: bool) -> Rows:
    _known(grouping, GROUPINGS, "grouping")
    systems = [name for name in metric_scores if name in external]
    if not systems:
        raise InputError(tr("No system has both {metric} and external scores: {metric} has "
                            "{scored}, the external scores have {rated}.").format(
                                metric=metric, scored=sorted(metric_scores),
                                rated=sorted(external)))
    scores = [np.asarray(metric_scores[name], dtype=float) for name in systems]
    human = [np.asarray(external[name], dtype=float) for name in systems]
    for name, x, y in zip(systems, scores, human, strict=True):
        if x.ndim != 1 or x.shape != y.shape or x.shape != scores[0].shape:
            raise InputError(tr(
                "{name}: {count} {metric} scores and {external} external scores, while {first} "
                "has {first_count}: every system needs one score per segment in both.").format(
                    name=name, count=x.size, metric=metric, external=y.size, first=systems[0],
                    first_count=scores[0].size))
    x = _oriented(np.stack(scores), metric_higher)
    y = _oriented(np.stack(human), human_higher)
    if grouping == "none":
        x, y = x.reshape(1, -1), y.reshape(1, -1)
    elif grouping == "item":
        x, y = x.T, y.T
    rows = []
    for xs, ys in zip(x, y, strict=True):
        rated = ~(np.isnan(xs) | np.isnan(ys))
        if rated.sum() >= 2:
            rows.append((xs[rated], ys[rated]))
    if not rows:
        message = {"none": tr("The test set has no two points with both a {metric} and an "
                              "external score: nothing to compare in pairs."),
                   "item": tr("No segment has two systems with both a {metric} and an external "
                              "score: nothing to compare in pairs (grouping by item)."),
                   "system": tr("No system has two segments with both a {metric} and an "
                                "external score: nothing to compare in pairs (grouping by "
                                "system).")}[grouping]
        raise InputError(message.format(metric=metric))
    return rows


def _evaluate(metric: str, level: str, rows: Rows, statistic: str, grouping: str,
              epsilon: float) -> MetaEvaluation:
    variant = STATISTICS[statistic]
    counts = [pair_counts(x, y, epsilon) for x, y in rows]
    value = sum(_from_counts(c, variant) for c in counts) / len(counts)
    return MetaEvaluation(metric, level, statistic, grouping, value, float(epsilon), False,
                          sum(c.pairs for c in counts), len(counts))


def _pair_differences(x: np.ndarray, y: np.ndarray):
    """The differences ``x[i] - x[j]`` and ``y[i] - y[j]`` of every pair i < j, in chunks of at
    most half a million pairs (a large group: one point against those after it)."""
    if len(x) <= 1000:
        first, second = np.triu_indices(len(x), 1)
        yield x[first] - x[second], y[first] - y[second]
    else:
        for i in range(len(x) - 1):
            yield x[i] - x[i + 1:], y[i] - y[i + 1:]


def _calibrate(metric: str, level: str, rows: Rows, statistic: str, grouping: str,
               max_pairs: int) -> TieCalibration:
    """The search of ``tau_optimization``, in whole numbers.

    Every group's statistic is a count over its pairs, so the mean over groups is
    ``numerator / (groups * common)`` with ``common`` the least common multiple of the group
    sizes. Raising epsilon past a pair's metric difference turns it into a metric tie: a
    concordant pair stops agreeing (acc_eq -1, tau_eq -2), a pair tied in the human scores only
    starts to (+1, +2), any other pair changes nothing.
    """
    factor = {"acc_eq": 1, "tau_eq": 2}[statistic]
    sizes = [len(x) * (len(x) - 1) // 2 for x, _ in rows]
    if sum(sizes) > max_pairs:
        raise InputError(tr(
            "Tie calibration compares every pair: {pairs} here, more than {limit}. Group by item "
            "(each segment's systems), or calibrate on fewer segments.").format(
                pairs=COUNT.text(sum(sizes)), limit=COUNT.text(max_pairs)))
    common = math.lcm(*set(sizes))
    whole = 2 * len(rows) * common < 2**62  # else Python integers, which do not overflow
    diff, step = np.empty(sum(sizes)), np.empty(sum(sizes), dtype=np.int8)
    numerator, position = 0, 0
    for (x, y), size in zip(rows, sizes, strict=True):
        agreed = 0
        for metric_delta, human_delta in _pair_differences(x, y):
            human_tie, metric_tie = human_delta == 0, metric_delta == 0
            concordant = ~human_tie & ~metric_tie & ((human_delta > 0) == (metric_delta > 0))
            agreed += int(concordant.sum()) + int((human_tie & metric_tie).sum())
            end = position + len(metric_delta)
            diff[position:end] = np.abs(metric_delta)
            step[position:end] = (human_tie & ~metric_tie).view(np.int8) - concordant.view(np.int8)
            position = end
        numerator += (agreed if factor == 1 else 2 * agreed - size) * (common // size)
    order = np.argsort(diff)
    diff = diff[order]
    if len(rows) == 1:  # common is the one group's size: every step weighs 1
        running = np.cumsum(step[order], dtype=np.int64)
    else:
        scales = np.array([common // size for size in sizes], dtype=np.int64 if whole else object)
        running = np.cumsum(step[order].astype(scales.dtype) * np.repeat(scales, sizes)[order])
    running = running * factor + numerator
    last = np.r_[diff[1:] != diff[:-1], True]
    thresholds, numerators = diff[last], running[last]
    if thresholds[0] != 0:
        thresholds = np.r_[0.0, thresholds]
        numerators = np.concatenate([np.array([numerator], dtype=numerators.dtype), numerators])
    best = int(np.argmax(numerators))  # the first maximum: the smallest epsilon among equals
    denominator = len(rows) * common
    values = (numerators / denominator).astype(float)
    values[best] = int(numerators[best]) / denominator
    result = MetaEvaluation(metric, level, statistic, grouping, float(values[best]),
                            float(thresholds[best]), True, sum(sizes), len(rows))
    return TieCalibration(result, thresholds, values)

"""What every significance test shares: its defaults (sacrebleu's), the checks of its
arguments and statistics, the order of the systems (the baseline first), a metric's scorer,
the signature fields a test adds, and progress reported once per block."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from ...errors import InputError, LengthMismatchError, UnknownOptionError
from ..base import Progress, StatsScorer

#: sacrebleu's defaults: resamples for the bootstrap, trials for approximate randomization
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}


#: sacrebleu's default seed of every resampling (its SACREBLEU_SEED)
DEFAULT_SEED = 12345


#: bootstrap resamples for the AR confidence interval when ``n_confidence=0`` (as sacrebleu)
DEFAULT_CONFIDENCE_SAMPLES = 1000


class TooFewSystemsError(InputError):
    """A paired test or comparison was given fewer than two systems."""


class StatisticsShapeError(InputError):
    """A statistics matrix does not have one row per segment and the columns the metric needs."""


class Reporter:
    """Forwards the fraction of work done to a callback, once per block (never per resample)."""

    def __init__(self, callback: Progress | None, total: int, start: float = 0.0,
                 stop: float = 1.0) -> None:
        self.callback, self.total, self.done = callback, max(total, 1), 0
        self.start, self.stop = start, stop

    def advance(self, units: int) -> None:
        self.done += units
        if self.callback is not None:
            fraction = min(self.done / self.total, 1.0)
            self.callback(self.start + (self.stop - self.start) * fraction)

    def finish(self) -> None:
        if self.callback is not None:
            self.callback(self.stop)


class ScorerSource(Protocol):
    """What names a metric's scorer without being one: a metric's options (``BLEUOptions``)."""

    def scorer(self) -> StatsScorer: ...


def as_scorer(metric: StatsScorer | ScorerSource) -> StatsScorer:
    """The scorer of summed statistics: a ``StatsScorer`` as it is, else the one a metric's
    options name (``BLEUOptions().scorer()``); no metric is known here by name."""
    return metric if isinstance(metric, StatsScorer) else metric.scorer()


def check_samples(value: Any, what: str = "n_samples") -> int:
    """A resample or trial count: an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise UnknownOptionError(f"{what} must be an integer >= 1, got {value!r}.")
    return int(value)


def confidence_samples(n_confidence: Any) -> int:
    """sacrebleu's ``n_ar_confidence``: negative disables the interval, 0 means 1000."""
    if isinstance(n_confidence, bool) or not isinstance(n_confidence, int | np.integer):
        raise UnknownOptionError(f"n_confidence must be an integer, got {n_confidence!r}.")
    if n_confidence == 0:
        return DEFAULT_CONFIDENCE_SAMPLES
    return max(int(n_confidence), 0)


def resolve_seed(seed: int | None) -> int:
    """The seed in effect; None draws one fresh seed, shared by every system of the call."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise UnknownOptionError(f"seed must be a non-negative integer or None, got {seed!r}.")
    return int(seed)


def check_matrix(stats: Any, scorer: StatsScorer, name: str) -> np.ndarray:
    matrix = np.asarray(stats)
    if matrix.ndim != 2 or matrix.shape[1] != scorer.columns:
        raise StatisticsShapeError(
            f"The {scorer.name} statistics of {name} have shape {matrix.shape}; expected "
            f"(segments, {scorer.columns}), one row per segment."
        )
    if len(matrix) == 0:
        raise StatisticsShapeError(f"The statistics of {name} have no segment.")
    return matrix


def check_system_names(systems: Any, baseline: str | None) -> list[str]:
    if not isinstance(systems, Mapping):
        raise TooFewSystemsError(
            f"systems must be a dict of name -> system, got {type(systems).__name__}."
        )
    names = list(systems)
    if len(names) < 2:
        raise TooFewSystemsError(
            "A paired test needs at least 2 systems (a baseline and one to compare); "
            f"got {len(names)}: {', '.join(map(repr, names)) or 'none'}."
        )
    if baseline is None:
        return names
    if baseline not in systems:
        raise UnknownOptionError(
            f"The baseline {baseline!r} is not one of the systems: {', '.join(map(repr, names))}."
        )
    return [baseline, *(name for name in names if name != baseline)]


def ordered_systems(stats: Mapping[str, Any], scorer: StatsScorer, baseline: str | None,
                     ) -> tuple[list[str], list[np.ndarray]]:
    """Names and matrices with the baseline first, the others in the given order; validated."""
    names = check_system_names(stats, baseline)
    matrices = [check_matrix(stats[name], scorer, f"system {name!r}") for name in names]
    for name, matrix in zip(names[1:], matrices[1:], strict=True):
        if len(matrix) != len(matrices[0]):
            raise LengthMismatchError(
                f"System {name!r} has {len(matrix)} segments, but {names[0]!r} has "
                f"{len(matrices[0])}; a paired test compares systems segment by segment."
            )
    return names, matrices


def resampling_fields(method: str, n_samples: int, seed: int | None,
                      n_confidence: int = -1) -> dict[str, Any]:
    """The signature fields a paired test or CI adds, as sacrebleu adds them: ``bs:`` or
    ``ar:`` with its count, ``seed:``, and for AR with a CI ``bs:`` too."""
    if method not in DEFAULT_SAMPLES:
        raise UnknownOptionError(f"Unknown method {method!r}; expected 'bs' or 'ar'.")
    fields: dict[str, Any] = {method: n_samples, "seed": str(seed).lower()}
    if method == "ar" and confidence_samples(n_confidence):
        fields["bs"] = confidence_samples(n_confidence)
    return fields


def p_value(trials: np.ndarray, real: float) -> float:
    """(c + 1) / (N + 1), c the trials strictly above the real statistic (after multeval)."""
    return (int(np.count_nonzero(trials > real)) + 1) / (len(trials) + 1)

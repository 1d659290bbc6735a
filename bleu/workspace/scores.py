"""Segment scores in a workspace: ``SegmentScores`` (what the app computes with) to and from
``SavedScores`` (plain values), and to and from the JSON the database keeps.

Since schema version 4 the ``external_scores`` column holds a JSON list, one object per metric
(``label``, ``higher_is_better``, ``source``, ``scores``: system -> one score per segment, null
where not rated). Workspaces saved before hold a JSON object, metric -> system -> scores, with no
direction or source: they are read with the direction guessed from the label, as a new file is.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..metrics.segment.scores import SegmentScores, lower_is_better
from .model import SavedScores

#: the source of scores saved before their source was kept (schema versions 2 and 3)
EARLIER_SOURCE = "a workspace saved before sources were kept"


def to_saved(scores: SegmentScores, aliases: Mapping[str, str] | None = None) -> SavedScores:
    """``scores`` as a workspace keeps them: systems named as loaded (``aliases``: the file's
    name -> the loaded system's), NaN as None, direction and source kept."""
    aliases = aliases or {}
    return SavedScores(
        scores.label,
        {aliases.get(name, name): tuple(None if math.isnan(value) else float(value)
                                        for value in row)
         for name, row in scores.by_system().items()},
        bool(scores.higher_is_better), scores.source)


def from_saved(saved: SavedScores) -> SegmentScores:
    """The ``SegmentScores`` a workspace's saved scores stand for (a read-only matrix, NaN where
    a segment is not rated)."""
    width = max((len(values) for values in saved.scores.values()), default=0)
    matrix = np.full((len(saved.scores), width), np.nan)
    for row, values in enumerate(saved.scores.values()):
        matrix[row, :len(values)] = [np.nan if value is None else value for value in values]
    matrix.setflags(write=False)
    return SegmentScores(saved.label, tuple(saved.scores), matrix, saved.source,
                         saved.higher_is_better)


def collect(scores: Mapping[str, SegmentScores],
            aliases: Mapping[str, Mapping[str, str]] | None = None) -> tuple[SavedScores, ...]:
    """Every metric a session holds (label -> scores as read), as a workspace saves them, in
    order: each with its systems renamed by its ``aliases`` (label -> {the file's name -> the
    loaded system's})."""
    aliases = aliases or {}
    return tuple(dataclasses.replace(to_saved(found, aliases.get(label)), label=label)
                 for label, found in scores.items())


def encode(saved: Iterable[SavedScores]) -> list[dict[str, Any]]:
    """The JSON value the database keeps for a workspace's scores (schema version 4 on)."""
    return [{"label": one.label, "higher_is_better": one.higher_is_better,
             "source": one.source,
             "scores": {system: list(values) for system, values in one.scores.items()}}
            for one in saved]


def decode(value: Any) -> tuple[SavedScores, ...]:
    """A workspace's scores from their JSON value: a list (version 4 on), or the object
    (metric -> system -> scores) of workspaces saved before, direction guessed from the label."""
    if isinstance(value, Mapping):
        return tuple(SavedScores(label, _scores(by_system), not lower_is_better(label),
                                 EARLIER_SOURCE)
                     for label, by_system in value.items())
    return tuple(SavedScores(one["label"], _scores(one["scores"]),
                             bool(one["higher_is_better"]), str(one["source"]))
                 for one in value)


def _scores(by_system: Mapping[str, Iterable[float | None]]) -> dict[str, tuple[float | None,
                                                                                ...]]:
    return {system: tuple(values) for system, values in by_system.items()}

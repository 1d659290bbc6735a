"""The learned metrics, each declared once: its name, family, direction, what it reads, its
options and the factory that loads its model. The app, the command line and the results read
the direction (and the rest) from here; nothing else says whether higher is better.

Each entry has the fields of ``bleu.evaluation.registry``'s metric declarations, so that
registering a learned metric there is this one entry. Adding a learned metric: its module (a
scorer: ``segment_texts``, ``estimate``, ``compute``, ``signature``), one entry here, its tests
and its catalog strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import UnknownOptionError
from ...i18n import tr


@dataclass(frozen=True)
class LearnedMetricSpec:
    """One learned metric: ``factory(model, **options)`` loads a scorer for it."""

    name: str
    family: str
    higher_is_better: bool
    needs_source: bool
    needs_reference: bool
    factory: Callable[..., Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    reads_reference: bool = True  # takes one when given (MetricX: hybrid)


def _comet(model: str, **options: Any) -> Any:
    from .comet import load_comet

    return load_comet(model, **options)


def _bertscore(model: str, **options: Any) -> Any:
    from .bertscore import BertScoreScorer

    return BertScoreScorer(model, **options)


def _metricx(model: str, **options: Any) -> Any:
    from .metricx import MetricXScorer

    return MetricXScorer(model, **options)


LEARNED = (
    LearnedMetricSpec("COMET", "learned", True, needs_source=True, needs_reference=True,
                      factory=_comet, options={"device": None, "batch_size": 32}),
    LearnedMetricSpec("BERTScore", "learned", True, needs_source=False, needs_reference=True,
                      factory=_bertscore,
                      options={"num_layers": None, "device": None, "batch_size": 32}),
    LearnedMetricSpec("MetricX", "learned", False, needs_source=True, needs_reference=False,
                      factory=_metricx,
                      options={"device": None, "batch_size": 32, "max_length": 1536}),
)


def names() -> tuple[str, ...]:
    return tuple(spec.name for spec in LEARNED)


def spec(name: str) -> LearnedMetricSpec:
    """The declaration of learned metric ``name`` (UnknownOptionError naming the known ones)."""
    for found in LEARNED:
        if found.name.lower() == name.lower():
            return found
    raise UnknownOptionError(tr("No learned metric is called {name!r}; known: {known}.")
                             .format(name=name, known=", ".join(names())))


def load_scorer(name: str, model: str, **options: Any) -> Any:
    """A scorer of learned metric ``name`` for ``model`` (the slow part: a model loads)."""
    return spec(name).factory(model, **options)

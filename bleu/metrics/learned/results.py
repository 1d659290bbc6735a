"""A learned metric's scores: per system, one float64 per segment (and error spans where the
model marks them), the model that gave them, and the system score as COMET reports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..segment.scores import SegmentScores


@dataclass(frozen=True)
class ErrorSpan:
    """A stretch of the translation a model (xCOMET) marks as an error: characters
    ``start:end`` of the segment, the model's ``text`` for them, severity and confidence."""

    start: int
    end: int
    severity: str
    text: str
    confidence: float


@dataclass(frozen=True)
class SystemScores:
    """One system's segment scores (read-only float64), error spans per segment (empty tuples
    where the model marks none; None where it never does), and other per-segment arrays the
    model gives (BERTScore's ``precision`` and ``recall``)."""

    name: str
    scores: np.ndarray
    spans: tuple[tuple[ErrorSpan, ...], ...] | None = None
    components: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def system_score(self) -> float:
        """The mean of the segment scores, summed in segment order as COMET's
        ``sum(scores) / len(scores)``."""
        values = self.scores.tolist()
        return sum(values) / len(values) if values else float("nan")


@dataclass(frozen=True)
class LearnedScores:
    """Every system's scores under one model. ``model`` is what the user named (a folder or a
    Hugging Face name), ``model_path`` where it was found, ``model_version`` the snapshot's
    commit or a fingerprint of the files, ``library`` the computing library and its version,
    ``signature`` all of that and the settings in one line (shown beside every score)."""

    metric: str
    model: str
    model_path: str
    model_version: str
    library: str
    systems: tuple[SystemScores, ...]
    computed: int
    cached: int
    signature: str = ""  # ``LearnedSignature`` as text: what reproduces these scores

    @property
    def label(self) -> str:
        """What tables and charts call these scores: ``COMET (Unbabel/wmt22-comet-da)``."""
        return f"{self.metric} ({self.model})"

    def system(self, name: str) -> SystemScores:
        """One system's scores, by name (KeyError for another name)."""
        for system in self.systems:
            if system.name == name:
                return system
        raise KeyError(name)

    def to_segment_scores(self, label: str | None = None, *,
                          higher_is_better: bool = True) -> SegmentScores:
        """The scores as a segment-score metric, tested for significance like any other, under
        ``label`` (default: ``self.label``)."""
        from ..segment.scores import SegmentScores

        matrix = np.vstack([system.scores for system in self.systems])
        matrix.setflags(write=False)
        return SegmentScores(label or self.label, tuple(s.name for s in self.systems), matrix,
                             source=self.signature or self.model_path,
                             higher_is_better=higher_is_better)

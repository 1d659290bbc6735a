"""Learned metrics computed from a model on disk (the ``learned`` extra): COMET, BERTScore and
MetricX-24, natively on torch and transformers (xCOMET and CometKiwi through unbabel-comet, an
extra of their own), each declared once in ``bleu.evaluation.registry`` (its direction too).

Load a scorer once (``load_comet``, ``BertScoreScorer``, ``MetricXScorer``: the
slow part, minutes for a large model); ``plan`` times one batch and says what is cached and what
the rest should take; ``score`` looks cached segments up and computes the rest, each distinct
text once, on the GPU when torch sees one, with progress and a way to stop. Nothing here
downloads; nothing here imports torch before a scorer is made; checkpoints are read as tensors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .bertscore import BertScoreScorer
from .cache import CachedScore, MemoryScoreCache, ScoreCache, segment_key
from .checkpoints import UnsafeCheckpointError
from .comet import CometScorer
from .loading import load_comet
from .metricx import MetricXScorer
from .models import FoundModel, find_model
from .offered import ModelNotOfferedError, OfferedModel, offered_models, resolve
from .progress import (
    ESTIMATE_METHOD,
    Cancel,
    Estimate,
    Progress,
    ProgressCallback,
    ScoringCancelled,
)
from .results import ErrorSpan, LearnedScores, SystemScores
from .runner import Plan, Scorer, plan, run
from .signature import LearnedSignature


def score(scorer: Scorer, systems: Mapping[str, Sequence[str]], *,
          sources: Sequence[str] | None = None,
          references: Sequence[Sequence[str | None]] = (), cache: ScoreCache | None = None,
          progress: ProgressCallback | None = None,
          cancel: Cancel | None = None) -> LearnedScores:
    """Every system's segment scores under ``scorer``. ``references`` are streams, as for BLEU
    (COMET reads the first); ``cache`` keeps scores across calls (a fresh memory cache when
    None); ``progress`` is called before the first batch (with the estimate) and after each;
    ``cancel`` is checked after each batch (ScoringCancelled; finished batches stay cached)."""
    return run(scorer, systems, sources=sources, references=references, cache=cache,
               progress=progress, cancel=cancel)


__all__ = [
    "ESTIMATE_METHOD", "BertScoreScorer", "CachedScore", "Cancel", "CometScorer",
    "ErrorSpan", "Estimate", "FoundModel", "LearnedScores",
    "LearnedSignature", "MemoryScoreCache", "MetricXScorer", "ModelNotOfferedError",
    "OfferedModel", "Plan", "Progress", "ProgressCallback", "ScoreCache", "Scorer",
    "ScoringCancelled", "SystemScores", "UnsafeCheckpointError", "find_model", "load_comet",
    "offered_models", "plan", "resolve", "score", "segment_key",
]

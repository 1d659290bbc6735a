"""The loop every learned metric shares: look each segment up in the cache, compute the rest
in the scorer's batches (each distinct text once), report progress, stop when asked, assemble.

A scorer says which texts each segment's score depends on, what the work left should cost
(``estimate``) and computes pending segments as a generator of ``Step``s: the driver checks for
cancellation after each step and keeps every finished segment in the cache at once, so a stopped
run loses only its current batch.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .cache import CachedScore, MemoryScoreCache, ScoreCache, segment_key
from .progress import Cancel, Estimate, Progress, ProgressCallback, ScoringCancelled, is_cancelled
from .results import ErrorSpan, LearnedScores, SystemScores

#: the texts one segment's score depends on, in the scorer's own shape
Texts = tuple


@dataclass(frozen=True)
class Step:
    """What one batch finished: scores by segment key, and the work it did (in the estimate's
    cost units: a batch may do part of many segments' work and finish none)."""

    finished: Mapping[str, CachedScore] = field(default_factory=dict)
    work: float = 0.0


class Scorer(Protocol):
    """A loaded model that scores segments (``CometScorer``, ``BertScoreScorer``,
    ``MetricXScorer``); its metric is declared in ``bleu.evaluation.registry``."""

    metric: str
    model: str
    model_path: str
    model_version: str
    library: str
    identity: str  # what the cache keys this model's scores on
    has_spans: bool
    components: tuple[str, ...]  # the names in each score's details beside the score
    needs_reference: bool  # scores nothing without one
    reads_reference: bool  # takes one when given

    def segment_texts(self, system: Sequence[str], sources: Sequence[str] | None,
                      references: Sequence[Sequence[str | None]]) -> list[Texts]:
        """The texts each segment of ``system`` is scored on (validated)."""

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """What computing ``pending`` should take on this scorer's device."""

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """Compute ``pending`` (whose cache keys are ``keys``), batch by batch."""

    def signature(self, nrefs: int) -> object:
        """What the scores are (``LearnedSignature``; its text is kept with them)."""


@dataclass(frozen=True)
class Plan:
    """What a run would do: ``to_compute`` distinct segments (``cached`` more are in the cache)
    and the estimate of their time on the scorer's device, before anything is computed."""

    to_compute: int
    cached: int
    estimate: Estimate


@dataclass(frozen=True)
class _Work:
    keys_by_system: dict[str, list[str]]
    texts_by_key: dict[str, Texts]
    found: dict[str, CachedScore]
    pending_keys: list[str]

    @property
    def pending(self) -> list[Texts]:
        return [self.texts_by_key[key] for key in self.pending_keys]


def _work(scorer: Scorer, systems: Mapping[str, Sequence[str]], sources: Sequence[str] | None,
          references: Sequence[Sequence[str | None]], cache: ScoreCache) -> _Work:
    """Each segment's key (validating the inputs), each distinct key's texts, the cache's hits."""
    keys_by_system: dict[str, list[str]] = {}
    texts_by_key: dict[str, Texts] = {}
    for name, hypotheses in systems.items():
        texts = scorer.segment_texts(hypotheses, sources, references)
        keys = [segment_key(item) for item in texts]
        keys_by_system[name] = keys
        for key, item in zip(keys, texts, strict=True):
            texts_by_key.setdefault(key, item)
    found = cache.get(scorer.identity, list(texts_by_key))
    return _Work(keys_by_system, texts_by_key, found,
                 [key for key in texts_by_key if key not in found])


def plan(scorer: Scorer, systems: Mapping[str, Sequence[str]], *,
         sources: Sequence[str] | None = None,
         references: Sequence[Sequence[str | None]] = (),
         cache: ScoreCache | None = None) -> Plan:
    """How much ``run`` would compute and how long that should take (nothing is computed)."""
    work = _work(scorer, systems, sources, references,
                 cache if cache is not None else MemoryScoreCache())
    return Plan(len(work.pending_keys), len(work.found), scorer.estimate(work.pending))


def run(scorer: Scorer, systems: Mapping[str, Sequence[str]], *,
        sources: Sequence[str] | None = None,
        references: Sequence[Sequence[str | None]] = (), cache: ScoreCache | None = None,
        progress: ProgressCallback | None = None, cancel: Cancel | None = None) -> LearnedScores:
    """Every system's scores under ``scorer``: cached ones looked up, the rest computed."""
    cache = cache if cache is not None else MemoryScoreCache()
    work = _work(scorer, systems, sources, references, cache)
    pending = work.pending
    estimate = scorer.estimate(pending)
    scores = dict(work.found)
    start = time.perf_counter()
    done = 0.0

    def report() -> None:
        if progress is not None:
            finished = len(scores) - len(work.found)
            progress(Progress(finished, len(pending), len(work.found),
                              time.perf_counter() - start, estimate, done))

    report()
    if pending:
        steps = scorer.compute(pending, work.pending_keys)
        try:
            for step in steps:
                if step.finished:
                    cache.put(scorer.identity, step.finished)
                    scores.update(step.finished)
                done += step.work
                report()
                if is_cancelled(cancel) and len(scores) < len(work.texts_by_key):
                    raise ScoringCancelled(len(scores) - len(work.found), len(pending))
        finally:
            steps.close()
    nrefs = sum(1 for stream in references if stream is not None)
    return LearnedScores(
        scorer.metric, scorer.model, scorer.model_path, scorer.model_version, scorer.library,
        tuple(_system(scorer, name, [scores[key] for key in keys])
              for name, keys in work.keys_by_system.items()),
        computed=len(pending), cached=len(work.found),
        signature=str(scorer.signature(nrefs)))


def _system(scorer: Scorer, name: str, values: list[CachedScore]) -> SystemScores:
    array = np.array([value.score for value in values], dtype=np.float64)
    array.setflags(write=False)
    details = [json.loads(value.details) if value.details else {} for value in values]
    spans = None
    if scorer.has_spans:
        spans = tuple(tuple(ErrorSpan(*span) for span in item.get("spans", ()))
                      for item in details)
    components = {}
    for component in scorer.components:
        column = np.array([item[component] for item in details], dtype=np.float64)
        column.setflags(write=False)
        components[component] = column
    return SystemScores(name, array, spans, components)

"""A learned metric computed in a thread (bleu.metrics.learned.background), with a stand-in
scorer that needs no torch: the result equals ``score`` on the same inputs; stopping keeps the
finished batches in the cache, and a second run takes them from there; one run at a time, a
waiting run that is cancelled never computes; a failure is kept for the page; the database cache
falls back to memory when it fails."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest

from bleu.metrics.learned import CachedScore, Estimate, MemoryScoreCache, ScoringCancelled, score
from bleu.metrics.learned.background import (
    CANCELLED,
    DONE,
    FAILED,
    RUNNING,
    WAITING,
    FallbackScoreCache,
    LearnedRun,
)
from bleu.metrics.learned.runner import Step, Texts
from bleu.workspace.errors import StorageError

SYSTEMS = {"A": ["a b c", "d e", "f", "g h i j"], "B": ["a b", "d e f", "f g", "g"]}
REFERENCES = [["a b c", "d e f", "f g h", "g h i"]]
TIMEOUT = 30


class Toy:
    """A scorer whose score is the hypothesis's share of the reference's words, two segments a
    batch; ``gate``, when given, holds each batch until it is set (then cleared)."""

    metric = "BERTScore"  # a declared metric: its direction comes from the catalog
    model = model_path = "toy"
    model_version = "v1"
    library = "none 0"
    identity = "toy-identity"
    has_spans = False
    components: tuple[str, ...] = ()

    def __init__(self, gate: threading.Event | None = None, fail: bool = False) -> None:
        self.gate = gate
        self.fail = fail
        self.batches = 0
        self.started = threading.Event()

    def segment_texts(self, system: Sequence[str], sources: Sequence[str] | None,
                      references: Sequence[Sequence[str | None]]) -> list[Texts]:
        return [(hypothesis, references[0][i]) for i, hypothesis in enumerate(system)]

    def signature(self, nrefs: int) -> str:
        return f"Toy|nrefs:{nrefs}"

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        return Estimate(0.5 * len(pending), "cpu", len(pending), 1.0, 1.0)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        self.started.set()
        if self.fail:
            raise RuntimeError("the device went away")
        for start in range(0, len(pending), 2):
            if self.gate is not None:
                assert self.gate.wait(TIMEOUT)
                self.gate.clear()
            self.batches += 1
            yield Step({keys[i]: CachedScore(len(set(pending[i][0].split()) &
                                                 set(pending[i][1].split())) /
                                             len(pending[i][1].split()))
                        for i in range(start, min(start + 2, len(pending)))},
                       min(2, len(pending) - start))


def _run(scorer: Toy, cache: object, lock: threading.Lock | None = None) -> LearnedRun:
    return LearnedRun(scorer, SYSTEMS, sources=None, references=REFERENCES, cache=cache,
                      lock=lock or threading.Lock())


def test_the_threads_result_equals_score_on_the_same_inputs() -> None:
    run = _run(Toy(), MemoryScoreCache()).start()
    assert run.join(TIMEOUT) and run.state == DONE and run.error is None
    expected = score(Toy(), SYSTEMS, references=REFERENCES)
    assert [s.scores.tolist() for s in run.result.systems] == \
        [s.scores.tolist() for s in expected.systems]
    assert run.result.computed == 8 and run.result.cached == 0
    assert run.progress is not None and run.progress.done == run.progress.total == 8


def test_stopping_keeps_finished_batches_and_a_second_run_takes_them() -> None:
    gate = threading.Event()
    cache = MemoryScoreCache()
    scorer = Toy(gate)
    run = _run(scorer, cache).start()
    gate.set()  # the first batch
    while run.progress is None or run.progress.done < 2:
        assert run.state in (WAITING, RUNNING)
        threading.Event().wait(0.01)
    assert run.state == RUNNING
    run.stop()
    gate.set()  # the batch under way finishes; then the run stops
    assert run.join(TIMEOUT)
    assert run.state == CANCELLED and isinstance(run.error, ScoringCancelled)
    assert run.result is None and len(cache) == 4 == run.error.done
    again = _run(Toy(), cache).start()
    assert again.join(TIMEOUT) and again.state == DONE
    assert again.result.cached == 4 and again.result.computed == 4
    expected = score(Toy(), SYSTEMS, references=REFERENCES)
    assert [s.scores.tolist() for s in again.result.systems] == \
        [s.scores.tolist() for s in expected.systems]


def test_one_run_at_a_time_and_a_cancelled_waiting_run_never_computes() -> None:
    lock = threading.Lock()
    gate = threading.Event()
    first = _run(Toy(gate), MemoryScoreCache(), lock).start()
    second_scorer = Toy()
    second = _run(second_scorer, MemoryScoreCache(), lock).start()
    threading.Event().wait(0.2)
    assert second.state == WAITING and not second_scorer.started.is_set()
    second.stop()
    assert second.join(TIMEOUT) and second.state == CANCELLED and second.error is None
    assert not second_scorer.started.is_set()
    while not first.finished:
        gate.set()
        first.join(0.05)
    assert first.state == DONE


def test_a_failure_is_kept_for_the_caller() -> None:
    run = _run(Toy(fail=True), MemoryScoreCache()).start()
    assert run.join(TIMEOUT)
    assert run.state == FAILED and str(run.error) == "the device went away"


class _Broken:
    def get(self, model: str, segments: Sequence[str]) -> dict[str, CachedScore]:
        raise StorageError("The workspace database cannot keep learned scores: disk I/O error.")

    def put(self, model: str, scores: object) -> None:  # pragma: no cover - never reached
        raise AssertionError("put after get failed")


def test_the_cache_falls_back_to_memory_when_the_database_fails() -> None:
    cache = FallbackScoreCache(_Broken())
    run = _run(Toy(), cache).start()
    assert run.join(TIMEOUT) and run.state == DONE
    assert cache.failure == "The workspace database cannot keep learned scores: disk I/O error."
    again = _run(Toy(), cache).start()
    assert again.join(TIMEOUT) and again.result.cached == 8


@pytest.mark.parametrize("kept", [True, False])
def test_the_cache_uses_the_database_while_it_works(kept: bool) -> None:
    database = MemoryScoreCache()
    cache = FallbackScoreCache(database)
    cache.put("m", {"k": CachedScore(0.5)})
    assert database.get("m", ["k"]) == {"k": CachedScore(0.5)} and cache.failure is None
    assert cache.get("m", ["k"] if kept else ["other"]) == ({"k": CachedScore(0.5)} if kept
                                                           else {})

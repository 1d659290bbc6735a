"""One loaded model used by several sessions at once (the app keeps one per server): two threads
computing with the same scorer get the scores one thread gets, with no "Already borrowed" from
the shared fast tokenizer; a background run stops at its next batch once nobody waits for it
(its session closed), keeping what it finished."""

from __future__ import annotations

import threading

import pytest
from learned_models import (
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.metrics.learned import CometScorer, MemoryScoreCache, score
from bleu.metrics.learned.background import CANCELLED, DONE, LearnedRun

pytestmark = pytest.mark.learned
TIMEOUT = 120


def test_two_sessions_compute_with_one_model(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu", batch_size=4)
    alone = score(CometScorer(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
                  references=[REFERENCE_A])
    results: dict[int, object] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def session(number: int) -> None:
        try:
            start.wait()
            # each its own order of systems and its own cache, as two users' data would be
            systems = dict(reversed(SYSTEMS.items())) if number % 2 else SYSTEMS
            results[number] = score(scorer, systems, sources=SOURCES, references=[REFERENCE_A],
                                    cache=MemoryScoreCache())
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=session, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not errors, errors
    for found in results.values():
        for system in alone.systems:
            assert found.system(system.name).scores.tolist() == pytest.approx(  # type: ignore[attr-defined]
                system.scores.tolist(), abs=1e-6)


def test_a_run_nobody_waits_for_stops_at_its_next_batch(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu", batch_size=2)
    cache = MemoryScoreCache()
    open_session = threading.Event()
    open_session.set()
    batches: list[int] = []
    original = scorer._encoder.run

    def counted(batch):  # type: ignore[no-untyped-def]
        batches.append(len(batch.texts))
        if len(batches) == 3:
            open_session.clear()  # the tab closes while the third batch computes
        return original(batch)

    scorer._encoder.run = counted
    run = LearnedRun(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache,
                     lock=threading.Lock(), waited_for=open_session.is_set).start()
    assert run.join(TIMEOUT)
    assert run.state == CANCELLED and run.abandoned
    assert len(batches) == 3  # no batch after the one that was computing
    kept = len(cache)
    rest = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache)
    assert rest.cached == kept and rest.computed == 2 * len(SOURCES) - kept
    open_session.set()
    again = LearnedRun(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A],
                       cache=MemoryScoreCache(), lock=threading.Lock(),
                       waited_for=open_session.is_set).start()
    assert again.join(TIMEOUT) and again.state == DONE and not again.abandoned

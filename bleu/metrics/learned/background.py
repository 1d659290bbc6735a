"""A learned metric computed in a thread of its own, for a caller that must stay responsive: the
app's page keeps answering while a model scores, its Cancel button sets the event the run checks
between batches, and the page polls ``state`` and ``progress``. Nothing here knows Streamlit.

One computation runs at a time in a process (``ONE_AT_A_TIME``): models share the device (two on
one GPU can run out of its memory; two on the CPU only slow each other down), so a second run
waits, cancellable, until the first is done.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence

from ...errors import InputError
from .cache import CachedScore, MemoryScoreCache, ScoreCache
from .progress import Progress, ScoringCancelled
from .results import LearnedScores
from .runner import Scorer, run

#: what every run of this process takes before it computes
ONE_AT_A_TIME = threading.Lock()
#: how often a waiting run looks whether it was cancelled (seconds)
_WAIT_STEP = 0.05

WAITING, RUNNING, DONE, CANCELLED, FAILED = "waiting", "running", "done", "cancelled", "failed"


class LearnedRun:
    """``score`` of ``scorer`` on ``systems`` in a daemon thread: ``start`` it, read ``state``
    (waiting, running, done, cancelled, failed), ``progress``, then ``result`` or ``error``;
    ``stop`` asks it to end after the current batch (what was finished stays in ``cache``).
    ``waited_for`` says whether anyone still waits for the result (the app: whether the
    session that started it is open); when it says no, the run stops at its next batch."""

    def __init__(self, scorer: Scorer, systems: Mapping[str, Sequence[str]], *,
                 sources: Sequence[str] | None, references: Sequence[Sequence[str | None]],
                 cache: ScoreCache, lock: threading.Lock = ONE_AT_A_TIME,
                 waited_for: Callable[[], bool] | None = None) -> None:
        self.scorer = scorer
        self.cancel = threading.Event()
        self._waited_for = waited_for
        self.abandoned = False
        self.result: LearnedScores | None = None
        self.error: BaseException | None = None
        self._inputs = (dict(systems), sources, tuple(references))
        self._cache = cache
        self._lock = lock
        self._state = WAITING
        self._progress: Progress | None = None
        self._thread = threading.Thread(target=self._work, daemon=True,
                                        name=f"learned metric: {scorer.metric}")

    def start(self) -> LearnedRun:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after the batch being computed (a waiting run never starts)."""
        self.cancel.set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the run to end; whether it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def state(self) -> str:
        return self._state

    @property
    def finished(self) -> bool:
        return self._state in (DONE, CANCELLED, FAILED)

    @property
    def progress(self) -> Progress | None:
        """The latest report (None before the first)."""
        return self._progress

    def _report(self, progress: Progress) -> None:
        self._progress = progress

    def _stopping(self) -> bool:
        """Asked to stop, or nobody waits for the result any more (the session that started
        it has closed): checked before each batch."""
        if self.cancel.is_set():
            return True
        if self._waited_for is not None and not self._waited_for():
            self.abandoned = True
            self.cancel.set()
            return True
        return False

    def _work(self) -> None:
        while not self._lock.acquire(timeout=_WAIT_STEP):
            if self._stopping():
                self._state = CANCELLED
                return
        try:
            if self._stopping():
                self._state = CANCELLED
                return
            self._state = RUNNING
            systems, sources, references = self._inputs
            self.result = run(self.scorer, systems, sources=sources, references=references,
                              cache=self._cache, progress=self._report, cancel=self._stopping)
            self._state = DONE
        except ScoringCancelled as stopped:
            self.error = stopped
            self._state = CANCELLED
        except Exception as error:  # kept for the page to show; the thread must not die silent
            self.error = error
            self._state = FAILED
        finally:
            self._lock.release()


class FallbackScoreCache:
    """``primary`` (the workspace database) until it fails, then ``fallback`` (memory) for the
    rest of the process; ``failure`` says why, for the caller to tell the user once."""

    def __init__(self, primary: ScoreCache, fallback: ScoreCache | None = None) -> None:
        self._primary: ScoreCache | None = primary
        self._fallback = fallback if fallback is not None else MemoryScoreCache()
        self.failure: str | None = None

    def _failed(self, error: InputError) -> None:
        self.failure = str(error)
        self._primary = None

    def get(self, model: str, segments: Sequence[str]) -> dict[str, CachedScore]:
        if self._primary is not None:
            try:
                return self._primary.get(model, segments)
            except InputError as error:  # the database cannot be read (StorageError)
                self._failed(error)
        return self._fallback.get(model, segments)

    def put(self, model: str, scores: Mapping[str, CachedScore]) -> None:
        if self._primary is not None:
            try:
                self._primary.put(model, scores)
                return
            except InputError as error:
                self._failed(error)
        self._fallback.put(model, scores)

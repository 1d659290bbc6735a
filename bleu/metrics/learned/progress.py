"""What a long computation tells its caller: how much is left and how long it should take, and
how the caller stops it (a ``threading.Event`` or a function, checked between batches)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from ...i18n import tr
from ...number_rule import COUNT

#: what stops a computation between two batches: an Event that is set, or a function saying so
Cancel = threading.Event | Callable[[], bool]


def is_cancelled(cancel: Cancel | None) -> bool:
    """Whether the caller asked to stop."""
    if cancel is None:
        return False
    return cancel.is_set() if isinstance(cancel, threading.Event) else bool(cancel())


class ScoringCancelled(Exception):
    """The caller stopped a computation; the batches finished before are in the cache."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(tr("Stopped after {done} of {total} segments; those are kept in the "
                            "cache.").format(done=COUNT.text(done), total=COUNT.text(total)))
        self.done = done
        self.total = total


#: how an estimate is made, for the user
ESTIMATE_METHOD = (
    "one batch of the work was computed on this device and timed; the rest is extrapolated "
    "from it by each batch's tokens and padded length. Once batches are done, the time they "
    "took replaces it"
)


@dataclass(frozen=True)
class Estimate:
    """How long the segments left to compute should take on ``device``: ``seconds`` for work
    of ``operations`` (cost units) at ``operations_per_second``, the rate measured on a timed
    batch; ``tokens`` the model reads."""

    seconds: float
    device: str
    tokens: int
    operations: float
    operations_per_second: float
    method: str = ESTIMATE_METHOD


@dataclass(frozen=True)
class Progress:
    """Where a computation stands: ``done`` of ``total`` segments to compute (``cached`` more
    came from the cache and are not counted in ``total``); ``work_done`` of the estimate's
    ``operations`` are behind it."""

    done: int
    total: int
    cached: int
    elapsed: float
    estimate: Estimate
    work_done: float = 0.0

    @property
    def left(self) -> int:
        """Segments still to compute."""
        return self.total - self.done

    @property
    def fraction(self) -> float:
        """Share of the work done (1.0 when nothing was left to compute)."""
        if not self.total:
            return 1.0
        if self.estimate.operations > 0:
            return min(1.0, self.work_done / self.estimate.operations)
        return self.done / self.total

    @property
    def seconds_left(self) -> float:
        """The estimate until some work is done, then the time so far per unit of work x the
        work left (batches differ in length, so segments are not the unit)."""
        if self.work_done <= 0 or self.estimate.operations <= 0:
            if self.done == 0:
                return self.estimate.seconds
            return self.elapsed / self.done * self.left
        left = max(0.0, self.estimate.operations - self.work_done)
        return self.elapsed / self.work_done * left


ProgressCallback = Callable[[Progress], None]


def pick_device(requested: str | None) -> str:
    """``requested``, else the first GPU when torch sees one, else the CPU."""
    if requested:
        return requested
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"

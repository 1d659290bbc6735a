"""What a long computation tells its caller: how much is left and how long it should take, and
how the caller stops it (a ``threading.Event`` or a function, checked between batches)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

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
    "tokens the model will read (counted with its own tokenizer) x 2 floating-point operations "
    "per token and weight of its transformer layers, divided by the speed of a matrix product "
    "measured on this device for a fraction of a second; the time of finished batches replaces "
    "it once the first batch is done"
)


@dataclass(frozen=True)
class Estimate:
    """How long the segments left to compute should take on ``device``, before the first batch."""

    seconds: float
    device: str
    tokens: int
    operations: float
    operations_per_second: float
    method: str = ESTIMATE_METHOD


@dataclass(frozen=True)
class Progress:
    """Where a computation stands: ``done`` of ``total`` segments to compute (``cached`` more
    came from the cache and are not counted in ``total``)."""

    done: int
    total: int
    cached: int
    elapsed: float
    estimate: Estimate

    @property
    def left(self) -> int:
        """Segments still to compute."""
        return self.total - self.done

    @property
    def fraction(self) -> float:
        """Share of the work done (1.0 when nothing was left to compute)."""
        return self.done / self.total if self.total else 1.0

    @property
    def seconds_left(self) -> float:
        """The estimate until a batch is done, then the time so far per segment x segments left."""
        if self.done == 0:
            return self.estimate.seconds
        return self.elapsed / self.done * self.left


ProgressCallback = Callable[[Progress], None]


def flops_per_second(device: str) -> float:
    """Floating-point operations per second of a float32 matrix product on ``device``."""
    return _measured(device)


@cache
def _measured(device: str) -> float:
    """Measured once per process: the best of several 256 x 1024 by 1024 x 1024 products
    (about the shape of a batch of tokens through a layer), for at least 0.2 s."""
    import torch

    left = torch.rand(256, 1024, device=device)
    right = torch.rand(1024, 1024, device=device)
    best = float("inf")
    deadline = time.perf_counter() + 0.2
    with torch.inference_mode():
        torch.matmul(left, right)  # warm up
        while time.perf_counter() < deadline or best == float("inf"):
            start = time.perf_counter()
            torch.matmul(left, right)
            if device.startswith("cuda"):
                torch.cuda.synchronize()
            best = min(best, time.perf_counter() - start)
    return 2 * 256 * 1024 * 1024 / max(best, 1e-9)


def estimate(tokens: int, weights: int, device: str) -> Estimate:
    """The estimate for ``tokens`` read by layers of ``weights`` parameters (ESTIMATE_METHOD)."""
    operations = 2.0 * tokens * weights
    speed = flops_per_second(device)
    return Estimate(operations / speed, device, tokens, operations, speed)


def layer_weights(module: object) -> int:
    """Parameters of ``module`` outside its embedding tables (a lookup costs no products)."""
    import torch

    embedded = {id(p) for m in module.modules() if isinstance(m, torch.nn.Embedding)  # type: ignore[attr-defined]
                for p in m.parameters()}
    return sum(p.numel() for p in module.parameters()  # type: ignore[attr-defined]
               if id(p) not in embedded)


def pick_device(requested: str | None) -> str:
    """``requested``, else the first GPU when torch sees one, else the CPU."""
    if requested:
        return requested
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"

"""The threads that work on chunks of a corpus: configured explicitly, created on first use.

numpy's sorts, Arrow's kernels and the byte-level tokenizer passes release the GIL, so chunks of
one corpus run side by side on a small pool. The count is read when work starts (not at import):
``set_threads(n)`` or the ``BLEU_THREADS`` environment variable, else up to 4 (the CPU count).
The significance tests' many small matrix products run with BLAS on one thread
(``single_threaded_blas``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: the most threads used when nothing sets a count
DEFAULT_MAX_THREADS = 4

_lock = threading.Lock()
_configured: int | None = None
_pool: ThreadPoolExecutor | None = None


def set_threads(count: int | None) -> None:
    """Use ``count`` threads for chunks from now on (None: back to the default)."""
    global _configured, _pool
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)
                              or count < 1):
        raise ValueError(f"the thread count must be an integer >= 1, got {count!r}")
    with _lock:
        _configured = count
        old, _pool = _pool, None
    if old is not None:
        old.shutdown(wait=False)


def thread_count() -> int:
    """The threads chunks run on: ``set_threads``, else ``BLEU_THREADS``, else min(4, CPUs)."""
    if _configured is not None:
        return _configured
    raw = os.environ.get("BLEU_THREADS", "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            pass
    return max(1, min(DEFAULT_MAX_THREADS, os.cpu_count() or 1))


def _executor(count: int) -> ThreadPoolExecutor:
    """The shared pool, made on first use (under a lock, so two callers never make two)."""
    global _pool
    with _lock:
        if _pool is None or _pool._max_workers != count:
            old, _pool = _pool, ThreadPoolExecutor(count, thread_name_prefix="bleu-chunks")
            if old is not None:
                old.shutdown(wait=False)
        return _pool


def map_chunks(work: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``[work(item) for item in items]`` on up to ``thread_count()`` threads, in order."""
    items = list(items)
    count = thread_count()
    if count == 1 or len(items) < 2:
        return [work(item) for item in items]
    pool = _executor(count)
    others = [pool.submit(work, item) for item in items[1:]]
    first = work(items[0])  # the calling thread takes a share too
    return [first, *(future.result() for future in others)]


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """BLAS on one thread inside (a decorator too): the resampling blocks are many small products,
    and OpenBLAS's own threads spinning against busy cores made one 140x slower on a loaded
    2-core machine (single-threaded it was also faster on an idle one)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield

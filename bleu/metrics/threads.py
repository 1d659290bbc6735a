"""The threads that work on chunks of a corpus: configured explicitly, created on first use.

numpy's sorts, Arrow's kernels and the byte-level tokenizer passes release the GIL, so chunks of
one corpus run side by side on a small pool. The count is read when work starts (not at import):
``set_threads(n)`` or the ``BLEU_THREADS`` environment variable, else up to 4 (the CPU count).
The significance tests' many small matrix products run with BLAS on one thread
(``single_threaded_blas``); a process that says so before numpy loads (the command line:
``blas_on_one_thread_from_start``) gets that from OpenBLAS's environment variable instead of
threadpoolctl, whose import and library scan cost a short run about 5 ms.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # the pool's module is loaded with the pool (a one-chunk run needs neither)
    from concurrent.futures import ThreadPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

#: the most threads used when nothing sets a count
DEFAULT_MAX_THREADS = 4

_lock = threading.Lock()
_configured: int | None = None
_pool: ThreadPoolExecutor | None = None
#: OpenBLAS was given one thread before numpy loaded (``blas_on_one_thread_from_start``)
_blas_on_one_thread = False


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
    from concurrent.futures import ThreadPoolExecutor

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


def blas_on_one_thread_from_start() -> None:
    """Give OpenBLAS one thread for the whole process through ``OPENBLAS_NUM_THREADS``: only
    before numpy is loaded (later the variable is not read) and only if nobody set it."""
    global _blas_on_one_thread
    if "numpy" not in sys.modules and "OPENBLAS_NUM_THREADS" not in os.environ:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        _blas_on_one_thread = True


def _blas_is_single_threaded() -> bool:
    """Whether BLAS runs on one thread already: set so from the start, and numpy's BLAS is the
    OpenBLAS that reads that variable (numpy's own build record says which BLAS it has)."""
    if not _blas_on_one_thread:
        return False
    import numpy as np

    blas = np.__config__.CONFIG.get("Build Dependencies", {}).get("blas", {})
    return "openblas" in str(blas.get("name", "")).lower()


@contextmanager
def single_threaded_blas() -> Iterator[None]:
    """BLAS on one thread inside (a decorator too): the resampling blocks are many small products,
    and OpenBLAS's own threads spinning against busy cores made one 140x slower on a loaded
    2-core machine (single-threaded it was also faster on an idle one)."""
    if _blas_is_single_threaded():
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield

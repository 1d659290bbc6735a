"""Work buffers reused from chunk to chunk, one set per thread.

Memory is mapped in by a page fault per 4 KiB page when first written (some microseconds on a
virtual machine, more than the arithmetic done on it), and glibc hands freed heap memory back to
the system, so numpy temporaries of a few hundred KiB are faulted in again for every chunk: that
cost more than all of chrF's counting. The counting writes its large intermediates into these
buffers instead (``out=``), which stay mapped: about 110 bytes per symbol of the largest chunk
seen (some 18 MB a thread for 512 segments of news with two references), at most
``KEEP_BYTES``.
"""

from __future__ import annotations

import threading

import numpy as np

#: the most bytes one thread keeps between chunks; a larger buffer is used once and dropped
KEEP_BYTES = 256 << 20

_local = threading.local()


class Scratch:
    """Named buffers of one thread; ``get`` returns a view that is valid until the next
    ``get`` of the same name."""

    def __init__(self) -> None:
        self._buffers: dict[str, np.ndarray] = {}
        self._kept = 0

    def get(self, name: str, size: int, dtype: type | np.dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        nbytes = size * dtype.itemsize
        buffer = self._buffers.get(name)
        if buffer is None or len(buffer) < nbytes:
            old = 0 if buffer is None else len(buffer)
            buffer = np.empty(nbytes + nbytes // 4, np.uint8)  # room to grow a little
            if self._kept - old + len(buffer) <= KEEP_BYTES:
                self._buffers[name] = buffer
                self._kept += len(buffer) - old
        return buffer[:nbytes].view(dtype)


def scratch() -> Scratch:
    """This thread's buffers."""
    buffers = getattr(_local, "scratch", None)
    if buffers is None:
        buffers = _local.scratch = Scratch()
    return buffers

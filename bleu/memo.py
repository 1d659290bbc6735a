"""Results of slow, pure functions kept once per process, keyed on the content of their
arguments and the interface language.

What the teaching pages show for the bundled sample (a tokenizer grid, NLTK's cross-check,
Blind spots' cases) takes seconds the first time; a server computes it ahead, in the background
(``bleu_app/warmup.py``), and the first visitor finds it here. A caller that asks for
what another thread is computing right now waits for that result instead of computing it
again. Results are shared: a pandas table is handed out as a shallow copy (pandas copies on
write, so a caller that changes it changes its own copy), anything else must be immutable
(frozen dataclasses, tuples).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

from .i18n import language

F = TypeVar("F", bound=Callable[..., Any])


class CacheInfo(NamedTuple):
    """A cache's calls so far: ``hits`` found a result (or waited for one being computed),
    ``misses`` computed one; ``size`` results are kept now."""

    hits: int
    misses: int
    size: int


#: every function decorated with ``content_cache``, in the order they were defined
_DECORATED: list[Callable[..., Any]] = []


def decorated() -> tuple[Callable[..., Any], ...]:
    """Every function ``content_cache`` has decorated in this process so far (the modules
    that define them imported)."""
    return tuple(_DECORATED)


def _feed(digest: Any, value: Any, pinned: list[Any]) -> None:
    """Add ``value``'s content to ``digest``; objects known only by identity are added to
    ``pinned`` (kept alive with the entry, so their identity cannot be reused)."""
    if value is None or isinstance(value, bool | int | float):
        digest.update(b"v" + repr(value).encode() + b";")
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        digest.update(b"s" + struct.pack("<Q", len(data)) + data)
    elif isinstance(value, bytes):
        digest.update(b"b" + struct.pack("<Q", len(value)) + value)
    elif isinstance(value, list | tuple):
        digest.update(b"(" + struct.pack("<Q", len(value)))
        for item in value:
            _feed(digest, item, pinned)
        digest.update(b")")
    elif isinstance(value, Mapping):
        digest.update(b"{" + struct.pack("<Q", len(value)))
        for key, item in value.items():  # in order: order is part of what a caller means
            _feed(digest, key, pinned)
            _feed(digest, item, pinned)
        digest.update(b"}")
    elif hasattr(value, "dtype") and hasattr(value, "tobytes"):  # a numpy array
        digest.update(b"a" + str(value.dtype).encode() + repr(value.shape).encode()
                      + value.tobytes())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(b"d" + type(value).__qualname__.encode())
        for item in dataclasses.fields(value):
            _feed(digest, getattr(value, item.name), pinned)
    else:  # a process-wide object (a WordNet reader): by identity, kept alive
        pinned.append(value)
        digest.update(b"i" + type(value).__qualname__.encode() + struct.pack("<Q", id(value)))


def content_key(arguments: Mapping[str, Any], by_language: bool = True,
                ) -> tuple[bytes, list[Any]]:
    """A digest of the arguments' content (by name) and, ``by_language``, the interface
    language; and the objects it names by identity."""
    digest, pinned = hashlib.blake2b(digest_size=20), []
    _feed(digest, (language() if by_language else "", arguments), pinned)
    return digest.digest(), pinned


def _handed_out(result: Any) -> Any:
    """``result`` as given to a caller: its pandas tables as shallow copies."""
    if hasattr(result, "copy") and type(result).__name__ in ("DataFrame", "Series"):
        return result.copy(deep=False)
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        tables = {item.name: getattr(result, item.name) for item in dataclasses.fields(result)
                  if type(getattr(result, item.name)).__name__ in ("DataFrame", "Series")}
        if tables:
            return dataclasses.replace(result, **{name: table.copy(deep=False)
                                                  for name, table in tables.items()})
    return result


class _Entry:
    """One result, or the promise of one while a thread computes it."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.pinned: list[Any] = []


def content_cache(maxsize: int, by_language: bool = True) -> Callable[[F], F]:
    """A decorator: the function's results kept by ``content_key`` of its arguments bound to
    its parameters (so a call by position and one by name share a result), the ``maxsize``
    most recently used; ``by_language=False`` for a result with no translated text in it. An
    exception is not kept. The function gets ``cache_info()`` (a ``CacheInfo``: what a
    server's warm-up left for the pages is checked by it) and ``cache_clear()``."""
    def decorate(function: F) -> F:
        entries: OrderedDict[bytes, _Entry] = OrderedDict()
        lock = threading.Lock()
        calls = {"hits": 0, "misses": 0}
        parameters = inspect.signature(function)

        @functools.wraps(function)
        def cached(*args: Any, **kwargs: Any) -> Any:
            bound = parameters.bind(*args, **kwargs)
            bound.apply_defaults()
            key, pinned = content_key(bound.arguments, by_language)
            with lock:
                entry = entries.get(key)
                owner = entry is None
                calls["misses" if owner else "hits"] += 1
                if owner:
                    entry = entries[key] = _Entry()
                    entry.pinned = pinned
                    while len(entries) > maxsize:
                        entries.popitem(last=False)
                else:
                    entries.move_to_end(key)
            if owner:
                try:
                    entry.result = function(*args, **kwargs)
                except BaseException as error:
                    entry.error = error
                    with lock:
                        if entries.get(key) is entry:
                            del entries[key]
                    raise
                finally:
                    entry.done.set()
            else:
                entry.done.wait()
                if entry.error is not None:
                    return function(*args, **kwargs)  # the owner's failure is the owner's
            return _handed_out(entry.result)

        def cache_info() -> CacheInfo:
            with lock:
                return CacheInfo(calls["hits"], calls["misses"], len(entries))

        def cache_clear() -> None:
            with lock:
                entries.clear()
                calls.update(hits=0, misses=0)

        cached.cache_info = cache_info  # type: ignore[attr-defined]
        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        _DECORATED.append(cached)
        return cached  # type: ignore[return-value]
    return decorate

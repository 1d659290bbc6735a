"""Caching on content, shared by the server's sessions, every cache bounded in bytes as well as
in entries (a cache bounded in entries only kept 64 staged uploads of 200 MB each).

``shared`` keeps one result per server for arguments of the same content (the loaded data and
scores by their content keys, ``HASH_FUNCS``) and hands the same object to every session;
``stats_store`` keeps every system's statistics matrices (read-only) for any session that asks
for the same (metric, options, system, references) again; ``staging`` keeps what an uploaded
file was read into, or why it was refused, so that a rerun reads neither again. Each is a
``BoundedCache``: the least recently used entries go once the entries' measured size
(``approx_bytes``) passes its budget. The caches live in ``st.cache_resource`` (one per server;
``st.cache_resource.clear()`` empties them, as the tests do between apps).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import inspect
import pickle
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from operator import attrgetter
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import streamlit as st

from bleu.evaluation.results import MetricResults
from bleu.evaluation.scores import MetricScores
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.segment.scores import SegmentScores

MIB = 2**20
#: what every ``shared`` function's results may take together
SHARED_BYTES = 1024 * MIB
#: what the statistics matrices may take together, and how many are kept
STATS_BYTES = 512 * MIB
STATS_ENTRIES = 512
#: what staged uploads (and refusals) may take together, and how many are kept
STAGING_BYTES = 512 * MIB
STAGING_ENTRIES = 64
T = TypeVar("T")


def _results_key(results: MetricResults) -> tuple[Any, ...]:
    """A metric's dashboard numbers are those of its scores, baseline, systems and resamples
    (hashing it field by field, as Streamlit hashes a dataclass, failed on TER's scorer)."""
    return (results.scores.key, tuple(results.significance), results.baseline,
            results.n_samples, results.seed, results.pairs is None)


#: how the caches key the loaded data and scores: by content, never by identity
HASH_FUNCS: dict[type, Callable[[Any], Hashable]] = {
    TextFile: attrgetter("key"), Dataset: attrgetter("key"), MetricScores: attrgetter("key"),
    SegmentScores: attrgetter("key"), MetricResults: _results_key}


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def content_key(value: Any) -> Hashable:
    """A key equal for arguments of equal content: the loaded data and scores by
    ``HASH_FUNCS``, arrays, tables and bytes by a digest, containers and dataclasses by their
    items, other values by pickling them."""
    kind = type(value)
    if kind in HASH_FUNCS:
        return kind.__qualname__, HASH_FUNCS[kind](value)
    if value is None or kind in (str, int, float, bool, complex):
        return kind.__name__, value
    if kind is bytes:
        return "bytes", value if len(value) <= 64 else _digest(value)
    if isinstance(value, np.ndarray):
        return "ndarray", value.dtype.str, value.shape, _digest(np.ascontiguousarray(value).data)
    if isinstance(value, pd.DataFrame | pd.Series):
        names = tuple(map(str, value.columns)) if isinstance(value, pd.DataFrame) else (
            str(value.name),)
        try:
            cells = pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes()
        except TypeError:  # cells pandas cannot hash (lists, dicts): their text instead
            cells = value.to_json(orient="split", default_handler=repr).encode()
        return kind.__name__, names, _digest(cells)
    if isinstance(value, tuple | list | frozenset | set):
        items = sorted(map(repr, value)) if isinstance(value, frozenset | set) else value
        return kind.__name__, tuple(map(content_key, items))
    if isinstance(value, Mapping):
        return kind.__name__, tuple((content_key(k), content_key(v)) for k, v in value.items())
    if isinstance(value, enum.Enum):
        return kind.__qualname__, value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return kind.__qualname__, tuple(content_key(getattr(value, field.name))
                                        for field in dataclasses.fields(value))
    return kind.__qualname__, _digest(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def approx_bytes(value: Any, _seen: set[int] | None = None) -> int:
    """About how much memory ``value`` holds (what is reachable from it, each object once):
    what a cache charges an entry."""
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, str | bytes | bytearray | int | float | bool) or value is None:
        return sys.getsizeof(value)
    if isinstance(value, np.ndarray):
        return value.nbytes + 112
    if isinstance(value, pd.DataFrame | pd.Series):
        return int(value.memory_usage(deep=True).sum() if isinstance(value, pd.DataFrame)
                   else value.memory_usage(deep=True))
    if isinstance(value, tuple | list | set | frozenset):
        if all(type(item) is str for item in value):  # a stream's segments: at C speed
            return sys.getsizeof(value) + sum(map(sys.getsizeof, value))
        return sys.getsizeof(value) + sum(approx_bytes(item, seen) for item in value)
    if isinstance(value, Mapping):
        return sys.getsizeof(value) + sum(approx_bytes(k, seen) + approx_bytes(v, seen)
                                          for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + sum(approx_bytes(getattr(value, field.name), seen)
                                          for field in dataclasses.fields(value))
    own = getattr(value, "__dict__", None)
    return sys.getsizeof(value) + (approx_bytes(own, seen) if own else 0)


class _Missing:
    """What ``BoundedCache.get`` returns for a key it does not hold."""


MISSING = _Missing()


@dataclasses.dataclass(frozen=True)
class _Entry:
    value: Any
    nbytes: int
    group: str


class BoundedCache:
    """Values by key, the least recently used dropped once they take more than ``max_bytes``
    together (each entry as measured when it was put) or number more than ``max_entries``;
    ``group_entries`` bounds the entries of one group (one function's results) as well. A
    value bigger than the whole budget is not kept. Safe for the server's session threads;
    ``compute`` runs a key's work once while other sessions wait for it."""

    def __init__(self, max_bytes: int, max_entries: int) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.nbytes = 0
        self._items: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._groups: dict[str, OrderedDict[Hashable, None]] = {}
        self._lock = threading.Lock()
        self._working: dict[Hashable, threading.Lock] = {}

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Any:
        """The value kept under ``key`` (the most recently used from now on), else MISSING."""
        with self._lock:
            entry = self._items.get(key)
            if entry is None:
                return MISSING
            self._items.move_to_end(key)
            self._groups[entry.group].move_to_end(key)
            return entry.value

    def put(self, key: Hashable, value: Any, nbytes: int, group: str = "",
            group_entries: int | None = None) -> None:
        """Keep ``value`` (``nbytes`` big) under ``key``, dropping the least recently used
        beyond the bounds."""
        if nbytes > self.max_bytes:
            return
        with self._lock:
            self._drop(key)
            self._items[key] = _Entry(value, nbytes, group)
            self._groups.setdefault(group, OrderedDict())[key] = None
            self.nbytes += nbytes
            members = self._groups[group]
            while group_entries is not None and len(members) > group_entries:
                self._drop(next(iter(members)))
            while self.nbytes > self.max_bytes or len(self._items) > self.max_entries:
                self._drop(next(iter(self._items)))

    def _drop(self, key: Hashable) -> None:
        entry = self._items.pop(key, None)
        if entry is not None:
            self.nbytes -= entry.nbytes
            del self._groups[entry.group][key]

    def compute(self, key: Hashable, make: Callable[[], T], *, group: str = "",
                group_entries: int | None = None,
                measure: Callable[[Any], int] = approx_bytes) -> T:
        """The value under ``key``, made by ``make`` (once, however many sessions ask at
        the same time) and kept where it is not there yet."""
        found = self.get(key)
        if found is not MISSING:
            return found
        with self._lock:
            working = self._working.setdefault(key, threading.Lock())
        try:
            with working:
                found = self.get(key)
                if found is MISSING:
                    found = make()
                    self.put(key, found, measure(found), group, group_entries)
        finally:
            with self._lock:
                self._working.pop(key, None)
        return found


@st.cache_resource(show_spinner=False)
def _caches() -> dict[str, BoundedCache]:
    """The server's bounded caches by name (emptied with ``st.cache_resource.clear()``)."""
    return {"shared": BoundedCache(SHARED_BYTES, 10_000),
            "staging": BoundedCache(STAGING_BYTES, STAGING_ENTRIES)}


def cache(name: str) -> BoundedCache:
    """One of the server's bounded caches: ``shared`` or ``staging``."""
    return _caches()[name]


def _keyed(func: Callable[..., Any], max_entries: int,
           make: Callable[..., Any]) -> Callable[..., Any]:
    """``make(*args, **kwargs)`` kept in the ``shared`` cache under ``func``'s name and the
    content of its arguments (those named with a leading underscore left out)."""
    name = f"{func.__module__}.{func.__qualname__}"
    signature = inspect.signature(func)

    def cached(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = name, content_key(tuple((argument, value) for argument, value
                                      in bound.arguments.items()
                                      if not argument.startswith("_")))
        return cache("shared").compute(key, lambda: make(*args, **kwargs), group=name,
                                       group_entries=max_entries)
    return cached


def shared(max_entries: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A decorator: the function's results cached by the content of its arguments
    (``content_key``; arguments named with a leading underscore are not part of the key),
    once per server, at most ``max_entries`` of them and within the server's ``SHARED_BYTES``
    for every function together, and handed to every session as they are. Never copied, so a
    shared result must never be changed by its users: frozen dataclasses, read-only arrays,
    tables handed on as ``copy(deep=False)`` (pandas copies on write)."""
    def decorate(func: Callable[..., T]) -> Callable[..., T]:
        return functools.wraps(func)(_keyed(func, max_entries, func))
    return decorate


def data(max_entries: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``shared`` for results that their users may change (tables, specs): kept pickled, so
    each entry costs its pickle's bytes, and every call gets its own copy, as ``st.cache_data``
    gives it (which bounds the entries only)."""
    def decorate(func: Callable[..., T]) -> Callable[..., T]:
        pickled = _keyed(func, max_entries, lambda *args, **kwargs: pickle.dumps(
            func(*args, **kwargs), pickle.HIGHEST_PROTOCOL))

        @functools.wraps(func)
        def copied(*args: Any, **kwargs: Any) -> T:
            return pickle.loads(pickled(*args, **kwargs))
        return copied
    return decorate


class StatsStore:
    """Statistics matrices by key, the least recently used dropped beyond ``limit`` entries or
    ``max_bytes`` together; safe for the server's session threads. What is stored is
    read-only."""

    def __init__(self, limit: int, max_bytes: int = STATS_BYTES) -> None:
        self.limit = limit
        self._cache = BoundedCache(max_bytes, limit)

    def get(self, key: Hashable) -> np.ndarray | None:
        found = self._cache.get(key)
        return None if found is MISSING else found

    def put(self, key: Hashable, matrix: np.ndarray) -> None:
        matrix.setflags(write=False)
        self._cache.put(key, matrix, matrix.nbytes)

    @property
    def nbytes(self) -> int:
        return self._cache.nbytes


@st.cache_resource(show_spinner=False)
def stats_store() -> StatsStore:
    """The server's one store of statistics matrices (512, within STATS_BYTES: e.g. 4 metrics
    x 9 systems x 14 option sets)."""
    return StatsStore(STATS_ENTRIES)

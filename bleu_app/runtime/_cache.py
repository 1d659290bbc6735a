"""Caching on content, shared by the server's sessions: Streamlit hashes the loaded data and
scores by their content keys (``HASH_FUNCS``), so a cached result always belongs to the data it
was computed on; ``shared`` keeps one result per server for the same inputs and hands the same
object to every session; ``stats_store`` keeps every system's statistics matrices (read-only)
for any session that asks for the same (metric, options, system, references) again."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from operator import attrgetter
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from bleu.evaluation.scores import MetricScores
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.segment.scores import SegmentScores

#: how Streamlit's caches hash the loaded data and scores: by content, never by identity
HASH_FUNCS = {TextFile: attrgetter("key"), Dataset: attrgetter("key"),
              MetricScores: attrgetter("key"), SegmentScores: attrgetter("key")}


def content_key(value: Any) -> str:
    """A hash of ``value``'s content, for arguments Streamlit would hash poorly: results that
    are frozen dataclasses holding statistics (Streamlit turns a dataclass into a deep-copied
    dict with ``dataclasses.asdict``, which ignores ``HASH_FUNCS`` inside it, copies every
    array, and fails on what cannot be copied). What has a content ``key`` is hashed by it,
    arrays and tables by their bytes, other dataclasses field by field."""
    digest = hashlib.blake2b(digest_size=16)
    _feed(digest, value)
    return digest.hexdigest()


def _feed(digest: Any, value: Any) -> None:
    if isinstance(getattr(value, "key", None), str):
        digest.update(b"K" + value.key.encode())
    elif isinstance(value, np.ndarray):
        digest.update(f"A{value.dtype}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, pd.DataFrame | pd.Series):
        names = list(value.columns) if isinstance(value, pd.DataFrame) else [value.name]
        digest.update(b"P" + repr(names).encode())
        try:
            digest.update(pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes())
        except TypeError:  # cells pandas cannot hash (lists, dicts): their text instead
            digest.update(value.to_json(orient="split", default_handler=repr).encode())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(f"D{type(value).__qualname__}".encode())
        for item in dataclasses.fields(value):
            if item.compare:
                _feed(digest, getattr(value, item.name))
    elif isinstance(value, Mapping):
        digest.update(f"M{len(value)}".encode())
        for name, item in value.items():
            _feed(digest, name)
            _feed(digest, item)
    elif isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        digest.update(f"S{type(value).__name__}{len(items)}".encode())
        for item in items:
            _feed(digest, item)
    elif callable(value):
        digest.update(f"F{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
                      .encode())
    else:
        digest.update(f"V{type(value).__name__}:{value!r}".encode("utf-8", "surrogatepass"))


def shared(max_entries: int, show_spinner: bool | str = False) -> Any:
    """A decorator: the function's results cached by the content of its arguments
    (``HASH_FUNCS``), once per server, and handed to every session as they are. Never copied:
    ``st.cache_data`` unpickles a copy on every call (a 20,000-segment table, a set of scores
    whose content key is then hashed again), so a shared result must never be changed by its
    users: frozen dataclasses, read-only arrays, tables handed on as ``copy(deep=False)``
    (pandas copies on write)."""
    return st.cache_resource(max_entries=max_entries, show_spinner=show_spinner,
                             hash_funcs=HASH_FUNCS)


class StatsStore:
    """Statistics matrices by key, the least recently used dropped beyond ``limit`` entries;
    safe for the server's session threads. What is stored is read-only."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> np.ndarray | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, matrix: np.ndarray) -> None:
        matrix.setflags(write=False)
        with self._lock:
            self._items[key] = matrix
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def stats_store() -> StatsStore:
    """The server's one store of statistics matrices (512: e.g. 4 metrics x 9 systems x 14
    option sets)."""
    return StatsStore(512)

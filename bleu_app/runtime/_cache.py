"""Caching on content, shared by the server's sessions: Streamlit hashes the loaded data and
scores by their content keys (``HASH_FUNCS``), so a cached result always belongs to the data it
was computed on; ``shared`` keeps one result per server for the same inputs and hands the same
object to every session; ``stats_store`` keeps every system's statistics matrices (read-only)
for any session that asks for the same (metric, options, system, references) again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from operator import attrgetter
from typing import Any

import numpy as np
import streamlit as st

from bleu.evaluation.scores import MetricScores
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.segment.scores import SegmentScores

#: how Streamlit's caches hash the loaded data and scores: by content, never by identity
HASH_FUNCS = {TextFile: attrgetter("key"), Dataset: attrgetter("key"),
              MetricScores: attrgetter("key"), SegmentScores: attrgetter("key")}


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

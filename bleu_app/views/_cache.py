"""Caching on content, shared by the server's sessions: Streamlit hashes the loaded data and
scores by their content keys (``HASH_FUNCS``), so a cached result always belongs to the data it
was computed on; ``stats_store`` keeps every system's statistics matrices (read-only) for any
session that asks for the same (metric, options, system, references) again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from operator import attrgetter

import numpy as np
import streamlit as st

from bleu.analysis.metric_scores import MetricScores
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.io.scores.table import SegmentScores

#: how Streamlit's caches hash the loaded data and scores: by content, never by identity
HASH_FUNCS = {TextFile: attrgetter("key"), Dataset: attrgetter("key"),
              MetricScores: attrgetter("key"), SegmentScores: attrgetter("key")}


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

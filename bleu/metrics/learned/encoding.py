"""Each distinct text through a model once: texts tokenized once (and kept), sorted by their
number of tokens, put through the model in batches of similar length (little padding), each
result kept in a bounded memory so that every system, run and page that needs it again finds it.

What a batch costs is known before it runs (its texts and their padded length), so the time of
one batch, measured on this device, gives the time of all the others (``Timing``).

Safe for several threads at once: the tokenizer (a fast tokenizer is not: "Already borrowed")
and the memory are behind locks; the model's forward pass in inference mode changes nothing.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: texts per batch, and padded tokens per batch at most (long texts go in smaller batches)
DEFAULT_BATCH_SIZE = 32
DEFAULT_BATCH_TOKENS = 8192
#: distinct texts whose tokens and results are kept (the least recently used go first)
DEFAULT_MEMORY = 60_000


def batch_cost(size: int, length: int, hidden: int) -> float:
    """The relative work of a batch of ``size`` texts padded to ``length`` tokens through a
    transformer of width ``hidden``: per token and layer about 24 hidden² operations in its
    matrix products and 4 x length x hidden in attention (in units of 2 hidden)."""
    return float(size * length * (12 * hidden + 2 * length))


class _Memory:
    """A bounded, thread-safe map, least recently used first out."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def pop(self, key: str) -> None:
        with self._lock:
            self._items.pop(key, None)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._items


@dataclass(frozen=True)
class Batch:
    """Texts of similar length that go through the model together."""

    texts: tuple[str, ...]
    length: int  # the longest text's tokens: what every text is padded to
    cost: float


class Timing:
    """Seconds per unit of ``batch_cost`` on this device: measured by the first batch timed,
    then the mean of every batch timed since (the rate a plan extrapolates with)."""

    def __init__(self) -> None:
        self._seconds = 0.0
        self._cost = 0.0
        self._lock = threading.Lock()

    @property
    def measured(self) -> bool:
        return self._cost > 0

    def add(self, seconds: float, cost: float) -> None:
        with self._lock:
            self._seconds += seconds
            self._cost += cost

    def seconds(self, cost: float) -> float:
        """How long work of ``cost`` should take (0 before any batch was timed)."""
        with self._lock:
            return cost * self._seconds / self._cost if self._cost else 0.0


class TextEncoder:
    """Distinct texts to one result each through ``forward``: a batch of token-id lists in,
    one result per text out. ``tokenize`` turns one text into its token ids."""

    def __init__(self, tokenize: Callable[[str], list[int]],
                 forward: Callable[[Sequence[Sequence[int]]], Sequence[Any]], hidden: int, *,
                 batch_size: int = DEFAULT_BATCH_SIZE, batch_tokens: int = DEFAULT_BATCH_TOKENS,
                 memory: int = DEFAULT_MEMORY) -> None:
        self._tokenize = tokenize
        self._forward = forward
        self.hidden = hidden
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self._ids = _Memory(memory)
        self._results = _Memory(memory)
        self._tokenizer_lock = threading.Lock()
        self.timing = Timing()
        self._warm = False

    # ------------------------------------------------------------------------- tokens
    def ids(self, text: str) -> list[int]:
        """The token ids of ``text`` (tokenized once, under a lock: a fast tokenizer may not be
        used by two threads at once)."""
        found = self._ids.get(text)
        if found is None:
            with self._tokenizer_lock:
                found = list(self._tokenize(text))
            self._ids.put(text, found)
        return found

    def tokens(self, texts: Iterable[str]) -> int:
        """Tokens of ``texts`` (each as given, duplicates counted)."""
        return sum(len(self.ids(text)) for text in texts)

    # ------------------------------------------------------------------------ batches
    def missing(self, texts: Iterable[str]) -> list[str]:
        """The distinct ``texts`` whose result is not kept, in first-seen order."""
        return [text for text in dict.fromkeys(texts) if text not in self._results]

    def batches(self, texts: Iterable[str]) -> list[Batch]:
        """The distinct texts without a kept result, sorted by tokens, in batches of at most
        ``batch_size`` texts and ``batch_tokens`` padded tokens."""
        todo = sorted(self.missing(texts), key=lambda text: len(self.ids(text)))
        found: list[Batch] = []
        current: list[str] = []
        for text in todo:
            length = len(self.ids(text))
            if current and (len(current) >= self.batch_size
                            or (len(current) + 1) * length > self.batch_tokens):
                found.append(self._batch(current))
                current = []
            current.append(text)
        if current:
            found.append(self._batch(current))
        return found

    def _batch(self, texts: list[str]) -> Batch:
        length = max(len(self.ids(text)) for text in texts)
        return Batch(tuple(texts), length, batch_cost(len(texts), length, self.hidden))

    def run(self, batch: Batch) -> None:
        """Put ``batch`` through the model, keep each text's result, time it."""
        if not self._warm:  # the first forward pass of a process pays for allocations: untimed
            self._forward([self.ids(batch.texts[0])])
            self._warm = True
        start = time.perf_counter()
        results = self._forward([self.ids(text) for text in batch.texts])
        self.timing.add(time.perf_counter() - start, batch.cost)
        for text, result in zip(batch.texts, results, strict=True):
            self._results.put(text, result)

    def result(self, text: str) -> Any:
        """The kept result of ``text`` (KeyError when it was not computed or was dropped)."""
        found = self._results.get(text)
        if found is None:
            raise KeyError(text)
        return found

    def results(self, texts: Sequence[str]) -> list[Any]:
        """The results of ``texts``, computing any that is not kept (dropped from a full memory)."""
        for batch in self.batches(texts):
            self.run(batch)
        return [self.result(text) for text in texts]

    def has(self, text: str) -> bool:
        return text in self._results

    def drop(self, texts: Iterable[str]) -> None:
        """Forget the results of ``texts`` (large ones, such as token embeddings)."""
        for text in texts:
            self._results.pop(text)

    # ----------------------------------------------------------------------- the plan
    def probe(self, batches: Sequence[Batch]) -> None:
        """Time one batch where none has been timed yet: the one of median cost (its result is
        kept, so the run does not compute it again)."""
        if self.timing.measured or not batches:
            return
        ordered = sorted(batches, key=lambda batch: batch.cost)
        self.run(ordered[len(ordered) // 2])

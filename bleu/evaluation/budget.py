"""What one loaded data set may ask of a shared server: an estimate of its memory, made before it
is loaded, refuses what would not fit, and resample counts shrink (with a note saying so) where
segments x resamples would keep the server busy for minutes.

The significance tests themselves run in bounded memory (``bleu.metrics.significance`` draws
resamples block by block), so resamples cost time, not memory; the budget keeps that time
bounded. Both limits come from the environment, so an operator sets them once per server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import InputError
from ..i18n import tr
from ..io.dataset import Dataset
from ..number_rule import COUNT

#: the server memory one data set may take, in MiB (``BLEU_EXPLORER_MEMORY_MB``)
DEFAULT_MEMORY_MB = 4096
#: segments x resamples x systems one significance test may draw (``BLEU_EXPLORER_RESAMPLE_CELLS``):
#: about half a minute of one core for BLEU
DEFAULT_RESAMPLE_CELLS = 2_000_000_000
#: the fewest resamples a shrunk test keeps (below this, a 95% interval means little)
MIN_RESAMPLES = 100
#: bytes per segment and stream besides its text: the Python string, its tokens' ids and offsets
_PER_LINE = 180
#: bytes per text byte: the text as Python strings, its tokens, and the reference n-gram tables
_PER_TEXT_BYTE = 6
#: bytes per segment and system: statistics (int64, ~10 columns) kept, cached and resampled
_PER_SYSTEM_SEGMENT = 3 * 10 * 8 + 3 * 8


class DataTooLargeError(InputError):
    """A data set whose estimated memory is above the server's limit."""


@dataclass(frozen=True)
class ServerLimits:
    """How much memory one data set may take and how many resample draws one test may make."""

    memory_mb: int = DEFAULT_MEMORY_MB
    resample_cells: int = DEFAULT_RESAMPLE_CELLS

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ServerLimits:
        """The limits set by ``BLEU_EXPLORER_MEMORY_MB`` and ``BLEU_EXPLORER_RESAMPLE_CELLS``."""
        environ = os.environ if environ is None else environ
        return cls(_positive(environ, "BLEU_EXPLORER_MEMORY_MB", DEFAULT_MEMORY_MB),
                   _positive(environ, "BLEU_EXPLORER_RESAMPLE_CELLS", DEFAULT_RESAMPLE_CELLS))


def _positive(environ: Mapping[str, str], name: str, default: int) -> int:
    text = environ.get(name, "").strip().replace("_", "")
    if not text:
        return default
    if not text.isdigit() or int(text) == 0:
        raise ValueError(f"{name} must be a positive whole number, got {text!r}.")
    return int(text)


def estimate_memory_mb(data: Dataset) -> float:
    """The server memory ``data`` takes once scored and explored, in MiB (an upper estimate:
    texts, tokens, reference tables, every system's statistics and their cached copies)."""
    streams = [*data.systems.values(), *data.references,
               *([data.source] if data.source is not None else [])]
    text_bytes = sum(len(segment) for stream in streams for segment in stream.segments)
    lines = data.n_segments * len(streams)
    total = (_PER_TEXT_BYTE * text_bytes + _PER_LINE * lines
             + _PER_SYSTEM_SEGMENT * data.n_segments * len(data.systems))
    return total / 2**20


def check_memory(data: Dataset, limits: ServerLimits) -> None:
    """Raise ``DataTooLargeError`` (saying how much, and what to do) when ``data`` would take
    more than the server allows."""
    needed = estimate_memory_mb(data)
    if needed > limits.memory_mb:
        raise DataTooLargeError(tr(
            "These files would take about {needed} MiB of server memory once scored "
            "({systems} system(s) x {segments} segments, {refs} reference(s)); this server "
            "allows {allowed} MiB per data set (BLEU_EXPLORER_MEMORY_MB). Load fewer systems or "
            "a part of the test set, or use the command line (bleu-explorer), which has no such "
            "limit.").format(needed=COUNT.text(needed), systems=len(data.systems),
                             segments=COUNT.text(data.n_segments), refs=data.n_refs,
                             allowed=COUNT.text(limits.memory_mb)))


@dataclass(frozen=True)
class Resamples:
    """The resamples a test was asked for and the ones it runs (fewer when over the budget)."""

    requested: int
    used: int

    @property
    def note(self) -> str | None:
        """What to tell the user when the count was lowered, else None."""
        if self.used == self.requested:
            return None
        return tr("{used} resamples instead of the {requested} asked for: with this many "
                  "segments and systems more would keep the server busy for minutes "
                  "(BLEU_EXPLORER_RESAMPLE_CELLS); the command line runs any number.").format(
            used=COUNT.text(self.used), requested=COUNT.text(self.requested))


def fit_resamples(requested: int, n_segments: int, n_systems: int,
                  limits: ServerLimits) -> Resamples:
    """``requested`` resamples, or as many as the budget allows for this size (never fewer than
    ``MIN_RESAMPLES``, nor more than asked)."""
    cells = max(n_segments, 1) * max(n_systems, 1)
    allowed = max(MIN_RESAMPLES, limits.resample_cells // cells)
    return Resamples(requested, min(requested, allowed))

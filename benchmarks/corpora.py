"""Benchmark corpora (``texts.py``), with Arrow loaded up front.

Loaded as in the app and in a notebook with pandas: the engine then encodes words with Arrow at
every size (``bleu.metrics.bleu.engine.arrow_pays``), so the in-process benchmarks time the
warm path. A cold process, which does not load it for a small corpus, is what ``cold.py`` and
``bench_cli.py`` measure.
"""

from __future__ import annotations

import pyarrow.compute  # noqa: F401
from texts import DATA, REPO, WMT17, WMT21, corpus, read_lines, replicate, wmt17_systems

__all__ = ["DATA", "REPO", "WMT17", "WMT21", "corpus", "read_lines", "replicate",
           "wmt17_systems"]

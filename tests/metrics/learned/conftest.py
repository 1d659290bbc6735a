"""The learned-metric tests run in the app's own environment, which has the ``learned`` extra
(torch, transformers). The reference libraries they are checked against (unbabel-comet 2.2.7,
bert-score 0.3.13) pin numpy < 2, so they run in the oracle environment (``.venv-oracle``, built
by scripts/test.sh): ``oracle_scores`` sends it every parity job at once and reads its scores.

Where the oracle environment is missing, the parity tests are skipped and the run's last lines
say so, unless ``BLEU_REQUIRE_ORACLE=1`` (scripts/test.sh sets it): then they fail. Tests of the
unified models (xCOMET, CometKiwi: ``-m unified``) run inside the oracle environment itself,
where unbabel-comet is importable.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

NEEDED = ("torch", "transformers")
HAS_EXTRA = all(importlib.util.find_spec(name) is not None for name in NEEDED)
HAS_COMET = importlib.util.find_spec("comet") is not None
#: files whose imports need the extra, or unbabel-comet itself
collect_ignore = [] if HAS_EXTRA else [
    "test_comet.py", "test_bertscore.py", "test_metricx.py", "test_safety.py",
    "test_concurrency.py", "test_estimate.py"]
if not HAS_COMET:
    collect_ignore.append("test_unified.py")
from learned_oracle import _SKIPPED  # noqa: E402 -- found through HERE on sys.path


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not HAS_EXTRA:
        terminalreporter.write_line(
            "learned-metric tests not collected: this environment lacks the learned extra "
            "(pip install -e '.[test,learned]')")
    if _SKIPPED:
        terminalreporter.write_line(f"learned-metric parity tests skipped: {_SKIPPED[0]}")

"""Running the reference libraries for the parity tests: ``run_oracle`` sends the oracle
environment (``.venv-oracle``, or ``BLEU_LEARNED_ORACLE``) every job at once (oracle.py) and reads
its results. A module of its own name, not the folder's conftest, so that the test files import
it whatever other conftest pytest imported first as ``conftest``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]

_SKIPPED: list[str] = []


def oracle_python() -> Path | None:
    """The oracle environment's interpreter: ``BLEU_LEARNED_ORACLE``, else ``.venv-oracle``."""
    named = os.environ.get("BLEU_LEARNED_ORACLE")
    found = Path(named) if named else REPO / ".venv-oracle" / "bin" / "python"
    return found if found.is_file() else None


def run_oracle(jobs: list[dict]) -> dict:
    """The reference libraries' results for ``jobs`` (see oracle.py)."""
    python = oracle_python()
    if python is None:
        message = ("the oracle environment (.venv-oracle with unbabel-comet and bert-score) is "
                   "missing: bash scripts/test.sh builds it")
        if os.environ.get("BLEU_REQUIRE_ORACLE") == "1":
            pytest.fail(message)
        _SKIPPED.append(message)
        pytest.skip(message)
    done = subprocess.run([str(python), str(HERE / "oracle.py")], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        pytest.fail(f"the oracle failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)

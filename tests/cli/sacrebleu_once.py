"""``python -m sacrebleu`` for the command-line tests, its TER search run once per session.

Run as ``python sacrebleu_once.py ARGS...``: sacrebleu's own command line (its ``__main__``, as
``-m`` runs it) with ARGS, except that its TER metric takes each hypothesis-reference search
from a memo file (path in $BLEU_TESTS_SACREBLEU_TER_MEMO, one per test session) before
searching: ``lib_ter.translation_edit_rate`` is a pure function of the two word lists, so every
number is still sacrebleu's, and the same system and reference in another test are not
searched again. Without the variable it is plain ``python -m sacrebleu``.
"""

from __future__ import annotations

import atexit
import os
import pickle
import runpy
import sys
from pathlib import Path

from sacrebleu.metrics import lib_ter, ter

MEMO_VARIABLE = "BLEU_TESTS_SACREBLEU_TER_MEMO"


def _load(path: Path) -> dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[int, int]]:
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return pickle.load(handle)


def _install(path: Path) -> None:
    """sacrebleu's TER module searches through the memo; new searches are saved at exit."""
    memo = _load(path)
    known = len(memo)

    def once(words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
        key = (tuple(words_hyp), tuple(words_ref))
        if key not in memo:
            memo[key] = lib_ter.translation_edit_rate(words_hyp, words_ref)
        return memo[key]

    def save() -> None:
        if len(memo) > known:
            partial = path.with_name(path.name + ".partial")
            with partial.open("wb") as handle:
                pickle.dump(memo, handle)
            partial.replace(path)

    ter.translation_edit_rate = once
    atexit.register(save)


if __name__ == "__main__":
    if os.environ.get(MEMO_VARIABLE):
        _install(Path(os.environ[MEMO_VARIABLE]))
    sys.path[0] = os.getcwd()  # as ``python -m`` has it
    runpy.run_module("sacrebleu", run_name="__main__", alter_sys=True)

"""The catalog tooling (``scripts/i18n.py``), loaded for the tests, and the English msgids a
Dutch page must not show."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


@cache
def tool() -> ModuleType:
    """scripts/i18n.py as a module."""
    spec = importlib.util.spec_from_file_location("i18n_tool", REPO / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def untranslatable_english() -> frozenset[str]:
    """Every msgid of the Dutch catalog whose translation differs from it (the ones that are the
    same, such as "BLEU" or "Data", may show in both), placeholders and all."""
    found = set()
    for message in tool().read("nl"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.update(one for one in ids if one not in strings)
    return frozenset(found)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` (and ``%s``) placeholders of a message."""
    return set(re.findall(r"\{[^{}]*\}|%[sd]", text))

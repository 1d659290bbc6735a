"""Shared test helpers: where the real test data lies, and how to read it line by line."""

from __future__ import annotations

import gzip
import json
import os
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
#: ../shared/data relative to the repository root: the real test sets (see its MANIFEST.md)
DATA_DIR = (REPO.parent / "shared" / "data").resolve()
CASES_FILE = DATA_DIR / "sacrebleu_cases" / "cases.json"


@cache
def _read_lines_cached(path: str) -> tuple[str, ...]:
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


def read_lines(path: str | Path) -> list[str]:
    """The segments of a data file: UTF-8, split on '\\n' only, empty lines kept.

    Only the empty string after the final newline is dropped, so line i of the file is item i.
    """
    return list(_read_lines_cached(str(path)))


@cache
def sacrebleu_cases() -> tuple[dict[str, Any], ...]:
    """The 273 recorded sacrebleu 2.6.0 cases (data/sacrebleu_cases/cases.json)."""
    return tuple(json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"])


@cache
def wmt17_case_data() -> dict[str, Any]:
    """The WMT17 en-de systems and reference that cases with a ``data_file`` refer to."""
    with gzip.open(CASES_FILE.parent / "wmt17_en_de_newstest2017.json.gz", "rt",
                   encoding="utf-8") as handle:
        return json.load(handle)


def ted_lines(name: str) -> list[str]:
    """A stream of compare-mt's TED sk-en set (``ref``, ``sys1``, ``sys2``), detokenized."""
    return read_lines(DATA_DIR / "compare-mt_ted_sk-en" / f"ted.{name}.detok.eng")


_THIS_MODULE = sys.modules[__name__]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Keep ``from conftest import ...`` meaning this file in every test folder without a
    conftest of its own: loading tests/browser/conftest.py rebinds the name ``conftest``."""
    if isinstance(collector, pytest.Module):
        own = collector.path.parent / "conftest.py"
        if not own.exists() or own.resolve() == Path(__file__).resolve():
            sys.modules["conftest"] = _THIS_MODULE


@pytest.fixture(autouse=True)
def fresh_streamlit_caches(request: pytest.FixtureRequest) -> None:
    """st.cache_data and st.cache_resource are shared by AppTest instances in one process:
    every test of tests/app starts with them empty."""
    if request.node.path.parent.name == "app":
        import streamlit as st

        st.cache_data.clear()
        st.cache_resource.clear()


@pytest.fixture(scope="session", autouse=True)
def workspace_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test (and every app server it starts) saves workspaces in a temporary database,
    never in the user's data folder: BLEU_EXPLORER_DB is set for the whole session."""
    path = tmp_path_factory.mktemp("workspaces") / "workspaces.sqlite3"
    saved = os.environ.get("BLEU_EXPLORER_DB")
    os.environ["BLEU_EXPLORER_DB"] = str(path)
    yield path
    if saved is None:
        os.environ.pop("BLEU_EXPLORER_DB", None)
    else:
        os.environ["BLEU_EXPLORER_DB"] = saved


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared data folder; fails (never skips) when it is missing."""
    assert DATA_DIR.is_dir(), f"test data not found at {DATA_DIR}"
    return DATA_DIR


@pytest.fixture(scope="session")
def wmt21_en_de() -> tuple[dict[str, list[str]], list[list[str]]]:
    """WMT21 newstest2021 en-de: (systems by name, the three reference streams A, C, D)."""
    folder = DATA_DIR / "wmt21_newstest2021_en-de"
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    systems = {
        path.name.split(".hyp.")[1][: -len(".de")]: read_lines(path)
        for path in sorted(folder.glob("newstest2021.en-de.hyp.*.de"))
    }
    return systems, refs


# --- Generated text for property tests (hypothesis strategies shared by tests/core) -----------

#: pieces that exercise every tokenizer rule; a small vocabulary, so that n-grams do match
FRAGMENTS = (
    "the", "cat", "sat", "The", "ÄPFEL", "İstanbul", "straße", "a", "x", "3", "42", "3.14",
    "1,000", "2017.", "5-4", "a-b", "-", "--", ".", ",", "..", ".,", ",.", "...", "!", "?", "'",
    '"', "(", ")", "[", "]", "{", "}", "~", "@", "#", "$", "%", "^", "_", "`", "|", "\\", "/",
    ":", ";", "<", ">", "=", "+", "*", "&", "&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;",
    "&amp;lt;", "&amp;gt;", "&amp;amp;", "amp;", "lt;", "gt;", "quot;", "<skipped>",
    "“", "”", "—", "–", "…", "«", "»", "¿", "¡", "€", "©", "½", "≥", "→", "²",
    "①", "ⅷ", "２０２１", "年", "中文", "你好", "，", "。", "：", "日本語", "テキスト", "한국어",
    "😀", "👍🏽", "🇩🇪", " ", " ", " ", "  ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
    "\x1f", "\x85", "\xa0", "\u2001", "\u2028", "\u2029", "\u3000", "\n", "-\n", "\ue000",
    "\ue001", "\ue002", "\ue003", "\U0001d7ce", "\ufeff", "\x00",
)
_piece = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=3),
)
#: one segment: empty, whitespace only, ordinary, or now and then long
segment_text = st.one_of(
    st.lists(_piece, max_size=25).map("".join),
    st.sampled_from(["", " ", "  \t ", "\r", "\n"]),
    st.tuples(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4).map(" ".join),
              st.integers(50, 300)).map(lambda pair: " ".join([pair[0]] * pair[1])),
)

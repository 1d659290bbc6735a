"""Shared test helpers: where the real test data lies, and how to read it line by line."""

from __future__ import annotations

import gzip
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
#: set (to 1) while tests run: a failing page raises, rather than showing its one sentence
RAISE_VARIABLE = "BLEU_EXPLORER_RAISE_ERRORS"
#: the first 100 segments of every real test set, in the repository (tests/data/README.md)
REPO_DATA = REPO / "tests" / "data"
#: the full test sets, beside the repository where CI has them (see their MANIFEST.md)
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()
HAS_SHARED_DATA = SHARED_DATA.is_dir()
#: where tests read real data by default: the cut (tests that need the whole sets read
#: SHARED_DATA and are marked ``full_data``)
DATA_DIR = REPO_DATA
CASES_FILE = REPO_DATA / "sacrebleu_cases" / "cases.json"
#: parametrize a test over the data roots: the repository's cut always, the full sets when there
DATA_ROOTS = [pytest.param(REPO_DATA, id="cut"),
              pytest.param(SHARED_DATA, id="full", marks=pytest.mark.full_data)]


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


def case_param(case: dict[str, Any]) -> Any:
    """A recorded case as a pytest parameter; cases on whole test sets (the WMT17 data file,
    the TED texts) are marked ``full_data``."""
    inline = any(key in case for key in ("hyps", "hyp", "input", "args"))
    marks = () if inline and "data_file" not in case else (pytest.mark.full_data,)
    return pytest.param(case, id=case["id"], marks=marks)


@cache
def wmt17_case_data() -> dict[str, Any]:
    """The WMT17 en-de systems and reference that cases with a ``data_file`` refer to."""
    with gzip.open(SHARED_DATA / "sacrebleu_cases" / "wmt17_en_de_newstest2017.json.gz", "rt",
                   encoding="utf-8") as handle:
        return json.load(handle)


def ted_lines(name: str, root: Path = SHARED_DATA) -> list[str]:
    """A stream of compare-mt's TED sk-en set (``ref``, ``sys1``, ``sys2``), detokenized."""
    return read_lines(root / "compare-mt_ted_sk-en" / f"ted.{name}.detok.eng")


_THIS_MODULE = sys.modules[__name__]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Keep ``from conftest import ...`` meaning this file in every test folder without a
    conftest of its own: loading tests/browser/conftest.py rebinds the name ``conftest``."""
    if isinstance(collector, pytest.Module):
        own = collector.path.parent / "conftest.py"
        if not own.exists() or own.resolve() == Path(__file__).resolve():
            sys.modules["conftest"] = _THIS_MODULE


_DESELECTED: list[str] = []


#: test folders whose every test is ``slow`` (a browser, servers, a deployment)
SLOW_FOLDERS = ("browser", "deploy")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests in ``SLOW_FOLDERS`` and those on the full test sets are marked ``slow`` (the quick
    run leaves them out). Without ../shared/data, the tests that need the full sets are
    deselected (never skipped as passed), and the summary says so."""
    tests = Path(__file__).resolve().parent
    for item in items:
        folder = item.path.relative_to(tests).parts[0] if item.path.is_relative_to(tests) else ""
        if folder in SLOW_FOLDERS or item.get_closest_marker("full_data") is not None:
            item.add_marker(pytest.mark.slow)
    if HAS_SHARED_DATA:
        return
    kept = [item for item in items if item.get_closest_marker("full_data") is None]
    _DESELECTED.extend(item.nodeid for item in items if item not in kept)
    if _DESELECTED:
        config.hook.pytest_deselected(items=[i for i in items if i.nodeid in set(_DESELECTED)])
        items[:] = kept


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line on the full sweep: whether the tests on ../shared/data's whole sets ran."""
    if HAS_SHARED_DATA:
        ran = [report for report in terminalreporter.stats.get("passed", [])
               if "[full" in report.nodeid or "full_data" in report.keywords]
        terminalreporter.write_line(
            f"full sweep over {SHARED_DATA}: ran ({len(ran)} tests on the whole test sets "
            "passed), besides the same tests on tests/data's cut")
    else:
        terminalreporter.write_line(
            f"full sweep over {SHARED_DATA}: NOT run (folder absent): {len(_DESELECTED)} tests "
            "that need the whole test sets were deselected; tests/data's cut was tested")


def _clear_streamlit_caches() -> None:
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def fresh_streamlit_caches() -> Iterator[None]:
    """Empty st.cache_data and st.cache_resource, before and after the test: for a test that
    must see a computation happen (a spinner, a progress bar, a count of calls)."""
    _clear_streamlit_caches()
    yield
    _clear_streamlit_caches()


@pytest.fixture(autouse=True)
def streamlit_caches_kept_clean(request: pytest.FixtureRequest) -> Iterator[None]:
    """AppTest instances of one process share st.cache_data and st.cache_resource, as the
    sessions of one server do: results are keyed on content (and language), so a page drawn
    by one test is drawn from the same results by the next, and the caches are built once per
    test process. A test that patches something (``monkeypatch``) may leave results computed
    under its patch: the caches are emptied after it."""
    yield
    if "monkeypatch" in request.fixturenames and "streamlit" in sys.modules:
        _clear_streamlit_caches()


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


@pytest.fixture(scope="session", autouse=True)
def no_server_warm_up() -> Iterator[None]:
    """App servers the tests start skip the warm-up of slow first visits (seconds of CPU each,
    for pages most of them never show); tests/app/test_warmup.py checks the warm-up itself."""
    saved = os.environ.get("BLEU_EXPLORER_WARMUP")
    os.environ["BLEU_EXPLORER_WARMUP"] = "0"
    yield
    if saved is None:
        os.environ.pop("BLEU_EXPLORER_WARMUP", None)
    else:
        os.environ["BLEU_EXPLORER_WARMUP"] = saved


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The full test sets (for ``full_data`` tests); fails (never skips) when missing."""
    assert SHARED_DATA.is_dir(), f"test data not found at {SHARED_DATA}"
    return SHARED_DATA


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


# --- The plain-Python oracle of BLEU statistics (Counters), for engine checks -----------------

def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """All n-grams of orders 1..max_order with their counts."""
    return Counter(
        tuple(tokens[i : i + n]) for n in range(1, max_order + 1)
        for i in range(len(tokens) - n + 1)
    )


def counter_segment_stats(hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]],
                          max_order: int) -> list[int]:
    """One segment's statistics with Counters: the simplest correct formulation, for checks."""
    hyp = ngram_counts(hyp_tokens, max_order)
    best: Counter[tuple[str, ...]] = Counter()
    for ref in refs_tokens:
        for gram, count in ngram_counts(ref, max_order).items():
            best[gram] = max(best[gram], count)
    lengths = [len(r) for r in refs_tokens]
    ref_len = min(lengths, key=lambda length: (abs(len(hyp_tokens) - length), length))
    matches, totals = [0] * max_order, [0] * max_order
    for gram, count in hyp.items():
        totals[len(gram) - 1] += count
        matches[len(gram) - 1] += min(count, best.get(gram, 0))
    return [len(hyp_tokens), ref_len, *matches, *totals]


# --- sacrebleu's TER search, run once per session for the same words --------------------------

def _ter_search_limits() -> tuple[int, ...]:
    """The module constants of sacrebleu's ``lib_ter`` that its result depends on besides the
    words (tests may patch them): part of the memo's key."""
    from sacrebleu.metrics import lib_ter

    return (lib_ter._COST_INS, lib_ter._COST_DEL, lib_ter._COST_SUB, lib_ter._MAX_SHIFT_SIZE,
            lib_ter._MAX_SHIFT_DIST, lib_ter._BEAM_WIDTH, lib_ter._MAX_SHIFT_CANDIDATES)


@cache
def _sacrebleu_edit_rate(words_hyp: tuple[str, ...], words_ref: tuple[str, ...],
                         limits: tuple[int, ...]) -> tuple[int, int]:
    from sacrebleu.metrics import lib_ter

    return lib_ter.translation_edit_rate(list(words_hyp), list(words_ref))


def sacrebleu_edit_rate_once(words_hyp: Sequence[str], words_ref: Sequence[str],
                             ) -> tuple[int, int]:
    """sacrebleu's own ``lib_ter.translation_edit_rate(words_hyp, words_ref)``, computed once
    per test session: a pure function of the two word lists and lib_ter's limits (the key)."""
    return _sacrebleu_edit_rate(tuple(words_hyp), tuple(words_ref), _ter_search_limits())


@pytest.fixture
def sacrebleu_ter_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """sacrebleu's TER metric (``corpus_score``, ``sentence_score``, its statistics, PairedTest)
    takes each hypothesis-reference search from :func:`sacrebleu_edit_rate_once`: the same
    words searched again (a parameter that changes only our side, a public call after the
    statistics, another test on the same systems) cost sacrebleu's slow search once. Every
    number is still sacrebleu's, for exactly those words."""
    from sacrebleu.metrics import ter

    monkeypatch.setattr(ter, "translation_edit_rate", sacrebleu_edit_rate_once)


@pytest.fixture(scope="session", autouse=True)
def page_errors_raised() -> Iterator[None]:
    """A page that fails shows the visitor one sentence (bleu_app/app.py); in the tests (and the
    servers they start) it raises instead, so that ``at.exception`` and the browser's exception
    box still show every bug. tests/app/test_page_net.py checks the sentence itself."""
    from streamlit import config

    saved = os.environ.get(RAISE_VARIABLE)
    os.environ[RAISE_VARIABLE] = "1"
    # AppTest's exceptions in full (the served app shows none: client.showErrorDetails)
    config.set_option("client.showErrorDetails", "full")
    yield
    if saved is None:
        os.environ.pop(RAISE_VARIABLE, None)
    else:
        os.environ[RAISE_VARIABLE] = saved


"""``bleu.memo.content_cache``: results kept by the content of the arguments (bound to the
parameters) and the interface language; tables handed out as copies; a caller that asks for
what another thread is computing waits for it; failures are not kept."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pandas as pd
import pytest

from bleu.i18n import in_language
from bleu.memo import content_cache


@dataclass(frozen=True)
class Options:
    tokenize: str = "13a"


def counted(by_language: bool = True):
    calls: list[tuple] = []

    @content_cache(maxsize=4, by_language=by_language)
    def work(texts, options=Options(), *, scale: int = 1):
        calls.append((texts, options, scale))
        return pd.DataFrame({"n": [len(texts) * scale]})

    return work, calls


def test_same_content_is_computed_once_however_it_is_passed() -> None:
    work, calls = counted()
    assert work(("a", "b")).n[0] == 2
    work(["a", "b"])  # a list of the same texts
    work(texts=("a", "b"), options=Options("13a"))  # by name, the default given
    assert len(calls) == 1
    work(("a", "c"))
    work(("a", "b"), Options("intl"))
    work(("a", "b"), scale=2)
    assert len(calls) == 4


def test_the_interface_language_is_part_of_the_key_unless_told_otherwise() -> None:
    work, calls = counted()
    with in_language("nl"):
        work(("a",))
    work(("a",))
    assert len(calls) == 2
    neutral, neutral_calls = counted(by_language=False)
    with in_language("nl"):
        neutral(("a",))
    neutral(("a",))
    assert len(neutral_calls) == 1


def test_a_table_is_handed_out_as_a_copy() -> None:
    work, _ = counted()
    first = work(("a",))
    first.loc[0, "n"] = 99
    assert work(("a",)).n[0] == 1


def test_the_least_recently_used_is_dropped() -> None:
    work, calls = counted()
    for k in range(5):
        work((str(k),))
    work(("4",))
    assert len(calls) == 5
    work(("0",))  # dropped: computed again
    assert len(calls) == 6


def test_a_second_caller_waits_for_the_first_callers_result() -> None:
    started, release, calls = threading.Event(), threading.Event(), []

    @content_cache(maxsize=2)
    def slow(text):
        calls.append(text)
        started.set()
        release.wait(10)
        return text.upper()

    results = []
    first = threading.Thread(target=lambda: results.append(slow("x")))
    first.start()
    started.wait(10)
    second = threading.Thread(target=lambda: results.append(slow("x")))
    second.start()
    release.set()
    first.join(10)
    second.join(10)
    assert results == ["X", "X"] and calls == ["x"]


def test_a_failure_is_not_kept() -> None:
    calls = []

    @content_cache(maxsize=2)
    def flaky(text):
        calls.append(text)
        if len(calls) == 1:
            raise ValueError("first time")
        return text

    with pytest.raises(ValueError, match="first time"):
        flaky("x")
    assert flaky("x") == "x" and len(calls) == 2


def test_objects_without_content_are_keyed_by_identity() -> None:
    calls = []

    @content_cache(maxsize=4)
    def use(resource):
        calls.append(resource)
        return id(resource)

    one, other = object(), object()
    use(one)
    use(one)
    use(other)
    assert calls == [one, other]


def test_cache_info_counts_hits_and_misses_and_clear_resets_them() -> None:
    from bleu import memo

    work, calls = counted()
    assert work in memo.decorated()
    assert work.cache_info() == memo.CacheInfo(hits=0, misses=0, size=0)
    work(("a",))
    work(["a"])
    work(("b",))
    assert work.cache_info() == memo.CacheInfo(hits=1, misses=2, size=2)
    assert len(calls) == 2
    work.cache_clear()
    assert work.cache_info() == memo.CacheInfo(hits=0, misses=0, size=0)
    work(("a",))
    assert len(calls) == 3  # cleared: computed again

"""The server's warm-up (``bleu_app/warmup.py``): after it, the first visits of Blind
spots and Brevity penalty and Sensitivity's grid and NLTK cross-check compute nothing of what
it computed (no METEOR, no resized hypothesis, no NLTK corpus_bleu, no BLEU of the grid) and
every content-cached core function the pages call finds its result (no miss): the warm-up
asks exactly what the pages ask, with the same arguments. Without it they compute. Off with
``BLEU_EXPLORER_WARMUP=0``; started once per process."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bleu import memo  # noqa: E402 -- after the path
from bleu.explore import sensitivity  # noqa: E402
from bleu.teaching import blind_spots, brevity, interpretation  # noqa: E402
from bleu_app import warmup  # noqa: E402

APP = REPO / "app.py"
MEMOIZED = (sensitivity.tokenizer_grid, sensitivity.nltk_crosscheck, sensitivity.mqm_correlation,
            sensitivity.segmentation_compare, blind_spots.score_pair,
            interpretation.comparability, brevity.length_whatif, brevity.length_buckets)


def test_every_content_cached_function_of_the_core_is_checked_here() -> None:
    """A new ``bleu.memo.content_cache`` on a page's function belongs in the warm-up and in
    ``MEMOIZED`` (or its first visit is slow and unchecked)."""
    of_the_core = {f for f in memo.decorated() if f.__module__.startswith("bleu.")}
    assert of_the_core == set(MEMOIZED)


def misses() -> dict[str, tuple[int, int]]:
    """Each memoized function's (hits, misses) so far."""
    return {f.__qualname__: f.cache_info()[:2] for f in MEMOIZED}


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch, fresh_streamlit_caches: None) -> dict[str, int]:
    """Empty caches (Streamlit's and the core's); counts of the slow calls underneath."""
    import nltk.translate.bleu_score

    for function in MEMOIZED:
        function.cache_clear()
    counts = {"meteor": 0, "nltk": 0, "grid BLEU": 0, "resize": 0}

    def counter(name, real):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(blind_spots, "meteor", counter("meteor", blind_spots.meteor))
    monkeypatch.setattr(nltk.translate.bleu_score, "corpus_bleu",
                        counter("nltk", nltk.translate.bleu_score.corpus_bleu))
    monkeypatch.setattr(sensitivity, "BLEU", counter("grid BLEU", sensitivity.BLEU))
    monkeypatch.setattr(brevity, "resize", counter("resize", brevity.resize))
    yield counts
    for function in MEMOIZED:
        function.cache_clear()


def first_visits() -> None:
    at = AppTest.from_file(str(APP), default_timeout=300)
    at.run()
    at.switch_page("bleu_app/views/blind_spots.py").run()
    assert not at.exception, at.exception
    at.switch_page("bleu_app/views/brevity_penalty.py").run()
    assert not at.exception, at.exception
    at.switch_page("bleu_app/views/sensitivity.py").run()
    at.toggle(key="sens_grid_on").set_value(True)
    at.toggle(key="sens_nltk_on").set_value(True)
    at.run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("warmed", [False, True], ids=["cold", "warmed"])
def test_first_visits_find_what_the_warm_up_computed(counting: dict[str, int],
                                                     warmed: bool) -> None:
    if warmed:
        warmup.warm()
        counting.update(dict.fromkeys(counting, 0))
    before = misses()
    first_visits()
    found = {name: (hits - before[name][0], missed - before[name][1])
             for name, (hits, missed) in misses().items()}
    asked = {name for name, (hits, missed) in found.items() if hits + missed}
    assert asked == set(found), f"the first visits never asked: {set(found) - asked}"
    if warmed:
        assert counting == dict.fromkeys(counting, 0)
        assert {name: calls for name, calls in found.items() if calls[1]} == {}, \
            "the pages asked with arguments the warm-up did not (hits, misses)"
    else:
        assert all(counting.values()), counting
        assert all(missed for _, missed in found.values()), found


def test_the_warm_up_starts_once_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = []
    monkeypatch.setattr(warmup, "warm", lambda: ran.append(1) or {})
    monkeypatch.setattr(warmup, "_STARTED", type(warmup._STARTED)())
    monkeypatch.setenv("BLEU_EXPLORER_WARMUP", "0")
    assert not warmup.start(delay=0)
    monkeypatch.setenv("BLEU_EXPLORER_WARMUP", "1")
    assert warmup.start(delay=0)
    assert not warmup.start(delay=0)
    for _ in range(200):
        if ran:
            break
        time.sleep(0.05)
    assert ran == [1]

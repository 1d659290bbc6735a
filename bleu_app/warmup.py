"""The slow first visits, computed ahead once per server, in the background, as it starts.

A class arrives on the bundled sample; the first student to open Blind spots would wait for
NLTK, WordNet and every case's metrics (seconds of CPU), the first to switch on Sensitivity's
tokenizer grid or NLTK cross-check for its scores, the first on Brevity penalty for its sweep.
The server's start computes what those first visits show with the app's defaults, into the
core's content-keyed caches (``bleu.memo``: the pages' own calls find them there), and loads
the libraries they use, in a daemon thread that starts a moment after the server. It does the
same work the first visitor would, once, and nothing a visitor could not ask for; a visitor who
asks for something while it is being computed here waits for that result rather than computing
it twice. ``BLEU_EXPLORER_WARMUP=0`` turns it off.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bleu.io.dataset import Dataset

logger = logging.getLogger("bleu_app")

#: seconds between the server's start and the warm-up's (the server first binds and answers)
DELAY = 2.0
_STARTED = threading.Event()
_LOCK = threading.Lock()


def _sample() -> Dataset:
    """The bundled sample the sessions load (read once per server: the first session finds it
    read)."""
    from bleu_app.session import _session

    return _session.sample_dataset()


#: what the pages import on first use (the first visitor of a page would wait for them)
PAGE_MODULES = ("pandas", "altair", "bleu.charts.dashboard", "bleu.charts.segments",
                "bleu.charts.teaching", "bleu.charts.blind_spots", "bleu.charts.metrics",
                "bleu.explore.compare", "bleu.explore.segments", "bleu.explore.dashboard",
                "bleu.teaching.steps", "bleu.teaching.breakdown", "bleu.teaching.exercises",
                "bleu_app.widgets._explore", "bleu_app.widgets._steps_ui",
                "bleu_app.widgets._tables", "nltk.translate.bleu_score",
                "nltk.translate.meteor_score", "rouge_score.rouge_scorer", "scipy.stats")


def _libraries() -> None:
    """What the pages import on first use (``PAGE_MODULES``), WordNet, rouge-score's
    tokenizer and TER's compiled kernel."""
    import importlib

    for name in PAGE_MODULES:
        importlib.import_module(name)

    from bleu.metrics import meteor, rouge
    from bleu.metrics.ter import kernel  # noqa: F401

    meteor.wordnet()
    rouge.rouge_l("a b", ["a b"], language="en", tokenize="13a")


def _blind_spots() -> None:
    """Every ready-made case and the page's own pair, with the defaults (13a, mixed case,
    WordNet's synonyms where installed), and the first output's comparability."""
    from bleu.metrics import meteor
    from bleu.metrics.bleu.score import BLEUOptions
    from bleu.teaching import blind_spots, interpretation
    from bleu_app.session import _session

    synonyms = meteor.wordnet()
    for case in blind_spots.load_cases(_session.SAMPLE_DIR / "blind_spots" / "cases.json"):
        blind_spots.case_frame(case, synonyms=synonyms)
    blind_spots.score_pair("The building is strong and the foundation is solid.",
                           ["The foundation is solid and the building is firm."],
                           synonyms=synonyms)
    data = _sample()
    system = next(iter(data.systems.values()))
    names = [f"ref {name}" for name in interpretation.short_names(
        [ref.name for ref in data.references])]
    interpretation.comparability(system.segments, [ref.segments for ref in data.references],
                                 BLEUOptions(), reference_names=names)


def _sensitivity() -> None:
    """The tokenizer grid of the first four systems, NLTK's cross-check of the first, the
    bundled MQM sample's correlations, the Chinese excerpt's segmentation (the page's
    defaults)."""
    from bleu.evaluation.systems import match_scores
    from bleu.explore import sensitivity
    from bleu.io.dataset import load_folder
    from bleu_app.session import _samples, _session

    data = _sample()
    hyps = {name: text.segments for name, text in list(data.systems.items())[:4]}
    sensitivity.tokenizer_grid(hyps, data.reference_streams, smooth_method="exp",
                               max_ngram_order=4)
    first = next(iter(data.systems.values()))
    sensitivity.nltk_crosscheck(first.segments, [ref.segments for ref in data.references],
                                max_ngram_order=4)
    mqm_data, file_scores = _samples.mqm_sample()
    scores = match_scores(file_scores, list(mqm_data.systems)).scores
    sensitivity.mqm_correlation({name: text.segments for name, text in mqm_data.systems.items()},
                                mqm_data.reference_streams, scores, tokenize="13a",
                                lowercase=False)
    unspaced = load_folder(_session.SAMPLE_DIR / "wmt22_en-zh_excerpt", "")
    zh = next(iter(unspaced.systems.values()))
    sensitivity.segmentation_compare(zh.segments, [ref.segments for ref in unspaced.references])


def _brevity_penalty() -> None:
    """The first system's resize sweep and every system's length buckets (the page's
    defaults)."""
    from bleu.teaching.brevity import SWEEP, length_buckets, length_whatif

    data = _sample()
    first = next(iter(data.systems.values()))
    options = {"tokenize": "13a", "lowercase": False}
    length_whatif(first.segments, [ref.segments for ref in data.references], SWEEP,
                  smooth_method="exp", smooth_value=None, max_ngram_order=4,
                  effective_order=False, **options)
    length_buckets({name: text.segments for name, text in data.systems.items()},
                   data.reference_streams, **options)


#: what the warm-up does, in order (the cheapest visits' needs first)
STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("libraries", _libraries), ("brevity penalty", _brevity_penalty),
    ("blind spots", _blind_spots), ("sensitivity", _sensitivity))


def warm() -> dict[str, float]:
    """Every step once, in this thread, in English (the default language); seconds per step.
    A step that fails is logged and skipped: the page computes it when visited."""
    from bleu.i18n import in_language
    from bleu.metrics.threads import set_threads

    set_threads(1)  # as the app's sessions: the server already runs sessions side by side
    took = {}
    with in_language("en"):
        for name, step in STEPS:
            start = time.perf_counter()
            try:
                step()
            except Exception:  # the page will compute it, and say what is wrong, if visited
                logger.warning("warm-up step %r failed", name, exc_info=True)
            took[name] = time.perf_counter() - start
    return took


def start(delay: float = DELAY) -> bool:
    """Start the warm-up (once per process, unless ``BLEU_EXPLORER_WARMUP=0``); whether this
    call started it."""
    if os.environ.get("BLEU_EXPLORER_WARMUP", "1") == "0":
        return False
    with _LOCK:
        if _STARTED.is_set():
            return False
        _STARTED.set()

    def run() -> None:
        time.sleep(delay)
        took = warm()
        logger.info("warm-up done: %s", ", ".join(f"{k} {v:.1f} s" for k, v in took.items()))

    threading.Thread(target=run, name="bleu-warmup", daemon=True).start()
    return True

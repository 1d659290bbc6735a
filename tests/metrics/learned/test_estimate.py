"""The plan's estimate is right: one batch is computed and timed on this machine, the rest is
extrapolated by tokens and padded length, and the run that follows takes between half and twice
the estimated time (on a COMET model big enough to take seconds: 4 layers of width 256). A second
plan, after a stopped run, uses the time of the batches done and is as right.

Both sides are wall time on a machine that other tests share (xdist runs a second worker beside
this one): a burst of load during the one timed batch, or during the run, moves the ratio by
itself. So each check plans and runs afresh up to three times and passes when one of them is
within 2x; an estimate that is wrong by design (the issue's "about 2 s" for 13 minutes) fails
all three."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from learned_models import (
    REFERENCE_A,
    SOURCES,
    build_comet,
    sample_lines,
)

from bleu.metrics.learned import CometScorer, MemoryScoreCache, ScoringCancelled, plan, score

pytestmark = pytest.mark.learned

N = 80
SOURCE = sample_lines("src.en", N)
REFERENCE = sample_lines("ref.A.de", N)
SYSTEMS = {name: sample_lines(f"hyp.{name}.de", N)
           for name in ("PROMT", "Online-W", "JDExploreAcademy")}


@pytest.fixture(scope="module", name="model")
def model_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A COMET model of some size (random weights) on the tiny tokenizer."""
    import torch
    from learned_models import build_encoder
    from transformers import XLMRobertaConfig, XLMRobertaModel

    root = tmp_path_factory.mktemp("estimate")
    encoder = build_encoder(root / "encoder")
    config = XLMRobertaConfig.from_pretrained(encoder)
    config.hidden_size, config.num_hidden_layers = 256, 4
    config.num_attention_heads, config.intermediate_size = 4, 1024
    torch.manual_seed(0)
    XLMRobertaModel(config, add_pooling_layer=False).save_pretrained(encoder)
    return build_comet("regression_metric", encoder, root / "comet", hidden_sizes=[64])


ATTEMPTS = 3


def _within_twice(attempt: Callable[[], tuple[float, float]]) -> None:
    """Passes when one of ``ATTEMPTS`` runs of ``attempt`` (estimated and taken seconds) took
    between half and twice its estimate."""
    seen = []
    for _ in range(ATTEMPTS):
        estimated, took = attempt()
        assert estimated > 0
        if 0.5 <= took / estimated <= 2.0:
            return
        seen.append(f"estimated {estimated:.2f} s, took {took:.2f} s")
    pytest.fail("; ".join(seen))


def test_the_run_takes_what_the_plan_said(model: Path) -> None:
    def attempt() -> tuple[float, float]:
        scorer = CometScorer(model, device="cpu")  # a new scorer times its own batch
        cache = MemoryScoreCache()
        found = plan(scorer, SYSTEMS, sources=SOURCE, references=[REFERENCE], cache=cache)
        assert found.to_compute > 2 * N and found.estimate.tokens > 0
        start = time.perf_counter()
        score(scorer, SYSTEMS, sources=SOURCE, references=[REFERENCE], cache=cache)
        return found.estimate.seconds, time.perf_counter() - start

    _within_twice(attempt)


def test_after_a_cancel_the_plan_is_still_right(model: Path) -> None:
    _within_twice(lambda: _cancel_then_run(model))


def _cancel_then_run(model: Path) -> tuple[float, float]:
    """A run stopped at 40%, then the plan of the rest and the time the rest took."""
    scorer = CometScorer(model, device="cpu")
    cache, stop = MemoryScoreCache(), threading.Event()

    def halfway(progress) -> None:  # type: ignore[no-untyped-def]
        if progress.fraction > 0.4:
            stop.set()

    with pytest.raises(ScoringCancelled):
        score(scorer, SYSTEMS, sources=SOURCE, references=[REFERENCE], cache=cache,
              progress=halfway, cancel=stop)
    again = plan(scorer, SYSTEMS, sources=SOURCE, references=[REFERENCE], cache=cache)
    assert 0 < again.to_compute < 3 * N
    start = time.perf_counter()
    score(scorer, SYSTEMS, sources=SOURCE, references=[REFERENCE], cache=cache)
    return again.estimate.seconds, time.perf_counter() - start


def test_the_plan_names_no_time_when_all_is_cached(model: Path) -> None:
    scorer = CometScorer(model, device="cpu")
    cache = MemoryScoreCache()
    score(scorer, {"PROMT": SYSTEMS["PROMT"][:20]}, sources=SOURCES[:20],
          references=[REFERENCE_A[:20]], cache=cache)
    found = plan(scorer, {"PROMT": SYSTEMS["PROMT"][:20]}, sources=SOURCES[:20],
                 references=[REFERENCE_A[:20]], cache=cache)
    assert found.to_compute == 0 and found.estimate.seconds == 0

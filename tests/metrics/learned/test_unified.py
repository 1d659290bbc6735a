"""Unified COMET models (xCOMET, CometKiwi), still computed through unbabel-comet itself: run in
the oracle environment, where it is installed (``-m unified``). xCOMET's scores and error spans
through bleu.metrics.learned equal COMET's own ``predict`` on the same tiny model, and its
checkpoint passes the tensors-only check before COMET opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from learned_models import (
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    build_xcomet,
    checkpoint,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.metrics.learned import ErrorSpan, load_comet, score

pytestmark = pytest.mark.unified
BATCH = 8


def test_xcomet_scores_and_error_spans_are_comets(tiny_models: TinyModels,
                                                  tmp_path: Path) -> None:
    from comet import load_from_checkpoint

    folder = build_xcomet(tiny_models.encoder, tmp_path / "xcomet")
    samples = [{"src": s, "mt": m, "ref": r} for hypotheses in SYSTEMS.values()
               for s, m, r in zip(SOURCES, hypotheses, REFERENCE_A, strict=True)]
    theirs = load_from_checkpoint(checkpoint(folder), local_files_only=True).predict(
        samples, batch_size=BATCH, gpus=0, progress_bar=False)
    scorer = load_comet(folder, device="cpu")
    scorer.batch_size = BATCH
    ours = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A])
    n = len(SOURCES)
    spans = theirs.metadata.error_spans
    assert any(spans)  # the random model marks some errors
    for k, system in enumerate(ours.systems):
        assert system.scores.tolist() == pytest.approx(theirs.scores[k * n:(k + 1) * n],
                                                       abs=1e-6)
        assert system.spans == tuple(
            tuple(ErrorSpan(s["start"], s["end"], s["severity"], s["text"], s["confidence"])
                  for s in segment) for segment in spans[k * n:(k + 1) * n])
    assert ours.library.startswith("unbabel-comet 2.2")

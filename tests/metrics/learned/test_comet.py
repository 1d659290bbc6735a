"""COMET through bleu.metrics.learned equals COMET's own ``predict`` on the same tiny models and
inputs (segment and system scores, xCOMET's error spans); models are found by folder, checkpoint
or Hugging Face cache name, and a missing one is named with the command that fetches it; the
cache serves a second run; a run stops when asked, keeping what it finished."""

from __future__ import annotations

import threading
from pathlib import Path

import huggingface_hub
import pytest
from comet import load_from_checkpoint
from learned_models import (
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    build_comet,
    checkpoint,
    put_in_hub_cache,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.errors import InputError, MissingModelError, MissingReferenceError
from bleu.metrics.learned import (
    CometScorer,
    ErrorSpan,
    MemoryScoreCache,
    Progress,
    ScoringCancelled,
    score,
)

#: these need the learned extra (COMET, BERTScore, torch): scripts/test.sh runs them in its
#: second environment, which has it
pytestmark = pytest.mark.learned

BATCH = 8


def _samples(with_reference: bool = True) -> list[dict[str, str]]:
    """Every system's samples, system after system, as COMET takes them."""
    return [{"src": s, "mt": m, **({"ref": r} if with_reference else {})}
            for hypotheses in SYSTEMS.values()
            for s, m, r in zip(SOURCES, hypotheses, REFERENCE_A, strict=True)]


def _predict(folder: Path, samples: list[dict[str, str]]):  # -> comet's Prediction
    model = load_from_checkpoint(checkpoint(folder), local_files_only=True)
    return model.predict(samples, batch_size=BATCH, gpus=0, progress_bar=False)


def _per_system(values: list, n: int) -> list[list]:
    return [values[k:k + n] for k in range(0, len(values), n)]


@pytest.mark.parametrize("kind", ["comet", "comet_qe"])
def test_scores_equal_comets_predict(tiny_models: TinyModels, kind: str) -> None:
    folder = getattr(tiny_models, kind)
    with_reference = kind == "comet"
    theirs = _predict(folder, _samples(with_reference))
    ours = score(CometScorer(folder, device="cpu", batch_size=BATCH), SYSTEMS,
                 sources=SOURCES, references=[REFERENCE_A] if with_reference else ())
    n = len(SOURCES)
    for system, expected in zip(ours.systems, _per_system(theirs.scores, n), strict=True):
        assert system.scores.dtype.name == "float64"
        assert system.scores.tolist() == expected
        assert system.system_score == sum(expected) / len(expected)  # COMET's system score
        assert system.spans is None
    assert [s.name for s in ours.systems] == list(SYSTEMS)
    assert ours.computed == 2 * n and ours.cached == 0
    assert ours.library.startswith("unbabel-comet 2.2") and ours.model_version.startswith("sha:")


def test_one_system_at_a_time_as_comets_command_line(tiny_models: TinyModels) -> None:
    """comet-score with several systems predicts each on its own: the same scores to float32
    rounding (a batch's padding differs when the batches mix systems)."""
    ours = score(CometScorer(tiny_models.comet, device="cpu", batch_size=BATCH), SYSTEMS,
                 sources=SOURCES, references=[REFERENCE_A])
    model = load_from_checkpoint(checkpoint(tiny_models.comet), local_files_only=True)
    for system, hypotheses in zip(ours.systems, SYSTEMS.values(), strict=True):
        theirs = model.predict([{"src": s, "mt": m, "ref": r} for s, m, r in zip(
            SOURCES, hypotheses, REFERENCE_A, strict=True)], batch_size=BATCH, gpus=0,
            progress_bar=False)
        assert system.scores.tolist() == pytest.approx(theirs.scores, abs=1e-6)
        assert system.system_score == pytest.approx(theirs.system_score, abs=1e-6)


def test_xcomet_error_spans_are_comets(tiny_models: TinyModels) -> None:
    theirs = _predict(tiny_models.xcomet, _samples())
    ours = score(CometScorer(checkpoint(tiny_models.xcomet), device="cpu", batch_size=BATCH),
                 SYSTEMS, sources=SOURCES, references=[REFERENCE_A])
    n = len(SOURCES)
    expected_spans = _per_system(theirs.metadata.error_spans, n)
    assert any(expected_spans[0])  # the random model marks some errors
    for system, scores, spans in zip(ours.systems, _per_system(theirs.scores, n),
                                     expected_spans, strict=True):
        assert system.scores.tolist() == scores
        assert system.spans == tuple(
            tuple(ErrorSpan(s["start"], s["end"], s["severity"], s["text"], s["confidence"])
                  for s in segment) for segment in spans)


def test_the_cache_serves_a_second_run(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu", batch_size=BATCH)
    cache = MemoryScoreCache()
    first = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache)
    calls: list[int] = []
    original = scorer.compute

    def counted(pending, keys):  # type: ignore[no-untyped-def]
        calls.append(len(pending))
        return original(pending, keys)

    scorer.compute = counted  # type: ignore[method-assign]
    reports: list[Progress] = []
    second = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache,
                   progress=reports.append)
    assert calls == [] and (second.computed, second.cached) == (0, 2 * len(SOURCES))
    assert [s.scores.tolist() for s in second.systems] == \
        [s.scores.tolist() for s in first.systems]
    assert reports[-1].total == 0 and reports[-1].fraction == 1.0
    # one new system: only its segments are computed
    third = score(scorer, {**SYSTEMS, "copy": REFERENCE_A}, sources=SOURCES,
                  references=[REFERENCE_A], cache=cache)
    assert calls == [len(SOURCES)] and third.cached == 2 * len(SOURCES)


def test_a_stopped_run_keeps_its_finished_batches(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu", batch_size=BATCH)
    cache, stop = MemoryScoreCache(), threading.Event()
    reports: list[Progress] = []

    def progress(report: Progress) -> None:
        reports.append(report)
        if report.done >= 2 * BATCH:
            stop.set()

    with pytest.raises(ScoringCancelled) as caught:
        score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache,
              progress=progress, cancel=stop)
    assert (caught.value.done, caught.value.total) == (2 * BATCH, 2 * len(SOURCES))
    assert len(cache) == 2 * BATCH
    assert [r.done for r in reports] == [0, BATCH, 2 * BATCH]
    assert reports[0].estimate.seconds > 0 and reports[0].estimate.tokens > 0
    rest = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache,
                 cancel=lambda: False)
    assert (rest.cached, rest.computed) == (2 * BATCH, 2 * len(SOURCES) - 2 * BATCH)
    whole = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A])
    for part, full in zip(rest.systems, whole.systems, strict=True):
        assert part.scores.tolist() == pytest.approx(full.scores.tolist(), abs=1e-6)


def test_a_model_in_the_hugging_face_cache_is_found_by_name(
        tiny_models: TinyModels, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit = "1234567890abcdef1234567890abcdef12345678"
    put_in_hub_cache(tmp_path, "Tiny/comet-da", tiny_models.comet, commit)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    scorer = CometScorer("Tiny/comet-da", device="cpu")
    assert scorer.model_version == commit and scorer.model == "Tiny/comet-da"
    by_folder = CometScorer(tiny_models.comet, device="cpu")
    assert scorer.identity != by_folder.identity  # a fingerprint is not a commit


def test_a_missing_model_names_the_command_that_fetches_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(MissingModelError) as caught:
        CometScorer("Unbabel/wmt22-comet-da")
    message = str(caught.value)
    assert "'Unbabel/wmt22-comet-da'" in message and str(tmp_path) in message
    assert "huggingface-cli download Unbabel/wmt22-comet-da" in message
    assert "never downloads" in message


def test_a_missing_encoder_is_named_too(tiny_models: TinyModels, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A COMET checkpoint loads its encoder's tokenizer and configuration by name
    (xlm-roberta-large): without them in the cache, say so before loading anything."""
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    folder = tmp_path / "model"
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "checkpoints" / "model.ckpt").write_bytes(b"weights")
    (folder / "hparams.yaml").write_text("class_identifier: regression_metric\n"
                                         "pretrained_model: xlm-roberta-large\n")
    with pytest.raises(MissingModelError) as caught:
        CometScorer(folder)
    message = str(caught.value)
    assert "'xlm-roberta-large'" in message
    assert 'huggingface-cli download xlm-roberta-large --include "*.json" "*.model"' in message


def test_a_folder_without_a_checkpoint_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MissingModelError, match="holds no COMET checkpoint"):
        CometScorer(tmp_path)


def test_inputs_are_checked(tiny_models: TinyModels, tmp_path: Path) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu")
    with pytest.raises(MissingReferenceError, match="needs a reference"):
        score(scorer, SYSTEMS, sources=SOURCES)
    with pytest.raises(InputError, match="source"):
        score(scorer, SYSTEMS, references=[REFERENCE_A])
    with pytest.raises(InputError, match="has 39 segments, but the system has 40"):
        score(scorer, SYSTEMS, sources=SOURCES[:-1], references=[REFERENCE_A])


def test_a_changed_model_is_a_new_model(tiny_models: TinyModels, tmp_path: Path) -> None:
    """Scores are cached by the model's files: another checkpoint in the same place does not
    get the first one's scores."""
    first = CometScorer(tiny_models.comet, device="cpu")
    other = build_comet("regression", tiny_models.encoder, tmp_path / "other", seed=7)
    assert CometScorer(other, device="cpu").identity != first.identity

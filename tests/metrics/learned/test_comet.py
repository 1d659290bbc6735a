"""COMET computed natively (bleu.metrics.learned) equals unbabel-comet 2.2.7's own ``predict``
on the same tiny models and inputs, run in the oracle environment: reference-based (softmax and
sparsemax layer mixes, mean and max pooling), reference-free, with ties, empty outputs, an empty
reference and a truncated long line, to 1e-6. Models are found by folder, checkpoint or Hugging
Face cache name; the cache serves a second run; a run stops when asked, keeping what it finished;
each distinct text is encoded once."""

from __future__ import annotations

import threading
from pathlib import Path

import huggingface_hub
import pytest
from learned_models import (
    EDGE_REFERENCE,
    EDGE_SYSTEM,
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    build_comet,
    checkpoint,
    put_in_hub_cache,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)
from learned_oracle import run_oracle

from bleu.errors import InputError, MissingModelError, MissingReferenceError
from bleu.evaluation import registry
from bleu.metrics.learned import (
    CometScorer,
    MemoryScoreCache,
    Progress,
    ScoringCancelled,
    load_comet,
    score,
)

pytestmark = pytest.mark.learned

BATCH = 8
ALL = {**SYSTEMS, "edge": EDGE_SYSTEM}
#: (job name, model attribute, reference stream or None)
CASES = [("comet", "comet", REFERENCE_A), ("comet-edge-ref", "comet", EDGE_REFERENCE),
         ("sparse", "comet_sparse", REFERENCE_A), ("qe", "comet_qe", None)]


def _samples(reference: list[str] | None) -> list[dict[str, str]]:
    """Every system's samples, system after system, as COMET takes them."""
    return [{"src": s, "mt": m, **({"ref": r} if reference is not None else {})}
            for hypotheses in ALL.values()
            for s, m, r in zip(SOURCES, hypotheses, reference or SOURCES, strict=True)]


@pytest.fixture(scope="module", name="theirs")
def theirs_fixture(tiny_models: TinyModels) -> dict:
    """unbabel-comet's predict on every case, in one run of the oracle environment."""
    return run_oracle([{"name": name, "kind": "comet", "batch_size": BATCH,
                        "checkpoint": checkpoint(getattr(tiny_models, attribute)),
                        "samples": _samples(reference)}
                       for name, attribute, reference in CASES])


@pytest.mark.parametrize(("name", "attribute", "reference"), CASES,
                         ids=[case[0] for case in CASES])
def test_scores_equal_comets_predict(tiny_models: TinyModels, theirs: dict, name: str,
                                     attribute: str, reference: list[str] | None) -> None:
    expected = theirs[name]["scores"]
    scorer = load_comet(getattr(tiny_models, attribute), device="cpu")
    ours = score(scorer, ALL, sources=SOURCES,
                 references=[reference] if reference is not None else ())
    n = len(SOURCES)
    assert [s.name for s in ours.systems] == list(ALL)
    for k, system in enumerate(ours.systems):
        assert system.scores.dtype.name == "float64"
        assert system.scores.tolist() == pytest.approx(expected[k * n:(k + 1) * n], abs=1e-6)
        assert system.spans is None
    assert ours.systems[2].scores[2] == ours.systems[0].scores[2]  # one segment, one score
    everything = [v for system in ours.systems for v in system.scores.tolist()]
    assert sum(everything) / len(everything) == pytest.approx(theirs[name]["system_score"],
                                                              abs=1e-6)
    assert ours.model_version.startswith("sha:") and "torch" in ours.library
    assert ours.signature.startswith(f"COMET|model:{getattr(tiny_models, attribute).name}|")
    assert ("|ref:none" in ours.signature) == (reference is None)
    assert registry.get("COMET").higher_is_better


def test_each_distinct_text_is_encoded_once(tiny_models: TinyModels) -> None:
    """Sources and references serve every system: the model reads each distinct text once."""
    scorer = CometScorer(tiny_models.comet, device="cpu")
    read: list[int] = []
    original = scorer._encoder._forward

    def counted(batch):  # type: ignore[no-untyped-def]
        read.extend(len(ids) for ids in batch)
        return original(batch)

    scorer._encoder._forward = counted
    scorer._encoder._warm = True
    score(scorer, ALL, sources=SOURCES, references=[REFERENCE_A])
    distinct = {*SOURCES, *REFERENCE_A, *(m for lines in ALL.values() for m in lines)}
    assert len(read) == len(distinct)


def test_the_cache_serves_a_second_run(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu")
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
    third = score(scorer, {**SYSTEMS, "copy": REFERENCE_A}, sources=SOURCES,
                  references=[REFERENCE_A], cache=cache)
    assert calls == [len(SOURCES)] and third.cached == 2 * len(SOURCES)


def test_a_stopped_run_keeps_its_finished_batches(tiny_models: TinyModels) -> None:
    scorer = CometScorer(tiny_models.comet, device="cpu", batch_size=BATCH)
    cache, stop = MemoryScoreCache(), threading.Event()
    reports: list[Progress] = []

    def progress(report: Progress) -> None:
        reports.append(report)
        if report.done > 0:
            stop.set()

    with pytest.raises(ScoringCancelled) as caught:
        score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache,
              progress=progress, cancel=stop)
    kept = caught.value.done
    assert 0 < kept < 2 * len(SOURCES) and caught.value.total == 2 * len(SOURCES)
    assert len(cache) == kept
    assert reports[0].done == 0 and reports[0].estimate.seconds > 0
    rest = score(scorer, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache)
    assert (rest.cached, rest.computed) == (kept, 2 * len(SOURCES) - kept)
    whole = score(CometScorer(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
                  references=[REFERENCE_A])
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
    by_file = CometScorer(checkpoint(tiny_models.comet), device="cpu")
    assert by_file.model_path == checkpoint(tiny_models.comet)


def test_a_missing_model_names_the_command_that_fetches_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(MissingModelError) as caught:
        load_comet("Unbabel/wmt22-comet-da")
    message = str(caught.value)
    assert "'Unbabel/wmt22-comet-da'" in message and str(tmp_path) in message
    assert "huggingface-cli download Unbabel/wmt22-comet-da" in message


def test_a_missing_encoder_is_named_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    folder = tmp_path / "model"
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "checkpoints" / "model.ckpt").write_bytes(b"weights")
    (folder / "hparams.yaml").write_text("class_identifier: regression_metric\n"
                                         "pretrained_model: xlm-roberta-large\n")
    with pytest.raises(MissingModelError) as caught:
        load_comet(folder)
    message = str(caught.value)
    assert "'xlm-roberta-large'" in message
    assert 'huggingface-cli download xlm-roberta-large --include "*.json" "*.model"' in message


def test_a_folder_without_a_checkpoint_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MissingModelError, match="holds no COMET checkpoint"):
        load_comet(tmp_path)


def test_inputs_are_checked(tiny_models: TinyModels) -> None:
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
    other = build_comet("regression_metric", tiny_models.encoder, tmp_path / "other", seed=7)
    assert CometScorer(other, device="cpu").identity != first.identity


def test_reduced_precision_only_when_asked_with_its_measured_shift(
        tiny_models: TinyModels) -> None:
    """bf16 runs the encoder at bf16 when asked; the first plan measures the largest score
    difference to fp32 on some of the segments, and the signature says it; its scores are
    cached apart from fp32 ones. fp16 is for a GPU."""
    full = CometScorer(tiny_models.comet, device="cpu")
    assert full.precision == "fp32" and "|precision:fp32|" in str(full.signature(1))
    reduced = CometScorer(tiny_models.comet, device="cpu", precision="bf16")
    assert "precision:bf16(shift unmeasured)" in str(reduced.signature(1))
    assert reduced.identity != full.identity
    cache = MemoryScoreCache()
    exact = score(full, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache)
    ours = score(reduced, SYSTEMS, sources=SOURCES, references=[REFERENCE_A], cache=cache)
    assert ours.computed == 2 * len(SOURCES)  # not fp32's cached scores
    differences = [abs(a - b) for x, y in zip(ours.systems, exact.systems, strict=True)
                   for a, b in zip(x.scores.tolist(), y.scores.tolist(), strict=True)]
    shift = reduced.precision_shift
    assert shift is not None and 0 < shift <= max(differences) < 0.1
    assert f"|precision:bf16(shift<={shift:.2g})|" in ours.signature
    assert reduced._full is None  # the fp32 encoder's memory is given back
    with pytest.raises(InputError, match="not 'fp16'"):
        CometScorer(tiny_models.comet, device="cpu", precision="fp16")
    with pytest.raises(InputError, match="not 'int4'"):
        load_comet(tiny_models.comet, device="cpu", precision="int4")

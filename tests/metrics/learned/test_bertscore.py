"""BERTScore computed natively (bleu.metrics.learned) equals bert-score 0.3.13's ``score`` on the
same tiny model and inputs, run in the oracle environment: precision, recall and F1 per segment,
one reference or several (the best of each), ties, empty outputs and an empty reference, to
1e-6; chunks give the same scores; a folder model needs its number of layers; a stopped run
keeps its finished chunks; each reference is embedded once for every system."""

from __future__ import annotations

import pytest
from learned_models import (
    EDGE_REFERENCE,
    EDGE_SYSTEM,
    REFERENCE_A,
    REFERENCE_B,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)
from learned_oracle import run_oracle

from bleu.errors import InputError, LengthMismatchError, MissingReferenceError
from bleu.metrics.learned import (
    BertScoreScorer,
    MemoryScoreCache,
    Progress,
    ScoringCancelled,
    score,
)

pytestmark = pytest.mark.learned

BATCH = 16
LAYERS = 2
ALL = {**SYSTEMS, "edge": EDGE_SYSTEM}
CASES = {"one": [REFERENCE_A], "two": [REFERENCE_A, REFERENCE_B],
         "edge": [EDGE_REFERENCE, REFERENCE_B], "layer-1": [REFERENCE_A]}


def _job(name: str, folder: str, references: list[list[str]]) -> dict:
    candidates = [h for hypotheses in ALL.values() for h in hypotheses]
    per_segment = [list(refs) for refs in zip(*references, strict=True)] * len(ALL)
    refs = per_segment if len(references) > 1 else [r[0] for r in per_segment]
    return {"name": name, "kind": "bertscore", "model": folder, "batch_size": BATCH,
            "num_layers": 1 if name == "layer-1" else LAYERS, "cands": candidates,
            "refs": refs}


@pytest.fixture(scope="module", name="theirs")
def theirs_fixture(tiny_models: TinyModels) -> dict:
    """bert_score.score on every case, in one run of the oracle environment."""
    return run_oracle([_job(name, str(tiny_models.encoder), references)
                       for name, references in CASES.items()])


def _split(values: list) -> list[list]:
    n = len(REFERENCE_A)
    return [values[k:k + n] for k in range(0, len(values), n)]


@pytest.mark.parametrize("name", list(CASES))
def test_scores_equal_bert_scores(tiny_models: TinyModels, theirs: dict, name: str) -> None:
    layers = 1 if name == "layer-1" else LAYERS
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=layers, device="cpu")
    ours = score(scorer, ALL, references=CASES[name])
    expected = theirs[name]
    for system, p, r, f in zip(ours.systems, _split(expected["P"]), _split(expected["R"]),
                               _split(expected["F"]), strict=True):
        assert system.scores.tolist() == pytest.approx(f, abs=1e-6)
        assert system.components["precision"].tolist() == pytest.approx(p, abs=1e-6)
        assert system.components["recall"].tolist() == pytest.approx(r, abs=1e-6)
    assert ours.systems[2].scores[0] == 0.0  # an empty output scores 0, as in bert_score
    assert ours.metric == "BERTScore" and f"|layer:{layers}|" in ours.signature


def test_chunks_give_the_same_scores(tiny_models: TinyModels) -> None:
    whole = score(BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu"), ALL,
                  references=[REFERENCE_A, REFERENCE_B])
    chunked = score(BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu",
                                    batch_size=4, chunk_size=7), ALL,
                    references=[REFERENCE_A, REFERENCE_B])
    for a, b in zip(whole.systems, chunked.systems, strict=True):
        assert a.scores.tolist() == pytest.approx(b.scores.tolist(), abs=1e-6)


def test_each_reference_is_embedded_once(tiny_models: TinyModels) -> None:
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu")
    read: list[int] = []
    original = scorer._encoder._forward

    def counted(batch):  # type: ignore[no-untyped-def]
        read.extend(len(ids) for ids in batch)
        return original(batch)

    scorer._encoder._forward = counted
    scorer._encoder._warm = True
    score(scorer, ALL, references=[REFERENCE_A])
    assert len(read) == len({*REFERENCE_A, *(h for lines in ALL.values() for h in lines)})


def test_a_stopped_run_keeps_its_finished_chunks(tiny_models: TinyModels) -> None:
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu",
                             batch_size=4, chunk_size=10)
    cache = MemoryScoreCache()
    reports: list[Progress] = []

    def stop_once_a_chunk_is_done() -> bool:
        return len(cache) > 0

    with pytest.raises(ScoringCancelled) as caught:
        score(scorer, SYSTEMS, references=[REFERENCE_A], cache=cache,
              progress=reports.append, cancel=stop_once_a_chunk_is_done)
    assert len(cache) == 10 and caught.value.done == 10
    fractions = [report.fraction for report in reports]
    assert fractions == sorted(fractions) and 0 < fractions[-1] < 1
    assert reports[0].estimate.tokens > 0
    rest = score(scorer, SYSTEMS, references=[REFERENCE_A], cache=cache)
    assert (rest.cached, rest.computed) == (10, 2 * len(REFERENCE_A) - 10)


def test_a_folder_model_needs_its_number_of_layers(tiny_models: TinyModels) -> None:
    with pytest.raises(InputError, match="number of layers"):
        BertScoreScorer(tiny_models.encoder)
    with pytest.raises(InputError, match="has 2 layers"):
        BertScoreScorer(tiny_models.encoder, num_layers=5)


def test_references_are_checked(tiny_models: TinyModels) -> None:
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu")
    with pytest.raises(MissingReferenceError):
        score(scorer, SYSTEMS)
    with pytest.raises(LengthMismatchError):
        score(scorer, SYSTEMS, references=[REFERENCE_A[:-1]])
    partial = [*REFERENCE_A[:-1], None]
    with pytest.raises(MissingReferenceError, match="Segment 40 has no reference"):
        score(scorer, SYSTEMS, references=[partial])
    found = score(scorer, {"PROMT": SYSTEMS["PROMT"]}, references=[partial, REFERENCE_B])
    alone = score(scorer, {"PROMT": SYSTEMS["PROMT"][-1:]}, references=[REFERENCE_B[-1:]])
    assert found.systems[0].scores[-1] == pytest.approx(alone.systems[0].scores[0], abs=1e-6)

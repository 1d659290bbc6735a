"""BERTScore through bleu.metrics.learned equals ``bert_score.score`` on the same tiny model and
inputs (precision, recall and F1 per segment, one reference or several), in chunks too; a folder
model needs its number of layers; a stopped run keeps its finished chunks."""

from __future__ import annotations

import pytest
from bert_score import score as bert_score
from learned_models import (
    REFERENCE_A,
    REFERENCE_B,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.errors import InputError, LengthMismatchError, MissingReferenceError
from bleu.metrics.learned import (
    BertScoreScorer,
    MemoryScoreCache,
    Progress,
    ScoringCancelled,
    score,
)

#: these need the learned extra (COMET, BERTScore, torch): scripts/test.sh runs them in its
#: second environment, which has it
pytestmark = pytest.mark.learned

BATCH = 16
LAYERS = 2


def _theirs(tiny_models: TinyModels, references: list[list[str]]) -> tuple[list, list, list]:
    """bert_score on every system's segments, system after system."""
    candidates = [h for hypotheses in SYSTEMS.values() for h in hypotheses]
    per_segment = [list(refs) for refs in zip(*references, strict=True)] * len(SYSTEMS)
    refs = per_segment if len(references) > 1 else [r[0] for r in per_segment]
    found = bert_score(candidates, refs, model_type=str(tiny_models.encoder),
                       num_layers=LAYERS, batch_size=BATCH)
    return tuple(values.tolist() for values in found)  # type: ignore[return-value]


def _split(values: list) -> list[list]:
    n = len(REFERENCE_A)
    return [values[k:k + n] for k in range(0, len(values), n)]


@pytest.mark.parametrize("references", [[REFERENCE_A], [REFERENCE_A, REFERENCE_B]],
                         ids=["one reference", "two references"])
def test_scores_equal_bert_scores(tiny_models: TinyModels, references: list[list[str]]) -> None:
    precision, recall, f1 = _theirs(tiny_models, references)
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu",
                             batch_size=BATCH)
    ours = score(scorer, SYSTEMS, references=references)
    for system, p, r, f in zip(ours.systems, _split(precision), _split(recall), _split(f1),
                               strict=True):
        assert system.scores.tolist() == f
        assert system.components["precision"].tolist() == p
        assert system.components["recall"].tolist() == r
        assert system.system_score == sum(f) / len(f)
    assert ours.metric == "BERTScore" and ours.library.startswith("bert-score 0.3")


def test_chunks_give_the_same_scores(tiny_models: TinyModels) -> None:
    """Chunks of 7 segments (embeddings of the shared references kept across them) give
    bert_score's scores to float32 rounding (its batches hold other sentences then)."""
    _, _, f1 = _theirs(tiny_models, [REFERENCE_A, REFERENCE_B])
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu",
                             batch_size=BATCH, chunk_size=7)
    ours = score(scorer, SYSTEMS, references=[REFERENCE_A, REFERENCE_B])
    for system, f in zip(ours.systems, _split(f1), strict=True):
        assert system.scores.tolist() == pytest.approx(f, abs=1e-6)


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
    done = [report.done for report in reports]
    assert done == sorted(done) and 0 < done[-1] <= 10  # the embedding batches moved it on
    assert reports[0].estimate.tokens > 0
    rest = score(scorer, SYSTEMS, references=[REFERENCE_A], cache=cache)
    assert (rest.cached, rest.computed) == (10, 2 * len(REFERENCE_A) - 10)


def test_a_folder_model_needs_its_number_of_layers(tiny_models: TinyModels) -> None:
    with pytest.raises(InputError, match="number of layers"):
        BertScoreScorer(tiny_models.encoder)


def test_references_are_checked(tiny_models: TinyModels) -> None:
    scorer = BertScoreScorer(tiny_models.encoder, num_layers=LAYERS, device="cpu")
    with pytest.raises(MissingReferenceError):
        score(scorer, SYSTEMS)
    with pytest.raises(LengthMismatchError):
        score(scorer, SYSTEMS, references=[REFERENCE_A[:-1]])
    partial = [*REFERENCE_A[:-1], None]
    with pytest.raises(MissingReferenceError, match="Segment 40 has no reference"):
        score(scorer, SYSTEMS, references=[partial])
    # a segment with one of two references scores against the one it has
    found = score(scorer, {"PROMT": SYSTEMS["PROMT"]}, references=[partial, REFERENCE_B])
    alone = score(scorer, {"PROMT": SYSTEMS["PROMT"][-1:]}, references=[REFERENCE_B[-1:]])
    assert found.systems[0].scores[-1] == pytest.approx(alone.systems[0].scores[0], abs=1e-6)

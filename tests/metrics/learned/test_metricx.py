"""MetricX-24 through bleu.metrics.learned equals the reference computation on a tiny MetricX
model: google-research/metricx's ``predict.py`` and ``MT5ForRegression`` as transformers' own
``MT5ForConditionalGeneration`` runs them (written out below from that code: the input text, the
tokenizer with its end-of-sequence token removed, batches in input order padded on the right, a
decoder that reads one pad token, the logit of token 250089 from the model's own untied head,
clipped to [0, 25]), with ties,
empty outputs and quality estimation (no reference). Lower is better, declared once."""

from __future__ import annotations

import pytest
from learned_models import (
    EDGE_SYSTEM,
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.errors import InputError
from bleu.evaluation import registry
from bleu.metrics.learned import MetricXScorer, score

pytestmark = pytest.mark.learned

ALL = {**SYSTEMS, "edge": EDGE_SYSTEM}
BATCH = 8


def _reference_way(tiny_models: TinyModels, reference: list[str] | None) -> list[float]:
    """MetricX-24's predict.py on every system, system after system."""
    import torch
    from safetensors.torch import load_file
    from transformers import AutoTokenizer, MT5ForConditionalGeneration

    tokenizer = AutoTokenizer.from_pretrained(tiny_models.metricx)
    model = MT5ForConditionalGeneration.from_pretrained(tiny_models.metricx).eval()
    # MT5ForRegression's head, untied (tie_word_embeddings false): lm_head(decoder output)
    head = load_file(str(tiny_models.metricx / "model.safetensors"))["lm_head.weight"][250089]
    inputs = []
    for hypotheses in ALL.values():
        for i, (src, hyp) in enumerate(zip(SOURCES, hypotheses, strict=True)):
            text = "source: " + src + " candidate: " + hyp
            if reference is not None:
                text += " reference: " + reference[i]
            encoded = tokenizer(text, max_length=1536, truncation=True, padding=False)
            inputs.append(encoded["input_ids"][:-1])  # _remove_eos
    scores: list[float] = []
    for start in range(0, len(inputs), BATCH):
        batch = inputs[start:start + BATCH]
        length = max(len(ids) for ids in batch)
        ids = torch.tensor([ids + [0] * (length - len(ids)) for ids in batch])
        mask = torch.tensor([[1] * len(ids) + [0] * (length - len(ids)) for ids in batch])
        decoder = torch.zeros((len(batch), 1), dtype=torch.long)
        with torch.no_grad():
            out = model(input_ids=ids, attention_mask=mask, decoder_input_ids=decoder,
                        output_hidden_states=True)
        logits = out.decoder_hidden_states[-1][:, 0, :] @ head
        scores += torch.clamp(logits, 0, 25).tolist()
    return scores


@pytest.mark.parametrize("with_reference", [True, False], ids=["hybrid", "qe"])
def test_scores_equal_the_reference_computation(tiny_models: TinyModels,
                                                with_reference: bool) -> None:
    reference = REFERENCE_A if with_reference else None
    expected = _reference_way(tiny_models, reference)
    ours = score(MetricXScorer(tiny_models.metricx, device="cpu"), ALL, sources=SOURCES,
                 references=[reference] if reference else ())
    n = len(SOURCES)
    for k, system in enumerate(ours.systems):
        # 1e-6 of the score: float32 carries 7 digits, and MetricX's scale runs to 25
        assert system.scores.tolist() == pytest.approx(expected[k * n:(k + 1) * n], rel=1e-6,
                                                       abs=1e-6)
    values = [v for system in ours.systems for v in system.scores.tolist()]
    assert min(values) > 0 and max(values) < 25  # the test model's scores are not all clipped
    assert len(set(values)) > n  # and they differ
    spec = registry.by_command_name("metricx")  # declared once: lower is better
    assert spec.name == "MetricX" and not spec.higher_is_better
    assert registry.direction("MetricX (metricx)") is False
    assert ("|ref:none" in ours.signature) != with_reference


def test_metricx_needs_the_source(tiny_models: TinyModels) -> None:
    with pytest.raises(InputError, match="source"):
        score(MetricXScorer(tiny_models.metricx, device="cpu"), SYSTEMS,
              references=[REFERENCE_A])


def test_a_model_without_the_score_token_is_refused(tiny_models: TinyModels) -> None:
    with pytest.raises(InputError, match="not a MetricX model"):
        MetricXScorer(tiny_models.encoder)

"""Every text metric is one kind of thing (``bleu.metrics.base.Metric``, as sacrebleu's
``Metric``): the same calls, the signature's ``nrefs`` following the references last used as
sacrebleu's does, and the same error when no references are known."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

import bleu
from bleu.errors import MissingReferenceError
from bleu.metrics.base import Metric, StatsScorer

HYPS = ["the cat sat on the mat", "a dog barked loudly"]
REF_A = ["the cat is on the mat", "a dog barked"]
REF_B = ["there is a cat on the mat", "the dog barked loudly"]
PAIRS = [pytest.param(bleu.BLEU, SacreBLEU, id="BLEU"), pytest.param(bleu.CHRF, SacreCHRF,
         id="chrF"), pytest.param(bleu.TER, SacreTER, id="TER")]


def _ours_as_sacrebleu(signature: str) -> str:
    return signature.replace(f"bleu-explorer-{bleu.__version__}", "2.6.0")


@pytest.mark.parametrize(("ours", "theirs"), PAIRS)
def test_signature_follows_the_references_last_used_as_sacrebleu(ours: type, theirs: type,
                                                                  ) -> None:
    mine, sacre = ours(), theirs()
    for references in ([REF_A, REF_B], [REF_A], [REF_A, REF_B]):
        assert mine.corpus_score(HYPS, references).score == pytest.approx(
            sacre.corpus_score(HYPS, references).score, abs=1e-9)
        assert _ours_as_sacrebleu(mine.signature) == str(sacre.get_signature())
        assert mine.get_signature().format() == mine.signature


@pytest.mark.parametrize(("ours", "theirs"), PAIRS)
def test_sentence_score_sets_nrefs_as_sacrebleu(ours: type, theirs: type) -> None:
    mine, sacre = ours(), theirs()
    mine.sentence_score(HYPS[0], [REF_A[0], REF_B[0]])
    sacre.sentence_score(HYPS[0], [REF_A[0], REF_B[0]])
    assert _ours_as_sacrebleu(mine.signature) == str(sacre.get_signature())


@pytest.mark.parametrize("metric", [bleu.BLEU, bleu.CHRF, bleu.TER])
def test_one_kind_of_metric(metric: type) -> None:
    built = metric(references=[REF_A, REF_B])
    assert isinstance(built, Metric)
    assert isinstance(built.scorer, StatsScorer)
    assert built.n_refs == 2
    assert built.name == built.scorer.name
    assert built.higher_is_better is built.scorer.higher_is_better
    twin = metric(**built.arguments, references=[REF_A])
    assert twin.n_refs == 1
    stats = built.segment_stats(HYPS)
    assert built.corpus_score(HYPS).score == pytest.approx(built.score_stats(stats).score)
    assert list(built.sentence_scores(HYPS)) == pytest.approx(
        [built.sentence_score(h, [a, b]).score for h, a, b in zip(HYPS, REF_A, REF_B,
                                                                  strict=True)])


@pytest.mark.parametrize("metric", [bleu.BLEU, bleu.CHRF, bleu.TER])
def test_no_references_is_the_same_error_for_every_metric(metric: type) -> None:
    with pytest.raises(MissingReferenceError, match=rf"none were given to {metric.__name__}"):
        metric().corpus_score(HYPS)
    with pytest.raises(ValueError, match="number of references is unknown"):
        metric().get_signature()

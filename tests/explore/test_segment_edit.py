"""Editing one hypothesis: the row replaced in the statistics matrix gives exactly the corpus
BLEU of the edited corpus (``bleu.corpus_bleu`` and sacrebleu), and the sentence BLEU of the
edited text."""

from __future__ import annotations

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines

import bleu
from bleu.errors import InputError
from bleu.explore.segment_edit import edit_segment
from bleu.explore.segments import sentence_options
from bleu.metrics.bleu.score import BLEUOptions

FOLDER = DATA_DIR / "wmt21_newstest2021_en-de"
HYPS = read_lines(FOLDER / "newstest2021.en-de.hyp.Facebook-AI.de")
REFS = [read_lines(FOLDER / f"newstest2021.en-de.ref.{k}.de") for k in "AC"]


@pytest.mark.parametrize(("options", "segment", "text"), [
    (BLEUOptions(), 5, "Das ist ein ganz anderer Satz."),
    (BLEUOptions(), 1, ""),  # an empty hypothesis
    (BLEUOptions(tokenize="intl", lowercase=True), 42, HYPS[41] + " " + HYPS[41]),
    (BLEUOptions(smooth_method="floor", max_ngram_order=3), 100, "Nein."),
])
def test_edited_corpus_equals_corpus_bleu_of_the_edited_corpus(options, segment, text):
    metric = bleu.BLEU(tokenize=options.tokenize, lowercase=options.lowercase,
                       smooth_method=options.smooth_method,
                       max_ngram_order=options.max_ngram_order, references=REFS)
    matrix = metric.segment_stats(HYPS)
    refs = [stream[segment - 1] for stream in REFS]
    sentence = sentence_options(options)
    found = edit_segment(matrix, segment, text, refs, options, sentence)

    edited = [*HYPS[: segment - 1], text, *HYPS[segment:]]
    kwargs = {"tokenize": options.tokenize, "lowercase": options.lowercase,
              "smooth_method": options.smooth_method, "max_ngram_order": options.max_ngram_order}
    assert found.corpus_after.score == bleu.corpus_bleu(edited, REFS, **kwargs).score
    assert found.corpus_after.score == pytest.approx(
        sacrebleu.metrics.BLEU(**kwargs).corpus_score(edited, REFS).score, abs=1e-9)
    assert found.corpus_before.score == bleu.corpus_bleu(HYPS, REFS, **kwargs).score
    # sentence BLEU: sacrebleu's sentence defaults (exp smoothing, effective order)
    kwargs["smooth_method"] = sentence.smooth_method
    theirs = sacrebleu.metrics.BLEU(**kwargs, effective_order=True)
    assert found.sentence_after == pytest.approx(theirs.sentence_score(text, refs).score,
                                                 abs=1e-9)
    assert found.sentence_before == pytest.approx(
        theirs.sentence_score(HYPS[segment - 1], refs).score, abs=1e-9)
    assert found.changed


def test_an_unchanged_text_changes_nothing():
    matrix = bleu.segment_stats(HYPS, REFS)
    found = edit_segment(matrix, 3, HYPS[2], [r[2] for r in REFS], BLEUOptions(),
                         sentence_options(BLEUOptions()))
    assert not found.changed
    assert found.corpus_after == found.corpus_before


def test_refusals():
    matrix = bleu.segment_stats(HYPS, REFS)
    with pytest.raises(InputError, match="does not exist"):
        edit_segment(matrix, 101, "x", ["y"], BLEUOptions(), sentence_options(BLEUOptions()))
    with pytest.raises(InputError, match="tokenize as the corpus"):
        edit_segment(matrix, 1, "x", ["y"], BLEUOptions(),
                     sentence_options(BLEUOptions(tokenize="intl")))

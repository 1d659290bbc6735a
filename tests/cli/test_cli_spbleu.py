"""spBLEU on the command line: ``-tok flores101|flores200|spBLEU-1K --spm-model FILE`` scores as
sacrebleu does given the same SentencePiece model (trained here on sample text; sacrebleu finds
it where it keeps a downloaded model, so neither side downloads), with sacrebleu's signature;
without a model file the message names --spm-model; with another tokenizer the flag is refused."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import sacrebleu
import sentencepiece
from sacrebleu.tokenizers import tokenizer_spm

from bleu.cli import command as cli
from bleu.metrics.tokenizers.spm import SPM_MODELS, configured_model

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_data"
N_LINES = 300


def _lines(name: str) -> list[str]:
    text = (SAMPLE / f"generaltest2022.en-de.{name}").read_text(encoding="utf-8")
    return text.splitlines()[:N_LINES]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A unigram SentencePiece model trained on German sample lines."""
    folder = tmp_path_factory.mktemp("spm")
    (folder / "train.txt").write_text("\n".join(_lines("ref.B.de")), encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(folder / "train.txt"), model_prefix=str(folder / "tiny"), vocab_size=600,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    return folder / "tiny.model"


def _no_download(*args: object) -> None:
    raise AssertionError("sacrebleu tried to download a model: the test gave it one")


def run(args: list[str], folder: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = cli.main(args)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(name="folder")
def folder_fixture(tmp_path: Path) -> Path:
    for name in ("ref.A.de", "hyp.PROMT.de", "hyp.Online-W.de"):
        (tmp_path / name).write_text("\n".join(_lines(name)) + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("tokenize", ["flores101", "flores200", "spBLEU-1K"])
def test_spbleu_equals_sacrebleu_given_the_same_model_file(
        tokenize: str, model_file: Path, folder: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / SPM_MODELS[tokenize].file_name).write_bytes(model_file.read_bytes())
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    monkeypatch.setattr(tokenizer_spm, "download_file", _no_download)
    status, out, err = run(["ref.A.de", "-i", "hyp.PROMT.de", "-tok", tokenize, "--spm-model",
                            str(model_file), "-w", "6"], folder)
    assert status == 0, err
    ours = json.loads(out)
    metric = sacrebleu.BLEU(tokenize=tokenize)
    theirs = metric.corpus_score(_lines("hyp.PROMT.de"), [_lines("ref.A.de")])
    assert ours["score"] == round(theirs.score, 6)
    assert ours["signature"].rsplit("|version:", 1)[0] == \
        str(metric.get_signature()).rsplit("|version:", 1)[0]
    assert f"tok:{SPM_MODELS[tokenize].signature}" in ours["signature"]
    assert configured_model(tokenize, {}) is None  # the flag applies to its own run only


def test_without_a_model_file_the_message_names_the_flag(folder: Path) -> None:
    status, out, err = run(["ref.A.de", "-i", "hyp.PROMT.de", "-tok", "flores200"], folder)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert "BLEU_EXPLORER_SPM_FLORES200" in err and err.endswith(
        "Or give the file with --spm-model FILE.\n")


def test_the_flag_is_for_the_sentencepiece_tokenizers_only(folder: Path,
                                                           model_file: Path) -> None:
    status, _, err = run(["ref.A.de", "-i", "hyp.PROMT.de", "--spm-model", str(model_file)],
                         folder)
    assert status == 1
    assert "--spm-model is the SentencePiece model of -tok flores101, flores200 or spBLEU-1K; " \
        "-tok is 13a." in err

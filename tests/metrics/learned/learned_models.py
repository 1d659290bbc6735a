"""Tiny models the learned-metric tests build themselves, nothing downloaded: a SentencePiece
tokenizer trained on sample lines, a randomly initialised 2-layer XLM-R encoder (hidden size 32),
and COMET checkpoints on it (reference-based, reference-free, xCOMET) saved as COMET saves them
(``hparams.yaml`` beside ``checkpoints/model.ckpt``) for ``comet.load_from_checkpoint``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

#: the repository (not conftest's REPO: this module is imported from the browser tests too,
#: where ``conftest`` is tests/browser/conftest.py)
REPO = Path(__file__).resolve().parents[3]
os.environ["HF_HUB_OFFLINE"] = "1"  # as the code under test has it: a test never downloads

SAMPLE = REPO / "sample_data"
N_SEGMENTS = 40


def sample_lines(name: str, n: int = N_SEGMENTS) -> list[str]:
    """The first ``n`` lines of a bundled sample file."""
    lines = (SAMPLE / f"generaltest2022.en-de.{name}").read_text(encoding="utf-8").splitlines()
    return lines[:n]


SOURCES = sample_lines("src.en")
REFERENCE_A = sample_lines("ref.A.de")
REFERENCE_B = sample_lines("ref.B.de")
SYSTEMS = {name: sample_lines(f"hyp.{name}.de") for name in ("PROMT", "Online-W")}


@dataclass(frozen=True)
class TinyModels:
    encoder: Path  # a Hugging Face folder: config, weights, tokenizer
    comet: Path  # COMET model folders
    comet_qe: Path
    xcomet: Path


def _train_tokenizer(folder: Path) -> Path:
    import sentencepiece

    text = folder / "train.txt"
    lines = sample_lines("src.en", 300) + sample_lines("ref.A.de", 300)
    text.write_text("\n".join(lines), encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(folder / "spm"), vocab_size=400, model_type="unigram",
        character_coverage=1.0, minloglevel=2)
    return folder / "spm.model"


def build_encoder(folder: Path, seed: int = 0) -> Path:
    """A 2-layer XLM-R with random weights and its tokenizer (slow and fast) in ``folder``."""
    import torch
    from transformers import (
        XLMRobertaConfig,
        XLMRobertaModel,
        XLMRobertaTokenizer,
        XLMRobertaTokenizerFast,
    )

    folder.mkdir(parents=True)
    tokenizer = XLMRobertaTokenizer(vocab_file=str(_train_tokenizer(folder)),
                                    model_max_length=512)
    tokenizer.save_pretrained(folder)
    XLMRobertaTokenizerFast.from_pretrained(folder).save_pretrained(folder)
    config = XLMRobertaConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2,
                              num_attention_heads=2, intermediate_size=64,
                              max_position_embeddings=514)
    torch.manual_seed(seed)
    XLMRobertaModel(config).save_pretrained(folder)
    return folder


def save_comet(model: object, folder: Path) -> Path:
    """A COMET model as COMET's training leaves it: hparams.yaml and checkpoints/model.ckpt."""
    import pytorch_lightning
    import torch
    import yaml

    (folder / "checkpoints").mkdir(parents=True)
    hparams = dict(model.hparams)  # type: ignore[attr-defined]
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    torch.save({"state_dict": model.state_dict(),  # type: ignore[attr-defined]
                "hyper_parameters": hparams,
                "pytorch-lightning_version": pytorch_lightning.__version__},
               folder / "checkpoints" / "model.ckpt")
    return folder


def build_comet(kind: str, encoder: Path, folder: Path, seed: int = 1) -> Path:
    """A randomly initialised COMET model of ``kind`` (regression, referenceless, xcomet)."""
    import torch
    from comet.models import ReferencelessRegression, RegressionMetric, XCOMETMetric

    torch.manual_seed(seed)
    common = {"pretrained_model": str(encoder), "load_pretrained_weights": False,
              "local_files_only": True, "hidden_sizes": [16]}
    if kind == "regression":
        model = RegressionMetric(**common)
    elif kind == "referenceless":
        model = ReferencelessRegression(**common)
    else:
        model = XCOMETMetric(encoder_model="XLM-RoBERTa", word_layer=2, layer_norm=True,
                             layer_transformation="softmax", **common)
    return save_comet(model, folder)


@pytest.fixture(scope="session", name="tiny_models")
def tiny_models_fixture(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    """The session's models; torch on one thread (a model this small gains nothing from more,
    and on a shared machine two busy threads slowed these tests twentyfold)."""
    import torch

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("tiny_models")
    encoder = build_encoder(root / "encoder")
    return TinyModels(encoder, build_comet("regression", encoder, root / "comet"),
                      build_comet("referenceless", encoder, root / "comet-qe"),
                      build_comet("xcomet", encoder, root / "xcomet"))


def checkpoint(folder: Path) -> str:
    return str(folder / "checkpoints" / "model.ckpt")


def put_in_hub_cache(cache: Path, name: str, folder: Path, commit: str = "0" * 40) -> Path:
    """``folder``'s files laid out as the Hugging Face cache holds repository ``name``."""
    import shutil

    repo = cache / ("models--" + name.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    shutil.copytree(folder, repo / "snapshots" / commit)
    return repo / "snapshots" / commit

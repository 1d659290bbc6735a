"""Tiny models the learned-metric tests build themselves, nothing downloaded: a SentencePiece
tokenizer trained on sample lines, a randomly initialised 2-layer XLM-R encoder (hidden size 32),
COMET regression checkpoints on it saved as COMET saves them (``hparams.yaml`` beside
``checkpoints/model.ckpt``, Lightning's dict of ``state_dict`` and ``hyper_parameters``), and a
tiny MetricX-24 (an mT5 with the real vocabulary size, so that token 250089 exists).

The COMET checkpoints are built with bleu's own network (``comet_model.build`` without weights)
and random layer-mix weights; unbabel-comet's ``load_from_checkpoint`` reads them in the oracle
environment, so a parameter named differently from COMET's would not load there and the scores
would differ. The unified (xCOMET) checkpoint needs unbabel-comet's classes: ``build_xcomet``
runs only where it is installed (the ``learned-unified`` environment).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

#: the repository (not conftest's REPO: this module is imported from the app and browser tests)
REPO = Path(__file__).resolve().parents[3]
os.environ["HF_HUB_OFFLINE"] = "1"  # as the code under test has it: a test never downloads
os.environ.setdefault("BLEU_EXPLORER_TORCH_THREADS", "1")  # tiny models: one thread is fastest

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
#: what the parity tests add to the sample: ties (one output twice), an empty output, an empty
#: reference, an output equal to its reference, and a long line that is truncated
EDGE_SYSTEM = ["", REFERENCE_A[1], SYSTEMS["PROMT"][2], SYSTEMS["PROMT"][2],
               " ".join(SOURCES[:30]), *SYSTEMS["Online-W"][5:]]
EDGE_REFERENCE = [*REFERENCE_A[:5], "", *REFERENCE_A[6:]]


@dataclass(frozen=True)
class TinyModels:
    encoder: Path  # a Hugging Face folder: config, weights, tokenizer
    comet: Path  # COMET model folders: reference-based (softmax layer mix, layer norm)
    comet_sparse: Path  # reference-based, sparsemax layer mix, no layer norm, max pooling
    comet_qe: Path  # reference-free
    metricx: Path  # a MetricX-24 folder (mT5 config, model.safetensors, tokenizer)


def _train_tokenizer(folder: Path, prefix: str = "spm", vocab: int = 400) -> Path:
    import sentencepiece

    text = folder / "train.txt"
    lines = sample_lines("src.en", 300) + sample_lines("ref.A.de", 300)
    text.write_text("\n".join(lines), encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(folder / prefix), vocab_size=vocab,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    return folder / f"{prefix}.model"


def _readable_by_transformers_4(path: Path) -> None:
    """transformers 5 writes ``extra_special_tokens`` as a list, which the oracle environment's
    transformers 4 reads as a dict: XLM-R has none, so the entry goes."""
    import json

    config = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(config.get("extra_special_tokens"), list):
        config.pop("extra_special_tokens")
        path.write_text(json.dumps(config, indent=2), encoding="utf-8")


def build_encoder(folder: Path, seed: int = 0) -> Path:
    """A 2-layer XLM-R with random weights and its tokenizer in ``folder`` (room for the ids
    of a slow tokenizer of transformers 4, which numbers <mask> one further)."""
    import torch
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer

    folder.mkdir(parents=True)
    spm = _train_tokenizer(folder)
    # the SentencePiece file under the name XLM-R's tokenizers read it by, converted from it
    (folder / "sentencepiece.bpe.model").write_bytes(spm.read_bytes())
    tokenizer = XLMRobertaTokenizer.from_pretrained(folder, model_max_length=512)
    tokenizer.save_pretrained(folder)
    _readable_by_transformers_4(folder / "tokenizer_config.json")
    config = XLMRobertaConfig(vocab_size=len(tokenizer) + 4, hidden_size=32, num_hidden_layers=2,
                              num_attention_heads=2, intermediate_size=64,
                              max_position_embeddings=514)
    torch.manual_seed(seed)
    XLMRobertaModel(config, add_pooling_layer=False).save_pretrained(folder)
    return folder


COMET_HPARAMS = {
    "encoder_model": "XLM-RoBERTa", "pool": "avg", "layer": "mix",
    "layer_transformation": "softmax", "layer_norm": True, "hidden_sizes": [16],
    "activations": "Tanh", "final_activation": None, "dropout": 0.1, "loss": "mse",
    "batch_size": 4, "load_pretrained_weights": False, "local_files_only": True,
}


def build_comet(kind: str, encoder: Path, folder: Path, seed: int = 1, **hparams: object,
                ) -> Path:
    """A random COMET regression model (``regression_metric`` or
    ``referenceless_regression_metric``) on ``encoder``, saved as COMET's training saves it."""
    import torch
    import transformers
    import yaml
    from safetensors.torch import load_file

    from bleu.metrics.learned import comet_model

    options = {**COMET_HPARAMS, **hparams, "class_identifier": kind,
               "pretrained_model": str(encoder)}
    torch.manual_seed(seed)
    model = comet_model.build(torch, transformers, options, kind, str(encoder), None)
    encoder_weights = load_file(str(encoder / "model.safetensors"))
    model.encoder.model.load_state_dict(encoder_weights, strict=False)
    if model.layerwise_attention is not None:
        with torch.no_grad():
            for parameter in model.layerwise_attention.scalar_parameters:
                parameter.copy_(torch.randn(1))
            model.layerwise_attention.gamma.copy_(torch.rand(1) + 0.5)
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(options), encoding="utf-8")
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": options,
                "pytorch-lightning_version": "2.6.0"}, folder / "checkpoints" / "model.ckpt")
    return folder


def build_metricx(folder: Path, seed: int = 2) -> Path:
    """A tiny MetricX-24: an mT5 (2 encoder layers, 1 decoder layer, width 16) with mT5's
    vocabulary size, untied head as mT5 has, and a T5 tokenizer trained here."""
    import json

    import torch
    from safetensors.torch import save_file
    from transformers import MT5Config, MT5ForConditionalGeneration, T5Tokenizer

    folder.mkdir(parents=True)
    _train_tokenizer(folder, "spiece", 300)
    T5Tokenizer.from_pretrained(folder, extra_ids=100).save_pretrained(folder)
    config = MT5Config(vocab_size=250112, d_model=16, d_kv=8, d_ff=32, num_layers=2,
                       num_decoder_layers=1, num_heads=2, tie_word_embeddings=False,
                       decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
    torch.manual_seed(seed)
    model = MT5ForConditionalGeneration(config).eval()
    with torch.no_grad():  # a score head that puts the sample's scores inside (0, 25)
        ids = T5Tokenizer.from_pretrained(folder)(SOURCES[:8], padding=True,
                                                  return_tensors="pt")
        start = torch.zeros((8, 1), dtype=torch.long)
        out = model(**ids, decoder_input_ids=start, output_hidden_states=True)
        hidden = out.decoder_hidden_states[-1][:, 0, :].mean(0)
        weights = {name: tensor.detach().clone().contiguous()
                   for name, tensor in model.state_dict().items()}
        head = torch.randn(config.vocab_size, config.d_model) * 0.02
        head[250089] = hidden / hidden.dot(hidden) * 12.0
        weights["lm_head.weight"] = head
    # saved as MetricX-24 is: its own head (untied), tie_word_embeddings false in config.json
    model.config.save_pretrained(folder)
    config_file = folder / "config.json"
    saved = json.loads(config_file.read_text(encoding="utf-8"))
    saved["tie_word_embeddings"] = False
    config_file.write_text(json.dumps(saved, indent=2), encoding="utf-8")
    save_file(weights, str(folder / "model.safetensors"))
    return folder


@pytest.fixture(scope="session", name="tiny_models")
def tiny_models_fixture(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    """The session's models; torch on one thread (a model this small gains nothing from more,
    and on a shared machine two busy threads slowed these tests twentyfold)."""
    import torch

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("tiny_models")
    encoder = build_encoder(root / "encoder")
    return TinyModels(
        encoder,
        build_comet("regression_metric", encoder, root / "comet"),
        build_comet("regression_metric", encoder, root / "comet-sparse", seed=3,
                    layer_transformation="sparsemax", layer_norm=False, pool="max"),
        build_comet("referenceless_regression_metric", encoder, root / "comet-qe"),
        build_metricx(root / "metricx"))


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


def build_xcomet(encoder: Path, folder: Path, seed: int = 1) -> Path:
    """A random xCOMET through unbabel-comet's own class (the ``learned-unified`` extra)."""
    import torch
    import yaml
    from comet.models import XCOMETMetric

    torch.manual_seed(seed)
    model = XCOMETMetric(encoder_model="XLM-RoBERTa", word_layer=2, layer_norm=True,
                         layer_transformation="softmax", pretrained_model=str(encoder),
                         load_pretrained_weights=False, local_files_only=True,
                         hidden_sizes=[16])
    (folder / "checkpoints").mkdir(parents=True)
    hparams = dict(model.hparams)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": "2.6.0"}, folder / "checkpoints" / "model.ckpt")
    return folder

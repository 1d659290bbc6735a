"""Finding a model on disk: a folder (or file) the user names, or a Hugging Face name looked up
in the local cache only (``huggingface_hub`` with ``local_files_only``: nothing downloads).

A model that is not there gets a MissingModelError naming it and the command that fetches it on
a machine with a network. Each found model has a version: the cache snapshot's commit, or else a
fingerprint of the model's own files (names, sizes, first and last MiB of the files a model
loads, never a scan of the folder: a path such as ``/etc`` or ``/`` is not read through).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ...errors import MissingModelError
from ...i18n import tr
from ._libraries import load

_EDGE = 1 << 20  # bytes read from each end of a file for its fingerprint
#: the files a model is made of (weights, configuration, tokenizer), the only ones fingerprinted
MODEL_FILES = (
    "hparams.yaml", "checkpoints/model.ckpt", "config.json", "model.safetensors",
    "pytorch_model.bin", "tokenizer.json", "tokenizer_config.json", "sentencepiece.bpe.model",
    "spiece.model", "vocab.txt", "vocab.json", "merges.txt", "special_tokens_map.json",
)


@dataclass(frozen=True)
class FoundModel:
    """A model on disk: what the user named, the folder, and its version."""

    requested: str
    folder: Path
    version: str


def download_command(name: str, *files: str) -> str:
    """The command that puts ``name`` (only ``files`` of it, if given) in the Hugging Face cache."""
    return " ".join(("huggingface-cli download", name, *files))


def _cache_folder() -> str:
    hub = load("huggingface_hub", "A learned metric")
    return str(hub.constants.HF_HUB_CACHE)


def cached_snapshot(name: str) -> Path | None:
    """The cached snapshot folder of Hugging Face repository ``name`` (its main revision), or
    None when the cache does not hold it (or ``name`` cannot be a repository's name)."""
    hub = load("huggingface_hub", "A learned metric")
    try:
        return Path(hub.snapshot_download(repo_id=name, local_files_only=True))
    except Exception:  # not cached (LocalEntryNotFoundError), or not a valid repository name
        return None


def find_model(requested: str | os.PathLike[str], metric: str, *files: str) -> FoundModel:
    """The folder ``requested`` names (a path, else a cached Hugging Face snapshot); ``files``
    are fetched alone by the command a MissingModelError gives (all files when none)."""
    text = str(requested)
    path = Path(text).expanduser()
    if path.exists():
        folder = path.resolve()
        return FoundModel(text, folder, model_version(folder))
    snapshot = cached_snapshot(text)
    if snapshot is None:
        raise MissingModelError(tr(
            "{metric} model {name!r} is not on this machine: it is no folder here, and the "
            "Hugging Face cache ({cache}) does not hold it. BLEU Explorer never downloads; on a "
            "machine with a network: {command} (then copy that cache folder here, or give "
            "the model's folder)."
        ).format(metric=metric, name=text, cache=_cache_folder(),
                 command=download_command(text, *files)))
    return FoundModel(text, snapshot, model_version(snapshot))


def find_encoder(name: str, model: str, metric: str) -> Path:
    """The folder of the encoder a checkpoint names (``pretrained_model`` of COMET's
    hparams.yaml: a folder, or a Hugging Face name such as xlm-roberta-large in the cache)."""
    path = Path(name).expanduser()
    if path.is_dir():
        return path.resolve()
    snapshot = cached_snapshot(name)
    if snapshot is not None and (snapshot / "config.json").is_file():
        return snapshot
    raise MissingModelError(tr(
        "{metric} model {model!r} is built on the encoder {encoder!r}, whose tokenizer and "
        "configuration are not in the Hugging Face cache. BLEU Explorer never downloads; on a "
        "machine with a network: {command}"
    ).format(metric=metric, model=model, encoder=name,
             command=download_command(name, "--include", '"*.json"', '"*.model"')))


def model_version(path: Path) -> str:
    """A cache snapshot's commit (its folder's name), else a fingerprint of the model's files."""
    if path.parent.name == "snapshots" and path.parent.parent.name.startswith("models--"):
        return path.name
    if path.is_file():
        return "sha:" + fingerprint([path], path.parent)
    files = [path / name for name in MODEL_FILES if (path / name).is_file()]
    return "sha:" + fingerprint(files, path)


def fingerprint(files: Iterable[Path], root: Path) -> str:
    """A hash of each file's name, size and first and last MiB (a model's weights are GBs)."""
    digest = hashlib.blake2b(digest_size=16)
    for file in files:
        size = file.stat().st_size
        digest.update(f"{file.relative_to(root).as_posix()}\0{size}\0".encode())
        with file.open("rb") as stream:
            digest.update(stream.read(_EDGE))
            if size > 2 * _EDGE:
                stream.seek(size - _EDGE)
                digest.update(stream.read(_EDGE))
    return digest.hexdigest()

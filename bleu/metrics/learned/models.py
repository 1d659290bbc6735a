"""Finding a model on disk: a folder (or file) the user names, or a Hugging Face name looked up
in the local cache only (``huggingface_hub`` with ``local_files_only``: nothing downloads).

A model that is not there gets a MissingModelError naming it and the command that fetches it on
a machine with a network. Each found model has a version: the cache snapshot's commit, or else a
fingerprint of its files (their sizes, first and last MiB), so a copied folder keeps its
cached scores and a changed one does not.
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


def cached_file(name: str, file_name: str) -> bool:
    """Whether the cache holds ``file_name`` of repository ``name``."""
    hub = load("huggingface_hub", "A learned metric")
    try:
        found = hub.try_to_load_from_cache(repo_id=name, filename=file_name)
    except Exception:  # not a valid repository name
        return False
    return isinstance(found, str)


def find_model(requested: str | os.PathLike[str], metric: str, *files: str) -> FoundModel:
    """The folder ``requested`` names (a path, else a cached Hugging Face snapshot); ``files``
    are fetched alone by the command a MissingModelError gives (all files when none)."""
    text = str(requested)
    path = Path(text).expanduser()
    if path.exists():
        folder = path.resolve()
        return FoundModel(text, folder, _version(folder))
    snapshot = cached_snapshot(text)
    if snapshot is None:
        raise MissingModelError(tr(
            "{metric} model {name!r} is not on this machine: it is no folder here, and the "
            "Hugging Face cache ({cache}) does not hold it. BLEU Explorer never downloads; on a "
            "machine with a network: {command} (then copy that cache folder here, or give "
            "the model's folder)."
        ).format(metric=metric, name=text, cache=_cache_folder(),
                 command=download_command(text, *files)))
    return FoundModel(text, snapshot, _version(snapshot))


def _version(path: Path) -> str:
    """A cache snapshot's commit (its folder's name), else a fingerprint of the files."""
    if path.parent.name == "snapshots" and path.parent.parent.name.startswith("models--"):
        return path.name
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return "sha:" + fingerprint(files, path if path.is_dir() else path.parent)


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

"""The models a shared server offers: its operator lists model folders, or folders of model
folders, in ``BLEU_EXPLORER_MODELS`` (paths separated by ``os.pathsep``, set by ``bleu-explorer
app --models``) or in ``[learned] models`` of .streamlit/secrets.toml. A visitor picks one by its
name; a visitor's text is never a path. Every name that is not offered gets one and the same
message, whether or not such a path exists, so nothing about the server's files leaks.

A folder of models is listed one level deep and no further, at most ``MAX_ENTRIES`` entries
read, so a folder such as ``/`` costs a bounded look and no scan.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ...i18n import tr

MODELS_VARIABLE = "BLEU_EXPLORER_MODELS"
#: directory entries read from one configured folder of models (the rest are not looked at)
MAX_ENTRIES = 500
#: the files one of which makes a folder a model (COMET's hparams.yaml, Hugging Face's config)
_MARKERS = ("hparams.yaml", "config.json")


class ModelNotOfferedError(InputError):
    """A model name that the server does not offer (the one message for every such name)."""


def not_offered() -> ModelNotOfferedError:
    """The one message for any model a visitor may not use."""
    return ModelNotOfferedError(tr(
        "This model is not offered on this server: pick one of the models in the list."))


#: what a model folder holds, read from its own files: a COMET checkpoint, an mT5 (MetricX),
#: or another transformer encoder (BERTScore)
COMET_MODEL, MT5_MODEL, ENCODER_MODEL = "comet", "mt5", "encoder"


@dataclass(frozen=True)
class OfferedModel:
    """A model the operator made available: the name visitors see, its folder and its kind."""

    name: str
    folder: Path
    kind: str = ENCODER_MODEL


def model_kind(folder: Path) -> str:
    """COMET_MODEL (an hparams.yaml), MT5_MODEL (config.json's model_type mt5 or t5), else
    ENCODER_MODEL."""
    if (folder / "hparams.yaml").is_file():
        return COMET_MODEL
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ENCODER_MODEL
    kind = config.get("model_type") if isinstance(config, dict) else None
    return MT5_MODEL if kind in ("mt5", "t5") else ENCODER_MODEL


def is_model_folder(path: Path) -> bool:
    """Whether ``path`` is a folder that holds a model (no deeper look than its own files)."""
    try:
        return path.is_dir() and any((path / marker).is_file() for marker in _MARKERS)
    except OSError:
        return False


def _configured(configured: Sequence[str] | str | None, environ: Mapping[str, str]) -> list[str]:
    value = environ.get(MODELS_VARIABLE)
    if value:
        return [part for part in value.split(os.pathsep) if part.strip()]
    if isinstance(configured, str):
        return [part for part in configured.split(os.pathsep) if part.strip()]
    return [str(part) for part in configured or ()]


def _children(folder: Path) -> list[Path]:
    """The model folders directly inside ``folder`` (at most MAX_ENTRIES entries read)."""
    found = []
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_ENTRIES:
                    break
                path = Path(entry.path)
                if is_model_folder(path):
                    found.append(path)
    except OSError:
        return []
    return sorted(found, key=lambda path: path.name)


def offered_models(configured: Sequence[str] | str | None = None,
                   environ: Mapping[str, str] = os.environ) -> tuple[OfferedModel, ...]:
    """What the operator offers, in the order configured (a folder of models sorted by name);
    a name offered twice keeps its first folder."""
    models: dict[str, OfferedModel] = {}
    for entry in _configured(configured, environ):
        path = Path(entry).expanduser()
        for folder in [path] if is_model_folder(path) else _children(path):
            models.setdefault(folder.name, OfferedModel(folder.name, folder.resolve(),
                                                        model_kind(folder)))
    return tuple(models.values())


def resolve(name: str, offered: Sequence[OfferedModel]) -> Path:
    """The folder of the offered model called ``name``; ``not_offered()`` for anything else."""
    for model in offered:
        if model.name == name:
            return model.folder
    raise not_offered()

"""A model's weights read as tensors only: a ``.safetensors`` file, or a PyTorch checkpoint
(``model.ckpt``, ``pytorch_model.bin``) unpickled with ``torch.load(weights_only=True)``, which
builds tensors, numbers, strings and containers and nothing else. A checkpoint that needs any
other object (a class, a function: what a crafted file uses to run code) is refused with a
message; nothing in it runs.

PyTorch Lightning (which COMET trains with) stores its hyper-parameters in an ``AttributeDict``,
a plain dict subclass: it is read as a dict by a stand-in of our own, so such a checkpoint loads
without Lightning and without allowing any other class.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...i18n import tr
from ._libraries import load


class UnsafeCheckpointError(InputError):
    """A checkpoint that holds more than tensors and plain values: refused, never run."""


class _PlainDict(dict):  # type: ignore[type-arg]
    """What Lightning's AttributeDict is read as: its items, and no behaviour."""


#: the only non-builtin names a checkpoint may use, each read as a plain stand-in
_STAND_INS = (
    "pytorch_lightning.utilities.parsing.AttributeDict",
    "lightning.pytorch.utilities.parsing.AttributeDict",
    "lightning_fabric.utilities.data.AttributeDict",
    "lightning.fabric.utilities.data.AttributeDict",
)


def read_tensors(path: Path, metric: str) -> dict[str, Any]:
    """The checkpoint at ``path`` as a dict (a state dict, or Lightning's dict with
    ``state_dict`` and ``hyper_parameters``), on the CPU, without running anything in it."""
    if path.suffix == ".safetensors":
        safetensors = load("safetensors.torch", metric)
        return dict(safetensors.load_file(str(path), device="cpu"))
    torch = load("torch", metric)
    stand_ins = [(_PlainDict, name) for name in _STAND_INS]
    try:
        with torch.serialization.safe_globals(stand_ins):
            found = torch.load(str(path), map_location="cpu", weights_only=True)
    except Exception as error:  # UnpicklingError for a forbidden global; others for a bad file
        if "weights_only" in str(error) or "Unsupported global" in str(error) \
                or type(error).__name__ == "UnpicklingError":
            raise UnsafeCheckpointError(tr(
                "{path} is refused: the checkpoint holds more than tensors (objects that would "
                "run code when loaded). BLEU Explorer loads weights only; use a checkpoint of "
                "tensors or a .safetensors file."
            ).format(path=path.name)) from None
        raise InputError(tr("{path} cannot be read as a checkpoint: {error}").format(
            path=path.name, error=type(error).__name__)) from None
    if not isinstance(found, Mapping):
        raise UnsafeCheckpointError(tr(
            "{path} is refused: it holds no dictionary of tensors.").format(path=path.name))
    return _plain(found)


def _plain(value: Any) -> Any:
    """Stand-in dicts turned into plain ones, all the way down."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def state_dict(checkpoint: Mapping[str, Any]) -> dict[str, Any]:
    """The weights of a checkpoint: its ``state_dict`` (Lightning) or the checkpoint itself."""
    inner = checkpoint.get("state_dict")
    return dict(inner) if isinstance(inner, Mapping) else dict(checkpoint)

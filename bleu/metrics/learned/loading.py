"""``load_comet``: the COMET scorer a model's hparams.yaml asks for, native (``comet``) for the
regression models, unbabel-comet (``unified``) for the unified ones. A module of its own, so
that neither scorer module imports the other's."""

from __future__ import annotations

import os
from typing import Any

from ...errors import InputError
from ...i18n import tr
from . import comet_model
from ._libraries import load_transformers, torch_for
from .comet import CometScorer, find_checkpoint, read_hparams
from .encoding import DEFAULT_BATCH_SIZE


def load_comet(model: str | os.PathLike[str], *, device: str | None = None,
               batch_size: int = DEFAULT_BATCH_SIZE, precision: str | None = "fp32") -> Any:
    """A COMET scorer for ``model``: native for regression models, unbabel-comet for unified
    ones (xCOMET, CometKiwi), which need their own extra (and run in fp32 only). ``precision``
    None is fp32 (a flag not given)."""
    precision = precision or "fp32"
    torch_for("COMET")  # a missing extra is said before any model is looked for
    load_transformers("COMET")
    found, checkpoint = find_checkpoint(model)
    hparams = read_hparams(found.folder, str(model))
    kind = str(hparams.get("class_identifier", comet_model.REGRESSION))
    if kind in comet_model.UNIFIED:
        from .unified import UnifiedCometScorer  # its extra loads only for such a model

        if precision != "fp32":
            raise InputError(tr("{model} is a unified COMET model (xCOMET, CometKiwi): it runs "
                                "through unbabel-comet, in fp32 only.").format(model=model))
        return UnifiedCometScorer(model, found, checkpoint, device=device)
    return CometScorer(model, device=device, batch_size=batch_size, precision=precision)

"""A learned score's signature, as sacrebleu's is for BLEU (and in sacreCOMET's spirit): which
model and which version of it, which implementation and its versions, at which precision, with
which reference, so that a number can be reproduced and two numbers compared only when they
should be. Shown beside every learned score, saved with workspaces, exported, printed by the
command line: ``COMET|model:wmt22-comet-da|model_version:1a2b…|impl:bleu-explorer 1.0
(torch 2.13.0, transformers 5.0.0)|precision:fp32|ref:first``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from ._libraries import library_version

_SNAPSHOT = re.compile(r"^[0-9a-f]{40}$")


def model_name(requested: str) -> str:
    """A short name for the model the user gave: a Hugging Face name's last part
    (``Unbabel/wmt22-comet-da`` -> ``wmt22-comet-da``), a folder's name, the model folder of a
    COMET checkpoint (``.../wmt22-comet-da/checkpoints/model.ckpt``) or of a cache snapshot
    (``models--Unbabel--wmt22-comet-da/snapshots/<commit>``)."""
    parts = [part for part in PurePath(str(requested).strip()).parts if part not in ("/", "\\")]
    if parts and parts[-1].endswith((".ckpt", ".safetensors")):
        parts.pop()
    if parts and parts[-1] == "checkpoints":
        parts.pop()
    if len(parts) >= 2 and parts[-2] == "snapshots" and _SNAPSHOT.match(parts[-1]):
        parts = parts[:-2]
    if not parts:
        return str(requested)
    last = parts[-1]
    return last.split("--")[-1] if last.startswith("models--") else last


def implementation() -> str:
    """This package's computation and the libraries it runs on, with their versions."""
    from ..._version import __version__

    torch = library_version("torch").split(" ", 1)[1]
    transformers = library_version("transformers").split(" ", 1)[1]
    return f"bleu-explorer {__version__} (torch {torch}, transformers {transformers})"


@dataclass(frozen=True)
class LearnedSignature:
    """The fields of a learned score's signature, in the order printed."""

    metric: str
    model: str  # what the user named (its short name is printed)
    model_version: str  # the cache snapshot's commit, or the files' fingerprint
    implementation: str
    precision: str  # fp32, bf16, fp16, int8
    reference: str  # first, all, none
    extra: tuple[tuple[str, str], ...] = ()  # settings that change the scores (BERTScore's layer)

    def __str__(self) -> str:
        version = self.model_version.removeprefix("sha:")[:12]
        fields = [self.metric, f"model:{model_name(self.model)}", f"model_version:{version}",
                  *(f"{key}:{value}" for key, value in self.extra),
                  f"impl:{self.implementation}", f"precision:{self.precision}",
                  f"ref:{self.reference}"]
        return "|".join(fields)

"""spBLEU's SentencePiece tokenizers (``flores101``, ``flores200``, ``spBLEU-1K``; ``spm`` is
sacrebleu's old name for ``flores101``) from a model file the user points at.

sacrebleu downloads each model on first use into ``$SACREBLEU/models`` (default
``~/.sacrebleu/models``); we never download. The file comes from ``set_spm_model`` (what an
option of the command line or the app calls) or else an environment variable per tokenizer
(``BLEU_EXPLORER_SPM_FLORES200=/path/to/flores200sacrebleuspm``). Given the same file, every
line's pieces are sacrebleu's: ``" ".join(EncodeAsPieces(line))``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

from ...errors import MissingExtraError, MissingModelError
from ...i18n import tr
from .base import Tokenizer
from .words import Words, split_words


@dataclass(frozen=True)
class SpmModel:
    """One of sacrebleu's SentencePiece tokenizers: its signature name, the file name sacrebleu
    gives the model, and where sacrebleu fetches it from."""

    signature: str
    file_name: str
    url: str

    @property
    def variable(self) -> str:
        """The environment variable that points at this model's file."""
        return "BLEU_EXPLORER_SPM_" + self.signature.upper().replace("-", "_")


_FLORES101 = SpmModel(
    "flores101", "sacrebleu_tokenizer_spm.model",
    "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model")
#: tokenizer name -> its model, as sacrebleu 2.6's tokenizer_spm.SPM_MODELS has them
SPM_MODELS: Mapping[str, SpmModel] = {
    "spm": _FLORES101,
    "flores101": _FLORES101,
    "flores200": SpmModel("flores200", "flores200sacrebleuspm",
                          "https://tinyurl.com/flores200sacrebleuspm"),
    "spBLEU-1K": SpmModel("spBLEU-1K", "spbleu-1k_tokenizer_spm.model",
                          "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model"),
}

#: signature name -> model file set by ``set_spm_model`` (wins over the environment)
_CHOSEN: dict[str, Path] = {}


def set_spm_model(name: str, path: str | os.PathLike[str] | None) -> None:
    """Use the model file ``path`` for tokenizer ``name`` (and its alias); None forgets it."""
    signature = SPM_MODELS[name].signature
    if path is None:
        _CHOSEN.pop(signature, None)
    else:
        _CHOSEN[signature] = Path(path).expanduser()


def configured_model(name: str, environ: Mapping[str, str] = os.environ) -> Path | None:
    """The model file set for ``name`` (``set_spm_model``, else its environment variable)."""
    model = SPM_MODELS[name]
    if model.signature in _CHOSEN:
        return _CHOSEN[model.signature]
    value = environ.get(model.variable, "").strip()
    return Path(value).expanduser() if value else None


def _missing(name: str, found: Path | None) -> MissingModelError:
    model = SPM_MODELS[name]
    where = (tr("{path} is not a file").format(path=found) if found is not None
             else tr("no model file is given"))
    return MissingModelError(tr(
        "Tokenizer {name!r} needs its SentencePiece model, which sacrebleu downloaded from the "
        "internet; BLEU Explorer never downloads ({where}). On a machine with a network: "
        "curl -L -o {file} {url} ; then set {variable} to the file's path (sacrebleu keeps "
        "its copy in ~/.sacrebleu/models/{file})."
    ).format(name=name, where=where, file=model.file_name, url=model.url,
             variable=model.variable))


def spm_tokenizer(name: str) -> TokenizerSPM:
    """The tokenizer ``name`` with the model file configured now; MissingModelError naming the
    variable and the download command when there is none."""
    path = configured_model(name)
    if path is None or not path.is_file():
        raise _missing(name, path)
    stat = path.stat()
    return _load(name, str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=16)
def _load(name: str, path: str, size: int, mtime_ns: int) -> TokenizerSPM:
    """One tokenizer per model file (and its size and time: a replaced file loads again)."""
    try:
        sentencepiece = import_module("sentencepiece")
    except ImportError as error:
        raise MissingExtraError(tr(
            "Tokenizer {name!r} needs the sentencepiece library, which is not installed: "
            "pip install 'bleu-explorer[spm]'."
        ).format(name=name)) from error
    processor = sentencepiece.SentencePieceProcessor()
    try:
        processor.Load(path)
    except (OSError, RuntimeError) as error:
        raise MissingModelError(tr(
            "{path} is not a SentencePiece model that tokenizer {name!r} can load: {error}"
        ).format(path=path, name=name, error=error)) from None
    return TokenizerSPM(name, processor)


class TokenizerSPM(Tokenizer):
    """A line's SentencePiece pieces separated by spaces, as sacrebleu's TokenizerSPM."""

    def __init__(self, name: str, processor: Any) -> None:
        self.name = name
        self._signature = SPM_MODELS[name].signature
        self._processor = processor  # SentencePiece's encoding is thread-safe

    @property
    def signature(self) -> str:
        """sacrebleu's: ``flores101`` for both ``spm`` and ``flores101``."""
        return self._signature

    def __call__(self, line: str) -> str:
        return " ".join(self._processor.EncodeAsPieces(line))

    def words(self, lines: Sequence[str]) -> Words:
        """All lines encoded in one call (SentencePiece's own batch path, same pieces)."""
        pieces = self._processor.encode([line.rstrip() for line in lines], out_type=str)
        text = "\n".join(" ".join(" ".join(line).split()) for line in pieces)
        return split_words(text, len(lines))

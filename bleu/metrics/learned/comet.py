"""COMET (unbabel-comet) from a checkpoint on disk: reference-based (wmt22-comet-da),
reference-free (wmt22-cometkiwi-da) and xCOMET, whose error spans come back per segment.

Batches are formed as COMET's ``predict`` forms them (samples sorted by source length, then
``batch_size`` at a time) and run through the model's own ``prepare_sample`` and
``predict_step``, so the scores equal ``model.predict(samples, batch_size, gpus=0)`` on the same
samples; between batches the caller sees the progress and may stop.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import InputError, LengthMismatchError, MissingModelError, MissingReferenceError
from ...i18n import tr
from ._libraries import library_version, load
from .cache import CachedScore, model_key
from .models import FoundModel, cached_file, download_command, find_model
from .progress import Estimate, estimate, layer_weights, pick_device
from .runner import Step, Texts

#: what COMET's own command line uses
DEFAULT_BATCH_SIZE = 16
_CHECKPOINT = Path("checkpoints") / "model.ckpt"
#: the encoder files a checkpoint needs beside its weights, as the fetching command names them
_ENCODER_FILES = ("--include", '"*.json"', '"*.model"')


@contextmanager
def _quiet() -> Iterator[None]:
    """COMET and Lightning log every load ("Encoder model frozen."); not the user's business."""
    loggers = [logging.getLogger(name) for name in ("comet", "pytorch_lightning", "lightning")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def find_checkpoint(requested: str | os.PathLike[str]) -> tuple[FoundModel, Path]:
    """The model and its ``checkpoints/model.ckpt``: ``requested`` is the checkpoint file, the
    model's folder, or a name in the Hugging Face cache (``Unbabel/wmt22-comet-da``)."""
    path = Path(requested).expanduser()
    if path.is_file():
        found = find_model(path, "COMET")
        return found, found.folder
    found = find_model(requested, "COMET")
    checkpoint = found.folder / _CHECKPOINT
    if not checkpoint.is_file():
        raise MissingModelError(tr(
            "{folder} holds no COMET checkpoint: expected {checkpoint} (and hparams.yaml beside "
            "checkpoints/)."
        ).format(folder=found.folder, checkpoint=checkpoint))
    return found, checkpoint


def _check_encoder(checkpoint: Path, model: str) -> None:
    """The checkpoint's encoder tokenizer and configuration (``pretrained_model`` in its
    hparams.yaml, e.g. xlm-roberta-large) must be on disk too: COMET loads them by name."""
    hparams = checkpoint.parents[1] / "hparams.yaml"
    if not hparams.is_file():
        raise MissingModelError(tr("COMET model {model!r} has no hparams.yaml at {path}.")
                                .format(model=model, path=hparams))
    yaml = load("yaml", "COMET")
    encoder = str((yaml.safe_load(hparams.read_text(encoding="utf-8")) or {})
                  .get("pretrained_model", ""))
    if not encoder or Path(encoder).expanduser().is_dir():
        return
    if cached_file(encoder, "config.json") and (cached_file(encoder, "tokenizer.json") or
                                                cached_file(encoder, "sentencepiece.bpe.model")):
        return
    raise MissingModelError(tr(
        "COMET model {model!r} is built on the encoder {encoder!r}, whose tokenizer and "
        "configuration are not in the Hugging Face cache. BLEU Explorer never downloads; on a "
        "machine with a network: {command}"
    ).format(model=model, encoder=encoder, command=download_command(encoder, *_ENCODER_FILES)))


class CometScorer:
    """A COMET model loaded for scoring (load once, score many times: the app caches it)."""

    metric = "COMET"
    components: tuple[str, ...] = ()

    def __init__(self, model: str | os.PathLike[str], *, device: str | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        comet = load("comet", "COMET")
        found, checkpoint = find_checkpoint(model)
        _check_encoder(checkpoint, str(model))
        with _quiet():
            self._model: Any = comet.load_from_checkpoint(str(checkpoint), local_files_only=True)
        self._torch = load("torch", "COMET")
        self._move = load("pytorch_lightning.utilities", "COMET").move_data_to_device
        self.device = pick_device(device)
        self._model.eval()
        self._model.to(self.device)
        self.batch_size = batch_size
        self.model = str(model)
        self.model_path = str(checkpoint)
        self.model_version = found.version
        self.library = library_version("unbabel-comet")
        self.identity = model_key("comet", found.version, self.library)
        self.needs_reference = bool(self._model.requires_references())
        self.reads_reference = type(self._model).__name__ != "ReferencelessRegression"
        self.has_spans = bool(getattr(self._model, "word_level", False))

    # ------------------------------------------------------------------- what a segment is
    def segment_texts(self, system: Sequence[str], sources: Sequence[str] | None,
                      references: Sequence[Sequence[str | None]]) -> list[Texts]:
        """(source, translation, reference or None) per segment; the first reference stream is
        the one COMET reads (its command line takes one)."""
        if sources is None:
            raise InputError(tr("COMET needs the source segments; none are loaded."))
        reference = references[0] if references and self.reads_reference else None
        if reference is None and self.needs_reference:
            raise MissingReferenceError(tr(
                "COMET model {model!r} needs a reference translation; none is loaded."
            ).format(model=self.model))
        for name, stream in (("source", sources), ("reference", reference)):
            if stream is not None and len(stream) != len(system):
                raise LengthMismatchError(tr(
                    "The {name} has {found} segments, but the system has {expected}."
                ).format(name=name, found=len(stream), expected=len(system)))
        if reference is None:
            return [(src, mt, None) for src, mt in zip(sources, system, strict=True)]
        return list(zip(sources, system, reference, strict=True))

    @staticmethod
    def _sample(texts: Texts) -> dict[str, str]:
        src, mt, ref = texts
        return {"src": src, "mt": mt} if ref is None else {"src": src, "mt": mt, "ref": ref}

    # ---------------------------------------------------------------------------- the work
    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """Tokens of every input the model encodes (for xCOMET and other unified models three
        concatenations, [mt, src], [mt, ref] and [mt, src, ref]) through the encoder's layers."""
        tokenizer = self._model.encoder.tokenizer
        unique = list({text for item in pending for text in item if text is not None})
        encoded = tokenizer(unique, truncation=True, max_length=512)["input_ids"] if unique else []
        lengths = {text: len(ids) for text, ids in zip(unique, encoded, strict=True)}
        unified = hasattr(self._model, "word_level")
        tokens = 0
        for src, mt, ref in pending:
            s, m, r = lengths[src], lengths[mt], lengths[ref] if ref is not None else 0
            if unified:
                tokens += 3 * m + 2 * s + 2 * r if ref is not None else m + s
            else:
                tokens += s + m + r
        return estimate(tokens, layer_weights(self._model.encoder), self.device)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """COMET's batches: sorted by source length, ``batch_size`` at a time."""
        samples = [self._sample(item) for item in pending]
        order = np.argsort([len(sample["src"]) for sample in samples])
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            batch = self._model.prepare_for_inference([samples[i] for i in chunk])
            with self._torch.inference_mode():
                prediction = self._model.predict_step(self._move(batch, self.device))
            scores = prediction["scores"].tolist()
            spans = (prediction["metadata"]["error_spans"] if self.has_spans
                     else [None] * len(chunk))
            yield Step({keys[i]: CachedScore(score, _details(found))
                        for i, score, found in zip(chunk, scores, spans, strict=True)}, len(chunk))


def _details(spans: list[dict[str, Any]] | None) -> str | None:
    """xCOMET's spans of one segment as JSON: [start, end, severity, text, confidence]."""
    if spans is None:
        return None
    return json.dumps({"spans": [[int(s["start"]), int(s["end"]), str(s["severity"]),
                                  str(s["text"]), float(s["confidence"])] for s in spans]},
                      ensure_ascii=False)

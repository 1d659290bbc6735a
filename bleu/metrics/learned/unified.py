"""Unified COMET models (xCOMET with its error spans, CometKiwi) computed through unbabel-comet
itself: they are not yet computed natively. unbabel-comet 2.2 pins numpy < 2, so this runs only
in an environment of its own (the ``learned-unified`` extra), never in the app's main one.

Batches are formed as COMET's ``predict`` forms them (sorted by source length, ``batch_size`` at
a time) and run through the model's own ``prepare_sample`` and ``predict_step``, so the scores
equal ``predict``; between batches the caller sees the progress and may stop. The checkpoint is
first read as tensors only (``checkpoints.read_tensors``): one that would run code is refused
before COMET opens it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ._libraries import UNIFIED_EXTRA_COMMAND, library_version, load
from .cache import CachedScore, model_key
from .checkpoints import read_tensors
from .comet import CometScorer, read_hparams, span_details
from .encoding import Timing, batch_cost
from .models import FoundModel, find_encoder
from .progress import Estimate, pick_device
from .runner import Step, Texts
from .signature import LearnedSignature

#: what COMET's own command line uses
DEFAULT_BATCH_SIZE = 16


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


class UnifiedCometScorer:
    """An xCOMET or CometKiwi model loaded through unbabel-comet."""

    metric = "COMET"
    components: tuple[str, ...] = ()
    segment_texts = CometScorer.segment_texts

    def __init__(self, model: str | os.PathLike[str], found: FoundModel, checkpoint: Path, *,
                 device: str | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        comet = load("comet", "xCOMET / CometKiwi", UNIFIED_EXTRA_COMMAND)
        hparams = read_hparams(found.folder, str(model))
        find_encoder(str(hparams.get("pretrained_model", "xlm-roberta-large")), str(model),
                     "COMET")
        read_tensors(checkpoint, "COMET")  # refused here if it holds more than tensors
        with _quiet():
            self._model: Any = comet.load_from_checkpoint(str(checkpoint), local_files_only=True)
        self._torch = load("torch", "COMET")
        self._move = load("pytorch_lightning.utilities", "COMET").move_data_to_device
        self.device = pick_device(device)
        self._model.eval()
        self._model.to(self.device)
        self._timing = Timing()
        self.batch_size = batch_size
        self.model = str(model)
        self.model_path = str(checkpoint)
        self.model_version = found.version
        self.library = library_version("unbabel-comet")
        self.identity = model_key("comet", found.version, self.library)
        self.needs_reference = bool(self._model.requires_references())
        self.reads_reference = type(self._model).__name__ != "ReferencelessRegression"
        self.has_spans = bool(getattr(self._model, "word_level", False))

    def signature(self, nrefs: int) -> LearnedSignature:
        return LearnedSignature(self.metric, self.model, self.model_version, self.library,
                                "fp32", "first" if nrefs and self.reads_reference else "none")

    @staticmethod
    def _sample(texts: Texts) -> dict[str, str]:
        src, mt, ref = texts
        return {"src": src, "mt": mt} if ref is None else {"src": src, "mt": mt, "ref": ref}

    def _batches(self, pending: Sequence[Texts]) -> list[np.ndarray]:
        order = np.argsort([len(item[0]) for item in pending])
        return [order[start:start + self.batch_size]
                for start in range(0, len(order), self.batch_size)]

    def _cost(self, pending: Sequence[Texts], chunk: np.ndarray) -> float:
        tokenizer = self._model.encoder.tokenizer
        texts = [" ".join(t for t in pending[i] if t is not None) for i in chunk]
        length = max(len(ids) for ids in tokenizer(texts, truncation=True,
                                                   max_length=512)["input_ids"])
        return batch_cost(len(chunk), length, self._model.encoder.model.config.hidden_size)

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """One batch timed (when none was), the others extrapolated by their lengths."""
        batches = self._batches(pending)
        costs = [self._cost(pending, chunk) for chunk in batches]
        if batches and not self._timing.measured:
            middle = int(np.argsort(costs)[len(costs) // 2])
            start = time.perf_counter()
            self._predict([pending[i] for i in batches[middle]])
            self._timing.add(time.perf_counter() - start, costs[middle])
        work = float(sum(costs))
        seconds = self._timing.seconds(work)
        return Estimate(seconds, self.device, 0, work, work / seconds if seconds else 0.0)

    def _predict(self, items: Sequence[Texts]) -> tuple[list[float], list[Any]]:
        batch = self._model.prepare_for_inference([self._sample(item) for item in items])
        with self._torch.inference_mode():
            prediction = self._model.predict_step(self._move(batch, self.device))
        scores = prediction["scores"].tolist()
        spans = (prediction["metadata"]["error_spans"] if self.has_spans
                 else [None] * len(items))
        return scores, spans

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """COMET's batches: sorted by source length, ``batch_size`` at a time."""
        for chunk in self._batches(pending):
            cost = self._cost(pending, chunk)
            start = time.perf_counter()
            scores, spans = self._predict([pending[i] for i in chunk])
            self._timing.add(time.perf_counter() - start, cost)
            yield Step({keys[i]: CachedScore(score, span_details(found))
                        for i, score, found in zip(chunk, scores, spans, strict=True)}, cost)

"""COMET from a model on disk, computed natively (``comet_model``) for the regression models,
reference-based (wmt22-comet-da) and reference-free (wmt21-comet-qe-da): their scores equal
unbabel-comet 2.2's ``predict`` on the same model (tested against it to 1e-6).

Faster than ``predict`` by doing less: each distinct text (a source, a reference, a system's
output) is encoded once for every system and segment that has it, texts are batched by their
number of tokens (little padding), and torch uses the cores this process may run on. Unified
models (xCOMET, CometKiwi: ``unified_metric``) are handed to ``unified.UnifiedCometScorer``
(unbabel-comet itself, an extra of its own).

A checkpoint is read as tensors only (``checkpoints``): one that would run code is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...errors import InputError, LengthMismatchError, MissingModelError, MissingReferenceError
from ...i18n import tr
from . import comet_model
from ._libraries import load, load_transformers, torch_for
from .cache import CachedScore, model_key
from .checkpoints import read_tensors, state_dict
from .encoding import DEFAULT_BATCH_SIZE, TextEncoder
from .models import FoundModel, find_encoder, find_model
from .progress import Estimate, pick_device
from .runner import Step, Texts
from .signature import LearnedSignature, implementation

_CHECKPOINT = Path("checkpoints") / "model.ckpt"
_SAFETENSORS = Path("checkpoints") / "model.safetensors"


def find_checkpoint(requested: str | os.PathLike[str]) -> tuple[FoundModel, Path]:
    """The model and its checkpoint: ``requested`` is the checkpoint file, the model's folder
    (``hparams.yaml`` beside ``checkpoints/model.ckpt`` or ``model.safetensors``), or a name in
    the Hugging Face cache (``Unbabel/wmt22-comet-da``)."""
    path = Path(requested).expanduser()
    if path.is_file():
        found = find_model(path, "COMET")
        return FoundModel(found.requested, path.resolve().parents[1], found.version), path
    found = find_model(requested, "COMET")
    for name in (_SAFETENSORS, _CHECKPOINT):
        if (found.folder / name).is_file():
            return found, found.folder / name
    raise MissingModelError(tr(
        "{folder} holds no COMET checkpoint: expected {checkpoint} (and hparams.yaml beside "
        "checkpoints/)."
    ).format(folder=found.folder, checkpoint=found.folder / _CHECKPOINT))


def read_hparams(folder: Path, model: str) -> dict[str, Any]:
    """The model's ``hparams.yaml`` (read as plain data: no YAML tag runs anything)."""
    hparams = folder / "hparams.yaml"
    if not hparams.is_file():
        raise MissingModelError(tr("COMET model {model!r} has no hparams.yaml at {path}.")
                                .format(model=model, path=hparams))
    yaml = load("yaml", "COMET")
    found = yaml.safe_load(hparams.read_text(encoding="utf-8")) or {}
    if not isinstance(found, dict):
        raise InputError(tr("{path} is not a COMET hparams.yaml.").format(path=hparams))
    return found


def load_comet(model: str | os.PathLike[str], *, device: str | None = None,
               batch_size: int = DEFAULT_BATCH_SIZE) -> Any:
    """A COMET scorer for ``model``: native for regression models, unbabel-comet for unified
    ones (xCOMET, CometKiwi), which need their own extra."""
    torch_for("COMET")  # a missing extra is said before any model is looked for
    load_transformers("COMET")
    found, checkpoint = find_checkpoint(model)
    hparams = read_hparams(found.folder, str(model))
    kind = str(hparams.get("class_identifier", comet_model.REGRESSION))
    if kind in comet_model.UNIFIED:
        from .unified import UnifiedCometScorer

        return UnifiedCometScorer(model, found, checkpoint, device=device)
    return CometScorer(model, device=device, batch_size=batch_size)


class CometScorer:
    """A COMET regression model loaded for scoring (load once, score many times)."""

    metric = "COMET"
    components: tuple[str, ...] = ()
    has_spans = False

    def __init__(self, model: str | os.PathLike[str], *, device: str | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        torch = torch_for("COMET")
        transformers = load_transformers("COMET")
        found, checkpoint = find_checkpoint(model)
        yaml_hparams = read_hparams(found.folder, str(model))
        kind = str(yaml_hparams.get("class_identifier", comet_model.REGRESSION))
        if kind in comet_model.UNIFIED:
            raise InputError(tr("{model} is a unified COMET model (xCOMET, CometKiwi): load it "
                                "with load_comet, through unbabel-comet.").format(model=model))
        if kind not in (comet_model.REGRESSION, comet_model.REFERENCELESS):
            raise InputError(tr("COMET models of the kind {kind!r} are not supported.")
                             .format(kind=kind))
        named = str(yaml_hparams.get("pretrained_model", "xlm-roberta-large"))
        encoder = find_encoder(named, str(model), "COMET")  # said before GBs are read
        tensors = read_tensors(checkpoint, "COMET")
        # COMET builds the model from the checkpoint's own hyper-parameters (hparams.yaml
        # names the class); a checkpoint without them is read with hparams.yaml's
        hparams = {**yaml_hparams, **(tensors.get("hyper_parameters") or {})}
        if str(hparams.get("pretrained_model", named)) != named:
            encoder = find_encoder(str(hparams["pretrained_model"]), str(model), "COMET")
        self._torch = torch
        self.device = pick_device(device)
        self._model = comet_model.build(torch, transformers, hparams, kind, str(encoder),
                                        state_dict(tensors)).to(self.device)
        del tensors
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(encoder),
                                                               local_files_only=True)
        config = self._model.encoder.model.config
        max_length = config.max_position_embeddings - 4  # COMET's max_positions - 2
        self._pad = int(tokenizer.pad_token_id)

        def tokenize(text: str) -> list[int]:
            return list(tokenizer(text, truncation=True, max_length=max_length)["input_ids"])

        self._encoder = TextEncoder(tokenize, self._embed, config.hidden_size,
                                    batch_size=batch_size)
        self.kind = kind
        self.needs_reference = kind == comet_model.REGRESSION
        self.reads_reference = self.needs_reference
        self.batch_size = batch_size
        self.model = str(model)
        self.model_path = str(checkpoint)
        self.model_version = found.version
        self.library = implementation()
        self.identity = model_key("comet", found.version, "native-fp32")

    def signature(self, nrefs: int) -> LearnedSignature:
        """What these scores are: model, version, implementation, precision, reference."""
        return LearnedSignature(self.metric, self.model, self.model_version, self.library,
                                "fp32", "first" if nrefs and self.reads_reference else "none")

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
        if reference is not None:
            for i, text in enumerate(reference):
                if text is None:
                    raise MissingReferenceError(tr("Segment {number} has no reference.")
                                                .format(number=i + 1))
        if reference is None:
            return [(str(src), str(mt), None) for src, mt in zip(sources, system, strict=True)]
        return [(str(src), str(mt), str(ref))
                for src, mt, ref in zip(sources, system, reference, strict=True)]

    # ---------------------------------------------------------------------------- the work
    def _embed(self, batch: Sequence[Sequence[int]]) -> list[Any]:
        torch = self._torch
        length = max(len(ids) for ids in batch)
        ids = torch.full((len(batch), length), self._pad, dtype=torch.long)
        mask = torch.zeros((len(batch), length), dtype=torch.long)
        for row, tokens in enumerate(batch):
            ids[row, :len(tokens)] = torch.tensor(tokens, dtype=torch.long)
            mask[row, :len(tokens)] = 1
        with torch.inference_mode():
            vectors = self._model.embed(ids.to(self.device), mask.to(self.device)).cpu()
        return list(vectors)

    @staticmethod
    def _texts(pending: Sequence[Texts]) -> list[str]:
        return [text for item in pending for text in item if text is not None]

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """The distinct texts not encoded yet, in their batches; one batch is computed and timed
        (its vectors are kept for the run), the rest extrapolated from it."""
        texts = self._texts(pending)
        batches = self._encoder.batches(texts)
        self._encoder.probe(batches)
        remaining = self._encoder.batches(texts)
        work = sum(batch.cost for batch in remaining)
        seconds = self._encoder.timing.seconds(work)
        rate = work / seconds if seconds else 0.0
        return Estimate(seconds, self.device, self._encoder.tokens(set(texts)), work, rate)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """Encode the distinct texts batch by batch (shortest first); after each batch, score
        every segment whose texts are all encoded."""
        encoder = self._encoder
        waiting = dict(zip(keys, pending, strict=True))
        finished = self._score_ready(waiting)
        if finished:
            yield Step(finished, 0.0)
        for batch in encoder.batches(self._texts(pending)):
            encoder.run(batch)
            yield Step(self._score_ready(waiting), batch.cost)
        if waiting:  # a vector dropped from a full memory: computed again
            yield Step(self._score_ready(waiting, force=True), 0.0)

    def _score_ready(self, waiting: dict[str, Texts], force: bool = False,
                     ) -> dict[str, CachedScore]:
        """Score (and remove from ``waiting``) the segments whose vectors are all there."""
        encoder = self._encoder
        ready = [key for key, texts in waiting.items()
                 if force or all(text is None or encoder.has(text) for text in texts)]
        if not ready:
            return {}
        torch = self._torch
        found: dict[str, CachedScore] = {}
        for start in range(0, len(ready), 256):
            chunk = ready[start:start + 256]
            texts = [waiting[key] for key in chunk]
            src = torch.stack(encoder.results([t[0] for t in texts])).to(self.device)
            mt = torch.stack(encoder.results([t[1] for t in texts])).to(self.device)
            ref = (torch.stack(encoder.results([t[2] for t in texts])).to(self.device)
                   if self.kind == comet_model.REGRESSION else None)
            with torch.inference_mode():
                scores = self._model.estimate(src, mt, ref).cpu().tolist()
            found.update({key: CachedScore(float(score)) for key, score in
                          zip(chunk, scores, strict=True)})
        for key in ready:
            del waiting[key]
        return found


def span_details(spans: list[dict[str, Any]] | None) -> str | None:
    """xCOMET's spans of one segment as JSON: [start, end, severity, text, confidence]."""
    if spans is None:
        return None
    return json.dumps({"spans": [[int(s["start"]), int(s["end"]), str(s["severity"]),
                                  str(s["text"]), float(s["confidence"])] for s in spans]},
                      ensure_ascii=False)

"""COMET from a model on disk, computed natively (``comet_model``) for the regression models,
reference-based (wmt22-comet-da) and reference-free (wmt21-comet-qe-da): their scores equal
unbabel-comet 2.2's ``predict`` on the same model (tested against it to 1e-6).

Faster than ``predict`` by doing less: each distinct text (a source, a reference, a system's
output) is encoded once for every system and segment that has it, texts are batched by their
number of tokens (little padding), and torch uses the cores this process may run on. Unified
models (xCOMET, CometKiwi: ``unified_metric``) go to ``unified.UnifiedCometScorer``
(unbabel-comet itself, an extra of its own); ``loading.load_comet`` picks one or the other.

A checkpoint is read as tensors only (``checkpoints``): one that would run code is refused.

Reduced precision only when asked (``precision="bf16"``, or ``"fp16"`` on a GPU): the encoder
runs at that precision, the estimator stays in fp32, and the first plan measures what it costs:
the largest score difference to fp32 on up to ``SHIFT_SEGMENTS`` of the segments to compute,
said in the signature (``precision:bf16(shift<=0.0021)``) and kept as ``precision_shift``.
Reduced-precision scores are cached apart from fp32 ones.
"""

from __future__ import annotations

import copy
import json
import os
import threading
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

#: the precisions a COMET model runs at (fp32 unless asked): torch's dtype by name
PRECISIONS = ("fp32", "bf16", "fp16")
#: segments the first plan scores at both precisions to measure a reduced precision's shift
SHIFT_SEGMENTS = 16

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


def check_precision(precision: str, device: str) -> str:
    """``precision`` if this device runs it (fp16 only on a GPU: a CPU has no fp16 kernels
    worth the name), else an InputError naming the ones it does."""
    offered = PRECISIONS if not device.startswith("cpu") else ("fp32", "bf16")
    if precision not in offered:
        raise InputError(tr("COMET runs at {offered} on {device}, not {precision!r}.")
                         .format(offered=", ".join(offered), device=device,
                                 precision=precision))
    return precision


class CometScorer:
    """A COMET regression model loaded for scoring (load once, score many times)."""

    metric = "COMET"
    components: tuple[str, ...] = ()
    has_spans = False

    def __init__(self, model: str | os.PathLike[str], *, device: str | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, precision: str = "fp32") -> None:
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
        self.precision = check_precision(precision, self.device)
        #: the largest score shift measured against fp32 (None: fp32, or not measured yet)
        self.precision_shift: float | None = None
        self._full: Any = None  # the fp32 encoder, kept until the shift is measured
        self._shift_lock = threading.Lock()
        if precision != "fp32":
            self._full = self._model.encoder.model
            dtype = torch.bfloat16 if precision == "bf16" else torch.float16
            self._model.encoder.model = copy.deepcopy(self._full).to(dtype)
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
        self.identity = model_key("comet", found.version, f"native-{precision}")

    def signature(self, nrefs: int) -> LearnedSignature:
        """What these scores are: model, version, implementation, precision (a reduced one with
        its measured shift), reference."""
        precision = self.precision
        if precision != "fp32":
            shift = self.precision_shift
            precision += "(shift unmeasured)" if shift is None else f"(shift<={shift:.2g})"
        return LearnedSignature(self.metric, self.model, self.model_version, self.library,
                                precision, "first" if nrefs and self.reads_reference else "none")

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
    def _embed(self, batch: Sequence[Sequence[int]], encoder: Any = None) -> list[Any]:
        """One fp32 vector per text of ``batch``; ``encoder``: another encoder than the
        model's own (the fp32 one, to measure a reduced precision's shift)."""
        torch = self._torch
        length = max(len(ids) for ids in batch)
        ids = torch.full((len(batch), length), self._pad, dtype=torch.long)
        mask = torch.zeros((len(batch), length), dtype=torch.long)
        for row, tokens in enumerate(batch):
            ids[row, :len(tokens)] = torch.tensor(tokens, dtype=torch.long)
            mask[row, :len(tokens)] = 1
        with torch.inference_mode():
            vectors = self._model.embed(ids.to(self.device), mask.to(self.device), encoder)
        return list(vectors.float().cpu())

    @staticmethod
    def _texts(pending: Sequence[Texts]) -> list[str]:
        return [text for item in pending for text in item if text is not None]

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """The distinct texts not encoded yet, in their batches; one batch is computed and timed
        (its vectors are kept for the run), the rest extrapolated from it."""
        texts = self._texts(pending)
        batches = self._encoder.batches(texts)
        self._encoder.probe(batches)
        self._measure_shift(pending)
        remaining = self._encoder.batches(texts)
        work = sum(batch.cost for batch in remaining)
        seconds = self._encoder.timing.seconds(work)
        rate = work / seconds if seconds else 0.0
        return Estimate(seconds, self.device, self._encoder.tokens(set(texts)), work, rate)

    def _measure_shift(self, pending: Sequence[Texts]) -> None:
        """At a reduced precision, the first plan scores up to ``SHIFT_SEGMENTS`` of ``pending``
        (spread over them) at both precisions; the largest difference is the shift said in the
        signature. The fp32 encoder is dropped afterwards (its memory back)."""
        if self._full is None or not pending:
            return
        with self._shift_lock:
            if self._full is None:
                return
            step = max(1, len(pending) // SHIFT_SEGMENTS)
            sample = list(pending[::step][:SHIFT_SEGMENTS])
            reduced = self._head(sample, self._encoder.results)
            full = self._head(sample, lambda texts: [
                vector for start in range(0, len(texts), self.batch_size)
                for vector in self._embed([self._encoder.ids(text) for text in
                                           texts[start:start + self.batch_size]], self._full)])
            self.precision_shift = max(abs(a - b) for a, b in zip(reduced, full, strict=True))
            self._full = None

    def _head(self, texts: Sequence[Texts], vectors: Any) -> list[float]:
        """The scores of ``texts`` from the vectors ``vectors(list of texts)`` gives."""
        torch = self._torch
        src = torch.stack(vectors([t[0] for t in texts])).to(self.device)
        mt = torch.stack(vectors([t[1] for t in texts])).to(self.device)
        ref = (torch.stack(vectors([t[2] for t in texts])).to(self.device)
               if self.kind == comet_model.REGRESSION else None)
        with torch.inference_mode():
            return [float(score) for score in self._model.estimate(src, mt, ref).cpu().tolist()]

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
        found: dict[str, CachedScore] = {}
        for start in range(0, len(ready), 256):
            chunk = ready[start:start + 256]
            scores = self._head([waiting[key] for key in chunk], encoder.results)
            found.update({key: CachedScore(score) for key, score in
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

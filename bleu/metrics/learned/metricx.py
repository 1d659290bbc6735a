"""MetricX-24 (Juraska et al., WMT 2024) from a model folder on disk: an mT5 encoder-decoder
that reads ``source: … candidate: … reference: …`` (without the reference part for quality
estimation) and predicts an error score from 0 (perfect) to 25: LOWER IS BETTER.

As google-research/metricx's ``metricx24/predict.py`` and its ``MT5ForRegression``: the input is
tokenized with the model's tokenizer, truncated to ``max_length`` tokens and its end-of-sequence
token removed; the decoder reads one pad token; the score is the logit of token 250089
(``<extra_id_10>``) at that position, clipped to [0, 25]. Here each distinct input runs once,
in batches of similar length, and only that one logit is computed (not the whole vocabulary).
The weights are read as tensors only (``model.safetensors`` or a weights-only checkpoint).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...errors import InputError, LengthMismatchError, MissingModelError, MissingReferenceError
from ...i18n import tr
from ._libraries import load_transformers, torch_for
from .cache import CachedScore, model_key
from .checkpoints import read_tensors, state_dict
from .encoding import DEFAULT_BATCH_SIZE, TextEncoder
from .models import find_model
from .progress import Estimate, pick_device
from .runner import Step, Texts
from .signature import LearnedSignature, implementation

#: the vocabulary entry whose logit is the score (``<extra_id_10>``)
SCORE_TOKEN = 250089
#: MetricX-24's input length (its README: 1536 tokens)
DEFAULT_MAX_LENGTH = 1536
_WEIGHTS = ("model.safetensors", "pytorch_model.bin")


def metricx_input(source: str, hypothesis: str, reference: str | None) -> str:
    """The text MetricX-24 reads for one segment (hybrid: with or without the reference)."""
    text = f"source: {source} candidate: {hypothesis}"
    return text if reference is None else f"{text} reference: {reference}"


def _config(folder: Path) -> dict[str, Any]:
    """The model's config.json as saved (what transformers' config class may override)."""
    try:
        found = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        found = None
    if not isinstance(found, dict):
        raise MissingModelError(tr("{folder} holds no readable config.json.").format(
            folder=folder))
    return found


class MetricXScorer:
    """A MetricX-24 model loaded for scoring; ``tokenizer`` is the folder of its mT5 tokenizer
    (the model's own folder when it holds one)."""

    metric = "MetricX"
    components: tuple[str, ...] = ()
    has_spans = False
    needs_reference = False  # a hybrid model: with the reference when one is given
    reads_reference = True

    def __init__(self, model: str | os.PathLike[str], *, tokenizer: str | None = None,
                 device: str | None = None, batch_size: int = DEFAULT_BATCH_SIZE,
                 max_length: int = DEFAULT_MAX_LENGTH) -> None:
        torch = torch_for("MetricX")
        transformers = load_transformers("MetricX")
        found = find_model(model, "MetricX")
        weights = next((found.folder / name for name in _WEIGHTS
                        if (found.folder / name).is_file()), None)
        if weights is None:
            raise MissingModelError(tr("{folder} holds no MetricX weights (model.safetensors)."
                                       ).format(folder=found.folder))
        saved = _config(found.folder)
        if saved.get("model_type") not in ("mt5", "t5") or \
                int(saved.get("vocab_size", 0)) <= SCORE_TOKEN:
            raise InputError(tr("{model!r} is not a MetricX model: its vocabulary has no token "
                                "{token}.").format(model=str(model), token=SCORE_TOKEN))
        config = transformers.MT5Config.from_pretrained(str(found.folder), local_files_only=True)
        network = transformers.MT5ForConditionalGeneration(config)
        tensors = state_dict(read_tensors(Path(weights), "MetricX"))
        head_weights = tensors.pop("lm_head.weight", None)  # never loaded into a tied head
        if "shared.weight" in tensors:
            tensors.setdefault("encoder.embed_tokens.weight", tensors["shared.weight"])
            tensors.setdefault("decoder.embed_tokens.weight", tensors["shared.weight"])
        missing = [name for name, _ in network.named_parameters()
                   if name not in tensors and name != "lm_head.weight"]
        if missing:
            raise InputError(tr("The MetricX weights lack {count} the model needs (first: "
                                "{name}).").format(count=len(missing), name=missing[0]))
        network.load_state_dict(tensors, strict=False)
        self._torch = torch
        self.device = pick_device(device)
        self._model = network.to(self.device).eval()
        # MT5ForRegression's head: scaled by d_model^-0.5 only where the saved configuration
        # ties it to the embeddings (MetricX-24's does not); read from the files, since
        # transformers 5 ties every mT5 head whatever the configuration says
        tied = bool(saved.get("tie_word_embeddings", True))
        head = tensors.get("shared.weight") if tied else head_weights
        if head is None:
            raise InputError(tr("The MetricX weights have no lm_head.weight."))
        self._scale = config.d_model ** -0.5 if tied else 1.0
        self._row = head[SCORE_TOKEN:SCORE_TOKEN + 1].detach().clone().to(self.device)
        folder = tokenizer or str(found.folder)
        words = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self._pad = int(config.pad_token_id)
        self._start = int(config.decoder_start_token_id or 0)

        def tokenize(text: str) -> list[int]:
            ids = words(text, max_length=max_length, truncation=True)["input_ids"]
            return list(ids[:-1])  # predict.py's _remove_eos

        self._encoder = TextEncoder(tokenize, self._forward, config.d_model,
                                    batch_size=batch_size)
        self.max_length = max_length
        self.batch_size = batch_size
        self.model = str(model)
        self.model_path = str(found.folder)
        self.model_version = found.version
        self.library = implementation()
        self.identity = model_key("metricx24", found.version, f"max_length={max_length}")

    def signature(self, nrefs: int) -> LearnedSignature:
        return LearnedSignature(self.metric, self.model, self.model_version, self.library,
                                "fp32", "first" if nrefs else "none",
                                (("max_length", str(self.max_length)),))

    def segment_texts(self, system: Sequence[str], sources: Sequence[str] | None,
                      references: Sequence[Sequence[str | None]]) -> list[Texts]:
        """(the model's input text,) per segment: source, candidate and, when one is loaded,
        the first reference (without it, MetricX-24 scores as quality estimation)."""
        if sources is None:
            raise InputError(tr("MetricX needs the source segments; none are loaded."))
        reference = references[0] if references else None
        for name, stream in (("source", sources), ("reference", reference)):
            if stream is not None and len(stream) != len(system):
                raise LengthMismatchError(tr(
                    "The {name} has {found} segments, but the system has {expected}."
                ).format(name=name, found=len(stream), expected=len(system)))
        texts = []
        for i, (source, hypothesis) in enumerate(zip(sources, system, strict=True)):
            ref = reference[i] if reference is not None else None
            if reference is not None and ref is None:
                raise MissingReferenceError(tr("Segment {number} has no reference.")
                                            .format(number=i + 1))
            texts.append((metricx_input(source, hypothesis, ref),))
        return texts

    def _forward(self, batch: Sequence[Sequence[int]]) -> list[float]:
        torch = self._torch
        length = max(len(ids) for ids in batch)
        ids = torch.full((len(batch), length), self._pad, dtype=torch.long)
        mask = torch.zeros((len(batch), length), dtype=torch.long)
        for row, tokens in enumerate(batch):
            ids[row, :len(tokens)] = torch.tensor(tokens, dtype=torch.long)
            mask[row, :len(tokens)] = 1
        ids, mask = ids.to(self.device), mask.to(self.device)
        start = torch.full((len(batch), 1), self._start, dtype=torch.long, device=self.device)
        with torch.inference_mode():
            hidden = self._model.encoder(input_ids=ids, attention_mask=mask)[0]
            out = self._model.decoder(input_ids=start, encoder_hidden_states=hidden,
                                      encoder_attention_mask=mask)[0][:, 0, :]
            logit = torch.nn.functional.linear(out * self._scale, self._row)[:, 0]
            scores = torch.clamp(logit, 0, 25).cpu().tolist()
        return [float(score) for score in scores]

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        texts = [item[0] for item in pending]
        self._encoder.probe(self._encoder.batches(texts))
        work = sum(batch.cost for batch in self._encoder.batches(texts))
        seconds = self._encoder.timing.seconds(work)
        return Estimate(seconds, self.device, self._encoder.tokens(set(texts)), work,
                        work / seconds if seconds else 0.0)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """Each distinct input once, shortest first; a segment is done with its input."""
        by_text: dict[str, list[str]] = {}
        for key, (text,) in zip(keys, pending, strict=True):
            by_text.setdefault(text, []).append(key)
        ready = {key: CachedScore(float(self._encoder.result(text)))
                 for text, group in by_text.items() if self._encoder.has(text) for key in group}
        if ready:
            yield Step(ready, 0.0)
        for batch in self._encoder.batches(by_text):
            self._encoder.run(batch)
            yield Step({key: CachedScore(float(score)) for text, score in
                        zip(batch.texts, self._encoder.results(list(batch.texts)), strict=True)
                        for key in by_text[text]}, batch.cost)

"""BERTScore (bert-score) from a Hugging Face model on disk: precision, recall and F1 (the
segment score) per segment; with several references, each of the three is the best over them,
as ``bert_score.score`` takes it.

The work follows ``bert_score``'s own: the distinct sentences sorted longest first are embedded
``batch_size`` at a time with its ``get_bert_embedding``, then pairs are matched ``batch_size``
at a time with its ``greedy_cos_idf``. It runs in chunks of segments (embeddings of sentences a
later chunk needs, such as the references every system shares, are kept), so progress and stop
come between batches and a stopped run keeps its finished chunks; within one chunk the scores
equal ``bert_score.score`` on the same inputs.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import InputError, LengthMismatchError, MissingReferenceError
from ...i18n import tr
from ._libraries import library_version, load
from .cache import CachedScore, model_key
from .models import find_model
from .progress import Estimate, estimate, layer_weights, pick_device
from .runner import Step, Texts

#: bert_score's default
DEFAULT_BATCH_SIZE = 64
#: segments per chunk: the unit kept when a run stops
DEFAULT_CHUNK = 1024


class BertScoreScorer:
    """A BERTScore model loaded for scoring, with ``num_layers`` of its layers (bert_score's
    tuned number for the models it knows by name, else required)."""

    metric = "BERTScore"
    has_spans = False
    components = ("precision", "recall")

    def __init__(self, model: str | os.PathLike[str], *, num_layers: int | None = None,
                 device: str | None = None, batch_size: int = DEFAULT_BATCH_SIZE,
                 chunk_size: int = DEFAULT_CHUNK) -> None:
        utils = load("bert_score.utils", "BERTScore")
        self._torch = load("torch", "BERTScore")
        self._utils = utils
        found = find_model(model, "BERTScore")
        if num_layers is None:
            num_layers = utils.model2layers.get(str(model))
            if num_layers is None:
                raise InputError(tr(
                    "BERTScore needs the number of layers to use for model {model!r} (bert_score "
                    "knows it only for the models it names, such as roberta-large: 17)."
                ).format(model=str(model)))
        folder = str(found.folder)
        self._tokenizer = utils.get_tokenizer(folder, use_fast=False)
        self._model = utils.get_model(folder, num_layers, all_layers=False)
        self.device = pick_device(device)
        self._model.to(self.device)
        idf: defaultdict[int, float] = defaultdict(lambda: 1.0)  # bert_score's idf=False
        idf[self._tokenizer.sep_token_id] = 0
        idf[self._tokenizer.cls_token_id] = 0
        self._idf = idf
        self.batch_size = batch_size
        self.chunk_size = chunk_size
        self.num_layers = num_layers
        self.model = str(model)
        self.model_path = folder
        self.model_version = found.version
        self.library = library_version("bert-score")
        self.identity = model_key("bertscore", found.version, self.library,
                                  f"layers={num_layers}", "idf=no", "baseline=no")

    def segment_texts(self, system: Sequence[str], sources: Sequence[str] | None,
                      references: Sequence[Sequence[str | None]]) -> list[Texts]:
        """(hypothesis, its references) per segment; sources are not read."""
        if not references:
            raise MissingReferenceError(tr("BERTScore needs a reference; none is loaded."))
        for stream in references:
            if len(stream) != len(system):
                raise LengthMismatchError(tr(
                    "A reference has {found} segments, but the system has {expected}."
                ).format(found=len(stream), expected=len(system)))
        texts = []
        for i, hypothesis in enumerate(system):
            refs = tuple(stream[i] for stream in references if stream[i] is not None)
            if not refs:
                raise MissingReferenceError(tr("Segment {number} has no reference.")
                                            .format(number=i + 1))
            texts.append((hypothesis, *refs))
        return texts

    def estimate(self, pending: Sequence[Texts]) -> Estimate:
        """Tokens of the distinct sentences (each embedded once) through the layers used."""
        sentences = list({text for item in pending for text in item})
        encode = self._utils.sent_encode
        tokens = sum(len(encode(self._tokenizer, sentence)) for sentence in sentences)
        return estimate(tokens, layer_weights(self._model), self.device)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """Chunk by chunk: embed what the chunk lacks, match its pairs, finish its segments."""
        uses = Counter(text for item in pending for text in set(item))
        embedded: dict[str, tuple[Any, Any]] = {}
        for start in range(0, len(pending), self.chunk_size):
            chunk = pending[start:start + self.chunk_size]
            candidates = [item[0] for item in chunk for _ in item[1:]]
            references = [ref for item in chunk for ref in item[1:]]
            yield from self._embed(candidates, references, embedded, len(chunk))
            precision, recall, f1 = self._match(candidates, references, embedded)
            finished, row = {}, 0
            for offset, item in enumerate(chunk):
                n = len(item) - 1
                best = [max(values[row:row + n]) for values in (precision, recall, f1)]
                row += n
                finished[keys[start + offset]] = CachedScore(best[2], json.dumps(
                    {"precision": best[0], "recall": best[1]}))
                for text in set(item):
                    uses[text] -= 1
                    if uses[text] == 0:
                        embedded.pop(text, None)
            yield Step(finished, 0.0)

    def _embed(self, candidates: list[str], references: list[str],
               embedded: dict[str, tuple[Any, Any]], segments: int) -> Iterator[Step]:
        """bert_score's embedding pass over the chunk's distinct sentences not embedded yet."""
        ordered = sorted(set(references + candidates), key=lambda x: len(x.split(" ")),
                         reverse=True)
        todo = [sentence for sentence in ordered if sentence not in embedded]
        if not todo:
            yield Step({}, float(segments))
            return
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start:start + self.batch_size]
            embeddings, masks, idf = self._utils.get_bert_embedding(
                batch, self._model, self._tokenizer, self._idf, device=self.device)
            embeddings, masks, idf = embeddings.cpu(), masks.cpu(), idf.cpu()
            for i, sentence in enumerate(batch):
                length = int(masks[i].sum().item())
                embedded[sentence] = (embeddings[i, :length], idf[i, :length])
            yield Step({}, segments * len(batch) / len(todo))

    def _match(self, candidates: list[str], references: list[str],
               embedded: dict[str, tuple[Any, Any]]) -> tuple[list[float], ...]:
        """bert_score's greedy matching of each (candidate, reference) pair, in its batches."""
        torch = self._torch
        device = next(self._model.parameters()).device
        found: list[Any] = []
        with torch.no_grad():
            for start in range(0, len(references), self.batch_size):
                stats_ref = self._padded(references[start:start + self.batch_size], embedded,
                                         device)
                stats_hyp = self._padded(candidates[start:start + self.batch_size], embedded,
                                         device)
                p, r, f = self._utils.greedy_cos_idf(*stats_ref, *stats_hyp, False)
                found.append(torch.stack((p, r, f), dim=-1).cpu())
        table = torch.cat(found, dim=0)
        return tuple(table[:, k].tolist() for k in range(3))

    def _padded(self, sentences: list[str], embedded: dict[str, tuple[Any, Any]],
                device: Any) -> tuple[Any, Any, Any]:
        """Embeddings padded with 2.0 (as bert_score pads them), their mask and idf weights."""
        torch = self._torch
        pad = torch.nn.utils.rnn.pad_sequence
        embeddings = [embedded[s][0].to(device) for s in sentences]
        weights = [embedded[s][1].to(device) for s in sentences]
        lengths = torch.tensor([len(e) for e in embeddings], dtype=torch.long)
        mask = torch.arange(int(lengths.max()), dtype=torch.long).expand(
            len(lengths), int(lengths.max())) < lengths.unsqueeze(1)
        return (pad(embeddings, batch_first=True, padding_value=2.0), mask.to(device),
                pad(weights, batch_first=True))

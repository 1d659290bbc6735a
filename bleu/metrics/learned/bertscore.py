"""BERTScore from a Hugging Face model on disk, computed natively: precision, recall and F1 (the
segment score) per segment; with several references each of the three is the best over them,
as ``bert_score.score`` takes it. The scores equal bert-score 0.3.13's ``score`` on the same
model and layer (tested against it to 1e-6; idf off, no baseline rescaling, as its defaults).

As bert_score does: each sentence is stripped and tokenized by the model's (slow) tokenizer with
its special tokens, embedded by the first ``num_layers`` layers, and every candidate token is
matched to its most similar reference token by cosine (and the other way round), [CLS] and
[SEP] weighing nothing; an empty sentence scores 0. Unlike it, each distinct sentence is
embedded once for every system (the references are shared), in batches of similar length.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import InputError, LengthMismatchError, MissingReferenceError
from ...i18n import tr
from ._libraries import load_transformers, torch_for
from .cache import CachedScore, model_key
from .encoding import DEFAULT_BATCH_SIZE, TextEncoder
from .models import find_model
from .progress import Estimate, pick_device
from .runner import Step, Texts
from .signature import LearnedSignature, implementation

#: bert_score's tuned layer for the models it names (its ``model2layers``, for those we load)
KNOWN_LAYERS = {
    "roberta-large": 17, "roberta-base": 10, "bert-base-uncased": 9, "bert-large-uncased": 18,
    "bert-base-multilingual-cased": 9, "xlm-roberta-base": 9, "xlm-roberta-large": 17,
    "microsoft/deberta-xlarge-mnli": 40, "microsoft/deberta-large-mnli": 18,
    "distilbert-base-uncased": 5, "allenai/scibert_scivocab_uncased": 8,
}
#: segments per chunk: the unit kept when a run stops
DEFAULT_CHUNK = 1024


class BertScoreScorer:
    """A BERTScore model loaded for scoring, with ``num_layers`` of its layers (bert_score's
    tuned number for the models it knows by name, else required)."""

    metric = "BERTScore"
    has_spans = False
    components = ("precision", "recall")
    needs_reference = True
    reads_reference = True

    def __init__(self, model: str | os.PathLike[str], *, num_layers: int | None = None,
                 device: str | None = None, batch_size: int = DEFAULT_BATCH_SIZE,
                 chunk_size: int = DEFAULT_CHUNK) -> None:
        torch = torch_for("BERTScore")
        transformers = load_transformers("BERTScore")
        found = find_model(model, "BERTScore")
        if num_layers is None:
            num_layers = KNOWN_LAYERS.get(str(model))
            if num_layers is None:
                raise InputError(tr(
                    "BERTScore needs the number of layers to use for model {model!r} (bert_score "
                    "knows it only for the models it names, such as roberta-large: 17)."
                ).format(model=str(model)))
        folder = str(found.folder)
        self._torch = torch
        self._tokenizer = transformers.AutoTokenizer.from_pretrained(
            folder, use_fast=False, local_files_only=True)
        encoder = transformers.AutoModel.from_pretrained(folder, local_files_only=True)
        layers = getattr(getattr(encoder, "encoder", None), "layer", None)
        if layers is None:
            raise InputError(tr("BERTScore here supports BERT-like encoders (BERT, RoBERTa, "
                                "XLM-R, DeBERTa); {model!r} is not one.").format(model=str(model)))
        if not 0 <= num_layers <= len(layers):
            raise InputError(tr("{model!r} has {count} layers; BERTScore cannot use layer "
                                "{layer}.").format(model=str(model), count=len(layers),
                                                   layer=num_layers))
        encoder.encoder.layer = torch.nn.ModuleList(list(layers)[:num_layers])
        self.device = pick_device(device)
        self._model = encoder.to(self.device).eval()
        self._special = {self._tokenizer.sep_token_id, self._tokenizer.cls_token_id}
        self._roberta = isinstance(self._tokenizer, (transformers.RobertaTokenizer,
                                                     transformers.GPT2Tokenizer))
        self._encoder = TextEncoder(self._encode, self._embed, encoder.config.hidden_size,
                                    batch_size=batch_size)
        self.batch_size = batch_size
        self.chunk_size = chunk_size
        self.num_layers = num_layers
        self.model = str(model)
        self.model_path = folder
        self.model_version = found.version
        self.library = implementation()
        self.identity = model_key("bertscore-native", found.version, f"layers={num_layers}",
                                  "idf=no", "baseline=no")

    def signature(self, nrefs: int) -> LearnedSignature:
        return LearnedSignature(self.metric, self.model, self.model_version, self.library,
                                "fp32", "best of all" if nrefs > 1 else "first",
                                (("layer", str(self.num_layers)), ("idf", "no"),
                                 ("baseline", "no")))

    def _encode(self, sentence: str) -> list[int]:
        """bert_score's ``sent_encode``: stripped; empty gives the special tokens alone."""
        tokenizer = self._tokenizer
        sentence = sentence.strip()
        if not sentence:
            return [int(tokenizer.cls_token_id), int(tokenizer.sep_token_id)]
        options: dict[str, Any] = {"add_special_tokens": True, "truncation": True,
                                   "max_length": tokenizer.model_max_length}
        if self._roberta:
            options["add_prefix_space"] = True
        return list(tokenizer.encode(sentence, **options))

    def _embed(self, batch: Sequence[Sequence[int]]) -> list[Any]:
        torch = self._torch
        length = max(len(ids) for ids in batch)
        ids = torch.full((len(batch), length), int(self._tokenizer.pad_token_id),
                         dtype=torch.long)
        mask = torch.zeros((len(batch), length), dtype=torch.long)
        for row, tokens in enumerate(batch):
            ids[row, :len(tokens)] = torch.tensor(tokens, dtype=torch.long)
            mask[row, :len(tokens)] = 1
        with torch.inference_mode():
            out = self._model(ids.to(self.device), attention_mask=mask.to(self.device))[0].cpu()
        found = []
        for row, tokens in enumerate(batch):
            vectors = out[row, :len(tokens)]
            # each token's vector divided by its norm (bert_score's first step of matching)
            found.append(vectors / torch.norm(vectors, dim=-1).unsqueeze(-1))
        return found

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
        """The distinct sentences not embedded yet, in their batches; one batch is computed and
        timed, the rest extrapolated from it."""
        sentences = [text for item in pending for text in item]
        self._encoder.probe(self._encoder.batches(sentences))
        work = sum(batch.cost for batch in self._encoder.batches(sentences))
        seconds = self._encoder.timing.seconds(work)
        return Estimate(seconds, self.device, self._encoder.tokens(set(sentences)), work,
                        work / seconds if seconds else 0.0)

    def compute(self, pending: Sequence[Texts], keys: Sequence[str]) -> Iterator[Step]:
        """Chunk by chunk: embed what the chunk lacks, match its pairs, finish its segments; a
        sentence's embeddings are dropped once no later segment needs them."""
        uses = Counter(text for item in pending for text in set(item))
        for start in range(0, len(pending), self.chunk_size):
            chunk = pending[start:start + self.chunk_size]
            for batch in self._encoder.batches(text for item in chunk for text in item):
                self._encoder.run(batch)
                yield Step({}, batch.cost)
            finished = {}
            for offset, item in enumerate(chunk):
                best = tuple(max(values) for values in zip(*(
                    self._match(item[0], reference) for reference in item[1:]), strict=True))
                finished[keys[start + offset]] = CachedScore(best[2], json.dumps(
                    {"precision": best[0], "recall": best[1]}))
                for text in set(item):
                    uses[text] -= 1
                    if uses[text] == 0:
                        self._encoder.drop([text])
            yield Step(finished, 0.0)

    def _match(self, candidate: str, reference: str) -> tuple[float, float, float]:
        """bert_score's ``greedy_cos_idf`` for one pair (idf 1, [CLS] and [SEP] 0)."""
        torch = self._torch
        hyp, ref = self._encoder.results([candidate, reference])
        hyp_ids, ref_ids = self._encoder.ids(candidate), self._encoder.ids(reference)
        if len(hyp_ids) == 2 or len(ref_ids) == 2:  # an empty sentence: bert_score's 0
            return 0.0, 0.0, 0.0
        similarity = hyp @ ref.T  # the vectors are normalised when embedded
        hyp_weights = torch.tensor([0.0 if i in self._special else 1.0 for i in hyp_ids])
        ref_weights = torch.tensor([0.0 if i in self._special else 1.0 for i in ref_ids])
        hyp_weights = hyp_weights / hyp_weights.sum()
        ref_weights = ref_weights / ref_weights.sum()
        precision = (similarity.max(dim=1)[0] * hyp_weights).sum()
        recall = (similarity.max(dim=0)[0] * ref_weights).sum()
        f1 = 2 * precision * recall / (precision + recall)  # float32, as bert_score's
        return float(precision), float(recall), 0.0 if bool(torch.isnan(f1)) else float(f1)

"""A COMET regression model (reference-based such as wmt22-comet-da, or reference-free such as
wmt21-comet-qe-da) as unbabel-comet 2.2 computes it, on torch and transformers alone: the
encoder's layers mixed by learned weights (each layer normalised over the segment's tokens),
averaged over the tokens into one vector per text, and a feed-forward estimator over the
vectors of translation, reference and source and their products and differences.

Each text's vector depends on that text only, so one vector serves every segment that has the
text (the source and reference for every system). Built from the model's hyper-parameters and
its checkpoint's tensors (``checkpoints.read_tensors``); nothing from COMET is imported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import InputError
from ...i18n import tr

#: COMET's encoder names (hparams ``encoder_model``) and the transformers classes they load
ENCODERS = {"XLM-RoBERTa": "XLMRobertaModel", "BERT": "BertModel",
            "XLM-RoBERTa-XL": "XLMRobertaXLModel"}
REGRESSION, REFERENCELESS = "regression_metric", "referenceless_regression_metric"
UNIFIED = ("unified_metric", "xcomet_metric")


def sparsemax(torch: Any, weights: Any) -> Any:
    """Sparsemax of a vector (Martins & Astudillo, 2016), computed as the entmax package does:
    the threshold from the sorted values' running sums, then max(x - threshold, 0)."""
    ordered, _ = torch.sort(weights, dim=0, descending=True)
    running = ordered.cumsum(dim=0) - 1
    ranks = torch.arange(1, weights.size(0) + 1, device=weights.device, dtype=weights.dtype)
    support = (ranks * ordered > running).sum(dim=0).unsqueeze(0)
    threshold = running.gather(0, support - 1) / support.to(weights.dtype)
    return torch.clamp(weights - threshold, min=0)


def build(torch: Any, transformers: Any, hparams: Mapping[str, Any], kind: str,
          encoder_folder: str, weights: Mapping[str, Any] | None) -> Any:
    """The model of ``kind`` (REGRESSION or REFERENCELESS) with ``weights`` loaded (None: as
    initialised, for tests that make a model of their own)."""
    nn = torch.nn
    encoder_name = str(hparams.get("encoder_model", "XLM-RoBERTa"))
    if encoder_name not in ENCODERS:
        raise InputError(tr("COMET models on the encoder {encoder} are not supported (supported: "
                            "{known}).").format(encoder=encoder_name, known=", ".join(ENCODERS)))
    config = transformers.AutoConfig.from_pretrained(encoder_folder, local_files_only=True)
    encoder_class = getattr(transformers, ENCODERS[encoder_name])
    pool = str(hparams.get("pool", "avg"))
    layer = hparams.get("layer", "mix")
    transformation = str(hparams.get("layer_transformation", "softmax"))
    if pool not in ("avg", "max", "cls", "default"):
        raise InputError(tr("COMET pooling {pool!r} is not supported.").format(pool=pool))

    class FeedForward(nn.Module):
        """COMET's estimator: Linear, activation, dropout per hidden size, then Linear."""

        def __init__(self, in_dim: int) -> None:
            super().__init__()
            sizes = list(hparams.get("hidden_sizes", [3072, 1024]))
            activation = str(hparams.get("activations", "Tanh")).title()
            final = hparams.get("final_activation")
            modules: list[Any] = []
            previous = in_dim
            for size in sizes:
                modules += [nn.Linear(previous, int(size)), getattr(nn, activation)(),
                            nn.Dropout(0.0)]
                previous = int(size)
            modules.append(nn.Linear(previous, 1))
            if final is not None:
                modules.append(getattr(nn, str(final).title())())
            self.ff = nn.Sequential(*modules)

        def forward(self, features: Any) -> Any:
            return self.ff(features)

    class LayerMix(nn.Module):
        """COMET's layer-wise attention: gamma x sum of softmax (or sparsemax) weighted layers,
        each normalised over the segment's tokens when ``layer_norm``."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.scalar_parameters = nn.ParameterList(
                [nn.Parameter(torch.zeros(1)) for _ in range(count)])
            self.gamma = nn.Parameter(torch.ones(1))
            self.layer_norm = bool(hparams.get("layer_norm", True))

        def forward(self, layers: Sequence[Any], mask: Any) -> Any:
            weights = torch.cat(list(self.scalar_parameters))
            normed = (sparsemax(torch, weights) if transformation == "sparsemax"
                      else torch.softmax(weights, dim=0))
            normed = torch.split(normed, split_size_or_sections=1)
            if not self.layer_norm:
                return self.gamma * sum(w * t for w, t in zip(normed, layers, strict=True))
            mask_float = mask.float()
            broadcast = mask_float.unsqueeze(-1)
            batch, _, width = layers[0].size()
            count = mask_float.sum(1) * width
            pieces = []
            for weight, tensor in zip(normed, layers, strict=True):
                masked = tensor * broadcast
                mean = (masked.view(batch, -1).sum(1) / count).view(batch, 1, 1)
                variance = (((masked - mean) * broadcast) ** 2).view(batch, -1).sum(1) / count
                pieces.append(weight * ((tensor - mean)
                                        / torch.sqrt(variance + 1e-12).view(batch, 1, 1)))
            return self.gamma * sum(pieces)

    class Regression(nn.Module):
        """Encoder, layer mix, pooling (``embed``) and the estimator (``estimate``)."""

        def __init__(self) -> None:
            super().__init__()
            self.encoder = nn.Module()
            self.encoder.model = encoder_class(config, add_pooling_layer=False)
            layers = config.num_hidden_layers + 1
            self.layerwise_attention = LayerMix(layers) if layer == "mix" else None
            features = 6 if kind == REGRESSION else 4
            self.estimator = FeedForward(config.hidden_size * features)
            self.pad_id = int(config.pad_token_id if config.pad_token_id is not None else 1)

        def embed(self, input_ids: Any, attention_mask: Any, encoder: Any = None) -> Any:
            """One vector per text (COMET's ``get_sentence_embedding``); ``encoder``: another
            than the model's own (the same weights at another precision)."""
            out = (encoder or self.encoder.model)(
                input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True,
                return_dict=True)
            layers = out.hidden_states
            if self.layerwise_attention is not None:
                embeddings = self.layerwise_attention(layers, attention_mask)
            else:
                embeddings = layers[int(layer)]
            if pool == "default":
                return out.last_hidden_state[:, 0, :]
            if pool == "cls":
                return embeddings[:, 0, :]
            padding = input_ids.eq(self.pad_id).unsqueeze(-1)
            if pool == "max":
                filled = embeddings.float().masked_fill(padding, float("-inf"))
                return filled.type_as(embeddings).max(dim=1)[0]
            filled = embeddings.float().masked_fill(padding, 0.0).type_as(embeddings)
            total = torch.sum(filled, 1)
            count = attention_mask.unsqueeze(-1).expand(embeddings.size()).float().sum(1)
            return total / count

        def estimate(self, src: Any, mt: Any, ref: Any | None) -> Any:
            """Scores from the vectors (COMET's ``estimate``: the same features, same order)."""
            diff_src = torch.abs(mt - src)
            prod_src = mt * src
            if kind == REGRESSION:
                features = (mt, ref, mt * ref, torch.abs(mt - ref), prod_src, diff_src)
            else:
                features = (mt, src, prod_src, diff_src)
            return self.estimator(torch.cat(features, dim=1)).view(-1)

    model = Regression()
    if weights is not None:
        _load(model, weights)
    model.eval()
    return model


def _load(model: Any, weights: Mapping[str, Any]) -> None:
    """The checkpoint's tensors into ``model``: every parameter must be there (a buffer such as
    the position ids of an older transformers may be missing or extra)."""
    state = {key: value for key, value in weights.items() if key in model.state_dict()}
    missing = [name for name, _ in model.named_parameters() if name not in state]
    if missing:
        raise InputError(tr("The COMET checkpoint lacks {count} weights the model needs "
                            "(first: {name}).").format(count=len(missing), name=missing[0]))
    model.load_state_dict(state, strict=False)

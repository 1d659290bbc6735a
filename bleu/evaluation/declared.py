"""Every metric the project knows, declared once: one ``MetricSpec`` each in ``registry``.

Adding a metric is one entry here and its module (docs/architecture.md: "Add a metric").
Nothing heavy is imported to declare them: each factory imports its metric when called.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from importlib.util import find_spec
from typing import Any

from ..metrics.bleu.score import BLEUOptions
from ..metrics.chrf.score import CHRFOptions
from ..metrics.ter.score import TEROptions
from .registry import LEARNED, SEGMENT, TEXT, MetricSpec, registry


def _bleu(options: BLEUOptions, references: Any) -> Any:
    from ..metrics.bleu import BLEU

    return BLEU(**asdict(options), force=True, references=references)


def _chrf(options: CHRFOptions, references: Any) -> Any:
    from ..metrics.chrf import CHRF

    return CHRF(**asdict(options), references=references)


def _ter(options: TEROptions, references: Any) -> Any:
    from ..metrics.ter import TER

    return TER(**asdict(options), references=references)


@cache
def _installed(*modules: str) -> bool:
    """Whether every module of an extra can be imported here (nothing is imported)."""
    return all(find_spec(module) is not None for module in modules)


def _comet(model: str, **options: Any) -> Any:
    from ..metrics.learned import load_comet

    return load_comet(model, **options)


def _bertscore(model: str, **options: Any) -> Any:
    from ..metrics.learned import BertScoreScorer

    return BertScoreScorer(model, **options)


def _metricx(model: str, **options: Any) -> Any:
    from ..metrics.learned import MetricXScorer

    return MetricXScorer(model, **options)


def _learned_label(metric: str) -> Any:
    """What a learned metric's scores are called: the metric, its model, and (BERTScore) the
    layer given, else the loaded ``scorer``'s default one."""
    def label(model: str, num_layers: int | None = None, scorer: Any = None, **_: Any) -> str:
        from ..metrics.learned.describe import metric_label

        if num_layers is None and scorer is not None:
            num_layers = getattr(scorer, "num_layers", None)
        return metric_label(metric, model, num_layers)
    return label


BLEU_SPEC = registry.register(MetricSpec(
    "BLEU", TEXT, higher_is_better=True, options=BLEUOptions, build=_bleu, command_name="bleu"))
CHRF_SPEC = registry.register(MetricSpec(
    "chrF", TEXT, higher_is_better=True, options=CHRFOptions, build=_chrf, command_name="chrf"))
CHRF_PP_SPEC = registry.register(MetricSpec(
    "chrF++", TEXT, higher_is_better=True, options=CHRFOptions, defaults={"word_order": 2},
    build=_chrf))
#: TER keeps sacrebleu's (and tercom's) case-insensitive default, as papers report it
TER_SPEC = registry.register(MetricSpec(
    "TER", TEXT, higher_is_better=False, options=TEROptions, build=_ter, command_name="ter"))
#: learned metrics, computed natively on torch + transformers (bleu.metrics.learned); COMET's
#: unified models (xCOMET: error spans) load through unbabel-comet where it is installed
COMET_SPEC = registry.register(MetricSpec(
    "COMET", LEARNED, higher_is_better=True, needs_source=True, load=_comet,
    label=_learned_label("COMET"), available=lambda: _installed("torch", "transformers"),
    command_name="comet", extra="learned", marks_spans=True,
    model_flags={"--comet-precision": "precision"}, reference_free_flag="--comet-no-reference",
    example_model="Unbabel/wmt22-comet-da",
    model_kind="comet"))
BERTSCORE_SPEC = registry.register(MetricSpec(
    "BERTScore", LEARNED, higher_is_better=True, load=_bertscore,
    label=_learned_label("BERTScore"), available=lambda: _installed("torch", "transformers"),
    command_name="bertscore", extra="learned", model_flags={"--bertscore-layers": "num_layers"},
    example_model="roberta-large", model_kind="encoder"))
#: MetricX-24: an error score from 0 to 25, lower is better; reads the reference when given
METRICX_SPEC = registry.register(MetricSpec(
    "MetricX", LEARNED, higher_is_better=False, needs_reference=False, needs_source=True,
    load=_metricx, label=_learned_label("MetricX"),
    available=lambda: _installed("torch", "transformers"), command_name="metricx",
    extra="learned", model_flags={"--metricx-tokenizer": "tokenizer"},
    example_model="google/metricx-24-hybrid-large-v2p6", model_kind="mt5"))
#: segment scores read from a file (COMET, MQM, DA...): their direction comes with each set
SEGMENT_SCORES_SPEC = registry.register(MetricSpec(
    "Segment scores", SEGMENT, higher_is_better=True))

"""The metric registry: every metric the project knows, declared once (``declared.py``) and read
everywhere: its name, family, which way it points, what it reads (source, references), its
options under sacrebleu's names with their defaults, and how it is made.

A text metric (BLEU, chrF, chrF++, TER) is built from its family's options object and the
references (``MetricSpec.build``); a learned metric (COMET, BERTScore, ...) loads a model
(``MetricSpec.load``) and is available only where its extra is installed; segment scores read
from files are one family whose direction is guessed from the label (``direction``), a
declared metric's name winning over the guess.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import UnknownOptionError
from ..i18n import tr
from ..metrics.segment.scores import lower_is_better

#: metric families: how a metric's statistics come about
TEXT, SEGMENT, LEARNED = "text", "segment", "learned"


@dataclass(frozen=True)
class MetricSpec:
    """One metric, declared once.

    ``options`` is the family's frozen options class (``BLEUOptions``, ``CHRFOptions``,
    ``TEROptions``; fields under sacrebleu's argument names), ``defaults`` this metric's own
    values for them (chrF++: ``word_order=2``). ``build(options, references)`` makes a text
    metric (``bleu.metrics.base.Metric``); ``load(model, **options)`` a learned metric's scorer,
    and ``label(model, **options)`` what its scores are called. ``available()`` says whether
    the metric can be computed here (its extra is installed)."""

    name: str
    family: str
    higher_is_better: bool
    needs_reference: bool = True
    needs_source: bool = False
    options: type | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    build: Callable[..., Any] | None = None
    load: Callable[..., Any] | None = None
    label: Callable[..., str] | None = None
    available: Callable[[], bool] = lambda: True
    #: the ``-m`` name of the command line (sacrebleu's, lower case)
    command_name: str = ""
    #: the pip extra it needs ("" for none)
    extra: str = ""
    #: True where the model marks error spans (xCOMET)
    marks_spans: bool = False
    #: a learned metric's command-line flags beyond ``--<command_name>-model``, each with the
    #: ``load`` option it sets (BERTScore: ``{"--bertscore-layers": "num_layers"}``)
    model_flags: Mapping[str, str] = field(default_factory=dict)
    #: the flag that scores without the reference, for models that can ("" for none)
    reference_free_flag: str = ""
    #: a model name the app shows as an example, and the kind of model folder it loads
    #: (``bleu.metrics.learned.offered``: what a shared server offers for it)
    example_model: str = ""
    model_kind: str = ""

    @property
    def model_flag(self) -> str:
        """The command-line flag that names a learned metric's model."""
        return f"--{self.command_name}-model"

    @property
    def option_names(self) -> tuple[str, ...]:
        """The options it takes, by sacrebleu's names (empty for segment scores)."""
        if self.options is None:
            return ()
        return tuple(option.name for option in dataclasses.fields(self.options))

    def make_options(self, **given: Any) -> Any:
        """The family's options object: this metric's defaults, then ``given`` (names it does
        not take are refused, naming the ones it does)."""
        unknown = sorted(set(given) - set(self.option_names))
        if unknown:
            raise UnknownOptionError(tr(
                "{metric} has no option {option!r}; its options are {known}.").format(
                metric=self.name, option=unknown[0],
                known=", ".join(self.option_names) or tr("none")))
        if self.options is None:
            return None
        return self.options(**{**self.defaults, **given})

    def make(self, references: Any = None, **given: Any) -> Any:
        """The text metric with these options, its references prepared once where given."""
        if self.build is None:
            raise TypeError(f"{self.name} is not a text metric: it is not built from options.")
        return self.build(self.make_options(**given), references)


@dataclass
class Registry:
    """Every declared metric, by name, in the order declared."""

    _specs: dict[str, MetricSpec] = field(default_factory=dict)

    def register(self, spec: MetricSpec) -> MetricSpec:
        """Declare ``spec`` (a name is declared once)."""
        if spec.name in self._specs:
            raise ValueError(f"The metric {spec.name!r} is declared already.")
        self._specs[spec.name] = spec
        return spec

    def names(self, family: str | None = None) -> list[str]:
        """Every metric that can be computed here (learned ones where their extra is
        installed), in the order declared; ``family`` keeps one family."""
        return [spec.name for spec in self._specs.values()
                if spec.family != SEGMENT and (family is None or spec.family == family)
                and spec.available()]

    def declared(self) -> Iterator[MetricSpec]:
        """Every declared metric, available here or not."""
        return iter(self._specs.values())

    def get(self, name: str) -> MetricSpec:
        """The metric called ``name``; an unknown name is refused with the known ones."""
        try:
            return self._specs[name]
        except KeyError:
            known = [spec.name for spec in self._specs.values() if spec.family != SEGMENT]
            raise UnknownOptionError(tr("Unknown metric {name!r}: expected one of {known}.")
                                     .format(name=name, known=", ".join(known))) from None

    def find(self, name: str) -> MetricSpec | None:
        """The metric called ``name``, or None."""
        return self._specs.get(name)

    def by_command_name(self, name: str) -> MetricSpec:
        """The metric the command line's ``-m name`` asks for."""
        for spec in self._specs.values():
            if spec.command_name == name:
                return spec
        raise UnknownOptionError(tr("Unknown metric {name!r}.").format(name=name))

    def direction(self, label: str) -> bool:
        """Whether scores called ``label`` are better when higher: a declared metric's
        direction where the label names one (``MetricX-24 (model)``), else guessed from its
        words (MetricX, penalties, errors and TER-like rates are lower-is-better)."""
        for spec in self._specs.values():
            if spec.family != SEGMENT and _names(label, spec.name):
                return spec.higher_is_better
        return not lower_is_better(label)


def _names(label: str, name: str) -> bool:
    """Whether ``label`` is the metric ``name`` or a variant of it (``COMET (model)``)."""
    return label == name or label.startswith((f"{name} ", f"{name}("))


#: the one registry (filled by ``declared``)
registry = Registry()

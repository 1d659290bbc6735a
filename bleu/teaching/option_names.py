"""BLEU's option values as a reader reads them: the smoothing methods (sacrebleu's names, ``none``
in the reader's language) and on/off. The options themselves keep sacrebleu's names; these are
for labels, tables and sentences only."""

from __future__ import annotations

from collections.abc import Callable

from ..display.formatting import PLAIN
from ..i18n import N_, labels, tr
from ..metrics.bleu.score import BLEUOptions

#: sacrebleu's smoothing methods, as a reader reads them
SMOOTHING_NAMES = {"none": N_("none"), "floor": N_("floor"), "add-k": N_("add-k"),
                   "exp": N_("exp")}


def smoothing_name(method: str) -> str:
    """A smoothing method's name in the interface language (``none`` -> ``geen`` in Dutch)."""
    return tr(SMOOTHING_NAMES.get(method, method))


def smoothing_names() -> Callable[[str], str]:
    """A widget's ``format_func`` for the smoothing methods, translated now: a widget may
    format its options later on another thread, where ``tr`` answers in English."""
    return labels(SMOOTHING_NAMES)


def on_off(flag: bool) -> str:
    """``on`` or ``off`` in the interface language."""
    return tr("on") if flag else tr("off")


def smoothing_label(options: BLEUOptions) -> str:
    """The smoothing of ``options`` with its value where it has one (``floor 0.1``)."""
    name = smoothing_name(options.smooth_method)
    value = options.resolved_smooth_value
    return name if value is None else f"{name} {PLAIN.text(value)}"

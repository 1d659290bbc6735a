"""Reading a difference: how often humans agree with a system-level metric difference of a size.

The estimates of Kocmi, Zouhar, Federmann and Post (2024), "Navigating the Metrics Maze:
Reconciling Score Magnitudes and Accuracies" (ACL 2024, pages 1999-2014): on WMT and in-house
human judgments of system pairs, the accuracy of a metric difference delta is fitted as
``a / (1 + exp(-b * delta))`` percent. The parameters (a, b) are the published ones, copied as
numbers from github.com/kocmitom/MT-Thresholds at commit 2905992 (``web-tool/src/thresholds.json``,
the same values as ``_thresholds_raw`` in ``python-tool/mt_thresholds.py``, which PyPI ships as
``mt-thresholds`` 1.0.4); the package itself is not used. Its tool states that every score is
multiplied by 100 (BLEU 0-100; COMET 0.85 is 85), so ``scale`` turns 0-1 differences into that.
For COMET-21-QE and MetricX-23 (0-25) the fitted slopes (43 and 26) are far steeper than the
others', as if their differences had been fitted unmultiplied: the paper should settle that
before a page scales them.

The fit is the source's, unclamped: below its 50% point (0.27 BLEU, 0.14 chrF) the estimate is
under a coin toss, and it levels off at a / 100, so some accuracies are never reached (BLEU
never reaches 90%: ``delta_for_accuracy`` gives None, as the paper's table gives "-").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import InputError
from ..i18n import tr

SOURCE = ("Kocmi, Zouhar, Federmann, Post (2024), Navigating the Metrics Maze: Reconciling "
          "Score Magnitudes and Accuracies, ACL 2024; parameters from "
          "github.com/kocmitom/MT-Thresholds (web-tool/src/thresholds.json, commit 2905992)")

#: the source's metric name -> (a in percent, b): accuracy(delta) = a / (1 + exp(-b * delta))
PARAMETERS: dict[str, tuple[float, float]] = {
    "bleu": (88.33333333333225, 0.9663926931178954),
    "chrf": (92.999999999972, 1.1142732157139852),
    "spBLEU200": (90.99999999998793, 0.8079046528617078),
    "bleurt-default": (94.66666666666666, 0.4947232832741672),
    "bleurt-20": (98.33333333332963, 1.3727206190931929),
    "comet20": (97.33333333332897, 0.7266990738678005),
    "comet22": (96.22374133884283, 2.8359194570556636),
    "comet21qe": (93.7997435048193, 43.38413992717536),
    "cometkiwi22": (98.88141616584615, 2.719280643871758),
    "xcomet-XXL": (98.93432477039522, 1.1629533711748128),
    "xcomet-XL": (96.56738237041118, 1.4535595865214588),
    "spBLEU101": (84.58445492823891, 1.262507595109315),
    "cometkiwi-xxl": (96.23167242471065, 1.2826577343149304),
    "bertscore": (94.99999999999999, 2.6823162097239917),
    "cometkiwi23-xl-src": (96.39080593943235, 1.8888877927713834),
    "metricx-23-large": (93.60777624544488, 26.277850179370947),
    "metricx-23-qe-large": (97.99999999782683, 15.541455989240491),
}

# Names a score file or model card uses, folded as _fold does, for each source name. A name
# that could be several of them ("COMET", "xCOMET", "CometKiwi", "BLEURT", "MetricX") is absent:
# better no estimate than another model's. chrF++ and TER are not in the source.
_ALIASES: dict[str, tuple[str, ...]] = {
    "bleu": ("bleu", "sacrebleu"),
    "chrf": ("chrf", "chrf2"),
    "spBLEU200": ("spbleu200", "spbleuflores200"),
    "spBLEU101": ("spbleu101", "spbleuflores101"),
    "bleurt-default": ("bleurtdefault",),
    "bleurt-20": ("bleurt20",),
    "comet20": ("comet20", "wmt20cometda", "cometda20"),
    "comet22": ("comet22", "wmt22cometda", "cometda22"),
    "comet21qe": ("comet21qe", "wmt21cometqeda", "cometqe21"),
    "cometkiwi22": ("cometkiwi22", "wmt22cometkiwida"),
    "xcomet-XXL": ("xcometxxl",),
    "xcomet-XL": ("xcometxl",),
    "cometkiwi-xxl": ("cometkiwixxl", "cometkiwi23xxl", "wmt23cometkiwidaxxl"),
    "cometkiwi23-xl-src": ("cometkiwi23xlsrc", "cometkiwi23xl", "cometkiwixl",
                           "wmt23cometkiwidaxl"),
    "bertscore": ("bertscore",),
    "metricx-23-large": ("metricx23large", "metricx23largev2p0"),
    "metricx-23-qe-large": ("metricx23qelarge", "metricx23qelargev2p0"),
}
_BY_ALIAS = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}


@dataclass(frozen=True)
class Agreement:
    """The estimated share of system pairs on which humans agree with a difference this large."""

    accuracy: float  # 0..1
    delta: float  # the difference looked up, on the source's scale, without its sign
    metric: str  # the metric's name in the source
    source: str = SOURCE


def source_name(metric: str) -> str | None:
    """The source's name for ``metric`` (a model id such as "Unbabel/wmt22-comet-da" too), or
    None when the source does not know it or the name is ambiguous."""
    return _BY_ALIAS.get(_fold(metric))


def human_agreement(metric: str, delta: float, *, scale: float = 1.0) -> Agreement | None:
    """How often humans agree with a system-level difference of ``delta`` in ``metric``.

    ``scale`` multiplies ``delta`` onto the source's 0-100 scale (100 for COMET-like scores
    written 0-1). The sign is ignored: the estimate is about the size of a difference, whichever
    system it favours (MetricX is lower-is-better). None for a metric the source does not know.
    """
    name = source_name(metric)
    if name is None:
        return None
    size = abs(float(delta) * scale)
    if not math.isfinite(size):
        raise InputError(tr("A {metric} difference must be a finite number, found {delta!r}.")
                         .format(metric=metric, delta=delta))
    a, b = PARAMETERS[name]
    return Agreement(a / (1.0 + math.exp(-b * size)) / 100.0, size, name)


def delta_for_accuracy(metric: str, accuracy: float) -> float | None:
    """The difference in ``metric`` (source scale) at which the estimate reaches ``accuracy``
    (0.5 to 1); None where the fit never reaches it or the metric is unknown."""
    if not 0.5 <= accuracy <= 1.0:
        raise InputError(tr("An accuracy between 0.5 and 1 is needed, found {accuracy!r}.")
                         .format(accuracy=accuracy))
    name = source_name(metric)
    if name is None:
        return None
    a, b = PARAMETERS[name]
    if accuracy * 100.0 >= a:
        return None
    return -math.log(a / (accuracy * 100.0) - 1.0) / b


def _fold(metric: str) -> str:
    """Lower case, the organisation before a "/" dropped, and no "-", "_", "." or spaces."""
    return re.sub(r"[-_.\s]", "", metric.rsplit("/", 1)[-1].lower())

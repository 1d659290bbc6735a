"""One evaluation service: the metric registry (every metric declared once, ``registry``) and
``Evaluation``, which scores and tests loaded systems for the app, the command line and
notebooks alike::

    from bleu.evaluation import Evaluation, registry

    ev = Evaluation(systems, references, tokenize="13a")
    ev.add_metric("chrF")
    label = ev.add_scores("comet.tsv")
    results = ev.results(["BLEU", "chrF", label], baseline="A")
"""

from .registry import MetricSpec, registry
from .results import Dashboard, MetricResults
from .scores import MetricScores
from .service import Evaluation, MetricProgress, Subset

__all__ = ["Dashboard", "Evaluation", "MetricProgress", "MetricResults", "MetricScores",
           "MetricSpec", "Subset", "registry"]

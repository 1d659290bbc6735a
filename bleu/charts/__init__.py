"""Altair chart builders: core results in, ``alt.Chart`` out (pure: they render in a notebook too).

One module per page family (``dashboard``, ``segments``, ``teaching``, ``metrics``); every builder
the app uses is re-exported here, so ``bleu.charts`` holds them all.
"""

from . import schema_index  # noqa: F401 -- Altair's schema index, built once (see there)
from .metrics import correlation_chart, external_scatter_chart, metrics_chart
from .segments import (
    bucket_chart,
    contribution_chart,
    document_chart,
    histogram_chart,
    scatter_chart,
)
from .teaching import (
    bp_curve_chart,
    buckets_chart,
    log_terms_chart,
    mqm_segments_chart,
    mqm_systems_chart,
    order_sweep_chart,
    segmentation_chart,
    smoothing_chart,
    tokenizer_grid_chart,
    whatif_chart,
    whatif_precisions_chart,
)
from .teaching import precisions_chart as walkthrough_precisions_chart

#: every chart builder the app uses, by its name here (teaching charts keep theirs; the
#: walkthrough's precisions chart is ``walkthrough_precisions_chart``)
__all__ = [
    "bleu_chart",
    "bp_curve_chart",
    "bucket_chart",
    "buckets_chart",
    "contribution_chart",
    "correlation_chart",
    "dashboard",
    "decomposition_chart",
    "document_chart",
    "external_scatter_chart",
    "histogram_chart",
    "length_chart",
    "log_terms_chart",
    "metrics_chart",
    "mqm_segments_chart",
    "mqm_systems_chart",
    "order_sweep_chart",
    "pairs_chart",
    "precisions_chart",
    "scatter_chart",
    "segmentation_chart",
    "smoothing_chart",
    "to_png",
    "to_svg",
    "tokenizer_grid_chart",
    "walkthrough_precisions_chart",
    "whatif_chart",
    "whatif_precisions_chart",
]
from .dashboard import (
    bleu_chart,
    dashboard,
    decomposition_chart,
    length_chart,
    pairs_chart,
    precisions_chart,
    to_png,
    to_svg,
)

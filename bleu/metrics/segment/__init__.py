"""Segment-score metrics: per-segment scores from outside the text (COMET, xCOMET, BLEURT,
MetricX, human MQM or DA) tested like BLEU. ``scorer`` turns scores into statistics rows
``[score, rated]`` whose sums give the mean over rated segments, the system score COMET and
WMT report."""

from .scorer import SegmentScorer, segment_stats

__all__ = ["SegmentScorer", "segment_stats"]

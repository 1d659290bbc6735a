"""Segment scores read from files: one metric's (or human judgment's) score per system and
segment, as COMET, BLEURT, MetricX, MQM or DA give them (``table``: the scores; ``read``: the
validating readers and name matching; ``mqm``: Google's WMT MQM files as published)."""

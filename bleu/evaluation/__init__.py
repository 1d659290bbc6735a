"""One evaluation service: the metric registry (every metric declared once) and ``Evaluation``,
which scores and tests loaded systems for the app, the command line and notebooks."""

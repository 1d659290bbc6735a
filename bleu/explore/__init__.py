"""What researchers explore, as data: the dashboard's tables and exports, segments, A against B,
n-grams in context, correlations with human scores, where metrics disagree."""

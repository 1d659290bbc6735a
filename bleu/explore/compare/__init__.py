"""What decides system A versus system B, beside the paired tests (``bleu.evaluation.paired``):
which segments decide it (``contributions``), the n-grams that differ (``ngrams``), scores by
bucket (``buckets``) and by document (``documents``), and the table of every metric's tests
(``paired_table``).

Everything BLEU-valued is a sum of statistics-matrix rows scored with ``scores_from_stats``:
leaving a segment out subtracts its row, swapping in B's output adds B's row instead, and a
bucket or a document is the sum of its rows. N-gram and word counts use integer ids and numpy
(``keys``).
"""

from .buckets import (
    FREQUENCY_CUTOFFS,
    LENGTH_CUTOFFS,
    LENGTH_DIFF_CUTOFFS,
    SENTENCE_BLEU_CUTOFFS,
    FMeasureScorer,
    assign_buckets,
    bucket_labels,
    score_by_bucket,
    word_accuracy_by_frequency,
)
from .contributions import (
    LOO_A,
    LOO_B,
    LOO_GAP,
    SWAP,
    contribution_columns,
    contributions,
    deciding_segments,
)
from .documents import document_scores
from .ngrams import (
    DIFFERENCE,
    IN_A,
    IN_B,
    MATCHED_A,
    MATCHED_B,
    NGRAM_COLUMNS,
    NgramDifferences,
    ngram_differences,
)
from .paired_table import paired_columns, paired_table

__all__ = [
    "DIFFERENCE", "FREQUENCY_CUTOFFS", "IN_A", "IN_B", "LENGTH_CUTOFFS", "LENGTH_DIFF_CUTOFFS",
    "LOO_A", "LOO_B", "LOO_GAP", "MATCHED_A", "MATCHED_B", "NGRAM_COLUMNS",
    "SENTENCE_BLEU_CUTOFFS", "SWAP", "FMeasureScorer", "NgramDifferences", "assign_buckets",
    "bucket_labels", "contribution_columns", "contributions", "deciding_segments",
    "document_scores", "ngram_differences", "paired_columns", "paired_table", "score_by_bucket",
    "word_accuracy_by_frequency",
]

"""``bleu-explorer`` / ``python -m bleu``: sacrebleu's command line for BLEU, flags and output."""

from .command import main

__all__ = ["main"]

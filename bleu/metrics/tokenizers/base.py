"""The tokenizer interface: one line at a time (sacrebleu's semantics) or a whole stream at once."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from .words import split_words

# A character that a stream tokenizer may use as private marker; lines that contain it take the
# line-by-line path, so that the markers can never be confused with user text.
PRIVATE_MARKERS = "\ue000\ue001\ue002\ue003"


def needs_line_path(lines: Sequence[str]) -> bool:
    """True when a line holds a newline or a private marker: the stream path can't keep those."""
    joined = "".join(lines)
    return "\n" in joined or any(marker in joined for marker in PRIVATE_MARKERS)


class Tokenizer(ABC):
    """Splits text into BLEU tokens exactly as the sacrebleu tokenizer of the same name does."""

    #: the name users pass as ``tokenize=``
    name: str = ""

    @property
    def signature(self) -> str:
        """What the BLEU signature shows after ``tok:``."""
        return self.name

    @abstractmethod
    def __call__(self, line: str) -> str:
        """Tokenize one (already right-stripped) line; tokens are separated by whitespace."""

    def tokenize_stream(self, lines: Sequence[str]) -> str:
        """Tokenize many lines; return their tokenized forms joined by newlines.

        Each output line splits (``str.split()``) into exactly the tokens that
        ``self(line.rstrip()).split()`` gives. Subclasses override this with a faster
        whole-text formulation; this default is the line-by-line reference.
        """
        return "\n".join(" ".join(self(line.rstrip()).split()) for line in lines)

    def words(self, lines: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
        """All words of ``lines`` as one Arrow string array, and each line's first word's index.

        The words of line i are exactly ``self(line.rstrip()).split()``. Subclasses may build
        them without the tokenized text; this default splits ``tokenize_stream``'s output.
        """
        return split_words(self.tokenize_stream(lines), len(lines))

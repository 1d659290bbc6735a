"""The tokenizer interface: one line at a time (sacrebleu's rules, literally) or many at once."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from .words import Words, split_words


class Tokenizer(ABC):
    """Splits text into BLEU tokens exactly as the sacrebleu tokenizer of the same name does.

    Two paths: ``__call__`` applies sacrebleu's rules to one line as sacrebleu does (the
    reference the tests compare with); ``words`` tokenizes many lines at once into Arrow
    arrays, which is what the statistics engine consumes. Subclasses give ``words`` a fast
    formulation; this default runs the line path.
    """

    #: the name users pass as ``tokenize=``
    name: str = ""

    @property
    def signature(self) -> str:
        """What the BLEU signature shows after ``tok:``."""
        return self.name

    @abstractmethod
    def __call__(self, line: str) -> str:
        """Tokenize one (already right-stripped) line; tokens are separated by whitespace."""

    def words(self, lines: Sequence[str]) -> Words:
        """All words of ``lines`` as one Arrow string array, and each line's first word's index.

        The words of line i are exactly ``self(line.rstrip()).split()``.
        """
        text = "\n".join(" ".join(self(line.rstrip()).split()) for line in lines)
        return split_words(text, len(lines))

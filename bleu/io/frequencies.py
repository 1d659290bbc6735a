"""Word frequencies of training data, as compare-mt takes them (``--freq_count_file``): one
``word<TAB>count`` per line. They decide the word-frequency buckets of the Compare page."""

from __future__ import annotations

from .decode import decode_bytes
from .lines import normalize_newlines, split_lines
from .model import read_error


def read_frequencies(data: bytes, name: str, encoding: str = "utf-8") -> dict[str, int]:
    """``word -> count`` from a frequency file; refuses a line that is not ``word<TAB>count``
    (naming the file and the line) and a file with no counts. A repeated word's counts add up."""
    text, _ = normalize_newlines(decode_bytes(data, name, encoding=encoding).text)
    counts: dict[str, int] = {}
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        word, tab, count = line.rstrip().rpartition("\t")
        if not tab or not word.strip() or not count.isdigit():
            raise read_error(name, f"line {number}: expected a word, a tab and a count (a whole "
                                   f"number >= 0), as compare-mt's frequency files; found "
                                   f"{line[:60]!r}.")
        counts[word.strip()] = counts.get(word.strip(), 0) + int(count)
    if not counts:
        raise read_error(name, "holds no word counts; expected one 'word<TAB>count' per line.")
    return counts

"""One n-gram in context: where it occurs in segments' tokenized texts, marked.

The Compare page lists the segments where two systems are credited differently for an n-gram
(``concordance``: a short window of tokens around the n-gram, marked ``⟦…⟧``, as concordancers
print a keyword in context), and the opened segment shows its texts whole with every occurrence
highlighted (``marked_html``). Texts are tokenized as BLEU tokenizes them (``options``), so the
n-gram, a space-joined token sequence from ``compare.ngram_differences``, is found as BLEU
counts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ..display.escaping import escape_html
from ..io.languages import text_direction
from ..metrics.bleu.engine import tokenize_line
from ..metrics.bleu.score import BLEUOptions

#: the marks around the n-gram in plain text (a data grid cell cannot be styled in part)
OPEN, CLOSE = "⟦", "⟧"
#: tokens shown on each side of the n-gram in the list
CONTEXT = 6

_CSS = ("<style>.ngram-marks{line-height:1.8;margin:0.25em 0 0.75em 0}"
        ".ngram-marks .ngram-line{display:flex;align-items:baseline}"
        ".ngram-marks .label{flex:none;min-width:9em;font-size:0.85em;opacity:0.8}"
        ".ngram-marks .ngram-text{flex:1 1 auto;min-width:0}"
        ".ngram-marks mark.ngram-mark{background:#fff59d;color:#1b1b1b;padding:0 2px;"
        "border-radius:3px;box-shadow:inset 0 -2px 0 #f57f17}</style>")


def occurrences(tokens: Sequence[str], ngram: Sequence[str]) -> list[int]:
    """Start positions of every occurrence of ``ngram`` in ``tokens`` (overlaps included)."""
    n = len(ngram)
    if n == 0:
        return []
    target = list(ngram)
    return [start for start in range(len(tokens) - n + 1) if list(tokens[start:start + n])
            == target]


def _spans(tokens: Sequence[str], ngram: Sequence[str]) -> list[tuple[int, int, bool]]:
    """The tokens cut into runs (start, stop, marked): occurrences marked, overlaps merged."""
    marked = [False] * len(tokens)
    for start in occurrences(tokens, ngram):
        marked[start:start + len(ngram)] = [True] * len(ngram)
    runs: list[tuple[int, int, bool]] = []
    for position, flag in enumerate(marked):
        if runs and runs[-1][2] == flag:
            runs[-1] = (runs[-1][0], position + 1, flag)
        else:
            runs.append((position, position + 1, flag))
    return runs


def snippet(tokens: Sequence[str], ngram: Sequence[str], context: int = CONTEXT) -> str:
    """Plain text: ``context`` tokens either side of the first occurrence, the n-gram marked
    ``⟦…⟧`` (every occurrence in the window), ``…`` where the text goes on; without an
    occurrence, the text's first tokens."""
    found = occurrences(tokens, ngram)
    first = found[0] if found else 0
    start = max(first - context, 0)
    stop = min(first + (len(ngram) if found else 0) + context, len(tokens))
    window = tokens[start:stop]
    parts = []
    for begin, end, flag in _spans(window, ngram):
        text = " ".join(window[begin:end])
        parts.append(f"{OPEN}{text}{CLOSE}" if flag else text)
    return ("… " if start > 0 else "") + " ".join(parts) + (" …" if stop < len(tokens) else "")


def marked_html(ngram: str, texts: Mapping[str, Sequence[str]]) -> str:
    """One HTML block, one line per labelled tokenized text, every occurrence of ``ngram`` in
    ``<mark class="ngram-mark">``, each text in its own direction (``dir="rtl"`` for Hebrew or
    Arabic: it starts at the right); all text escaped (``escape_html``), on one line."""
    grams = ngram.split()
    lines = []
    for label, tokens in texts.items():
        parts = []
        for begin, end, flag in _spans(tokens, grams):
            text = escape_html(" ".join(tokens[begin:end]))
            parts.append(f'<mark class="ngram-mark">{text}</mark>' if flag else text)
        direction = text_direction(" ".join(tokens))
        lines.append(f'<div class="ngram-line"><span class="label">{escape_html(label)}</span>'
                     f'<div class="ngram-text" dir="{direction}">{" ".join(parts)}</div></div>')
    return f'<div class="ngram-marks">{_CSS}{"".join(lines)}</div>'


def concordance(ids: Sequence[int], streams: Mapping[str, Sequence[str | None]], ngram: str,
                options: BLEUOptions, context: int = CONTEXT) -> pd.DataFrame:
    """One row per segment id (1-based): ``segment``, then for each stream (label -> one line
    per segment; None: no text there) a snippet around ``ngram`` (see ``snippet``)."""
    grams = ngram.split()
    frame = pd.DataFrame({"segment": list(ids)})
    for label, stream in streams.items():
        frame[label] = [snippet(tokenize_line(stream[i - 1] or "", options), grams, context)
                        for i in ids]
    return frame

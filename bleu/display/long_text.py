"""Long segments shown bounded: a page draws a segment of any length in parts of ``PART_CHARS``
characters (the rest on demand), a table cell cut at ``CELL_CHARS``, and n-gram highlights only
up to ``HIGHLIGHT_CHARS``. Before, one 1 MiB line made the segment view write 343 MiB of HTML
(2.4 GB of server memory), and a 50 MB line took the server past 14 GB; scores are still
computed on the whole text, and the whole segment is a download away.
"""

from __future__ import annotations

import math

from ..i18n import tr
from ..number_rule import COUNT

#: characters of one segment a page draws at once: a WMT document-level segment is a few
#: thousand, so almost every segment is one part
PART_CHARS = 5_000
#: characters of a segment in a table cell (the table's CSV keeps the whole text)
CELL_CHARS = 500
#: the longest text whose n-gram matches are drawn (one chip per n-gram and order)
HIGHLIGHT_CHARS = 5_000


def is_long(text: str | None, limit: int = HIGHLIGHT_CHARS) -> bool:
    """Whether ``text`` is over ``limit`` characters."""
    return text is not None and len(text) > limit


def cut(text: str, limit: int = CELL_CHARS) -> str:
    """``text`` up to ``limit`` characters, and where it goes on, how many more it holds."""
    if len(text) <= limit:
        return text
    return tr("{start} … [{more} more characters]").format(
        start=text[:limit], more=COUNT.text(len(text) - limit))


def parts(text: str, size: int = PART_CHARS) -> int:
    """How many parts of ``size`` characters ``text`` is shown in (at least one)."""
    return max(1, math.ceil(len(text) / size))


def part(text: str, number: int, size: int = PART_CHARS) -> str:
    """Part ``number`` (1-based) of ``text``."""
    return text[(number - 1) * size:number * size]

"""Plain text: one segment per line, split on LF only, with notes on every repair.

Decisions: CRLF becomes LF; a file with CRs and no LF at all (old Mac, Excel for Mac CSV) has
CR line breaks; a lone CR inside an LF file becomes a space (BLEU's tokenizers split on it
anyway). U+2028, U+0085, VT, FF and U+001C..U+001E are text, not line breaks (unlike
``str.splitlines``), so line i of the file is segment i as in sacrebleu's reader. The empty
string after a final newline is no segment; every other empty or blank line is kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .decode import decode_bytes
from .model import TextFile

#: Characters ``str.splitlines`` breaks on that this reader keeps inside a line.
_SEPARATORS = {
    "\x0b": "U+000B VERTICAL TAB", "\x0c": "U+000C FORM FEED",
    "\x1c": "U+001C FILE SEPARATOR", "\x1d": "U+001D GROUP SEPARATOR",
    "\x1e": "U+001E RECORD SEPARATOR", "\x85": "U+0085 NEXT LINE",
    "\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR",
}
_SEPARATOR_RE = re.compile("[" + "".join(_SEPARATORS) + "]")


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def normalize_newlines(text: str) -> tuple[str, tuple[str, ...]]:
    """Text with LF line breaks only, and a note for each kind of repair made."""
    if "\r" not in text:
        return text, ()
    notes = []
    crlf = text.count("\r\n")
    if crlf:
        text = text.replace("\r\n", "\n")
        notes.append(f"Windows line endings (CRLF) were converted to LF on "
                     f"{_plural(crlf, 'line')}.")
    lone = text.count("\r")
    if lone and "\n" not in text:
        text = text.replace("\r", "\n")
        notes.append(f"The file uses old Mac line endings (CR, no LF): {_plural(lone, 'CR')} "
                     "were read as line breaks.")
    elif lone:
        first = text.count("\n", 0, text.index("\r")) + 1
        text = text.replace("\r", " ")
        notes.append(f"{_plural(lone, 'lone carriage return')} (CR) inside lines "
                     f"{'was kept as a space' if lone == 1 else 'were kept as spaces'} (the "
                     f"first on line {first}).")
    return text, tuple(notes)


def split_lines(text: str) -> list[str]:
    """Lines split on LF only; a final newline does not start an extra (empty) line."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def blank_segments_note(segments: Sequence[str], line_numbers: Sequence[int] | None = None
                        ) -> tuple[str, ...]:
    """A note counting empty or whitespace-only segments, which are kept for alignment."""
    blank = [i for i, segment in enumerate(segments) if not segment.strip()]
    if not blank:
        return ()
    first = line_numbers[blank[0]] if line_numbers is not None else blank[0] + 1
    return (f"{_plural(len(blank), 'segment')} {'is' if len(blank) == 1 else 'are'} empty or "
            f"whitespace only (the first on line {first}); kept, so that lines stay aligned.",)


def separators_note(segments: Sequence[str]) -> tuple[str, ...]:
    """A note on line-separator characters that were kept as text inside segments."""
    found = sorted({char for segment in segments for char in _SEPARATOR_RE.findall(segment)})
    if not found:
        return ()
    lines = [i for i, segment in enumerate(segments) if _SEPARATOR_RE.search(segment)]
    names = ", ".join(_SEPARATORS[char] for char in found)
    return (f"{_plural(len(lines), 'line')} (the first: line {lines[0] + 1}) "
            f"contain{'s' if len(lines) == 1 else ''} characters that some tools treat as line "
            f"breaks ({names}); only LF ends a line here, so they were kept as text.",)


def read_text(data: bytes, name: str, *, encoding: str = "utf-8") -> TextFile:
    """Read plain text, one segment per line, refusing binary or undecodable data clearly."""
    decoded = decode_bytes(data, name, encoding=encoding)
    text, newline_notes = normalize_newlines(decoded.text)
    segments = split_lines(text)
    separator_notes = separators_note(segments) if _SEPARATOR_RE.search(text) else ()
    notes = decoded.notes + newline_notes + separator_notes + blank_segments_note(segments)
    return TextFile(name=name, segments=tuple(segments), doc_ids=None, notes=notes)

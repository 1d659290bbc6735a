"""WMT's pre-2021 "SGML" (.sgm) files: one ``<seg id=..>text</seg>`` per line inside ``<doc>``s.

Read line by line as sacrebleu does (these files are not real SGML): the text between the seg
tags, stripped with whitespace collapsed, entities left as written (sacrebleu leaves them too).
"""

from __future__ import annotations

import re

from .decode import decode_bytes
from .lines import normalize_newlines, split_lines
from .model import TextFile, read_error

_SEG = re.compile(r"<seg[^>]*>(.*)</seg>")
_DOCID = re.compile(r'docid="(.*?)"')
_SPACES = re.compile(r"\s+")


def read_sgml(data: bytes, name: str, *, encoding: str = "utf-8") -> TextFile:
    """Read the segments of one WMT .sgm stream (srcset, refset or tstset) with document ids."""
    decoded = decode_bytes(data, name, encoding=encoding)
    text, notes = normalize_newlines(decoded.text)
    segments: list[str] = []
    doc_ids: list[str] = []
    doc_id = ""
    for number, line in enumerate(split_lines(text), 1):
        line = line.lstrip()
        if line.startswith("<doc "):
            match = _DOCID.search(line)
            doc_id = match.group(1) if match else ""
        elif line.startswith("<seg ") or line.startswith("<seg>"):
            match = _SEG.match(line)
            if match is None:
                raise read_error(name, f"line {number} opens a <seg> that does not close on the "
                                       "same line: expected one <seg ...>text</seg> per line.")
            segments.append(_SPACES.sub(" ", match.group(1).strip()))
            doc_ids.append(doc_id)
    if not segments:
        raise read_error(name, "holds no <seg> lines: expected a WMT .sgm file with one "
                               "<seg id=\"..\">text</seg> per line.")
    return TextFile(name=name, segments=tuple(segments), doc_ids=tuple(doc_ids),
                    notes=decoded.notes + notes)

"""Choose a reader by file name (and, for unknown names, by the first bytes)."""

from __future__ import annotations

from pathlib import PurePath

from ..errors import UnknownOptionError
from .decode import check_size
from .jsonl import read_jsonl
from .lines import read_text
from .model import TextFile, read_error
from .sgml import read_sgml
from .table import read_table
from .wmt_xml import read_wmt_xml

FORMATS = ("text", "tsv", "csv", "jsonl", "wmt-xml", "sgml")
_BY_SUFFIX = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
              ".json": "jsonl", ".xml": "wmt-xml", ".sgm": "sgml", ".sgml": "sgml"}


def detect_format(name: str, data: bytes) -> str:
    """The format of a file: by its extension, else XML/SGML by its start, else plain text."""
    found = _BY_SUFFIX.get(PurePath(name).suffix.lower())
    if found:
        return found
    head = data[:200].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<dataset")):
        return "wmt-xml"
    if head.startswith((b"<srcset", b"<refset", b"<tstset")):
        return "sgml"
    return "text"


def read_any(data: bytes, name: str, *, format: str | None = None, encoding: str = "utf-8",
             column: str | None = None, doc_column: str | None = None,
             delimiter: str | None = None, field: str | None = None,
             doc_field: str | None = None, stream: str | None = None) -> TextFile:
    """Check the size, then read one stream with the reader for its format.

    Options that do not apply to the format are ignored. For WMT XML, ``stream`` names one of
    ``WMTDocumentSet.streams()`` (``src``, ``ref:A``, ``hyp:X``); it may be omitted if there is one.
    """
    check_size(data, name)
    kind = format or detect_format(name, data)
    if kind == "text":
        return read_text(data, name, encoding=encoding)
    if kind in ("tsv", "csv"):
        delimiter = delimiter or ("\t" if kind == "tsv" else None)
        return read_table(data, name, column=column, doc_column=doc_column, delimiter=delimiter,
                          encoding=encoding)
    if kind == "jsonl":
        return read_jsonl(data, name, field=field, doc_field=doc_field, encoding=encoding)
    if kind == "sgml":
        return read_sgml(data, name, encoding=encoding)
    if kind == "wmt-xml":
        streams = read_wmt_xml(data, name).streams()
        if stream is None and len(streams) == 1:
            return next(iter(streams.values()))
        if stream not in streams:
            asked = "" if stream is None else f"has no stream {stream!r}; it "
            raise read_error(name, f"{asked}holds the streams {', '.join(map(repr, streams))}; "
                                   "choose one of them.")
        return streams[stream]
    raise UnknownOptionError(f"unknown file format {kind!r}; expected one of {', '.join(FORMATS)}")

"""Readers for uploads (plain text, TSV/CSV, JSON Lines, WMT XML and SGML) and checks across files.

Every reader takes the file's bytes and name and returns a ``TextFile`` (segments, document ids
where the format has them, and notes on each repair), or raises ``bleu.errors.ReadError`` with a
message that starts with the file name and says what is wrong, where, and what to do.
"""

from .checks import (
    IDENTICAL_WARN_FRACTION,
    check_aligned,
    duplicate_name_note,
    identical_lines_note,
    looks_tokenized,
    similarity_to_reference,
    unique_names,
)
from .decode import MAX_UPLOAD_MB, check_size
from .dispatch import FORMATS, detect_format, read_any
from .frequencies import read_frequencies
from .jsonl import jsonl_fields, read_jsonl
from .lines import read_text
from .model import TextFile, WMTDocumentSet
from .sgml import read_sgml
from .table import read_table, table_columns
from .wmt_xml import read_wmt_xml

__all__ = [
    "FORMATS",
    "IDENTICAL_WARN_FRACTION",
    "MAX_UPLOAD_MB",
    "TextFile",
    "WMTDocumentSet",
    "check_aligned",
    "check_size",
    "detect_format",
    "duplicate_name_note",
    "identical_lines_note",
    "jsonl_fields",
    "looks_tokenized",
    "read_any",
    "read_frequencies",
    "read_jsonl",
    "read_sgml",
    "read_table",
    "read_text",
    "read_wmt_xml",
    "similarity_to_reference",
    "table_columns",
    "unique_names",
]

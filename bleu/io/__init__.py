"""Readers for uploads (plain text, TSV/CSV, JSON Lines, WMT XML and SGML) and checks across files.

Every reader takes the file's bytes and name and returns a ``TextFile`` (segments, document ids
where the format has them, and notes on each repair), or raises ``bleu.errors.ReadError`` with a
message that starts with the file name and says what is wrong, where, and what to do. Names load
their module on first use, so a light module of the package (``names``) costs only itself.
"""

from .._lazy import lazy_names

_MODULES = {
    "checks": ("IDENTICAL_WARN_FRACTION", "check_aligned", "duplicate_name_note",
               "identical_lines_note", "looks_tokenized", "similarity_to_reference",
               "unique_names"),
    "decode": ("MAX_UPLOAD_MB", "check_size"),
    "dispatch": ("FORMATS", "detect_format", "read_any"),
    "frequencies": ("read_frequencies",),
    "jsonl": ("jsonl_fields", "read_jsonl"),
    "lines": ("read_text",),
    "model": ("TextFile", "WMTDocumentSet"),
    "sgml": ("read_sgml",),
    "table": ("read_table", "table_columns"),
    "wmt_xml": ("read_wmt_xml",),
}

__all__ = sorted(name for names in _MODULES.values() for name in names)
__getattr__, __dir__ = lazy_names(__name__, {name: module for module, names in _MODULES.items()
                                             for name in names})

"""TSV and CSV with a header row: one column holds the segments, another may hold document ids.

TSV is split on tabs with no quoting (MT text is full of quotes); CSV follows RFC 4180 through
the csv module, so quoted fields may hold commas, quotes and line breaks.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import PurePath

from ..errors import UnknownOptionError
from .decode import decode_bytes
from .lines import blank_segments_note, normalize_newlines, split_lines
from .model import TextFile, read_error

_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon"}


@dataclass(frozen=True)
class _Table:
    header: tuple[str, ...]
    rows: list[list[str]]
    row_lines: list[int]  # the 1-based line on which each row ends
    notes: tuple[str, ...]


def _choose_delimiter(name: str, header_line: str, delimiter: str | None) -> str:
    if delimiter is not None:
        return delimiter
    suffix = PurePath(name).suffix.lower()
    if suffix == ".tsv" or (suffix != ".csv" and "\t" in header_line):
        return "\t"
    if "," not in header_line and ";" in header_line:
        return ";"
    return "," if suffix == ".csv" or "," in header_line else "\t"


def _rows(text: str, name: str, delimiter: str) -> tuple[list[list[str]], list[int]]:
    if delimiter == "\t":
        lines = split_lines(text)
        return [line.split("\t") for line in lines], list(range(1, len(lines) + 1))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    rows, ends = [], []
    try:
        for row in reader:
            rows.append(row)
            ends.append(reader.line_num)
    except csv.Error as error:
        start = (ends[-1] if ends else 0) + 1
        raise read_error(name, f"is not valid CSV: the record that starts on line {start} "
                               f"cannot be read ({error}). Check the quotes there.") from None
    return rows, ends


def _parse(data: bytes, name: str, delimiter: str | None, encoding: str) -> _Table:
    if delimiter is not None and (len(delimiter) != 1 or delimiter in '\r\n"'):
        raise UnknownOptionError(f"delimiter {delimiter!r} cannot separate columns: expected one "
                                 "character such as a tab, ',' or ';'")
    decoded = decode_bytes(data, name, encoding=encoding)
    text, newline_notes = normalize_newlines(decoded.text)
    delimiter = _choose_delimiter(name, text.split("\n", 1)[0], delimiter)
    rows, row_lines = _rows(text, name, delimiter)
    header = tuple(rows[0])
    seen: dict[str, int] = {}
    for index, column in enumerate(header, 1):
        if column in seen:
            raise read_error(name, f"names the column {column!r} twice in its header (columns "
                                   f"{seen[column]} and {index}); rename one and load it again.")
        seen[column] = index
    if len(rows) < 2:
        raise read_error(name, "has a header line but no rows: expected one row per segment.")
    for row, line in zip(rows[1:], row_lines[1:], strict=True):
        if len(row) != len(header) and not (len(header) == 1 and row == []):
            what = ("is empty" if row in ([], [""]) else
                    f"has {len(row)} field{'' if len(row) == 1 else 's'}")
            raise read_error(name, f"line {line} {what}, but the header has {len(header)} "
                                   f"({_NAMES.get(delimiter, repr(delimiter))}-separated: "
                                   f"{', '.join(map(repr, header))}). Every row needs one "
                                   "field per column; fix or remove that line.")
    return _Table(header, rows[1:], row_lines[1:], decoded.notes + newline_notes)


def _column_index(table: _Table, name: str, column: str | None, role: str) -> int:
    available = ", ".join(map(repr, table.header))
    if column is None:
        if len(table.header) == 1:
            return 0
        raise read_error(name, f"has {len(table.header)} columns ({available}); choose the one "
                               f"that holds the {role}.")
    if column not in table.header:
        raise read_error(name, f"has no column {column!r}; its columns are {available}. Choose "
                               f"one of them for the {role}.")
    return table.header.index(column)


def table_columns(data: bytes, name: str, *, delimiter: str | None = None,
                  encoding: str = "utf-8") -> tuple[str, ...]:
    """The header of a TSV/CSV file, so that a person can choose the columns to read."""
    return _parse(data, name, delimiter, encoding).header


def read_table(data: bytes, name: str, *, column: str | None = None,
               doc_column: str | None = None, delimiter: str | None = None,
               encoding: str = "utf-8") -> TextFile:
    """Read one column of a TSV/CSV file as segments, and optionally another as document ids.

    ``column`` may be omitted when the table has a single column.
    """
    table = _parse(data, name, delimiter, encoding)
    index = _column_index(table, name, column, "segments")
    segments = tuple(row[index] if row else "" for row in table.rows)
    doc_ids = None
    if doc_column is not None:
        doc_index = _column_index(table, name, doc_column, "document ids")
        doc_ids = tuple(row[doc_index] for row in table.rows)
    notes = table.notes + blank_segments_note(segments, table.row_lines)
    return TextFile(name=name, segments=segments, doc_ids=doc_ids, notes=notes)

"""JSON Lines: one JSON object per line; the caller names the field that holds the segments.

Nested objects are reached with dotted names (``translation.de``, as in Hugging Face WMT
exports). With no field given, the only string-valued field of the first record is used; any
other case asks the caller to choose (``jsonl_fields`` lists the candidates). Blank lines are
skipped with a note: they hold no record. JSON can write what is no character at all, a lone
surrogate (``"\\ud800"``): such an escape is read as U+FFFD, with a note, since no text with it
can be encoded (shown, hashed, saved).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..i18n import ntr
from ..number_rule import COUNT
from .decode import decode_bytes
from .lines import blank_segments_note, normalize_newlines, split_lines
from .model import TextFile, read_error


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "array", str: "string"}.get(type(value), "number")


#: a UTF-16 surrogate on its own: what a ``\\ud800`` escape gives, which is no character
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _characters(value: Any) -> tuple[Any, int]:
    """``value`` (read from JSON) with every lone surrogate in its strings and keys as U+FFFD,
    and how many there were."""
    if isinstance(value, str):
        return _LONE_SURROGATE.subn("\ufffd", value)
    if isinstance(value, list):
        found = [_characters(item) for item in value]
        return [item for item, _ in found], sum(count for _, count in found)
    if isinstance(value, dict):
        pairs = [(_characters(key), _characters(item)) for key, item in value.items()]
        return ({key: item for (key, _), (item, _) in pairs},
                sum(k + v for (_, k), (_, v) in pairs))
    return value, 0


def loads(line: str) -> tuple[Any, int]:
    """``json.loads(line)`` with lone surrogates as U+FFFD (``_characters``), and their count;
    raises what ``json.loads`` raises."""
    value = json.loads(line)
    return _characters(value) if "\\u" in line else (value, 0)  # only escapes give them


def _surrogate_note(count: int, line: int) -> tuple[str, ...]:
    if not count:
        return ()
    return (ntr("{count} lone surrogate escape (such as \\ud800, which is no character; the "
                "first on line {line}) was read as U+FFFD (�).",
                "{count} lone surrogate escapes (such as \\ud800, which are no characters; the "
                "first on line {line}) were read as U+FFFD (�).", count).format(
        count=COUNT.text(count), line=COUNT.text(line)),)


def _records(data: bytes, name: str, encoding: str) -> tuple[list[tuple[int, dict[str, Any]]],
                                                             tuple[str, ...]]:
    decoded = decode_bytes(data, name, encoding=encoding)
    text, notes = normalize_newlines(decoded.text)
    records, blank = [], 0
    surrogates, first_surrogate = 0, 0
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            blank += 1
            continue
        try:
            record, replaced = loads(line)
        except json.JSONDecodeError as error:
            raise read_error(name, f"line {number} is not valid JSON: {error.msg} (column "
                                   f"{error.colno}). Each line must hold one JSON object; fix "
                                   "that line.") from None
        except RecursionError:
            raise read_error(name, f"line {number} is nested too deeply to read; each line "
                                   "must hold one flat JSON object.") from None
        except ValueError as error:  # e.g. an integer of more than 4300 digits
            raise read_error(name, f"line {number} cannot be read: {error}.") from None
        if not isinstance(record, dict):
            raise read_error(name, f"line {number} holds a JSON {_json_type(record)}, not an "
                                   "object: expected one object per line (JSON Lines), such as "
                                   '{"text": "..."}.')
        if replaced and not surrogates:
            first_surrogate = number
        surrogates += replaced
        records.append((number, record))
    blank_note = (f"{blank:,} blank line{'s were' if blank > 1 else ' was'} skipped "
                  "(they hold no record).",) if blank else ()
    return records, (decoded.notes + notes + blank_note
                     + _surrogate_note(surrogates, first_surrogate))


def _flatten(record: dict[str, Any]) -> dict[str, Any]:
    """Nested objects as dotted names: {"a": {"b": 1}} -> {"a.b": 1}; no recursion."""
    flat: dict[str, Any] = {}
    stack: list[tuple[str, dict[str, Any]]] = [("", record)]
    while stack:
        prefix, obj = stack.pop()
        for key, value in obj.items():
            if isinstance(value, dict):
                stack.append((f"{prefix}{key}.", value))
            else:
                flat[f"{prefix}{key}"] = value
    return flat


def _lookup(record: dict[str, Any], field: str) -> tuple[bool, Any]:
    if field in record:
        return True, record[field]
    value: Any = record
    for part in field.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def jsonl_fields(data: bytes, name: str, *, encoding: str = "utf-8") -> tuple[str, ...]:
    """Every field name (dotted for nested objects) in the records, in first-seen order."""
    records, _ = _records(data, name, encoding)
    seen: dict[str, None] = {}
    for _, record in records:
        seen.update(dict.fromkeys(_flatten(record)))
    return tuple(seen)


def _default_field(name: str, record: dict[str, Any], line: int) -> str:
    texts = [key for key, value in _flatten(record).items() if isinstance(value, str)]
    if len(texts) == 1:
        return texts[0]
    found = f"text fields ({', '.join(map(repr, texts))})" if texts else "no text field"
    raise read_error(name, f"line {line} has {found}; choose the field that holds the "
                           "segments.")


def _values(name: str, records: list[tuple[int, dict[str, Any]]], field: str,
            allow_numbers: bool) -> tuple[str, ...]:
    values = []
    for line, record in records:
        found, value = _lookup(record, field)
        if not found:
            keys = ", ".join(map(repr, _flatten(record))) or "none"
            raise read_error(name, f"line {line} has no field {field!r} (its fields: {keys}). "
                                   "Every line needs it; choose another field or fix the line.")
        if allow_numbers and isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise read_error(name, f"line {line}: field {field!r} holds a JSON "
                                   f"{_json_type(value)}; expected a string.")
        values.append(value)
    return tuple(values)


def read_jsonl(data: bytes, name: str, *, field: str | None = None, doc_field: str | None = None,
               encoding: str = "utf-8") -> TextFile:
    """Read one field of each JSON Lines record as a segment, and optionally its document id."""
    records, notes = _records(data, name, encoding)
    if not records:
        raise read_error(name, "holds no JSON records: expected one JSON object per line.")
    if field is None:
        field = _default_field(name, records[0][1], records[0][0])
    segments = _values(name, records, field, allow_numbers=False)
    doc_ids = None if doc_field is None else _values(name, records, doc_field, True)
    lines = [line for line, _ in records]
    return TextFile(name=name, segments=segments, doc_ids=doc_ids,
                    notes=notes + blank_segments_note(segments, lines))

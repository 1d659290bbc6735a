"""Texts as stored: a stream of segments (or document ids) as canonical bytes, named by sha256.

The canonical form is the UTF-8 JSON array of the strings (unambiguous for any segment, newlines
included); it is stored zlib-compressed, and its sha256 is the key, so a stream is stored once
however many workspaces hold it.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Sequence

from .errors import Problem, StorageError

_LEVEL = 1


def canonical_bytes(items: Sequence[str]) -> bytes:
    """The bytes a stream is hashed by: its strings as a compact UTF-8 JSON array."""
    text = json.dumps(list(items), ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")


def text_hash(raw: bytes) -> str:
    """The content address of canonical bytes (sha256, hex)."""
    return hashlib.sha256(raw).hexdigest()


def pack(raw: bytes) -> bytes:
    """Canonical bytes as stored (zlib)."""
    return zlib.compress(raw, _LEVEL)


def unpack(data: bytes, expected_hash: str) -> tuple[str, ...]:
    """The strings of a stored text; refuses data whose hash is not its key (a damaged row)."""
    try:
        raw = zlib.decompress(bytes(data))
    except zlib.error as error:
        raise StorageError(f"Stored text {expected_hash[:12]}… is damaged ({error}).",
                           Problem.DAMAGED) from None
    if text_hash(raw) != expected_hash:
        raise StorageError(f"Stored text {expected_hash[:12]}… does not match its hash: the "
                           "database is damaged.", Problem.DAMAGED)
    return tuple(json.loads(raw.decode("utf-8", "surrogatepass")))

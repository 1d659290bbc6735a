"""What the readers return: a file as segments with its repair notes, and a WMT XML test set."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import ReadError


def segments_key(segments: Sequence[str]) -> str:
    """A hash of a stream's segments (not its name): the cache key of everything computed on it."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(str(len(segments)).encode())
    for segment in segments:
        digest.update(b"\n")
        digest.update(segment.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@dataclass(frozen=True)
class TextFile:
    """One stream of segments read from a file, with notes on every repair made while reading.

    ``doc_ids`` holds one document id per segment where the format has them, else ``None``.
    """

    name: str
    segments: tuple[str, ...]
    doc_ids: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.doc_ids is not None and len(self.doc_ids) != len(self.segments):
            raise ValueError(
                f"{self.name}: {len(self.doc_ids)} document ids for {len(self.segments)} segments"
            )

    @cached_property
    def key(self) -> str:
        """A hash of the segments (renaming the file keeps it): what caches are keyed on."""
        return segments_key(self.segments)


@dataclass(frozen=True)
class WMTDocumentSet:
    """The streams of one WMT XML file: source, references by translator, systems by name."""

    source: TextFile | None
    references: dict[str, TextFile]
    systems: dict[str, TextFile]
    source_lang: str | None = None
    target_lang: str | None = None
    notes: tuple[str, ...] = field(default=())

    def streams(self) -> dict[str, TextFile]:
        """Every stream by a sacrebleu-like key: ``src``, ``ref:A`` (``ref`` unnamed), ``hyp:X``."""
        found: dict[str, TextFile] = {} if self.source is None else {"src": self.source}
        found.update({f"ref:{t}" if t else "ref": ref for t, ref in self.references.items()})
        found.update({f"hyp:{name}": hyp for name, hyp in self.systems.items()})
        return found


def display_name(name: str) -> str:
    """The name a message starts with: the file name, or a stand-in when it is empty."""
    return name if name else "the uploaded file"


def read_error(name: str, message: str) -> ReadError:
    """A ReadError whose message starts with the file name, as every reader message does."""
    return ReadError(f"{display_name(name)} {message}")

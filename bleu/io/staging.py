"""Many files dropped at once: every stream they hold, with a role and a name guessed from file
and column names, ready for the user to correct before they are loaded together.

A plain-text file is one stream; a WMT XML file holds its source, references and systems; a
TSV/CSV or JSONL file holds one stream per column (a document-id column, by its name, gives the
other columns their documents). Roles come from WMT's file names (``*.hyp.NAME.de``,
``*.ref.A.de``, ``*.src.en``) and from words in a name or column (``ref``, ``reference``,
``gold``; ``src``, ``source``; the rest are systems). ``assemble_staged`` checks the streams
together and builds the ``Dataset`` (``bleu.io.dataset.assemble``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

from ..errors import InputError
from .dataset import Dataset, assemble, system_name
from .dispatch import detect_format, read_any
from .jsonl import jsonl_fields
from .model import TextFile
from .table import table_columns
from .wmt_xml import read_wmt_xml

ROLES = ("system", "reference", "source", "ignore")
_WMT = re.compile(r"\.(hyp|ref|src)(?:\.([^.]+))?\.[A-Za-z]{2,3}$")
_REFERENCE_WORDS = {"ref", "refs", "reference", "references", "gold", "target", "tgt"}
_SOURCE_WORDS = {"src", "source", "sources", "orig", "original", "input"}
_DOCUMENT_WORDS = {"doc", "docid", "doc_id", "document", "document_id", "documents"}
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class StagedStream:
    """One stream of a dropped file: its text, and the role and name it would be loaded with."""

    file: TextFile
    role: str
    name: str
    source_file: str
    language: str | None = None  # the target language a WMT XML file names

    @property
    def segments(self) -> int:
        return len(self.file.segments)


def _words(text: str) -> set[str]:
    """The lowercase words of a file or column name (``refA`` gives ``ref``, as ``ref-a``)."""
    lowered = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).lower()
    words = set(_WORD.findall(lowered))
    return words | {w[:-1] for w in words if len(w) > 3 and w[-1] in "abcd" and w[:-1] in
                    _REFERENCE_WORDS}


def guess_role(name: str) -> str:
    """``system``, ``reference`` or ``source`` for a file or column name."""
    wmt = _WMT.search(name)
    if wmt:
        return {"hyp": "system", "ref": "reference", "src": "source"}[wmt.group(1)]
    words = _words(PurePath(name).stem if "." in name else name)
    if words & _REFERENCE_WORDS:
        return "reference"
    if words & _SOURCE_WORDS:
        return "source"
    return "system"


def _is_document_column(column: str) -> bool:
    return column.strip().lower().replace(" ", "_") in _DOCUMENT_WORDS


def _table_streams(data: bytes, name: str, kind: str, encoding: str) -> list[StagedStream]:
    """One stream per column of a TSV/CSV/JSONL file; a document-id column is not a stream."""
    if kind == "jsonl":
        columns = jsonl_fields(data, name, encoding=encoding)
    else:
        columns = table_columns(data, name, encoding=encoding)
    documents = next((c for c in columns if _is_document_column(c)), None)
    texts = [c for c in columns if c != documents]
    out = []
    for column in texts:
        if kind == "jsonl":
            file = read_any(data, name, format=kind, field=column, doc_field=documents,
                            encoding=encoding)
        else:
            file = read_any(data, name, format=kind, column=column, doc_column=documents,
                            encoding=encoding)
        label = f"{name} [{column}]"
        role = guess_role(column)
        stream_name = column if len(texts) > 1 else system_name(name)
        out.append(StagedStream(replace(file, name=label), role, stream_name, name))
    return out


def stage_file(data: bytes, name: str, encoding: str = "utf-8") -> list[StagedStream]:
    """Every stream of one dropped file, with its guessed role and name; a file that cannot be
    read raises the reader's error (file name and line)."""
    kind = detect_format(name, data)
    if kind == "wmt-xml":
        docs = read_wmt_xml(data, name)
        streams = []
        if docs.source is not None:
            streams.append(StagedStream(docs.source, "source", "source", name, docs.target_lang))
        streams += [StagedStream(ref, "reference", ref.name, name, docs.target_lang)
                    for ref in docs.references.values()]
        streams += [StagedStream(hyp, "system", system, name, docs.target_lang)
                    for system, hyp in docs.systems.items()]
        return streams
    if kind in ("tsv", "csv", "jsonl"):
        return _table_streams(data, name, kind, encoding)
    file = read_any(data, name, format=kind, encoding=encoding)
    role = guess_role(name)
    return [StagedStream(file, role, system_name(name) if role == "system" else name, name)]


def assemble_staged(streams: Sequence[StagedStream], label: str = "Uploaded files") -> Dataset:
    """The Dataset of the staged streams as their roles and names now say (``ignore`` is left
    out); refuses what cannot be scored, naming what is missing."""
    systems = [s for s in streams if s.role == "system"]
    references = [s for s in streams if s.role == "reference"]
    sources = [s for s in streams if s.role == "source"]
    if not systems or not references:
        missing = "system output" if not systems else "reference"
        raise InputError(
            f"No {missing} among the files: give one file (or column) the role "
            f"'{missing.split()[0]}' in the table, or drop the {missing} file too.")
    if len(sources) > 1:
        listed = ", ".join(s.file.name for s in sources)
        raise InputError(f"{len(sources)} streams have the role 'source' ({listed}); a test "
                         "set has one source: set the others to 'ignore'.")
    language = next((s.language for s in streams if s.language), None)
    return assemble([s.file for s in systems], [s.file for s in references],
                    sources[0].file if sources else None, names=[s.name for s in systems],
                    label=label, language=language)

"""Files coming in, the one path from uploads to a ``Dataset``: every stream they hold, with a
role and a name, ready for the user to correct before they are loaded together.

A plain-text file is one stream; a WMT XML file holds its source, references and systems; a
TSV/CSV or JSONL file holds one stream per column (a document-id column, by its name, gives the
other columns their documents). Files dropped at once (``stage_file``) get their roles and
names from their names (``bleu.io.names``: WMT's ``*.hyp.NAME.de``, ``*.ref.A.de``, ``*.src.en``;
words such as ``ref``, ``gold``, ``source``); files given under a role (``stage_by_role``, the
sidebar's uploaders) take that role. ``assemble_staged`` checks the streams together and builds
the ``Dataset`` (``bleu.io.dataset.assemble``), saying what is missing in one wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import InputError
from ..i18n import tr
from .archive import archive_files
from .dataset import Dataset, assemble
from .decode import MAX_UPLOAD_MB, check_size
from .dispatch import detect_format, read_any
from .jsonl import jsonl_fields
from .model import TextFile
from .names import guess_role, stream_name, system_name
from .table import table_columns
from .wmt_xml import read_wmt_xml

__all__ = ["ROLES", "MissingRoleError", "RoleUpload", "StagedArchive", "StagedStream",
           "assemble_staged", "default_columns", "guess_role", "stage_archive", "stage_by_role",
           "stage_file", "table_fields"]

ROLES = ("system", "reference", "source", "ignore")
_TABLES = ("tsv", "csv", "jsonl")
#: the streams of a WMT XML file given under a role that count where no file gives them
_BUNDLED = {"system": ("reference", "source"), "reference": ("source",), "source": ()}
_DOCUMENT_WORDS = {"doc", "docid", "doc_id", "document", "document_id", "documents"}
#: words in a column name that suggest a role, for the columns chosen by default
_COLUMN_HINTS = {"system": ("hyp", "sys", "mt", "output", "translation", "pred"),
                 "reference": ("ref", "target", "tgt", "gold"), "source": ("src", "source")}


class MissingRoleError(InputError):
    """The files hold no system output, or no reference, yet: more files are needed."""


@dataclass(frozen=True)
class StagedStream:
    """One stream of a file: its text, and the role and name it would be loaded with."""

    file: TextFile
    role: str
    name: str
    source_file: str
    language: str | None = None  # the target language a WMT XML file names
    source_language: str | None = None  # and its source language

    @property
    def segments(self) -> int:
        return len(self.file.segments)


@dataclass(frozen=True)
class RoleUpload:
    """A file given under a role (``system``, ``reference`` or ``source``) and, for a table or
    JSONL file, the columns chosen (None: every text column) and the document-id column."""

    data: bytes
    name: str
    role: str
    columns: tuple[str, ...] | None = None
    doc_column: str | None = None


def _is_document_column(column: str) -> bool:
    return column.strip().lower().replace(" ", "_") in _DOCUMENT_WORDS


def table_fields(data: bytes, name: str, encoding: str = "utf-8", *,
                 limit_mb: float = MAX_UPLOAD_MB) -> list[str] | None:
    """The columns of a TSV/CSV file or the fields of a JSONL file; None for other formats."""
    check_size(data, name, limit_mb=limit_mb)
    kind = detect_format(name, data)
    if kind == "jsonl":
        return jsonl_fields(data, name, encoding=encoding)
    if kind in ("tsv", "csv"):
        return table_columns(data, name, encoding=encoding)
    return None


def default_columns(columns: Sequence[str], role: str) -> list[str]:
    """The columns a role most likely means, by their names (``hyp``, ``ref``, ``src``), else
    the first column."""
    found = [c for c in columns if any(hint in c.lower() for hint in _COLUMN_HINTS[role])]
    return found or list(columns[:1])


def _table_streams(data: bytes, name: str, kind: str, encoding: str, role: str | None = None,
                   columns: Sequence[str] | None = None,
                   doc_column: str | None = None) -> list[StagedStream]:
    """One stream per column of a TSV/CSV/JSONL file: the ``columns`` given (else every column
    but a document-id one, found by its name), each with ``role`` (else guessed from its name)."""
    if columns is None:
        every = table_fields(data, name, encoding) or []
        doc_column = next((c for c in every if _is_document_column(c)), None)
        columns = [c for c in every if c != doc_column]
    elif not columns:
        raise InputError(tr("{name}: choose at least one column to read.").format(name=name))
    out = []
    for column in columns:
        if kind == "jsonl":
            file = read_any(data, name, format=kind, field=column, doc_field=doc_column,
                            encoding=encoding)
        else:
            file = read_any(data, name, format=kind, column=column, doc_column=doc_column,
                            encoding=encoding)
        out.append(StagedStream(replace(file, name=f"{name} [{column}]"),
                                role or guess_role(column),
                                column if len(columns) > 1 else system_name(name), name))
    return out


def _xml_streams(data: bytes, name: str) -> list[StagedStream]:
    """A WMT XML file's source, references and systems, with their own roles and languages."""
    docs = read_wmt_xml(data, name)
    languages = {"language": docs.target_lang, "source_language": docs.source_lang}
    streams = []
    if docs.source is not None:
        streams.append(StagedStream(docs.source, "source", "source", name, **languages))
    streams += [StagedStream(ref, "reference", ref.name, name, **languages)
                for ref in docs.references.values()]
    streams += [StagedStream(hyp, "system", system, name, **languages)
                for system, hyp in docs.systems.items()]
    return streams


def stage_file(data: bytes, name: str, encoding: str = "utf-8", *,
               limit_mb: float = MAX_UPLOAD_MB) -> list[StagedStream]:
    """Every stream of one dropped file, with its guessed role and name; a file that cannot be
    read raises the reader's error (file name and line)."""
    check_size(data, name, limit_mb=limit_mb)
    kind = detect_format(name, data)
    if kind == "wmt-xml":
        return _xml_streams(data, name)
    if kind in _TABLES:
        return _table_streams(data, name, kind, encoding)
    file = read_any(data, name, format=kind, encoding=encoding)
    role = guess_role(name)
    return [StagedStream(file, role, system_name(name) if role == "system" else stream_name(name),
                         name)]


@dataclass(frozen=True)
class StagedArchive:
    """The streams of an archive's files, the files left out with the reason, how many files."""

    streams: tuple[StagedStream, ...]
    errors: tuple[InputError, ...]
    files: int


def stage_archive(data: bytes, name: str, encoding: str = "utf-8", *, max_files: int,
                  limit_mb: float = MAX_UPLOAD_MB) -> StagedArchive:
    """Every stream of each file in archive ``name`` (``bleu.io.archive``), as if they had been
    dropped one by one: a file that cannot be read is left out with its error, the others
    stay; an archive that cannot be read, or holds too many files, raises."""
    streams: list[StagedStream] = []
    errors: list[InputError] = []
    files = archive_files(data, name, max_files=max_files, limit_mb=limit_mb)
    for file in files:
        try:
            streams += stage_file(file.data, file.name, encoding, limit_mb=limit_mb)
        except InputError as error:
            errors.append(error)
    return StagedArchive(tuple(streams), tuple(errors), len(files))


def stage_by_role(uploads: Sequence[RoleUpload], encoding: str = "utf-8", *,
                  limit_mb: float = MAX_UPLOAD_MB) -> list[StagedStream]:
    """The streams of files given under roles. A WMT XML file gives the streams of its role;
    its references and source also count where no file was given as such (a system file that
    bundles them needs no other), else they are left out (``ignore``)."""
    streams: list[StagedStream] = []
    bundled: list[StagedStream] = []
    for upload in uploads:
        check_size(upload.data, upload.name, limit_mb=limit_mb)
        kind = detect_format(upload.name, upload.data)
        if kind == "wmt-xml":
            for stream in _xml_streams(upload.data, upload.name):
                if stream.role == upload.role:
                    streams.append(stream)
                elif stream.role in _BUNDLED[upload.role]:
                    bundled.append(stream)
        elif kind in _TABLES:
            found = _table_streams(upload.data, upload.name, kind, encoding, upload.role,
                                   upload.columns, upload.doc_column)
            streams += found[:1] if upload.role == "source" else found
        else:
            file = read_any(upload.data, upload.name, format=kind, encoding=encoding)
            name = system_name(upload.name) if upload.role == "system" \
                else stream_name(upload.name)
            streams.append(StagedStream(file, upload.role, name, upload.name))
    given = {stream.role for stream in streams}
    for role in ("reference", "source"):
        extra = [stream for stream in bundled if stream.role == role]
        used = [] if role in given else extra[: 1 if role == "source" else None]
        streams += used + [replace(stream, role="ignore") for stream in extra
                           if stream not in used]
    return streams


def assemble_staged(streams: Sequence[StagedStream], label: str | None = None) -> Dataset:
    """The Dataset of the staged streams as their roles and names now say (``ignore`` is left
    out); refuses what cannot be scored, naming what is missing (``MissingRoleError`` when a
    role has no stream yet)."""
    systems = [s for s in streams if s.role == "system"]
    references = [s for s in streams if s.role == "reference"]
    sources = [s for s in streams if s.role == "source"]
    if not systems:
        raise MissingRoleError(tr(
            "No system output among the files: add the system output file(s), or give one file "
            "(or column) the role 'system'."))
    if not references:
        raise MissingRoleError(tr(
            "No reference among the files: add the reference file(s), or give one file (or "
            "column) the role 'reference'."))
    if len(sources) > 1:
        listed = ", ".join(s.file.name for s in sources)
        raise InputError(tr("{count} streams have the role 'source' ({listed}); a test set has "
                            "one source: set the others to 'ignore'.")
                         .format(count=len(sources), listed=listed))
    language = next((s.language for s in streams if s.language), None)
    source_language = next((s.source_language for s in streams if s.source_language), None)
    return assemble([s.file for s in systems], [s.file for s in references],
                    sources[0].file if sources else None, names=[s.name for s in systems],
                    label=tr("Uploaded files") if label is None else label, language=language,
                    source_language=source_language)

"""Archives of many files: a ``.tar`` (plain, gzip, bzip2 or xz) or ``.zip`` that a user made of
a folder of system outputs, or the tar the app's browser side packs many dropped files into (one
upload instead of a thousand, see bleu_app/assets/drop_guard.js). Only regular files are read,
in archive order, bounded in count and in unpacked size, so an archive bomb is refused before
its contents are read.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from ..errors import InputError, ReadError
from ..i18n import tr
from .decode import MAX_UPLOAD_MB

__all__ = ["ArchivedFile", "TooManyFilesError", "archive_files", "is_archive"]

#: names that mark an archive, by their ends (case does not matter)
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")


class TooManyFilesError(InputError):
    """An archive holds more files than are read at once; ``count`` and ``limit`` say how many."""

    def __init__(self, message: str, count: int, limit: int) -> None:
        super().__init__(message)
        self.count = count
        self.limit = limit


@dataclass(frozen=True)
class ArchivedFile:
    """One regular file of an archive: its path inside the archive and its bytes."""

    name: str
    data: bytes


def is_archive(name: str) -> bool:
    """Whether a file's name says it is an archive this module reads."""
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def _wanted(path: str) -> bool:
    """Not a folder's metadata: macOS's ``__MACOSX/`` copies and hidden files (``.DS_Store``)."""
    parts = PurePosixPath(path).parts
    return bool(parts) and parts[0] != "__MACOSX" and not parts[-1].startswith(".")


def _read_member(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = archive.extractfile(member)
    return handle.read() if handle is not None else b""


@contextmanager
def _members(data: bytes, name: str) -> Iterator[list[tuple[str, int, Callable[[], bytes]]]]:
    """The archive's regular files (path, declared size, a reader), the archive open meanwhile."""
    zipped = name.lower().endswith(".zip")
    source = io.BytesIO(data)
    archive: Any
    with zipfile.ZipFile(source) if zipped else tarfile.open(fileobj=source, mode="r:*") as archive:
        if zipped:
            # one byte more than declared is read: a header that lies about the size shows
            yield [(info.filename, info.file_size,
                    lambda i=info: archive.open(i).read(i.file_size + 1))
                   for info in archive.infolist() if not info.is_dir() and _wanted(info.filename)]
        else:
            yield [(member.name, member.size, lambda m=member: _read_member(archive, m))
                   for member in archive.getmembers() if member.isfile() and _wanted(member.name)]


def archive_files(data: bytes, name: str, *, max_files: int,
                  limit_mb: float = MAX_UPLOAD_MB) -> list[ArchivedFile]:
    """The regular files of archive ``name``; more than ``max_files`` files raises
    ``TooManyFilesError`` and more than ``limit_mb`` MB unpacked a ``ReadError``, both before
    any file is read; an archive that cannot be read raises ``ReadError`` naming it."""
    try:
        with _members(data, name) as members:
            if len(members) > max_files:
                raise TooManyFilesError(
                    tr("{name} holds {n} files; at most {limit} are read at once.").format(
                        name=name, n=len(members), limit=max_files), len(members), max_files)
            if sum(size for _, size, _ in members) > limit_mb * 1024 * 1024:
                raise ReadError(tr("{name} unpacks to more than {limit} MB; split it, or raise "
                                   "the limit (server.maxUploadSize).").format(
                    name=name, limit=limit_mb))
            files = []
            for path, size, read in members:
                content = read()
                if len(content) != size:
                    raise ReadError(tr("{name}: the file {path} is not the size its archive "
                                       "says.").format(name=name, path=path))
                files.append(ArchivedFile(path, content))
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as error:
        raise ReadError(tr("{name}: not a readable {kind} archive (damaged, or not an "
                           "archive).").format(
            name=name, kind="zip" if name.lower().endswith(".zip") else "tar")) from error
    if not files:
        raise ReadError(tr("{name}: the archive holds no files.").format(name=name))
    return files

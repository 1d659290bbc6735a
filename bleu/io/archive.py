"""Archives of many files: a ``.tar`` (plain, gzip, bzip2 or xz) or ``.zip`` that a user made of
a folder of system outputs, or the tar the app's browser side packs many dropped files into (one
upload instead of a thousand, see bleu_app/assets/drop_guard.js).

Read lazily and bounded before anything is read: a tar member by member (its header before its
data), stopping at the member count or the unpacked-size limit, with every byte the decompressor
gives counted (headers included), so a bzip2 or xz bomb or a million empty members are refused
after the first few megabytes; a zip's central directory is walked before Python's ``zipfile``
parses it. Only regular files are kept, in archive order. An archive that cannot be read whole
(damaged, truncated, encrypted, a compression this server lacks) is refused with one message
naming what and which member: nothing of it is loaded in part.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import BinaryIO

from ..errors import InputError, ReadError
from ..i18n import tr
from ..number_rule import COUNT, MEGABYTES
from .decode import MAX_UPLOAD_MB

__all__ = ["ArchivedFile", "TooManyFilesError", "archive_files", "is_archive"]

#: names that mark an archive, by their ends (case does not matter)
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")
#: members of any kind (folders, links, macOS's ``._`` copies) read per file allowed, at most
ENTRIES_PER_FILE = 4
#: bytes a member may take besides its data: its header, a long name's or a pax header's blocks
HEADER_BYTES = 3 * tarfile.BLOCKSIZE
#: the zip compression methods Python reads
_ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate",
                zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}
#: other zip methods, named in the refusal
_ZIP_OTHER = {9: "Deflate64", 12: "bzip2", 93: "Zstandard", 95: "xz", 98: "PPMd", 99: "AES"}
#: what a damaged compressed stream raises while it is read
_STREAM_ERRORS = (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, zlib.error,
                  lzma.LZMAError, struct.error, ValueError, NotImplementedError, RuntimeError)


class TooManyFilesError(InputError):
    """An archive holds more files than are read at once. ``count`` is how many were seen before
    reading stopped (``limit`` + 1: an archive is never counted to its end) and ``limit`` the
    most read at once."""

    def __init__(self, message: str, count: int, limit: int) -> None:
        super().__init__(message)
        self.count = count
        self.limit = limit


class _TooBig(Exception):
    """The decompressed stream went past the bytes an archive within the limits can take."""


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


class _Bounded(io.RawIOBase):
    """A decompressed stream that raises ``_TooBig`` rather than go past ``limit`` bytes (by
    reading or by seeking forward), so no header, long name or skipped member can make the
    decompressor work past what an archive within the limits holds."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        super().__init__()
        self._stream = stream
        self._limit = limit

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._stream.tell()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = {io.SEEK_SET: offset, io.SEEK_CUR: self.tell() + offset}.get(whence)
        if target is None:  # from the end: tarfile never asks for it on a stream it reads
            raise OSError("seeking from the end of a decompressed stream")
        if target > self._limit:
            raise _TooBig
        return self._stream.seek(target)

    def read(self, size: int = -1) -> bytes:
        room = self._limit - self.tell()
        if size < 0 or size > room:
            size = room + 1  # one byte past the limit shows that it was reached
        data = self._stream.read(size)
        if self.tell() > self._limit:
            raise _TooBig
        return data

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _decompressed(data: bytes) -> BinaryIO:
    """The tar inside ``data``, by its first bytes: gzip, bzip2, xz, or none."""
    source = io.BytesIO(data)
    if data.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=source, mode="rb")  # type: ignore[return-value]
    if data.startswith(b"BZh"):
        return bz2.BZ2File(source)  # type: ignore[return-value]
    if data.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(source)  # type: ignore[return-value]
    return source


class _Reading:
    """The limits of one archive and what has been read of it, for the messages."""

    def __init__(self, name: str, max_files: int, limit_mb: float) -> None:
        self.name = name
        self.max_files = max_files
        self.limit_mb = limit_mb
        self.limit_bytes = int(limit_mb * 2**20)
        self.max_entries = ENTRIES_PER_FILE * max_files + 16
        self.files = 0
        self.unpacked = 0
        self.member = ""  # the member being read (for a damaged stream's message)
        self.last = ""  # the last member read whole

    def count(self, path: str, size: int) -> None:
        """One more wanted file of ``size`` bytes: refused past the count or size limit."""
        self.member = path
        self.files += 1
        if self.files > self.max_files:
            raise self.too_many()
        self.unpacked += size
        if self.unpacked > self.limit_bytes:
            raise self.too_big()

    def too_many(self) -> TooManyFilesError:
        return TooManyFilesError(
            tr("{name} holds more than {limit} files; at most {limit} are read at once. Split "
               "it, or put many systems in one TSV or CSV file with a column per system.")
            .format(name=self.name, limit=COUNT.text(self.max_files)),
            self.max_files + 1, self.max_files)

    def too_big(self) -> ReadError:
        return ReadError(tr("{name} unpacks to more than {limit} MB; split it, or raise the "
                            "limit (server.maxUploadSize).").format(
            name=self.name, limit=MEGABYTES.text(self.limit_mb)))

    def done(self, path: str) -> None:
        """``path`` was read whole."""
        self.member, self.last = "", path

    def damaged(self, kind: str) -> ReadError:
        """The archive broke while ``member`` was read, after ``last``, or before any member."""
        if self.member:
            return ReadError(tr("{name}: the {kind} archive is damaged or cut short at "
                                "{member}; nothing was loaded from it. Pack the files again "
                                "and upload the new archive.").format(
                name=self.name, kind=kind, member=self.member))
        if self.last:
            return ReadError(tr("{name}: the {kind} archive is damaged or cut short after "
                                "{member}; nothing was loaded from it. Pack the files again "
                                "and upload the new archive.").format(
                name=self.name, kind=kind, member=self.last))
        return ReadError(tr("{name}: not a readable {kind} archive (damaged, or not an "
                            "archive); nothing was loaded from it. Pack the files again and "
                            "upload the new archive.").format(name=self.name, kind=kind))


def _tar_files(data: bytes, reading: _Reading) -> Iterator[ArchivedFile]:
    """A tar's regular files, member by member, every limit checked before a member is read."""
    bound = reading.limit_bytes + (reading.max_entries + 2) * HEADER_BYTES
    stream = _Bounded(_decompressed(data), bound)
    with tarfile.open(fileobj=stream, mode="r:") as archive:  # type: ignore[call-overload]
        entries = 0
        last = ""
        while (member := archive.next()) is not None:
            entries += 1
            if entries > reading.max_entries:
                raise reading.too_many()
            archive.members.clear()  # nothing is kept but what is yielded
            last = member.name
            if not (member.isfile() and _wanted(member.name)):
                continue
            reading.count(member.name, member.size)
            handle = archive.extractfile(member)
            content = handle.read() if handle is not None else b""
            if len(content) != member.size:
                raise reading.damaged("tar")
            reading.done(member.name)
            yield ArchivedFile(member.name, content)
        _check_end(stream, archive.offset, reading, last)


def _check_end(stream: _Bounded, offset: int, reading: _Reading, last: str) -> None:
    """Where tarfile stopped, the archive must end (zero blocks, or no more data): a damaged
    header in the middle otherwise ends it there without a word, and the members after it
    would be silently missing."""
    stream.seek(offset)
    block = stream.read(tarfile.BLOCKSIZE)
    if block.strip(b"\0"):
        raise ReadError(tr("{name}: the tar archive is damaged after {member}: the header of "
                           "the next member is broken, so the files after it cannot be read; "
                           "nothing was loaded from it. Pack the files again and upload the "
                           "new archive.").format(name=reading.name,
                                                  member=last or tr("its start")))


def _central_directory(data: bytes) -> tuple[int, int] | None:
    """Where a zip's central directory starts and how many bytes it takes, from its end record
    (zip64's where it has one); None where there is no end record (zipfile then refuses it)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or end + 22 > len(data):
        return None
    size, offset = struct.unpack_from("<II", data, end + 12)
    if offset == 0xFFFFFFFF:  # zip64: the central directory's place is in its own record
        locator = data.rfind(b"PK\x06\x07", 0, end)
        if locator < 0 or locator + 20 > len(data):
            return None
        (record,) = struct.unpack_from("<Q", data, locator + 8)
        if record + 56 > len(data):
            return None
        size, offset = struct.unpack_from("<QQ", data, record + 40)
    return offset, size


def _count_zip_entries(data: bytes, most: int) -> int:
    """The central directory's entries, walked header by header (its end record's count may
    lie), up to ``most`` + 1: a count past ``most`` is all the caller needs to refuse, and
    zipfile would build an object per entry of a million."""
    found = _central_directory(data)
    if found is None:
        return 0
    offset, size = found
    position, stop, count = offset, min(offset + size, len(data)), 0
    while position + 46 <= stop and data[position:position + 4] == b"PK\x01\x02":
        count += 1
        if count > most:
            break
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", data,
                                                                       position + 28)
        position += 46 + name_length + extra_length + comment_length
    return count


def _zip_files(data: bytes, reading: _Reading) -> Iterator[ArchivedFile]:
    """A zip's regular files, each refused by its header (encrypted, an unknown method, too
    many, too big) before its data is read; a header that lies about the size shows, since one
    byte more than declared is read."""
    if _count_zip_entries(data, reading.max_entries) > reading.max_entries:
        raise reading.too_many()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = [info for info in archive.infolist()
                 if not info.is_dir() and _wanted(info.filename)]
        for info in infos:
            reading.member = info.filename
            if info.flag_bits & 0x1:
                raise ReadError(tr("{name}: {member} is encrypted (password-protected), so "
                                   "nothing was loaded from the archive. Unpack it with its "
                                   "password and upload the files, or an archive without a "
                                   "password.").format(name=reading.name, member=info.filename))
            if info.compress_type not in _ZIP_METHODS:
                method = _ZIP_OTHER.get(info.compress_type,
                                        tr("method {number}").format(number=info.compress_type))
                raise ReadError(tr("{name}: {member} is compressed with {method}, which this "
                                   "server does not read, so nothing was loaded from the "
                                   "archive. Pack the files again with ordinary zip "
                                   "compression (deflate).").format(
                    name=reading.name, member=info.filename, method=method))
        for info in infos:
            reading.count(info.filename, info.file_size)
        reading.member = ""
        for info in infos:
            reading.member = info.filename
            with archive.open(info) as handle:
                content = handle.read(info.file_size + 1)
            if len(content) != info.file_size:
                raise ReadError(tr("{name}: the file {path} is not the size its archive says; "
                                   "nothing was loaded from the archive. Pack the files again "
                                   "and upload the new archive.").format(
                    name=reading.name, path=info.filename))
            reading.done(info.filename)
            yield ArchivedFile(info.filename, content)


def archive_files(data: bytes, name: str, *, max_files: int,
                  limit_mb: float = MAX_UPLOAD_MB) -> list[ArchivedFile]:
    """The regular files of archive ``name``, all of them or none: more than ``max_files``
    files raises ``TooManyFilesError``, more than ``limit_mb`` MB unpacked a ``ReadError``,
    both before the file past the limit is read (and after at most ``limit_mb`` MB were
    decompressed); an archive that cannot be read whole raises ``ReadError`` naming it, and
    the member where it broke."""
    zipped = name.lower().endswith(".zip")
    kind = "zip" if zipped else "tar"
    reading = _Reading(name, max_files, limit_mb)
    try:
        files = list(_zip_files(data, reading) if zipped else _tar_files(data, reading))
    except _TooBig:
        raise reading.too_big() from None
    except InputError:
        raise
    except _STREAM_ERRORS as error:
        raise reading.damaged(kind) from error
    if not files:
        raise ReadError(tr("{name}: the archive holds no files.").format(name=name))
    return files

"""Bytes to text: size limit, binary sniffing, byte-order marks, strict decoding with a location.

Policy: UTF-8 (strict) unless the caller chooses another encoding (the app offers Latin-1 only
when the user asks). A byte-order mark always wins, since it names the encoding unambiguously.
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import dataclass

from ..errors import UnknownOptionError
from ..i18n import N_, ntr, tr
from ..number_rule import COUNT, MEGABYTES
from .model import read_error

#: The upload limit in MB (1 MB = 2**20 bytes), the same as server.maxUploadSize in
#: .streamlit/config.toml; the app calls ``check_size`` before reading.
MAX_UPLOAD_MB = 200

_ARCHIVE = "extract the text file from it and upload that"
_DOCUMENT = "save or export it as plain text (UTF-8, one segment per line) and upload that"
_NOT_TEXT = N_("upload the plain-text file (one segment per line) instead")

#: (regular expression on the first bytes, what the file is, what to do)
_SIGNATURES: tuple[tuple[re.Pattern[bytes], str, str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), what, todo)
    for pattern, what, todo in (
        (rb"\x89PNG\r\n\x1a\n", "PNG image", _NOT_TEXT),
        (rb"\xff\xd8\xff", "JPEG image", _NOT_TEXT),
        (rb"GIF8[79]a", "GIF image", _NOT_TEXT),
        (rb"PK(\x03\x04|\x05\x06|\x07\x08)",
         "zip archive, or an Office document such as .docx or .xlsx", _ARCHIVE),
        (rb"\x1f\x8b", "gzip-compressed file", "decompress it and upload the text file"),
        (rb"BZh[1-9]1AY&SY", "bzip2-compressed file", "decompress it and upload the text file"),
        (rb"\xfd7zXZ\x00", "xz-compressed file", "decompress it and upload the text file"),
        (rb"\x28\xb5\x2f\xfd", "zstd-compressed file", "decompress it and upload the text file"),
        (rb"7z\xbc\xaf\x27\x1c", "7-Zip archive", _ARCHIVE),
        (rb"%PDF-", "PDF document", _DOCUMENT),
        (rb"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old Microsoft Office document", _DOCUMENT),
        (rb"SQLite format 3\x00", "SQLite database", _NOT_TEXT),
        (rb"\x7fELF", "program (ELF executable)", _NOT_TEXT),
        (rb"PAR1", "Parquet file", _DOCUMENT),
    )
)

#: (byte-order mark, codec, description); UTF-32 first, since its LE mark starts like UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 (little-endian)"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 (big-endian)"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 (little-endian)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 (big-endian)"),
)


@dataclass(frozen=True)
class Decoded:
    """A file's text and the notes on how it was decoded."""

    text: str
    notes: tuple[str, ...]


def _format_mb(n_bytes: int) -> str:
    """Megabytes rounded up to one decimal, so a file just over the limit never reads as equal."""
    return MEGABYTES.text(math.ceil(n_bytes / 2**20 * 10) / 10)


def check_size(data: bytes, name: str, *, limit_mb: float = MAX_UPLOAD_MB) -> None:
    """Refuse a file over the upload limit before any work is spent on it."""
    if len(data) > limit_mb * 2**20:
        raise read_error(name, tr("is {size} MB; the limit is {limit} MB. Split the file, or "
                                  "load fewer segments.").format(
            size=_format_mb(len(data)), limit=MEGABYTES.text(limit_mb)))


def sniff_binary(data: bytes, name: str) -> None:
    """Refuse images, archives, documents and other binary files by their magic numbers."""
    head = data[:32]
    for pattern, what, todo in _SIGNATURES:
        if pattern.match(head) and (what != "Parquet file" or data.endswith(b"PAR1")):
            raise read_error(name, f"looks like a binary file ({what}), not text: {todo}.")


def _line_of(data: bytes, offset: int, start: int, codec: str) -> int:
    """The 1-based line holding byte ``offset``, for a payload decodable up to there."""
    if codec.startswith(("utf-16", "utf-32")):
        return data[start:offset].decode(codec, errors="replace").count("\n") + 1
    return data.count(b"\n", start, offset) + 1


def _mostly_nul(count: int, length: int) -> bool:
    """Whether NUL makes up half of a file or more: binary data, not line-based text (a stray
    NUL inside a line is text, as sacrebleu reads it)."""
    return count * 2 >= length


def _refuse_nul_bytes(data: bytes, name: str) -> None:
    """NUL bytes: UTF-16 without a byte-order mark (NULs on one parity) or a file mostly of
    NUL (binary) are refused; a few NULs inside lines are text (``_nul_note``)."""
    n_nul = data.count(0)
    if not n_nul:
        return
    even, odd = data[0::2].count(0), data[1::2].count(0)
    if n_nul >= 2 and n_nul * 5 >= len(data) and max(even, odd) >= 0.9 * n_nul:
        order = "little-endian" if odd > even else "big-endian"
        raise read_error(name, f"looks like UTF-16 text ({order}) without a byte-order mark: "
                               f"{n_nul} of its {len(data)} bytes are NUL. Save it as UTF-8 "
                               "(or as UTF-16 with a byte-order mark) and load it again.")
    if _mostly_nul(n_nul, len(data)):
        raise read_error(name, tr("is mostly NUL bytes ({count} of its {size}), so it looks "
                                  "like a binary file, not text: {todo}.").format(
            count=COUNT.text(n_nul), size=COUNT.text(len(data)), todo=tr(_NOT_TEXT)))


def _nul_note(text: str) -> tuple[str, ...]:
    """A note on NUL characters kept inside lines (none where there are none)."""
    count = text.count("\x00")
    if not count:
        return ()
    line = text.count("\n", 0, text.index("\x00")) + 1
    return (ntr("{count} NUL character inside a line (line {line}) was kept as text, as "
                "sacrebleu reads it.",
                "{count} NUL characters inside lines (the first on line {line}) were kept as "
                "text, as sacrebleu reads them.", count).format(count=COUNT.text(count),
                                                                line=COUNT.text(line)),)


def codec_name(encoding: str) -> str:
    """The canonical name of a text encoding; UnknownOptionError for names Python lacks."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise UnknownOptionError(
            f"unknown text encoding {encoding!r}; expected one Python knows, e.g. 'utf-8' or "
            "'latin-1'")
    return info.name


def _describe(codec: str) -> str:
    labels = {bom_codec: label for _, bom_codec, label in _BOMS}
    labels["iso8859-1"] = "Latin-1 (ISO-8859-1)"
    return labels.get(codec, codec)


def decode_bytes(data: bytes, name: str, *, encoding: str = "utf-8") -> Decoded:
    """Decode a file strictly, refusing binary data and naming the line and byte of a bad byte."""
    codec = codec_name(encoding)
    if not data:
        raise read_error(name, "is empty (0 bytes): expected text with one segment per line.")
    sniff_binary(data, name)
    notes: list[str] = []
    start = 0
    for bom, bom_codec, label in _BOMS:
        if data.startswith(bom):
            codec, start = bom_codec, len(bom)
            notes.append("A UTF-8 byte-order mark (BOM) at the start was removed."
                         if bom_codec == "utf-8" else
                         f"The file is {label} with a byte-order mark; it was decoded as such.")
            break
    else:
        _refuse_nul_bytes(data, name)
        if codec != "utf-8":
            notes.append(f"The file was decoded as {_describe(codec)}, as chosen: check that "
                         "accented letters look right.")
    payload = data[start:]
    try:
        text = payload.decode(codec)
    except UnicodeDecodeError as error:
        if error.object != payload:  # raised on a piece of it (the idna codec does that)
            raise read_error(name, f"cannot be decoded as {_describe(codec)}: {error}. Save it "
                                   "as UTF-8 and load it again.") from None
        offset = start + error.start
        bad = data[offset:offset + 1].hex().upper()
        line = _line_of(data, offset, start, codec)
        hint = ("Save it as UTF-8, or, if it is Latin-1 (ISO-8859-1), choose the Latin-1 "
                "encoding and load it again." if codec == "utf-8" else "Save it as UTF-8.")
        raise read_error(name, f"is not valid {_describe(codec)}: line {line}, byte offset "
                               f"{offset} from the start of the file (byte 0x{bad}): "
                               f"{error.reason}. {hint}") from None
    except (UnicodeError, ValueError) as error:  # codecs such as idna fail without a position
        raise read_error(name, f"cannot be decoded as {_describe(codec)}: {error}. Save it as "
                               "UTF-8 and load it again.") from None
    if "\x00" in text and _mostly_nul(text.count("\x00"), len(text)):
        line = text[:text.index("\x00")].count("\n") + 1
        raise read_error(name, tr("is mostly NUL characters (the first on line {line}), so it "
                                  "looks like a binary file, not text: {todo}.").format(
            line=COUNT.text(line), todo=tr(_NOT_TEXT)))
    if not text.strip():
        raise read_error(name, f"holds no text, only {len(data)} bytes of whitespace (or a "
                               "byte-order mark): expected one segment per line.")
    return Decoded(text, (*notes, *_nul_note(text)))

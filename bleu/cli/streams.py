"""Files and stdin read line by line in bounded memory, input that is not line-based text refused
as soon as it shows.

Raw bytes come in blocks of ``BLOCK_BYTES``, go through one incremental decoder and are split
into lines by one ``str.split`` per block (C speed: no Python step per line, as fast as
``TextIOWrapper.readlines``). Only a block and one unfinished line are ever held, so input that
is mostly NUL (binary, or UTF-16 read as UTF-8), or a line longer than the line limit
(``MAX_LINE_CHARS``; ``--line-limit``), stops the reading at once with an error naming the
stream and the line: 5 GB of NUL bytes are refused after the first block, not after reading
them all. A stray NUL inside a line is text, as sacrebleu reads it. ``max_lines`` stops the
reading as soon as a stream holds more lines than the caller can use (a system output longer
than its references), in ``TooManyLinesError``.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import BinaryIO

from ..errors import ReadError
from ..i18n import tr

#: the default line limit in characters: far above any segment (a WMT document is a few
#: thousand), far below what would exhaust memory
MAX_LINE_CHARS = 1_000_000
#: bytes read at a time; below the default limit, so that only a block that continues a long
#: line needs its lines' lengths checked
BLOCK_BYTES = 1 << 19
#: zero-width splits after each line break, to find the line of a decoding error
_AFTER_BREAK = re.compile(rb"(?<=[\r\n])")


def _universal(text: str) -> str:
    """Any line ending (``\\r\\n``, ``\\r``, ``\\n``) as ``\\n``, as Python's universal newlines."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _breaks(text: str, universal: bool) -> int:
    """The line breaks in ``text``."""
    return (_universal(text) if universal else text).count("\n")


def _decoded_before_error(decoder: codecs.IncrementalDecoder, state: tuple[bytes, int],
                          raw: bytes, final: bool) -> str:
    """The text a failing block decodes to before its error: the block fed again, from the
    decoder's state before it, a line at a time (only run on the error path)."""
    decoder.setstate(state)
    pieces: list[str] = []
    try:
        for piece in _AFTER_BREAK.split(raw):
            pieces.append(decoder.decode(piece))
        decoder.decode(b"", final=final)
    except UnicodeError:
        pass
    return "".join(pieces)


def _undecodable(name: str, line: int, encoding: str, error: UnicodeError) -> ReadError:
    reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
    return ReadError(tr("{name}, line {line}: not valid {encoding} text ({reason}); convert it "
                        "or give its encoding with -e.").format(
        name=name, line=line, encoding=encoding, reason=reason))


def _binary(name: str, line: int, what: str) -> ReadError:
    return ReadError(tr("{name}, line {line}: {what}, so this is binary data or text that is "
                        "not line-based; expected text with one segment per line.").format(
        name=name, line=line, what=what))


def _nul(name: str, line: int, encoding: str) -> ReadError:
    wide = any(size in encoding for size in ("16", "32"))  # UTF-16 or UTF-32 already
    what = tr("mostly NUL characters") if wide else \
        tr("mostly NUL bytes (UTF-16 text needs -e utf-16)")
    return _binary(name, line, what)


class TooManyLinesError(ReadError):
    """A stream holds more lines than ``max_lines``: reading stopped at line ``max_lines + 1``."""

    def __init__(self, name: str, max_lines: int) -> None:
        super().__init__(tr("{name} has more than {count} lines").format(
            name=name, count=f"{max_lines:,}"))
        self.name = name
        self.max_lines = max_lines


def _too_long(name: str, line: int, limit: int) -> ReadError:
    what = tr("longer than {limit} characters, the line limit (--line-limit)").format(
        limit=f"{limit:,}")
    return _binary(name, line, what)


def iter_line_blocks(binary: BinaryIO, name: str, encoding: str, *, universal: bool = False,
                     limit: int = MAX_LINE_CHARS,
                     max_lines: int | None = None) -> Iterator[list[str]]:
    """The lines of ``binary``, a block's worth at a time, without their line breaks.

    Lines end at ``\\n`` only (as sacrebleu reads files; a ``\\r`` stays), or with ``universal``
    at any of ``\\r\\n``, ``\\r``, ``\\n`` (as it reads stdin). A final line break starts no
    further line. Raises ``ReadError`` naming ``name`` and the line for text that does not
    decode, input mostly of NUL characters so far, or a line over ``limit`` characters;
    ``TooManyLinesError`` once more than ``max_lines`` lines are read; ``LookupError`` for an
    unknown encoding.
    """
    decoder = codecs.getincrementaldecoder(encoding)()
    done = 0  # lines given out so far
    tail = ""  # the unfinished line
    read, nul = 0, 0  # characters read so far, and NUL characters among them
    while True:
        raw = binary.read(BLOCK_BYTES)
        final = not raw
        state = decoder.getstate()
        try:
            text = tail + decoder.decode(raw, final=final)
        except UnicodeError as error:  # a decoding error, or UTF-16 without its byte order mark
            before = tail + _decoded_before_error(decoder, state, raw, final)
            raise _undecodable(name, done + _breaks(before, universal) + 1, encoding,
                               error) from None
        read += len(text) - len(tail)
        if "\0" in text:
            nul += text.count("\0", len(tail))
            if nul * 2 >= read:  # half NUL or more so far: binary, or UTF-16 without -e
                line = done + _breaks(text[:text.index("\0")], universal) + 1
                raise _nul(name, line, encoding)
        carry = ""
        if universal:
            if not final and text.endswith("\r"):  # a \r\n may be split between two blocks
                text, carry = text[:-1], "\r"
            text = _universal(text)
        lines = text.split("\n")
        tail = lines.pop() + carry
        if len(text) > limit:
            if lines and max(map(len, lines)) > limit:
                first = next(k for k, line in enumerate(lines) if len(line) > limit)
                raise _too_long(name, done + first + 1, limit)
            if len(tail) > limit:
                raise _too_long(name, done + len(lines) + 1, limit)
        if lines:
            if max_lines is not None and done + len(lines) > max_lines:
                raise TooManyLinesError(name, max_lines)
            done += len(lines)
            yield lines
        if final:
            if tail:
                if max_lines is not None and done + 1 > max_lines:
                    raise TooManyLinesError(name, max_lines)
                yield [tail]
            return

"""The command line's inputs: files and stdin read as sacrebleu reads them, checked together.

Errors name the file and line; a flag combination that cannot work is a ``CommandLineError``.
"""

from __future__ import annotations

import argparse
import codecs
import io
import logging
import re
from collections.abc import Iterator, Sequence
from typing import BinaryIO, TextIO

from ..errors import InputError, LengthMismatchError, ReadError

logger = logging.getLogger("bleu.cli")


class CommandLineError(InputError):
    """The flags given cannot work together, or ask for something BLEU Explorer does not do."""


#: bytes of text read at a time: lines are then stripped in C, not one Python step each
_BLOCK_BYTES = 1 << 20


def _open_binary(path: str) -> BinaryIO:
    """The file's raw bytes, .gz decompressed."""
    if path.endswith(".gz"):
        import gzip  # loaded here: with bz2 and lzma it costs a plain-text run 2 ms

        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def _open_text(path: str, encoding: str) -> TextIO:
    """A file opened as sacrebleu opens it: text, lines split on '\\n' only, .gz decompressed."""
    return io.TextIOWrapper(_open_binary(path), encoding=encoding, newline="\n")


def undecodable_line(path: str, encoding: str) -> int:
    """The number of the first line that does not decode (text is decoded in blocks, so the
    block's error does not say which line). Lines of raw bytes go through one incremental
    decoder and decoded newlines are counted: exact for encodings where a newline is the byte
    0x0A (UTF-8, Latin-1, ...), the line where the failing bytes start for others."""
    decoder = codecs.getincrementaldecoder(encoding)()
    lines = 0
    with _open_binary(path) as handle:
        try:
            for raw in handle:
                lines += decoder.decode(raw).count("\n")
            decoder.decode(b"", final=True)
        except UnicodeError:  # a decoding error, or UTF-16 text without its byte order mark
            pass
    return lines + 1


def iter_segments(path: str, encoding: str = "utf-8") -> Iterator[str]:
    """The segments of a file, one per line, as sacrebleu reads them, one at a time.

    Lines are split on '\\n' only and lose their trailing whitespace (so a '\\r' of CRLF goes);
    a final newline does not start another segment. Read in blocks of lines, each block's
    lines stripped by ``map`` (a third of the time of a Python loop over lines).
    """
    try:
        with _open_text(path, encoding) as handle:
            while block := handle.readlines(_BLOCK_BYTES):
                yield from map(str.rstrip, block)
    except FileNotFoundError:
        raise ReadError(f"{path}: no such file.") from None
    except UnicodeError as error:  # UnicodeDecodeError, or UTF-16 without a byte order mark
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        raise ReadError(
            f"{path}, line {undecodable_line(path, encoding)}: not valid {encoding} text "
            f"({reason}); convert the file or give its encoding with -e."
        ) from None
    except LookupError:
        raise CommandLineError(f"Unknown encoding {encoding!r} given with -e.") from None
    except OSError as error:
        raise ReadError(f"{path}: cannot be read ({error.strerror}).") from None


def read_segments(path: str, encoding: str = "utf-8") -> list[str]:
    """All segments of a file (see ``iter_segments``)."""
    return list(iter_segments(path, encoding))


def read_stdin_systems(stream: TextIO, encoding: str) -> list[list[str]]:
    """Systems from stdin, as sacrebleu reads them: one column per system, tab-separated.

    Any line ending (\\n, \\r\\n, \\r) ends a line; every line needs the first line's number of
    fields.
    """
    raw = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
    try:
        text = raw.decode(encoding) if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as error:
        raise ReadError(f"stdin: not valid {encoding} text ({error.reason} at byte "
                        f"{error.start}).") from None
    lines = re.split(r"\r\n|\r|\n", text)
    if lines[-1] == "":
        lines.pop()
    if not lines:
        raise ReadError("stdin: no input; give the system output on stdin or with -i.")
    n_fields = len(lines[0].rstrip().split("\t"))
    columns: list[list[str]] = [[] for _ in range(n_fields)]
    for number, line in enumerate(lines, start=1):
        fields = line.rstrip().split("\t")
        if len(fields) != n_fields:
            raise ReadError(
                f"stdin, line {number}: expected {n_fields} tab-separated system outputs "
                f"(as on line 1), found {len(fields)}."
            )
        for column, field in zip(columns, fields, strict=True):
            column.append(field.rstrip())
    return columns


def read_references(paths: Sequence[str], num_refs: int, encoding: str,
                    ) -> tuple[list[list[str]], list[str]]:
    """The reference streams and a name for each (for messages); ``-nr`` splits one file on tabs."""
    if not paths:
        raise CommandLineError("No reference files given: give them before -i, e.g. "
                               "`bleu-explorer ref.txt -i hyp.txt` (test sets (-t) are not "
                               "downloaded).")
    if num_refs < 1:
        raise CommandLineError(f"--num-refs must be at least 1, got {num_refs}.")
    if num_refs == 1:
        return [read_segments(path, encoding) for path in paths], list(paths)
    if len(paths) > 1:
        raise CommandLineError("--num-refs splits a single reference file on tabs; "
                               f"{len(paths)} reference files were given.")
    streams: list[list[str]] = [[] for _ in range(num_refs)]
    for number, line in enumerate(read_segments(paths[0], encoding), start=1):
        fields = line.split("\t", num_refs - 1)
        if len(fields) != num_refs:
            raise ReadError(f"{paths[0]}, line {number}: expected {num_refs} tab-separated "
                            f"references (--num-refs), found {len(fields)}.")
        for stream, field in zip(streams, fields, strict=True):
            stream.append(field)
    return streams, [f"{paths[0]} (reference {k + 1})" for k in range(num_refs)]


def read_systems(args: argparse.Namespace, stdin: TextIO) -> list[tuple[str, list[str]]]:
    """The systems to score, named as sacrebleu names them (file name, or ``System k``)."""
    if args.input is None:
        columns = read_stdin_systems(stdin, args.encoding)
        return [(f"System {k + 1}", column) for k, column in enumerate(columns)]
    if not args.input:
        raise CommandLineError("-i/--input needs at least one file.")
    systems: list[tuple[str, list[str]]] = []
    for path in args.input:
        if any(path == name for name, _ in systems):
            if paired_test_asked(args) and path == systems[0][0]:
                logger.info("Ignoring %r as it was also given as the baseline.", path)
                continue
            raise CommandLineError(f"{path!r} is given twice with -i; give each system once.")
        systems.append((path, read_segments(path, args.encoding)))
    return systems


def check_lengths(systems: Sequence[tuple[str, Sequence[str]]],
                  references: Sequence[Sequence[str]], ref_names: Sequence[str]) -> None:
    """Every system and every reference stream has one line per segment (named in the error)."""
    for name, hypotheses in systems:
        label = "stdin" if name.startswith("System ") else name
        if not hypotheses:
            raise ReadError(f"{label}: the system output is empty.")
        for ref_name, stream in zip(ref_names, references, strict=True):
            if len(stream) != len(hypotheses):
                raise LengthMismatchError(
                    f"{ref_name} has {len(stream)} lines, but {label} has {len(hypotheses)}; "
                    "each reference needs one line per line of system output."
                )


def paired_test_asked(args: argparse.Namespace) -> bool:
    """Whether a paired test (--paired-bs or --paired-ar) was asked for."""
    return bool(args.paired_bs or args.paired_ar)

"""The command line's inputs: files and stdin read as sacrebleu reads them, checked together.

Errors name the file (or stdin) and line; a flag combination that cannot work is a
``CommandLineError``. Everything is read as a stream (``streams``): binary input and lines over
the line limit are refused as soon as they show.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator, Sequence
from typing import BinaryIO, TextIO

from ..errors import InputError, LengthMismatchError, ReadError
from ..i18n import tr
from .streams import MAX_LINE_CHARS, iter_line_blocks

logger = logging.getLogger("bleu.cli")


class CommandLineError(InputError):
    """The flags given cannot work together, or ask for something BLEU Explorer does not do."""


def _open_binary(path: str) -> BinaryIO:
    """The file's raw bytes, .gz decompressed."""
    if path.endswith(".gz"):
        import gzip  # loaded here: with bz2 and lzma it costs a plain-text run 2 ms

        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def iter_segments(path: str, encoding: str = "utf-8", limit: int = MAX_LINE_CHARS,
                  ) -> Iterator[str]:
    """The segments of a file, one per line, as sacrebleu reads them, one at a time.

    Lines are split on '\\n' only and lose their trailing whitespace (so a '\\r' of CRLF goes);
    a final newline does not start another segment. Read in blocks (``streams``), each block's
    lines stripped by ``map`` (a third of the time of a Python loop over lines); binary data and
    lines over ``limit`` characters are refused as soon as they are read.
    """
    try:
        with _open_binary(path) as handle:
            for block in iter_line_blocks(handle, path, encoding, limit=limit):
                yield from map(str.rstrip, block)
    except FileNotFoundError:
        raise ReadError(tr("{path}: no such file.").format(path=path)) from None
    except LookupError:
        raise CommandLineError(tr("Unknown encoding {encoding!r} given with -e.").format(
            encoding=encoding)) from None
    except OSError as error:
        raise ReadError(tr("{path}: cannot be read ({reason}).").format(
            path=path, reason=error.strerror or error)) from None


def read_segments(path: str, encoding: str = "utf-8", limit: int = MAX_LINE_CHARS) -> list[str]:
    """All segments of a file (see ``iter_segments``)."""
    return list(iter_segments(path, encoding, limit))


def check_stdin(stdin: TextIO | None) -> None:
    """Refuse, with what to do instead, a stdin that cannot give the system output: closed (no
    file descriptor 0) or a terminal with nothing piped in."""
    example = tr("pipe the system output in (bleu-explorer ref.txt < hyp.txt) or give it with -i "
                 "(bleu-explorer ref.txt -i hyp.txt)")
    if stdin is None or stdin.closed:  # None: the process started without file descriptor 0
        raise ReadError(tr("stdin is closed, and no -i was given: {example}.").format(
            example=example))
    if stdin.isatty():
        raise ReadError(tr("stdin is a terminal, and no -i was given: {example}.").format(
            example=example))


def read_stdin_systems(stream: TextIO, encoding: str, limit: int = MAX_LINE_CHARS,
                       ) -> list[list[str]]:
    """Systems from stdin, as sacrebleu reads them: one column per system, tab-separated.

    Any line ending (\\n, \\r\\n, \\r) ends a line; every line needs the first line's number of
    fields. Lines lose their trailing whitespace, and so do the fields of every line but the
    first (as in sacrebleu). Read in blocks (``streams``): binary data is refused at once.
    """
    check_stdin(stream)
    columns: list[list[str]] = []
    n_fields = 0
    read = 0  # lines read before the block
    try:
        for block in iter_line_blocks(stream.buffer, "stdin", encoding, universal=True,
                                      limit=limit):
            if not columns:
                first = block[0].rstrip().split("\t")
                n_fields, read = len(first), 1
                columns = [[field] for field in first]
                block = block[1:]
            for number, line in enumerate(block, start=read + 1):
                fields = line.rstrip().split("\t")
                if len(fields) != n_fields:
                    raise ReadError(tr(
                        "stdin, line {number}: expected {expected} tab-separated system outputs "
                        "(as on line 1), found {found}.").format(
                        number=number, expected=n_fields, found=len(fields)))
                for column, field in zip(columns, fields, strict=True):
                    column.append(field.rstrip())
            read += len(block)
    except LookupError:
        raise CommandLineError(tr("Unknown encoding {encoding!r} given with -e.").format(
            encoding=encoding)) from None
    except OSError as error:
        raise ReadError(tr("stdin: cannot be read ({reason}).").format(
            reason=error.strerror or error)) from None
    if not columns:
        raise ReadError(tr("stdin: no input; give the system output on stdin or with -i."))
    return columns


def read_references(paths: Sequence[str], num_refs: int, encoding: str,
                    limit: int = MAX_LINE_CHARS) -> tuple[list[list[str]], list[str]]:
    """The reference streams and a name for each (for messages); ``-nr`` splits one file on tabs."""
    if not paths:
        raise CommandLineError("No reference files given: give them before -i, e.g. "
                               "`bleu-explorer ref.txt -i hyp.txt` (test sets (-t) are not "
                               "downloaded).")
    if num_refs < 1:
        raise CommandLineError(f"--num-refs must be at least 1, got {num_refs}.")
    if num_refs == 1:
        return [read_segments(path, encoding, limit) for path in paths], list(paths)
    if len(paths) > 1:
        raise CommandLineError("--num-refs splits a single reference file on tabs; "
                               f"{len(paths)} reference files were given.")
    streams: list[list[str]] = [[] for _ in range(num_refs)]
    for number, line in enumerate(iter_segments(paths[0], encoding, limit), start=1):
        fields = line.split("\t", num_refs - 1)
        if len(fields) != num_refs:
            raise ReadError(f"{paths[0]}, line {number}: expected {num_refs} tab-separated "
                            f"references (--num-refs), found {len(fields)}.")
        for stream, field in zip(streams, fields, strict=True):
            stream.append(field)
    return streams, [f"{paths[0]} (reference {k + 1})" for k in range(num_refs)]


def read_systems(args: argparse.Namespace, stdin: TextIO | None,
                 ) -> list[tuple[str, list[str]]]:
    """The systems to score, named as sacrebleu names them (file name, or ``System k``)."""
    if args.input is None:
        columns = read_stdin_systems(stdin, args.encoding, args.line_limit)
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
        systems.append((path, read_segments(path, args.encoding, args.line_limit)))
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

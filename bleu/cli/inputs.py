"""The command line's inputs: files and stdin read as sacrebleu reads them, checked together.

Errors name the file (or stdin) and line; a flag combination that cannot work is a
``CommandLineError``. Everything is read as a stream (``streams``): binary input and lines over
the line limit are refused as soon as they show, and a stream stops being read as soon as its
line count cannot match: the references are read first, and a system output (stdin, ``-i``),
a further reference or a ``--scores`` file is read no further than the test set can use (3 GB
on stdin against a 50-line reference: refused after its first block).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator, Sequence
from typing import BinaryIO, TextIO

from ..errors import InputError, LengthMismatchError, ReadError
from ..i18n import tr
from .streams import MAX_LINE_CHARS, TooManyLinesError, iter_line_blocks

logger = logging.getLogger("bleu.cli")


class CommandLineError(InputError):
    """The flags given cannot work together, or ask for something BLEU Explorer does not do."""


def _open_binary(path: str) -> BinaryIO:
    """The file's raw bytes, .gz decompressed."""
    if path.endswith(".gz"):
        import gzip  # loaded here: with bz2 and lzma it costs a plain-text run 2 ms

        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


#: score lines a ``--scores`` file may hold per segment of the test set: a row per system and
#: rater and error (an MQM table), or several lines per system (comet-score's JSON), for up to
#: 128 systems; a file with more is for another test set, and is not read any further
SCORE_LINES_PER_SEGMENT = 1024


def score_file_lines(n_segments: int) -> int:
    """The most lines a ``--scores`` file for a test set of ``n_segments`` can need."""
    return SCORE_LINES_PER_SEGMENT * n_segments + 64


def _file_blocks(path: str, encoding: str, limit: int, universal: bool = False,
                 max_lines: int | None = None) -> Iterator[list[str]]:
    """A file's lines a block at a time (``streams``), its errors worded for the command line."""
    try:
        with _open_binary(path) as handle:
            yield from iter_line_blocks(handle, path, encoding, universal=universal, limit=limit,
                                        max_lines=max_lines)
    except FileNotFoundError:
        raise ReadError(tr("{path}: no such file.").format(path=path)) from None
    except LookupError:
        raise CommandLineError(tr("Unknown encoding {encoding!r} given with -e.").format(
            encoding=encoding)) from None
    except OSError as error:
        raise ReadError(tr("{path}: cannot be read ({reason}).").format(
            path=path, reason=error.strerror or error)) from None


def iter_segments(path: str, encoding: str = "utf-8", limit: int = MAX_LINE_CHARS,
                  max_lines: int | None = None) -> Iterator[str]:
    """The segments of a file, one per line, as sacrebleu reads them, one at a time.

    Lines are split on '\\n' only and lose their trailing whitespace (so a '\\r' of CRLF goes);
    a final newline does not start another segment. Read in blocks (``streams``), each block's
    lines stripped by ``map`` (a third of the time of a Python loop over lines); binary data and
    lines over ``limit`` characters are refused as soon as they are read, and so is a file of
    more than ``max_lines`` lines (``TooManyLinesError``).
    """
    for block in _file_blocks(path, encoding, limit, max_lines=max_lines):
        yield from map(str.rstrip, block)


def read_text(path: str, encoding: str = "utf-8", limit: int = MAX_LINE_CHARS,
              n_segments: int | None = None) -> str:
    """A whole file as text, its lines kept as they are (a TSV's empty last field stays) and
    ended by '\\n' (any line ending), refused as ``iter_segments`` refuses binary data; with
    ``n_segments`` (a ``--scores`` file for that test set), refused once it holds more lines
    than such a file can (``score_file_lines``), read no further."""
    most = None if n_segments is None else score_file_lines(n_segments)
    try:
        text = "".join(line + "\n" for block in _file_blocks(path, encoding, limit, True, most)
                       for line in block)
    except TooManyLinesError:
        raise ReadError(tr(
            "{path}: more than {lines} lines, more than a score file for {segments} segments "
            "can hold ({per} lines a segment): the file is for another test set.").format(
            path=path, lines=f"{most:,}", segments=f"{n_segments:,}",
            per=f"{SCORE_LINES_PER_SEGMENT:,}")) from None
    return text.removeprefix("\ufeff")


def read_segments(path: str, encoding: str = "utf-8", limit: int = MAX_LINE_CHARS,
                  max_lines: int | None = None) -> list[str]:
    """All segments of a file (see ``iter_segments``)."""
    return list(iter_segments(path, encoding, limit, max_lines))


def longer_than(name: str, expected: int, reference: str) -> LengthMismatchError:
    """The refusal of a stream found to have more lines than ``reference``'s ``expected``,
    worded as ``check_lengths`` words a mismatch (reading stopped there)."""
    return LengthMismatchError(tr(
        "{reference} has {expected} lines, but {name} has more; each reference needs one line "
        "per line of system output.").format(reference=reference, expected=f"{expected:,}",
                                             name=name))


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
                       max_lines: int | None = None) -> list[list[str]]:
    """Systems from stdin, as sacrebleu reads them: one column per system, tab-separated.

    Any line ending (\\n, \\r\\n, \\r) ends a line; every line needs the first line's number of
    fields. Lines lose their trailing whitespace, and so do the fields of every line but the
    first (as in sacrebleu). Read in blocks (``streams``): binary data is refused at once, and
    more than ``max_lines`` lines (``TooManyLinesError``) as soon as they are read.
    """
    check_stdin(stream)
    columns: list[list[str]] = []
    n_fields = 0
    read = 0  # lines read before the block
    try:
        for block in iter_line_blocks(stream.buffer, "stdin", encoding, universal=True,
                                      limit=limit, max_lines=max_lines):
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
        streams = [read_segments(paths[0], encoding, limit)]
        for path in paths[1:]:  # read no further than the first reference's length
            try:
                streams.append(read_segments(path, encoding, limit, len(streams[0])))
            except TooManyLinesError:
                raise LengthMismatchError(tr(
                    "{path} has more lines than {first} ({count}); every reference needs one "
                    "line per segment.").format(path=path, first=paths[0],
                                               count=f"{len(streams[0]):,}")) from None
        return streams, list(paths)
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
                 expected: tuple[int, str] | None = None) -> list[tuple[str, list[str]]]:
    """The systems to score, named as sacrebleu names them (file name, or ``System k``); with
    ``expected`` (the references' lines and the first reference's name), a system is read no
    further than that many lines: one more is refused at once."""
    most, reference = expected if expected is not None else (None, "")
    if args.input is None:
        try:
            columns = read_stdin_systems(stdin, args.encoding, args.line_limit, most)
        except TooManyLinesError:  # raised only where ``most`` is a number
            raise longer_than("stdin", most or 0, reference) from None
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
        try:
            systems.append((path, read_segments(path, args.encoding, args.line_limit, most)))
        except TooManyLinesError:
            raise longer_than(path, most or 0, reference) from None
    return systems


def stream_mismatch(hypotheses: str, references: Sequence[str], encoding: str,
                    limit: int) -> LengthMismatchError:
    """The refusal of a system file and references of different lengths, found while they were
    scored together: each file counted (the system no further than the longest reference
    allows), worded as ``check_lengths`` words it."""
    counts = [sum(1 for _ in iter_segments(path, encoding, limit)) for path in references]
    try:
        found = sum(1 for _ in iter_segments(hypotheses, encoding, limit, max(counts)))
    except TooManyLinesError:
        return longer_than(hypotheses, counts[0], references[0])
    for path, count in zip(references, counts, strict=True):
        if count != found:
            return LengthMismatchError(
                f"{path} has {count} lines, but {hypotheses} has {found}; each reference needs "
                "one line per line of system output.")
    return LengthMismatchError(tr("{path} and its references differ in length.").format(
        path=hypotheses))


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

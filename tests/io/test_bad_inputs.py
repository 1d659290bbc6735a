"""The catalogue of bad inputs, loaded the way the app loads an upload (bleu.io, then
``bleu.dataset.assemble``): each is refused with a message naming the file, the place and the
problem, or loaded with a note on the repair; and the command line's own (``COMMAND_LINE``:
stdin and files given to ``bleu-explorer``), run through its ``main``. ``docs/bad_inputs.md``
is rendered from both.

Regenerate the note with ``python tests/io/test_bad_inputs.py > docs/bad_inputs.md``.
tests/io/test_io.py checks each reader's messages in detail; this file checks the user's path
(reading and assembling together), the core BLEU API on the same inputs, and the note.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import pty
import struct
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import hostile
import pytest
import sacrebleu

import bleu
from bleu.cli import main as command_line
from bleu.display.escaping import neutralize_csv_cell, show_controls
from bleu.display.long_text import CELL_CHARS, HIGHLIGHT_CHARS, PART_CHARS
from bleu.errors import InputError, InvalidTextError, LengthMismatchError
from bleu.evaluation.budget import (
    DEFAULT_MEMORY_MB,
    DEFAULT_RESAMPLE_CELLS,
    ServerLimits,
    check_memory,
    fit_resamples,
)
from bleu.io import MAX_UPLOAD_MB, TextFile, check_size, detect_format, read_any, read_text
from bleu.io.archive import TooManyFilesError
from bleu.io.dataset import Dataset, assemble
from bleu.io.staging import stage_archive
from bleu_app.widgets._drop_guard import BUNDLE_FROM, too_many_files
from bleu_app.widgets._uploads import MAX_DROPPED_FILES

REPO = Path(__file__).resolve().parents[2]
CSV_FORMULA = '=HYPERLINK("http://example.com/","x")'
BIDI_NAME = "gnp\u202eexe"
DOC = REPO / "docs" / "bad_inputs.md"
WMT17 = REPO / "tests" / "data" / "wmt17_newstest2017_en-de"  # runs as a script too
REF17 = WMT17 / "newstest2017.en-de.ref.de"
SYS17 = WMT17 / "newstest2017.C-3MA.4959.en-de.de"

#: the reference every catalogue system is loaded against (three segments)
REFERENCE = TextFile("ref.de", ("Das Haus ist klein .", "Der Hund bellt .", "Guten Morgen !"))
GOOD = "Das Haus ist sehr klein .\nDer Hund bellt laut .\nGuten Morgen , Welt !\n"
#: what the app adds after a refusal (views/_common.refuse): the data loaded before stays
APP_SUFFIX = "Nothing was changed: still showing {label}."


def png_bytes() -> bytes:
    """A real 1x1 PNG: signature, IHDR, IDAT (one zlib-compressed scanline), IEND, with CRCs."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def docx_bytes() -> bytes:
    """A Word document as a zip holds one: its content types and the text as document.xml.

    A ``.zip`` is an archive the app unpacks (see the archive rows); a .docx is a zip too, but
    its text is XML inside, so it is refused as a binary file like any other zip.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        archive.writestr("word/document.xml", f"<w:document><w:t>{GOOD}</w:t></w:document>")
    return buffer.getvalue()


def over_limit() -> bytes:
    """One byte more than the upload limit (text, so only the size is wrong)."""
    return b"a\n" * (MAX_UPLOAD_MB * 2**19) + b"a"


BILLION_LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
                  + b"".join(b' <!ENTITY lol%d "%s">\n' % (k, (b"&lol%d;" % (k - 1)) * 10
                                                           if k > 1 else b"&lol;" * 10)
                             for k in range(1, 10))
                  + b']>\n<dataset><doc id="d"><src lang="en"><p><seg id="1">&lol9;</seg></p>'
                  b"</src></doc></dataset>\n")


@dataclass(frozen=True)
class BadInput:
    """One entry: a file uploaded as a system next to REFERENCE, and what the user must be told.

    ``expect`` are pieces of the message (file name, place, problem); ``outcome`` is
    ``refused`` (an error, the loaded data stays) or ``loaded`` (a warning note).
    """

    key: str
    title: str
    name: str
    make: Callable[[], bytes]
    outcome: str
    expect: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    also: tuple[tuple[str, bytes], ...] = ()  # further system files uploaded with it

    @property
    def data(self) -> bytes:
        return self.make()


def _b(text: str, codec: str = "utf-8") -> Callable[[], bytes]:
    return lambda: text.encode(codec)


def _raw(data: bytes) -> Callable[[], bytes]:
    return lambda: data


CATALOGUE: tuple[BadInput, ...] = (
    BadInput("mismatch", "Mismatched line counts", "short.de", _b("Das Haus ist klein .\n"
             "Der Hund bellt .\n"), "refused",
             ("ref.de: 3", "short.de: 2 (differs)", "same number of segments")),
    BadInput("one_line", "A 1-line file (against a 3-line reference)", "one.de",
             _b("Das Haus ist klein ."), "refused", ("one.de: 1 (differs)", "ref.de (3)")),
    BadInput("empty", "Empty file", "empty.de", _raw(b""), "refused",
             ("empty.de is empty (0 bytes)", "one segment per line")),
    BadInput("blank_file", "A file of whitespace only", "blank.de", _raw(b" \n\t\n\n"),
             "refused", ("blank.de holds no text", "5 bytes of whitespace")),
    BadInput("blank_lines", "Whitespace-only lines", "gaps.de",
             _b(GOOD.replace("Der Hund bellt laut .", "   ")), "loaded",
             ("gaps.de: 1 segment is empty or whitespace only (the first on line 2)",
              "kept, so that lines stay aligned")),
    BadInput("latin1", "Latin-1 (not UTF-8)", "latin1.de",
             _b("Das Haus ist klein .\nDer Hund bellt .\nGrüß Gott !\n", "latin-1"), "refused",
             ("latin1.de is not valid UTF-8: line 3", "byte offset 40", "0xFC", "Latin-1")),
    BadInput("utf16_bom", "UTF-16 with a byte-order mark", "utf16.de", _b(GOOD, "utf-16"),
             "loaded", ("utf16.de: The file is UTF-16 (little-endian) with a byte-order mark",)),
    BadInput("utf16_no_bom", "UTF-16 without a byte-order mark", "utf16le.de",
             _b(GOOD, "utf-16-le"), "refused",
             ("utf16le.de looks like UTF-16 text (little-endian) without a byte-order mark",
              "Save it as UTF-8")),
    BadInput("png", "A PNG image", "picture.png", png_bytes, "refused",
             ("picture.png looks like a binary file (PNG image), not text",)),
    BadInput("docx", "A Word document (.docx, a zip inside)", "system.docx", docx_bytes,
             "refused", ("system.docx looks like a binary file (zip archive, or an Office "
                         "document", "extract the text file")),
    BadInput("bom", "A UTF-8 byte-order mark", "bom.de", lambda: codecs.BOM_UTF8 + GOOD.encode(),
             "loaded", ("bom.de: A UTF-8 byte-order mark (BOM) at the start was removed.",)),
    BadInput("crlf", "Windows line endings (CRLF)", "crlf.de", _b(GOOD.replace("\n", "\r\n")),
             "loaded", ("crlf.de: Windows line endings (CRLF) were converted to LF on 3 lines.",)),
    BadInput("lone_cr", "A lone CR inside a line", "cr.de",
             _b(GOOD.replace("Haus ", "Haus\r", 1)), "loaded",
             ("cr.de: 1 lone carriage return (CR) inside lines was kept as a space (the first "
              "on line 1).",)),
    BadInput("old_mac", "Old Mac line endings (CR only)", "mac.de",
             _b(GOOD.replace("\n", "\r")), "loaded",
             ("mac.de: The file uses old Mac line endings (CR, no LF): 3 CRs were read as line "
              "breaks.",)),
    BadInput("separators", "U+2028 and U+0085 inside lines", "sep.de",
             _b(GOOD.replace("Haus ", "Haus\u2028", 1).replace("Hund ", "Hund\x85", 1)), "loaded",
             ("sep.de: 2 lines (the first: line 1) contain characters",
              "U+0085 NEXT LINE, U+2028 LINE SEPARATOR", "kept as text")),
    BadInput("nul", "A NUL byte inside a line (sacrebleu scores it)", "nul.de",
             _b("Das Haus ist klein .\nDer\x00Hund .\nGut !\n"), "loaded",
             ("nul.de: 1 NUL character inside a line (line 2) was kept as text, as sacrebleu "
              "reads it.",)),
    BadInput("mostly_nul", "A file mostly of NUL bytes", "zeros.de",
             _raw(b"Das Haus\n" + b"\x00" * 30 + b"\n"), "refused",
             ("zeros.de is mostly NUL bytes (30 of its 40)", "binary file")),
    BadInput("over_limit", f"A file over the upload limit ({MAX_UPLOAD_MB} MB)", "huge.de",
             over_limit, "refused", (f"huge.de is 200.1 MB; the limit is {MAX_UPLOAD_MB} MB",
                                     "Split the file")),
    BadInput("tsv_missing_field", "TSV: a row missing a column", "table.tsv",
             _b("id\thyp\n1\tDas Haus ist klein .\n2\n3\tGuten Morgen !\n"), "refused",
             ("table.tsv line 3 has 1 field, but the header has 2", "'id', 'hyp'",
              "fix or remove that line"), options={"column": "hyp"}),
    BadInput("tsv_ragged", "TSV: a ragged row (one field too many)", "ragged.tsv",
             _b("id\thyp\n1\tDas Haus ist klein .\n2\tDer Hund\tbellt .\n3\tGuten Morgen !\n"),
             "refused", ("ragged.tsv line 3 has 3 fields, but the header has 2",),
             options={"column": "hyp"}),
    BadInput("tsv_no_column", "TSV: the chosen column does not exist", "nocol.tsv",
             _b("id\thyp\n1\ta\n2\tb\n3\tc\n"), "refused",
             ("nocol.tsv has no column 'mt'; its columns are 'id', 'hyp'",),
             options={"column": "mt"}),
    BadInput("jsonl_bad_line", "JSONL: a line that is not JSON", "out.jsonl",
             _b('{"hyp": "Das Haus ist klein ."}\n{"hyp": "Der Hund bellt ."\n'
                '{"hyp": "Guten Morgen !"}\n'), "refused",
             ("out.jsonl line 2 is not valid JSON: Expecting ',' delimiter (column 27)",
              "fix that line"), options={"field": "hyp"}),
    BadInput("jsonl_not_object", "JSONL: a line that is not an object", "list.jsonl",
             _b('{"hyp": "a"}\n["b"]\n{"hyp": "c"}\n'), "refused",
             ("list.jsonl line 2 holds a JSON array, not an object",), options={"field": "hyp"}),
    BadInput("jsonl_lone_surrogate", "JSONL: a lone surrogate escape (\\ud800)", "lone.jsonl",
             _b('{"hyp": "Das Haus ist sehr klein ."}\n{"hyp": "Der \\ud800 Hund bellt ."}\n'
                '{"hyp": "Guten Morgen , Welt !"}\n'), "loaded",
             ("lone.jsonl: 1 lone surrogate escape (such as \\ud800, which is no character; the "
              "first on line 2) was read as U+FFFD",), options={"field": "hyp"}),
    BadInput("jsonl_missing_field", "JSONL: a record without the field", "field.jsonl",
             _b('{"hyp": "a"}\n{"mt": "b"}\n{"hyp": "c"}\n'), "refused",
             ("field.jsonl line 2 has no field 'hyp' (its fields: 'mt')",),
             options={"field": "hyp"}),
    BadInput("xml_malformed", "WMT XML that is not well-formed", "bad.xml",
             _b('<dataset>\n<doc id="d1">\n<hyp system="S"><p><seg id="1">a</p></hyp>\n'
                "</doc></dataset>\n"), "refused",
             ("bad.xml is not well-formed XML: mismatched tag at line 3, column 35",)),
    BadInput("xml_billion_laughs", "WMT XML with entity expansion (billion laughs)",
             "laughs.xml", _raw(BILLION_LAUGHS), "refused",
             ("laughs.xml declares a DTD (<!DOCTYPE ...>)", "refused for safety")),
    BadInput("xml_external", "WMT XML with an external entity", "xxe.xml",
             _raw(b'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                  b'\n<dataset><doc id="d"><hyp system="S"><p><seg id="1">&x;</seg></p></hyp>'
                  b"</doc></dataset>\n"), "refused",
             ("xxe.xml declares a DTD", "refused for safety")),
    BadInput("duplicate_names", "Duplicate system names", "sys.de", _b(GOOD), "loaded",
             ("2 systems are named 'sys' (sys.de, sys.de); they are shown as 'sys', 'sys (2)'",),
             also=(("sys.de", b"Das Haus .\nDer Hund .\nGuten Morgen .\n"),)),
    BadInput("html_name", "A name with HTML in it", '<img src=x onerror="alert(1)">.de',
             _b("<script>alert(2)</script>\n" + GOOD.split("\n", 1)[1]), "loaded", ()),
)
BY_KEY = {entry.key: entry for entry in CATALOGUE}


@dataclass(frozen=True)
class ArchiveInput:
    """One archive dropped on the Data page (or given to a sidebar uploader), and pieces of
    what the user must be told; nothing of it is loaded."""

    key: str
    title: str
    name: str
    make: Callable[[], bytes]
    expect: tuple[str, ...]


#: 31 small files, as a folder of system outputs
FILES31 = {f"sys{k:02d}.de": f"Satz {k}\n".encode() * (k + 1) for k in range(31)}
#: what the drop zone adds to an archive's refusal (the other files it was dropped with stay)
LEFT_OUT = "This file is left out; the others can be loaded."
ARCHIVES: tuple[ArchiveInput, ...] = (
    ArchiveInput("bz2_bomb", "A .tar.bz2 of 29 KB holding 10 GiB of zeros", "zeros.tar.bz2",
                 lambda: hostile.zero_bomb("bz2", 10),
                 ("zeros.tar.bz2 unpacks to more than 200 MB",)),
    ArchiveInput("bz2_members", "A .tar.bz2 of 16 KB holding 40 files of 100 MiB each (each "
                 "under the limit, together 4 GiB)", "members.tar.bz2",
                 lambda: hostile.many_big_members("bz2", 40, 100),
                 ("members.tar.bz2 unpacks to more than 200 MB",)),
    ArchiveInput("xz_members", "A .tar.xz of 1.9 MB holding 1,000,000 empty files",
                 "million.tar.xz", lambda: hostile.empty_members("xz", 1_000_000),
                 ("More than 1,100 files were dropped",)),
    ArchiveInput("flipped", "A tar with one flipped header byte (member 12 of 31)", "flip.tar",
                 lambda: hostile.flipped_header(FILES31, 11),
                 ("flip.tar: the tar archive is damaged after sys10.de",)),
    ArchiveInput("truncated", "A tar cut short in the middle of a file", "cut.tar",
                 lambda: (tar := hostile.plain_tar(FILES31))[:tar.index(b"sys20.de") + 600],
                 ("cut.tar: the tar archive is damaged or cut short at sys20.de",)),
    ArchiveInput("damaged_xz", "A .tar.xz with damaged compressed data", "damaged.tar.xz",
                 lambda: hostile.damaged_tar_xz(FILES31),
                 ("damaged.tar.xz: the tar archive is damaged or cut short",)),
    ArchiveInput("corrupt_zip", "A zip with damaged compressed data", "corrupt.zip",
                 lambda: hostile.corrupt_zip({"hyp.A.de": b"ein Haus\n" * 100}),
                 ("corrupt.zip: the zip archive is damaged or cut short at hyp.A.de",)),
    ArchiveInput("encrypted_zip", "A password-protected zip", "secret.zip",
                 lambda: hostile.encrypted_zip({"hyp.A.de": b"ein Haus\n"}),
                 ("secret.zip: hyp.A.de is encrypted (password-protected)",)),
    ArchiveInput("deflate64_zip", "A zip compressed with Deflate64 (Windows' Explorer, files "
                 "over 2 GB)", "windows.zip",
                 lambda: hostile.deflate64_zip({"hyp.A.de": b"ein Haus\n"}),
                 ("windows.zip: hyp.A.de is compressed with Deflate64",)),
)


def archive_message(entry: ArchiveInput) -> str:
    """What the drop zone shows for an archive: its one message (``stage_archive`` raises)."""
    try:
        staged = stage_archive(entry.make(), entry.name, max_files=MAX_DROPPED_FILES)
    except TooManyFilesError as error:
        return too_many_files(f"More than {MAX_DROPPED_FILES:,}", error.limit)
    except InputError as error:
        return f"{error} {LEFT_OUT}"
    return f"(no message: {len(staged.streams)} streams loaded)"


@pytest.mark.parametrize("entry", ARCHIVES, ids=lambda entry: entry.key)
def test_each_archive_says_what_and_which_member(entry):
    message = archive_message(entry)
    for piece in entry.expect:
        assert piece in message, (piece, message)
    assert "Traceback" not in message and "(no message" not in message

#: what a command-line entry's stdin is: bytes piped in, closed (no fd 0), or a terminal
Stdin = bytes | str


@dataclass(frozen=True)
class CommandLineInput:
    """One entry of the command line's catalogue: a command as typed (``command``, shown in
    the note), the arguments it runs here next to REFERENCE saved as ``ref.de`` and GOOD as
    ``hyp.de``, its stdin (``CLOSED``, ``TERMINAL`` or bytes), pieces of the message, and
    further files written beside them (a score file)."""

    key: str
    title: str
    command: str
    argv: tuple[str, ...]
    stdin: Stdin
    expect: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()


CLOSED, TERMINAL = "closed", "terminal"
#: the ending of every message about stdin that cannot be read
_PIPE_OR_I = ("pipe the system output in (bleu-explorer ref.txt < hyp.txt) or give it with -i "
              "(bleu-explorer ref.txt -i hyp.txt)")
_BINARY = "so this is binary data or text that is not line-based"
#: COMET-style scores of the catalogue's system ``hyp`` (hyp.de) on the 3 segments
_SCORES = "system\tseg_id\tCOMET\nhyp\t1\t0.71\nhyp\t2\t0.64\nhyp\t3\t0.80\n"

COMMAND_LINE: tuple[CommandLineInput, ...] = (
    # 2 MiB stand for the 5 GB: reading stops in the first block either way
    # (tests/cli/test_stdin.py feeds an endless stream under a memory limit)
    CommandLineInput("stdin_nul", "NUL bytes on stdin (5 GB of them)",
                     "head -c 5000000000 /dev/zero | bleu-explorer ref.de", ("ref.de",),
                     b"\x00" * 2**21, ("stdin, line 1: mostly NUL bytes", _BINARY)),
    # 3 MB stand for the 3 GB: reading stops at the reference's line count either way
    # (tests/cli/test_stdin.py feeds an endless stream under a memory limit)
    CommandLineInput("stdin_longer", "More lines on stdin than the reference has (3 GB of "
                     "valid lines)", "yes 'ein Satz' | head -c 3000000000 | bleu-explorer ref.de",
                     ("ref.de",), b"ein Satz\n" * 350_000,
                     ("ref.de has 3 lines, but stdin has more",
                      "each reference needs one line per line of system output")),
    CommandLineInput("stdin_no_newline", "Text without a newline on stdin (2 GB)",
                     "head -c 2000000000 /dev/zero | tr '\\0' a | bleu-explorer ref.de",
                     ("ref.de",), b"a" * 2**21,
                     ("stdin, line 1: longer than 1,000,000 characters, the line limit "
                      "(--line-limit)", _BINARY)),
    CommandLineInput("file_nul", "A reference file of NUL bytes",
                     "bleu-explorer /dev/zero -i hyp.de", ("/dev/zero", "-i", "hyp.de"), b"",
                     ("/dev/zero, line 1: mostly NUL bytes", _BINARY)),
    CommandLineInput("stdin_latin1", "Latin-1 on stdin (not UTF-8)",
                     "iconv -t latin1 hyp.de | bleu-explorer ref.de", ("ref.de",),
                     GOOD.replace("Welt", "Grüß Gott").encode("latin-1"),
                     ("stdin, line 3: not valid utf-8 text", "give its encoding with -e")),
    CommandLineInput("stdin_closed", "stdin closed", "bleu-explorer ref.de <&-", ("ref.de",),
                     CLOSED, ("stdin is closed", _PIPE_OR_I)),
    CommandLineInput("stdin_terminal", "stdin a terminal: the command typed at a prompt, "
                     "nothing piped in", "bleu-explorer ref.de", ("ref.de",), TERMINAL,
                     ("stdin is a terminal", _PIPE_OR_I)),
    CommandLineInput("dash_id", "A workspace id that starts with '-' (1 in 64 of those older "
                     "versions made): read as the id, here in an empty database",
                     "bleu-explorer --workspace -Zx3", ("--workspace", "-Zx3"), b"",
                     ("No workspace has the id or name '-Zx3'",)),
    CommandLineInput("scores_other_test_set", "A segment-score file for another test set (a "
                     "4th segment)", "bleu-explorer ref.de -i hyp.de --scores comet.tsv",
                     ("ref.de", "-i", "hyp.de", "--scores", "comet.tsv"), b"",
                     ("comet.tsv: scores segment 4", "for another test set"),
                     (("comet.tsv", (_SCORES + "hyp\t4\t0.5\n").encode()),)),
    CommandLineInput("scores_far_longer", "A segment-score file for a much larger test set "
                     "(300 MB)", "bleu-explorer ref.de -i hyp.de --scores comet.tsv",
                     ("ref.de", "-i", "hyp.de", "--scores", "comet.tsv"), b"",
                     ("comet.tsv: more than 3,136 lines", "for another test set"),
                     (("comet.tsv", ("system\tseg_id\tCOMET\n" + "".join(
                         f"hyp\t{k}\t0.5\n" for k in range(1, 4001))).encode()),)),
    CommandLineInput("scores_word", "A segment-score file with a word for a score",
                     "bleu-explorer ref.de -i hyp.de --scores comet.tsv",
                     ("ref.de", "-i", "hyp.de", "--scores", "comet.tsv"), b"",
                     ("comet.tsv, line 3: expected a number",),
                     (("comet.tsv", _SCORES.replace("0.64", "good").encode()),)),
    CommandLineInput("scores_no_system", "A segment-score file without a system given with -i "
                     "(here only for base)", "bleu-explorer ref.de -i base.de hyp.de --scores "
                     "comet.tsv", ("ref.de", "-i", "base.de", "hyp.de", "--scores", "comet.tsv"),
                     b"", ("comet.tsv: no COMET scores for hyp.de", "--scores-alias"),
                     (("comet.tsv", _SCORES.replace("hyp", "base").encode()),
                      ("base.de", GOOD.encode()))),
    CommandLineInput("scores_unknown", "A segment-score file none of whose systems is given",
                     "bleu-explorer ref.de -i hyp.de --scores comet.tsv",
                     ("ref.de", "-i", "hyp.de", "--scores", "comet.tsv"), b"",
                     ("comet.tsv: none of its systems is scored here",),
                     (("comet.tsv", _SCORES.replace("hyp", "Online-B").encode()),)),
)


@contextlib.contextmanager
def _stdin(given: Stdin) -> Iterator[TextIO | None]:
    """The stdin an entry runs with, as ``sys.stdin`` would be."""
    if given == CLOSED:
        yield None  # what Python makes of a closed file descriptor 0
    elif given == TERMINAL:
        leader, follower = pty.openpty()
        try:
            with open(follower, encoding="utf-8") as terminal:
                yield terminal
        finally:
            os.close(leader)
    else:
        assert isinstance(given, bytes)
        yield io.TextIOWrapper(io.BytesIO(given), encoding="utf-8")


def run_command_line(entry: CommandLineInput) -> tuple[int, str]:
    """Exit status and stderr of ``bleu-explorer`` run on an entry, in a fresh folder with
    ``ref.de``, ``hyp.de`` and an empty workspace database (named ``$BLEU_EXPLORER_DB``)."""
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder), \
            _stdin(entry.stdin) as stdin:
        Path("ref.de").write_text("\n".join(REFERENCE.segments) + "\n", encoding="utf-8")
        Path("hyp.de").write_text(GOOD, encoding="utf-8")
        for name, data in entry.files:
            Path(name).write_bytes(data)
        database = str(Path(folder, "workspaces.sqlite3"))
        saved = sys.stdin, os.environ.get("BLEU_EXPLORER_DB")
        sys.stdin, os.environ["BLEU_EXPLORER_DB"] = stdin, database  # type: ignore[assignment]
        errors = io.StringIO()
        try:
            with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
                status = command_line(list(entry.argv))
        finally:
            sys.stdin = saved[0]
            if saved[1] is None:
                del os.environ["BLEU_EXPLORER_DB"]
            else:
                os.environ["BLEU_EXPLORER_DB"] = saved[1]
    return status, errors.getvalue().replace(database, "$BLEU_EXPLORER_DB")


@pytest.mark.parametrize("entry", COMMAND_LINE, ids=lambda entry: entry.key)
def test_each_command_line_input_says_stream_place_and_problem(entry):
    status, stderr = run_command_line(entry)
    assert status == 1 and "Traceback" not in stderr
    (error,) = stderr.splitlines()
    assert error.startswith("bleu-explorer: error: ")
    for piece in entry.expect:
        assert piece in error, (piece, error)


@dataclass(frozen=True)
class Outcome:
    """What loading an entry gives: the error message, or the loaded systems and their notes."""

    error: str | None
    systems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def load(files: Sequence[tuple[str, bytes]], options: dict[str, str] | None = None,
         reference: TextFile = REFERENCE) -> Outcome:
    """Load system files next to ``reference`` as the app does: size, format, read, assemble."""
    try:
        read = []
        for name, data in files:
            check_size(data, name)
            read.append(read_any(data, name, format=detect_format(name, data), **(options or {})))
        dataset = assemble(read, [reference])
    except InputError as error:
        return Outcome(str(error))
    return Outcome(None, tuple(dataset.systems), dataset.notes)


def load_entry(entry: BadInput) -> Outcome:
    return load([(entry.name, entry.data), *entry.also], entry.options)


def user_message(entry: BadInput) -> str:
    """The message the user reads for an entry (the app prefixes nothing; it appends APP_SUFFIX)."""
    outcome = load_entry(entry)
    if outcome.error is not None:
        return outcome.error
    return " ".join(outcome.notes) or f"(no message: loaded as {', '.join(outcome.systems)})"


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda entry: entry.key)
def test_each_bad_input_says_file_place_and_problem(entry):
    outcome = load_entry(entry)
    assert (outcome.error is None) == (entry.outcome == "loaded"), outcome
    message = outcome.error if outcome.error is not None else " ".join(outcome.notes)
    for piece in entry.expect:
        assert piece in message, (piece, message)
    if outcome.error is not None and entry.key not in ("mismatch", "one_line"):
        assert outcome.error.startswith(entry.name), outcome.error  # the file comes first


def test_every_refused_input_leaves_a_good_load_unchanged():
    """assemble() is all or nothing: one bad file among good ones gives an error, no Dataset."""
    good = load([("good.de", GOOD.encode())])
    assert good.error is None and good.systems == ("good",)
    for entry in CATALOGUE:
        if entry.outcome == "refused" and entry.key != "over_limit":
            outcome = load([("good.de", GOOD.encode()), (entry.name, entry.data)], entry.options)
            assert outcome.error is not None and outcome.systems == (), entry.key


def test_loaded_repairs_score_like_the_clean_file():
    """BOM, CRLF, UTF-16 and old Mac endings change nothing in the segments or the score."""
    clean = read_text(GOOD.encode(), "good.de").segments
    expected = sacrebleu.corpus_bleu(list(clean), [list(REFERENCE.segments)]).score
    for key in ("utf16_bom", "bom", "crlf", "old_mac"):
        entry = BY_KEY[key]
        segments = read_any(entry.data, entry.name).segments
        assert segments == clean, key
        assert bleu.corpus_bleu(list(segments), [list(REFERENCE.segments)]).score == \
            pytest.approx(expected, abs=1e-12)


def test_html_name_and_text_are_kept_literally():
    entry = BY_KEY["html_name"]
    outcome = load_entry(entry)
    assert outcome.systems == ('<img src=x onerror="alert(1)">',)
    assert read_any(entry.data, entry.name).segments[0] == "<script>alert(2)</script>"


def test_duplicate_names_both_scored():
    entry = BY_KEY["duplicate_names"]
    assert load_entry(entry).systems == ("sys", "sys (2)")


# --- the core BLEU API on the same kinds of input -------------------------------------------

def test_core_api_refuses_misaligned_streams_naming_them():
    with pytest.raises(LengthMismatchError) as caught:
        bleu.corpus_bleu(["a", "b"], [["a", "b", "c"]])
    assert str(caught.value) == ("The hypotheses have 2 segments, but the references have 3; "
                                 "every stream needs one line per segment.")
    assert isinstance(caught.value, InputError)


@pytest.mark.parametrize(("hypotheses", "where"), [
    (["a", b"bytes"], "hypotheses: segment 2 is bytes"),
    (["a", None], "hypotheses: segment 2 is NoneType"),
    ("one string", "hypotheses must be a list of strings, got str"),
])
def test_core_api_refuses_what_is_not_text(hypotheses, where):
    with pytest.raises(InvalidTextError, match=where):
        bleu.corpus_bleu(hypotheses, [["a", "b"]])


def test_nul_characters_in_streams_score_as_sacrebleu():
    """The readers refuse NUL bytes in files; the API takes them as text, as sacrebleu does."""
    hyps = ["Das\x00Haus ist klein .", "Der Hund \x00 bellt .", "\x00"]
    refs = [["Das\x00Haus ist klein .", "Der Hund bellt .", "Guten Morgen !"]]
    ours = bleu.corpus_bleu(hyps, refs)
    theirs = sacrebleu.corpus_bleu(hyps, refs)
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    assert (list(ours.counts), list(ours.totals)) == (theirs.counts, theirs.totals)
    # by hand: 4 + 5 + 1 unigrams ("\x00" alone is a token); 4 + 4 + 0 of them match
    assert (ours.counts[0], ours.totals[0]) == (8, 10)


def test_line_separators_inside_segments_score_as_sacrebleu():
    """U+2028 and U+0085 read from a file stay inside the segment; BLEU splits words on them."""
    entry = BY_KEY["separators"]
    hyps = list(read_any(entry.data, entry.name).segments)
    assert hyps[:2] == ["Das Haus\u2028ist sehr klein .", "Der Hund\x85bellt laut ."]
    refs = [list(REFERENCE.segments)]
    for tokenize in ("13a", "intl", "none", "char"):
        ours = bleu.corpus_bleu(hyps, refs, tokenize=tokenize)
        theirs = sacrebleu.corpus_bleu(hyps, refs, tokenize=tokenize)
        assert ours.score == pytest.approx(theirs.score, abs=1e-9), tokenize
        assert list(ours.counts) == theirs.counts, tokenize


def test_300k_line_corpus_read_and_scored_end_to_end():
    """WMT17 en-de (tests/data's 100 lines) repeated to 300,400 lines: every count is the number
    of copies times one copy's, so the score equals sacrebleu's on the single copy (ratios and
    precisions do not change)."""
    lines = SYS17.read_bytes().count(b"\n")
    copies = 300_400 // lines
    hyp_file = read_text(SYS17.read_bytes() * copies, SYS17.name)
    ref_file = read_text(REF17.read_bytes() * copies, REF17.name)
    dataset = assemble([hyp_file], [ref_file])
    assert dataset.n_segments == lines * copies == 300_400
    one = sacrebleu.corpus_bleu(list(hyp_file.segments[:lines]),
                                [list(ref_file.segments[:lines])])
    got = bleu.corpus_bleu(list(hyp_file.segments), list(map(list, dataset.reference_streams)))
    assert list(got.counts) == [c * copies for c in one.counts]
    assert list(got.totals) == [t * copies for t in one.totals]
    assert (got.sys_len, got.ref_len) == (one.sys_len * copies, one.ref_len * copies)
    assert got.score == pytest.approx(one.score, abs=1e-9)


# --- the note: docs/bad_inputs.md --------------------------------------------------------------

def render_doc() -> str:
    """docs/bad_inputs.md: every catalogue entry with the exact message the user reads."""
    lines = [
        "# Bad inputs and what the user is told",
        "",
        "Generated from `tests/io/test_bad_inputs.py` (`CATALOGUE`); `test_doc_is_current`",
        "fails when this file and the code disagree. Regenerate it with",
        "`python tests/io/test_bad_inputs.py > docs/bad_inputs.md`.",
        "",
        "Each file is uploaded as a system output next to a 3-line reference `ref.de`. A",
        "**refused** file changes nothing: the app shows the message as an error followed by",
        f"\"{APP_SUFFIX.format(label='<what was loaded before>')}\" and keeps showing the",
        "data loaded before (tests/app/test_bad_inputs_app.py checks this for each entry).",
        "A **loaded** file is scored; the message is a warning shown above the page.",
        "",
        f"Upload limit: {MAX_UPLOAD_MB} MB per file (`server.maxUploadSize` in",
        "`.streamlit/config.toml`, `bleu.io.MAX_UPLOAD_MB` in the core). In a browser,",
        "Streamlit's uploader refuses a larger file itself, before it is sent, with its own",
        f"message under the file: \"File must be {MAX_UPLOAD_MB:.1f}MB or smaller.\" (checked by",
        "tests/browser/test_security.py); the app never sees the file and keeps its data. A",
        "file that reaches the app another way is refused with the message below.",
        "",
        "A 300,000-line upload is read, aligned and scored: WMT17 en-de repeated to 300,400",
        "lines scores exactly what sacrebleu gives for one copy, in the core",
        "(tests/io/test_bad_inputs.py) and through the app (tests/app/test_bad_inputs_app.py);",
        "`benchmarks/bench_upload_300k.py` times that upload and reports the memory it takes.",
        "",
        "| Input | File | Outcome | Message the user reads |",
        "|---|---|---|---|",
    ]
    for entry in CATALOGUE:
        message = user_message(entry).replace("|", "\\|").replace("\n", " ")
        name = entry.name.replace("|", "\\|")  # a code span shows < and > literally
        message = message.replace("<", "&lt;")
        lines.append(f"| {entry.title} | `{name}` | {entry.outcome} | {message} |")
    return "\n".join(lines + archive_inputs() + beyond_one_file() + command_line_inputs()) + "\n"


def archive_inputs() -> list[str]:
    """The archives' catalogue, each with the message the Data page shows."""
    lines = [
        "",
        "## Archives",
        "",
        "A .tar (plain, gz, bz2, xz) or .zip is read member by member, each header before its",
        "data, and stops at the file-count limit (1,100) or the unpacked-size limit",
        "(server.maxUploadSize, 200 MB), with every byte the decompressor gives counted; an",
        "archive that cannot be read whole is refused with one message naming the member, and",
        "nothing of it is loaded. A refused archive is not read again on a rerun (the server's",
        "staging cache keeps the refusal). Peak memory and time of each refusal, in a process of",
        "its own: `python benchmarks/bench_refusals.py`.",
        "",
        "| Input | File | Message the user reads |",
        "|---|---|---|",
    ]
    for entry in ARCHIVES:
        message = archive_message(entry).replace("|", "\\|").replace("<", "&lt;")
        lines.append(f"| {entry.title} | `{entry.name}` | {message} |")
    return lines


def command_line_inputs() -> list[str]:
    """The command line's catalogue, each entry with the exact line it prints on stderr."""
    lines = [
        "",
        "## The command line",
        "",
        "`bleu-explorer` reads every file and stdin as a stream: input that is half NUL or",
        "more, or a line longer than the line limit (1,000,000 characters; `--line-limit`",
        "changes it), is refused as binary or not line-based as soon as it is read, with the",
        "stream and the line (5 GB of NULs on stdin: refused after the first half-megabyte",
        "block, in about 30 MB of memory; tests/cli/test_stdin.py). A stray NUL inside a line",
        "is text, as sacrebleu reads it. The references are read first; a system output is read",
        "no further than their line count, a second reference no further than the first, a",
        "`--scores` file no further than 1,024 lines a segment of the test set.",
        "Each message below is one line on stderr, exit status 1.",
        "Run next to a 3-line `ref.de` and `hyp.de`; a `--scores` file (`comet.tsv`, with",
        "a header `system seg_id COMET`) is refused with its line where one row is bad, and",
        "as a whole where it is for another test set or its systems are not those given.",
        "",
        "| Input | Command | What the user reads |",
        "|---|---|---|",
    ]
    for entry in COMMAND_LINE:
        message = run_command_line(entry)[1].strip().replace("|", "\\|").replace("<", "&lt;")
        command = entry.command.replace("|", "\\|")
        lines.append(f"| {entry.title} | `{command}` | {message} |")
    return lines


def beyond_one_file() -> list[str]:
    """The cases that are not one bad file, each with what the user sees (messages rendered by
    the code that shows them)."""
    too_big = Dataset({"big": TextFile("big.de", ("x" * 60,) * 300_000)},
                      (TextFile("ref.de", ("y" * 60,) * 300_000),))
    with pytest.raises(InputError) as refused:
        check_memory(too_big, ServerLimits(memory_mb=256))
    fewer = fit_resamples(10_000, 1_000_000, 4, ServerLimits()).note
    cell = neutralize_csv_cell(CSV_FORMULA)
    return [
        "",
        "## Beyond one file",
        "",
        "| Case | What the user sees |",
        "|---|---|",
        f"| Data over the server's memory budget (`BLEU_EXPLORER_MEMORY_MB`, default "
        f"{DEFAULT_MEMORY_MB:,}; here 256, for 1 system and 1 reference of 300,000 lines) | "
        f"refused, the loaded data kept: {refused.value} |",
        f"| Many segments x systems x resamples (`BLEU_EXPLORER_RESAMPLE_CELLS`, default "
        f"{DEFAULT_RESAMPLE_CELLS:,}; here 1,000,000 segments, 4 systems, 10,000 asked) | "
        f"the tests run with fewer, and the dashboard and Compare say so: {fewer} |",
        "| A reference given milliseconds after the systems, under load | loaded: Streamlit "
        "dropped the uploader's upload-URL answer when a rerun started; the app keeps it "
        "(`runtime/_streamlit_fixes.py`; tests/browser/test_upload_load.py, 8 sessions) |",
        "| Names and text with Markdown images or links, HTML, `javascript:` URLs | shown "
        "literally on every page, in tables, charts, tooltips, exports and the HTML report; no "
        "link, image or script is made from them and nothing is fetched "
        "(tests/browser/test_hostile_text.py) |",
        "| A right-to-left override (U+202E) or a control character in a name | shown "
        f"as `{show_controls(BIDI_NAME)}` in text, tables, widgets and charts; stored as given |",
        f"| A name or segment that starts like a spreadsheet formula (`{CSV_FORMULA}`) | CSV "
        f"downloads write `{cell}` (OWASP: a leading `'`), other text unchanged |",
        "| A workspace database that fails (unreachable, read-only, corrupt) | a sidebar warning "
        "that names \"the workspace database\", never its path, URL or password; everything "
        "else works (docs/architecture.md, Workspaces) |",
        "| A workspace link opened by someone else | a read-only view: every page and export; "
        "\"Copy to my workspaces\" to change a copy |",
        f"| More than {MAX_DROPPED_FILES:,} files given at once to an uploader "
        "(`MAX_DROPPED_FILES`: a thousand systems and their references) | refused in the "
        "browser before anything is sent (`bleu_app/assets/drop_guard.js`), the loaded data "
        f"kept: {too_many_files(MAX_DROPPED_FILES + 1, MAX_DROPPED_FILES)} Measured in "
        "Chromium: 10,000 files refused in about 3 s (before: never settled) |",
        f"| {BUNDLE_FROM} or more files given at once | packed in the browser into one .tar "
        "(at most server.maxUploadSize each) and unpacked on the server, so the uploader "
        "sends and lists one file: 1,000 systems x 300 segments staged in about 7 s, on the "
        "dashboard in about 18 s, the tab at about 430 MiB (before: 54 s of uploads, 67 s, "
        "800 MiB) |",
        "| A .tar (plain, gz, bz2, xz) or .zip of files | each file read as if dropped alone; "
        "folders' metadata (`__MACOSX/`, hidden files) left out; more files than the limit, or "
        "more unpacked than server.maxUploadSize, refused as soon as a header shows it (see "
        "Archives above) |",
        f"| A segment of 1 MiB, or 50 MB, on Sentences, Compare or Metrics & human scores | "
        f"loaded and scored on the whole text; table cells cut at {CELL_CHARS:,} characters "
        f"with the count of the rest; a segment over {HIGHLIGHT_CHARS:,} characters shown in "
        f"parts of {PART_CHARS:,} with a download of the whole, without n-gram chips or the "
        "what-if editor (before: 343 MiB of HTML for 1 MiB, past 14 GB of server memory for "
        "50 MB; tests/app/test_page_net.py) |",
        "| The cookie route (`/bleu-explorer/cookies`) sent a big body, or a request from "
        "another origin (another port of the same host) | a body bigger than a nonce refused "
        "unread (413); a request that is not the app's own page's refused (403); a nonce "
        "redeemed only by the browser whose session asked for it (tests/app/test_cookies.py) |",
        "| Files the app creates | the workspace database, its -wal and -shm owner-only (0600) "
        "in an owner-only folder (0700); older ones narrowed when opened "
        "(tests/workspace/test_file_modes.py) |",
        "| Many distinct uploads on one server | the staging cache (and every other server-wide "
        "cache) bounded in bytes: 512 MB of staged uploads, 1 GB of shared results, 512 MB of "
        "statistics (bleu_app/runtime/_cache.py) |",
        "| Many systems (a thousand) | the sidebar's System names is one text box behind a "
        "picker beyond 20 systems (`NAME_BOXES`), the Data page previews the first 30 "
        "(`PREVIEW_SYSTEMS`) and says so, the dashboard compares all pairs of up to 60 chosen "
        "systems (`MAX_PAIRED_SYSTEMS`) and charts the best 30 (`CHART_SYSTEMS`); the tables "
        "list every system |",
    ]


def test_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render_doc(), (
        "docs/bad_inputs.md is out of date: python tests/io/test_bad_inputs.py > "
        "docs/bad_inputs.md")


if __name__ == "__main__":
    sys.stdout.write(render_doc())

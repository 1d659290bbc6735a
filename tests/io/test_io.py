"""The catalogue of bad inputs for bleu.io: each gives a ReadError naming the file and place,
or is repaired with a note; plus real files from ../shared/data, read back line for line."""

from __future__ import annotations

import gzip
import io
import logging
import struct
import zipfile
import zlib
from xml.sax.saxutils import escape, quoteattr

import pytest
import sacrebleu
from conftest import DATA_DIR, SHARED_DATA, read_lines
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sacrebleu.dataset.wmt_xml import WMTXMLDataset

import bleu
from bleu.errors import InputError, LengthMismatchError, ReadError, UnknownOptionError
from bleu.io import (
    FORMATS,
    MAX_UPLOAD_MB,
    TextFile,
    check_aligned,
    check_size,
    detect_format,
    duplicate_name_note,
    identical_lines_note,
    jsonl_fields,
    looks_tokenized,
    read_any,
    read_jsonl,
    read_sgml,
    read_table,
    read_text,
    read_wmt_xml,
    similarity_to_reference,
    table_columns,
    unique_names,
)


def read_error(call, *args, **kwargs) -> str:
    """The message of the ReadError that ``call`` raises; it must start with the file name."""
    with pytest.raises(ReadError) as caught:
        call(*args, **kwargs)
    message = str(caught.value)
    assert message.startswith(args[1]), message
    return message


def text_file(name: str, segments: list[str]) -> TextFile:
    return TextFile(name=name, segments=tuple(segments), doc_ids=None, notes=())


# --- plain text: decoding --------------------------------------------------------------------

def test_plain_lines_final_newline_and_empty_lines_kept():
    assert read_text(b"a\nb\n", "x.txt").segments == ("a", "b")
    assert read_text(b"a\nb", "x.txt").segments == ("a", "b")
    assert read_text(b"a\n\nb\n\n", "x.txt").segments == ("a", "", "b", "")
    assert read_text(b"a\nb\n", "x.txt").notes == ()


def test_one_line_file():
    assert read_text(b"Hello world .", "one.txt").segments == ("Hello world .",)
    assert read_text(b"Hello world .\n", "one.txt").segments == ("Hello world .",)


def test_empty_file_refused():
    message = read_error(read_text, b"", "empty.txt")
    assert "0 bytes" in message


@pytest.mark.parametrize("data", [b" ", b"\n", b"\n\n\n", b" \t\n \r\n", b"\xef\xbb\xbf",
                                  b"\xef\xbb\xbf\n"])
def test_whitespace_only_file_refused(data):
    message = read_error(read_text, data, "blank.txt")
    assert "whitespace" in message and f"{len(data)} bytes" in message


def test_whitespace_only_lines_kept_with_a_note():
    got = read_text(b"a\n  \n\t\nb\n\n", "ws.txt")
    assert got.segments == ("a", "  ", "\t", "b", "")
    assert got.notes == ("3 segments are empty or whitespace only (the first on line 2); kept, "
                         "so that lines stay aligned.",)


def test_latin1_refused_with_line_and_offset_then_read_when_chosen():
    data = "first line\nzweite Zeile\nStraße\n".encode("latin-1")
    offset = data.index(b"\xdf")  # 'ß' in Latin-1; written out: 11 + 13 + 4 = 28
    assert offset == 28
    message = read_error(read_text, data, "de.txt")
    assert "not valid UTF-8" in message
    assert "line 3" in message and "byte offset 28" in message and "0xDF" in message
    assert "Latin-1" in message
    got = read_text(data, "de.txt", encoding="latin-1")
    assert got.segments == ("first line", "zweite Zeile", "Straße")
    assert any("Latin-1" in note for note in got.notes)


def test_bad_utf8_offset_counts_a_stripped_bom():
    data = b"\xef\xbb\xbfok\nbad \xff here\n"
    message = read_error(read_text, data, "b.txt")
    offset = data.index(b"\xff")  # the BOM's 3 bytes count: 3 + 3 + 4 = 10
    assert offset == 10 and "line 2" in message and "byte offset 10 " in message


def test_unknown_encoding_is_an_input_error():
    with pytest.raises(UnknownOptionError):
        read_text(b"a\n", "x.txt", encoding="no-such-codec")


def test_utf8_bom_removed_with_note():
    got = read_text(b"\xef\xbb\xbfHallo\nWelt\n", "bom.txt")
    assert got.segments == ("Hallo", "Welt")
    assert got.notes == ("A UTF-8 byte-order mark (BOM) at the start was removed.",)


@pytest.mark.parametrize(("codec", "label"), [("utf-16", "UTF-16 (little-endian)"),
                                              ("utf-16-be", "UTF-16 (big-endian)"),
                                              ("utf-32", "UTF-32 (little-endian)")])
def test_utf16_and_utf32_with_bom_decoded_with_note(codec, label):
    text = "Größe\n東京\nzwei Zeilen\n"
    data = text.encode(codec) if codec != "utf-16-be" else b"\xfe\xff" + text.encode(codec)
    got = read_text(data, "u.txt")
    assert got.segments == ("Größe", "東京", "zwei Zeilen")
    assert got.notes == (f"The file is {label} with a byte-order mark; it was decoded as such.",)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_refused(codec):
    message = read_error(read_text, "Hello\nWorld\n".encode(codec), "u16.txt")
    assert "UTF-16" in message and "without a byte-order mark" in message
    assert ("little-endian" if codec.endswith("le") else "big-endian") in message


def test_a_stray_nul_is_text_with_a_note():
    """sacrebleu reads a NUL inside a line as text (issue 36); the file is loaded, and says so."""
    got = read_text(b"one\ntwo\nthr\x00ee\nfo\x00ur\n", "nul.txt")
    assert got.segments == ("one", "two", "thr\x00ee", "fo\x00ur")
    assert got.notes == ("2 NUL characters inside lines (the first on line 3) were kept as text, "
                         "as sacrebleu reads them.",)


def test_mostly_nul_is_refused_as_binary():
    data = b"one\n" + b"\x00" * 40 + b"\n"
    message = read_error(read_text, data, "zeros.txt")
    assert message == ("zeros.txt is mostly NUL bytes (40 of its 45), so it looks like a binary "
                       "file, not text: upload the plain-text file (one segment per line) "
                       "instead.")


def png_bytes() -> bytes:
    """A real 1x1 red PNG: signature, IHDR, IDAT (zlib scanline) and IEND chunks with CRCs."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("system.txt", "Hello world\n" * 50)
    return buffer.getvalue()


@pytest.mark.parametrize(("data", "what"), [
    (png_bytes(), "PNG image"),
    (zip_bytes(), "zip archive"),
    (gzip.compress(b"Hello\nworld\n"), "gzip-compressed"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "PDF document"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "JPEG image"),
], ids=lambda value: value if isinstance(value, str) else "bytes")  # archives hold the time
def test_binary_files_refused_by_kind(data, what):
    for reader in (read_text, read_table, read_jsonl, read_sgml, read_any):
        message = read_error(reader, data, "upload.txt")
        assert f"looks like a binary file ({what}" in message
    assert f"({what}" in read_error(read_wmt_xml, data, "upload.xml")


def test_png_made_here_is_a_png():
    """The fixture is a real PNG: its IHDR chunk says 1x1, 8-bit RGB."""
    data = png_bytes()
    assert data[12:16] == b"IHDR" and struct.unpack(">II", data[16:24]) == (1, 1)


# --- plain text: line breaks -----------------------------------------------------------------

def test_crlf_converted_with_note():
    got = read_text(b"a\r\nb\r\n\r\nc\r\n", "win.txt")
    assert got.segments == ("a", "b", "", "c")
    assert got.notes[0] == "Windows line endings (CRLF) were converted to LF on 4 lines."


def test_lone_cr_inside_lines_kept_as_space():
    got = read_text(b"a\rb\nc\r\nd\re\rf\n", "cr.txt")
    assert got.segments == ("a b", "c", "d e f")
    assert got.notes == (
        "Windows line endings (CRLF) were converted to LF on 1 line.",
        "3 lone carriage returns (CR) inside lines were kept as spaces (the first on line 1).",
    )


def test_old_mac_line_endings():
    got = read_text(b"a\rb\rc\r", "mac.txt")
    assert got.segments == ("a", "b", "c")
    assert "old Mac line endings" in got.notes[0]


def test_unicode_separators_stay_inside_lines():
    text = "eins\u2028zwei\nnext\x85line\nv\x0btab\nfs\x1cgs\x1d\nff\x0c\npara\u2029x\n"
    got = read_text(text.encode("utf-8"), "sep.txt")
    assert got.segments == ("eins\u2028zwei", "next\x85line", "v\x0btab", "fs\x1cgs\x1d", "ff\x0c",
                            "para\u2029x")
    # str.splitlines would make 13 lines: 6 LF lines + 7 separators (one empty line each after
    # the separators that end "fs\x1cgs\x1d" and "ff\x0c")
    assert len(text.splitlines()) == 13
    assert len(got.notes) == 1 and "6 lines (the first: line 1)" in got.notes[0]
    for code in ("U+2028", "U+0085", "U+000B", "U+001C", "U+001D", "U+000C", "U+2029"):
        assert code in got.notes[0]


def test_html_in_names_and_text_kept_as_text():
    name = '<script>alert(1)</script><img src=x onerror="alert(2)">.txt'
    got = read_text(b"<b>bold</b> & <i>x</i>\n", name)
    assert got.name == name and got.segments == ("<b>bold</b> & <i>x</i>",)
    message = read_error(read_text, b"", name)
    assert message.startswith(name)


def test_large_file_300k_lines():
    lines = [f"segment {i} with some words ." if i % 7 else "" for i in range(300_000)]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    got = read_text(data, "big.txt")
    assert len(got.segments) == 300_000 and list(got.segments) == lines
    assert got.notes[0].startswith("42,858 segments are empty")  # i % 7 == 0: ceil(300000 / 7)


# --- size limit ------------------------------------------------------------------------------

def test_size_limit():
    assert MAX_UPLOAD_MB == 200
    check_size(bytes(200 * 2**20), "ok.txt")  # exactly the limit is allowed
    message = read_error(check_size, bytes(250 * 2**20), "x.txt")
    assert message == ("x.txt is 250 MB; the limit is 200 MB. Split the file, or load fewer "
                       "segments.")
    message = read_error(check_size, bytes(200 * 2**20 + 1), "y.txt")
    assert "is 200.1 MB; the limit is 200 MB" in message  # rounded up, never "200 MB"
    with pytest.raises(ReadError, match="is 2 MB; the limit is 1 MB"):
        check_size(b"a\n" * 2**20, "z.txt", limit_mb=1)


def test_read_any_checks_size():
    with pytest.raises(ReadError, match="the limit is 200 MB"):
        read_any(bytes(201 * 2**20), "huge.txt")


# --- TSV / CSV -------------------------------------------------------------------------------

TSV = b'doc\tsrc\thyp\nd1\tHallo "Welt"\tHello "world"\nd1\tZwei\tTwo\nd2\t\t\n'


def test_tsv_columns_and_doc_ids():
    assert table_columns(TSV, "x.tsv") == ("doc", "src", "hyp")
    got = read_table(TSV, "x.tsv", column="hyp", doc_column="doc")
    assert got.segments == ('Hello "world"', "Two", "")
    assert got.doc_ids == ("d1", "d1", "d2")
    assert "(the first on line 4)" in got.notes[0]


def test_tsv_missing_column_lists_columns():
    message = read_error(read_table, TSV, "x.tsv", column="ref")
    assert "no column 'ref'" in message and "'doc', 'src', 'hyp'" in message
    message = read_error(read_table, TSV, "x.tsv")
    assert "3 columns" in message and "choose" in message
    message = read_error(read_table, TSV, "x.tsv", column="hyp", doc_column="docid")
    assert "no column 'docid'" in message


def test_tsv_ragged_row_names_line():
    data = b"a\tb\n1\t2\n3\n4\t5\t6\n"
    message = read_error(read_table, data, "r.tsv", column="a")
    assert "line 3 has 1 field," in message and "header has 2" in message
    message = read_error(read_table, b"a\tb\n1\t2\n\n3\t4\n", "r.tsv", column="a")
    assert "line 3 is empty" in message


def test_table_header_only_and_duplicate_columns():
    assert "no rows" in read_error(read_table, b"a\tb\n", "h.tsv", column="a")
    message = read_error(table_columns, b"a\tb\ta\n1\t2\t3\n", "d.tsv")
    assert "'a' twice" in message and "columns 1 and 3" in message


def test_single_column_table_needs_no_choice_and_keeps_empty_rows():
    got = read_table(b"text\nHello\n\nWorld\n", "one.csv")
    assert got.segments == ("Hello", "", "World")


def test_csv_quotes_commas_and_newlines():
    data = b'id,text\r\n1,"Hello, ""world"""\r\n2,"two\nlines"\r\n'
    got = read_table(data, "q.csv", column="text", doc_column="id")
    assert got.segments == ('Hello, "world"', "two\nlines")
    assert got.doc_ids == ("1", "2")


def test_csv_unclosed_quote_names_the_record_start():
    message = read_error(read_table, b'id,text\n1,ok\n2,"never closed\n3,x\n', "q.csv",
                         column="text")
    assert "starts on line 3" in message and "quotes" in message


def test_delimiter_sniffed_from_extension_or_header():
    assert table_columns(b"a;b\n1;2\n", "semi.csv") == ("a", "b")
    assert table_columns(b"a,b\n1,2\n", "comma.txt") == ("a", "b")
    assert table_columns(b"a\tb,c\n1\t2\n", "tab.dat") == ("a", "b,c")
    assert table_columns(b"a,b\tc\n1,2\tx\n", "x.tsv") == ("a,b", "c")
    assert table_columns(b"a|b\n1|2\n", "p.txt", delimiter="|") == ("a", "b")


def test_bad_delimiter_is_an_option_error():
    for delimiter in ("", "ab", "\n", '"'):
        with pytest.raises(UnknownOptionError):
            read_table(b"a\n1\n", "x.csv", delimiter=delimiter)


def test_real_tsv_reads_and_the_mqm_header_quirk_is_reported():
    path = DATA_DIR / "wmt21_newstest2021_en-de" / "automatic-scores.en-de.tsv"
    lines = read_lines(path)
    got = read_table(path.read_bytes(), path.name, column="metric", doc_column="system")
    assert got.segments == tuple(line.split("\t")[4] for line in lines[1:])
    assert got.doc_ids == tuple(line.split("\t")[1] for line in lines[1:])
    # MANIFEST.md: this header is space-separated while its rows are tab-separated
    mqm = DATA_DIR / "wmt21_newstest2021_en-de" / "mqm_newstest2021_ende.avg_seg_scores.tsv"
    message = read_error(read_table, mqm.read_bytes(), mqm.name)
    assert "line 2 has 2 fields, but the header has 1" in message


# --- JSON Lines ------------------------------------------------------------------------------

def test_jsonl_fields_and_read():
    data = (b'{"doc": "d1", "src": "Hallo", "hyp": "Hello"}\n'
            b'{"doc": "d2", "src": "Welt", "hyp": "World", "extra": 1}\n')
    assert jsonl_fields(data, "x.jsonl") == ("doc", "src", "hyp", "extra")
    got = read_jsonl(data, "x.jsonl", field="hyp", doc_field="doc")
    assert got.segments == ("Hello", "World") and got.doc_ids == ("d1", "d2")
    assert "text fields ('doc', 'src', 'hyp')" in read_error(read_jsonl, data, "x.jsonl")


def test_jsonl_default_field_and_nested_fields():
    assert read_jsonl(b'{"text": "a", "id": 7}\n{"text": "b", "id": 8}\n',
                      "t.jsonl").segments == ("a", "b")
    data = b'{"translation": {"de": "Hallo", "en": "Hello"}}\n'
    assert jsonl_fields(data, "hf.jsonl") == ("translation.de", "translation.en")
    assert read_jsonl(data, "hf.jsonl", field="translation.en").segments == ("Hello",)


def test_jsonl_blank_lines_skipped_with_note():
    got = read_jsonl(b'{"text": "a"}\n\n  \n{"text": ""}\n', "b.jsonl")
    assert got.segments == ("a", "")
    assert got.notes[0] == "2 blank lines were skipped (they hold no record)."
    assert "(the first on line 4)" in got.notes[1]


@pytest.mark.parametrize(("data", "expected"), [
    (b'{"text": "a"}\n{"text": "b"\n', "line 2 is not valid JSON: Expecting ',' delimiter"),
    (b'{"text": "a"}\nnot json\n', "line 2 is not valid JSON: Expecting value (column 1)"),
    (b'{"text": "a"}\n["a"]\n', "line 2 holds a JSON array, not an object"),
    (b'{"text": "a"}\n{"txt": "b"}\n', "line 2 has no field 'text' (its fields: 'txt')"),
    (b'{"text": "a"}\n{"text": null}\n', "line 2: field 'text' holds a JSON null"),
    (b'{"text": "a"}\n{"text": 3}\n', "line 2: field 'text' holds a JSON number"),
    (b'[' * 50_000 + b']' * 50_000 + b"\n", "line 1 is nested too deeply"),
])
def test_jsonl_bad_lines(data, expected):
    assert expected in read_error(read_jsonl, data, "bad.jsonl", field="text")


def test_jsonl_integer_beyond_pythons_digit_limit():
    data = b'{"text": "a", "n": ' + b"1" * 5000 + b"}\n"
    message = read_error(read_jsonl, data, "big.jsonl")
    assert "line 1 cannot be read" in message and "4300 digits" in message


def test_jsonl_numeric_doc_ids_become_strings():
    got = read_jsonl(b'{"t": "a", "d": 1}\n{"t": "b", "d": 2.5}\n', "n.jsonl", field="t",
                     doc_field="d")
    assert got.doc_ids == ("1", "2.5")


# --- WMT XML ---------------------------------------------------------------------------------

def wmt_xml(docs: list[dict], testsuite: bool = True) -> bytes:
    """A WMT21-style test set: per doc, src segs, refs by translator, hyps by system."""
    def segs(texts: dict[int, str]) -> str:
        return "<p>" + "".join(f'<seg id="{i}">{escape(t)}</seg>'
                               for i, t in texts.items()) + "</p>"
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n<dataset id="test">\n'
             '<collection id="general">\n']
    for doc in docs:
        parts.append(f'<doc id={quoteattr(doc["id"])} origlang="en">\n')
        parts.append(f'<src lang="en">{segs(doc["src"])}</src>\n')
        for translator, texts in doc["refs"].items():
            parts.append(f'<ref lang="de" translator="{translator}">{segs(texts)}</ref>\n')
        for system, texts in doc["hyps"].items():
            parts.append(f'<hyp lang="de" system={quoteattr(system)}>{segs(texts)}</hyp>\n')
        parts.append("</doc>\n")
    if testsuite:
        parts.append('<doc id="ts1" origlang="en" testsuite="yes"><src lang="en"><p>'
                     '<seg id="1">suite</seg></p></src></doc>\n')
    parts.append("</collection>\n</dataset>\n")
    return "".join(parts).encode("utf-8")


DOCS = [
    {"id": "doc-1",
     "src": {1: "Hello world.", 2: "Fish & chips <cheap>.", 3: "No reference here."},
     "refs": {"A": {1: "Hallo Welt.", 2: "Fisch & Chips <billig>.", 3: ""},
              "B": {1: "Hallo,  Welt. ", 2: "Fish and Chips."}},
     "hyps": {"sysX": {1: "Hallo Welt.", 2: "Fisch und Pommes.", 3: "Kein."},
              "sys<Y>": {1: "Guten Tag.", 2: "Fisch & Chips.", 3: "Nein."}}},
    {"id": "doc-2",
     "src": {2: "Second.", 1: "First."},
     "refs": {"A": {1: "Erstens.", 2: "Zweitens."}, "B": {1: "Erste.", 2: "Zweite."}},
     "hyps": {"sysX": {1: "Erst.", 2: "Zweit."}, "sys<Y>": {1: "Eins.", 2: "Zwei."}}},
]


def test_wmt_xml_streams_match_sacrebleus_reader(tmp_path):
    data = wmt_xml(DOCS)
    got = read_wmt_xml(data, "wmt.xml")
    path = tmp_path / "wmt.xml"
    path.write_bytes(data)
    oracle = WMTXMLDataset._unwrap_wmt21_or_later(str(path))
    def clean(texts):
        return tuple(" ".join(t.split()) for t in texts)
    assert got.source is not None and got.source.segments == clean(oracle["src"])
    assert got.source.doc_ids == tuple(oracle["docid"])
    assert set(got.references) == {"A", "B"} and set(got.systems) == {"sysX", "sys<Y>"}
    for translator, ref in got.references.items():
        assert ref.segments == clean(oracle[f"ref:{translator}"])
    for system, hyp in got.systems.items():
        assert hyp.segments == clean(oracle[system])
    # and by hand: doc-1 seg 3 has no reference and is left out; doc-2 is sorted by seg id
    assert got.source.segments == ("Hello world.", "Fish & chips <cheap>.", "First.", "Second.")
    assert got.references["B"].segments == ("Hallo, Welt.", "Fish and Chips.", "Erste.", "Zweite.")
    assert got.systems["sys<Y>"].doc_ids == ("doc-1", "doc-1", "doc-2", "doc-2")
    assert (got.source_lang, got.target_lang) == ("en", "de")
    assert any("test-suite" in note for note in got.notes)
    assert any("1 source segments that no reference translates" in n for n in got.notes)
    assert set(got.streams()) == {"src", "ref:A", "ref:B", "hyp:sysX", "hyp:sys<Y>"}
    assert read_any(data, "wmt.xml", stream="hyp:sysX") == got.systems["sysX"]
    assert "'hyp:sysX'" in read_error(read_any, data, "wmt.xml")


def test_wmt_xml_missing_reference_segment_reads_empty_with_note():
    docs = [{"id": "d", "src": {1: "a", 2: "b"}, "refs": {"A": {1: "x", 2: "y"}, "B": {1: "z"}},
             "hyps": {}}]
    got = read_wmt_xml(wmt_xml(docs, testsuite=False), "m.xml")
    assert got.references["B"].segments == ("z", "")
    assert "lacks 1 segments" in got.references["B"].notes[0]


def test_wmt_xml_system_missing_a_segment_refused():
    docs = [{"id": "d7", "src": {1: "a", 2: "b"}, "refs": {"A": {1: "x", 2: "y"}},
             "hyps": {"S": {1: "h"}}}]
    message = read_error(read_wmt_xml, wmt_xml(docs, testsuite=False), "s.xml")
    # line 7: declaration, <dataset>, <collection>, <doc>, <src>, <ref>, then the <hyp>
    assert "system 'S' has no segment 2 in document 'd7' (at line 7)" in message


def test_wmt_xml_bad_structure():
    assert "no <doc> elements" in read_error(read_wmt_xml, b"<html><p>x</p></html>", "h.xml")
    message = read_error(read_wmt_xml, b'<dataset><doc id="d">\n<src lang="en"><seg id="x">a'
                                       b"</seg></src></doc></dataset>", "i.xml")
    assert "id 'x'" in message and "line 2" in message
    two = (b'<dataset><doc id="d"><src lang="en"><seg id="1">a</seg>\n<seg id="1">b</seg>'
           b"</src></doc></dataset>")
    assert "two segments with id 1" in read_error(read_wmt_xml, two, "t.xml")
    langs = b'<dataset><doc id="d"><src lang="en"/></doc><doc id="e"><src lang="fr"/></doc>' \
            b"</dataset>"
    assert "several languages" in read_error(read_wmt_xml, langs, "l.xml")


def test_wmt_xml_malformed_gives_line_and_column():
    message = read_error(read_wmt_xml, b'<dataset>\n<doc id="a">\n  <src></doc>\n</dataset>',
                         "bad.xml")
    assert "mismatched tag at line 3, column 10" in message


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<dataset><doc id="d"><src lang="en"><p><seg id="1">&lol9;</seg></p></src></doc></dataset>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE dataset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<dataset><doc id="d"><src lang="en"><p><seg id="1">&xxe;</seg></p></src></doc></dataset>
"""


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL_ENTITY,
                                  b'<!DOCTYPE dataset SYSTEM "http://example.org/x.dtd">'
                                  b"<dataset/>"])
def test_wmt_xml_dtds_and_entities_refused(data):
    message = read_error(read_wmt_xml, data, "evil.xml")
    assert "DTD" in message and "refused for safety" in message


def test_wmt_xml_undefined_entity_is_malformed():
    message = read_error(read_wmt_xml, b"<dataset>&xxe;</dataset>", "u.xml")
    assert "undefined entity at line 1" in message


def test_wmt_xml_declared_latin1_and_bad_utf8():
    xml = '<?xml version="1.0" encoding="ISO-8859-1"?><dataset><doc id="d"><src lang="de">' \
          '<p><seg id="1">Straße</seg></p></src></doc></dataset>'
    got = read_wmt_xml(xml.encode("latin-1"), "l1.xml")
    assert got.source is not None and got.source.segments == ("Straße",)
    undeclared = xml.replace(' encoding="ISO-8859-1"', "").encode("latin-1")
    assert "not valid UTF-8: line 1" in read_error(read_wmt_xml, undeclared, "l1.xml")


def test_wmt_xml_declared_encoding_unknown_or_not_text():
    for codec in ("nope", "rot13"):
        data = f'<?xml version="1.0" encoding="{codec}"?><dataset/>'.encode()
        assert f"declares the encoding '{codec}', which is unknown" in read_error(
            read_wmt_xml, data, "e.xml")
    data = b'<?xml version="1.0" encoding="idna"?><dataset/>\xff'
    assert "cannot be decoded as idna" in read_error(read_wmt_xml, data, "e.xml")


def test_read_any_names_a_missing_stream():
    message = read_error(read_any, wmt_xml(DOCS), "wmt.xml", stream="hyp:nobody")
    assert "has no stream 'hyp:nobody'; it holds the streams 'src', 'ref:A'" in message


# --- SGML ------------------------------------------------------------------------------------

def test_sgml_segments_and_doc_ids():
    data = (b'<refset setid="newstest" srclang="any" trglang="de">\n'
            b'<doc sysid="ref" docid="abc-1" genre="news" origlang="en">\n<p>\n'
            b'<seg id="1">Hallo  Welt &amp; mehr </seg>\n<seg id="2">Zwei</seg>\n</p>\n</doc>\n'
            b'<doc sysid="ref" docid="abc-2">\n<seg id="1">Drei</seg>\n</doc>\n</refset>\n')
    got = read_sgml(data, "x.sgm")
    assert got.segments == ("Hallo Welt &amp; mehr", "Zwei", "Drei")  # entities as sacrebleu
    assert got.doc_ids == ("abc-1", "abc-1", "abc-2")
    assert read_any(data, "x.sgm") == got
    assert "line 2 opens a <seg>" in read_error(read_sgml, b"<doc docid='a'>\n<seg id=1>x\n",
                                                 "y.sgm")
    assert "no <seg> lines" in read_error(read_sgml, b"<doc>\n</doc>\n", "z.sgm")


# --- dispatch --------------------------------------------------------------------------------

def test_detect_format():
    assert detect_format("a.TSV", b"") == "tsv" and detect_format("a.csv", b"") == "csv"
    assert detect_format("a.jsonl", b"") == "jsonl" and detect_format("a.xml", b"") == "wmt-xml"
    assert detect_format("a.sgm", b"") == "sgml" and detect_format("a.de", b"x") == "text"
    assert detect_format("noext", b'\xef\xbb\xbf<?xml version="1.0"?>') == "wmt-xml"
    assert detect_format("x.en", b"<srcset setid='x'>") == "sgml"
    assert set(FORMATS) == {"text", "tsv", "csv", "jsonl", "wmt-xml", "sgml"}


def test_read_any_dispatches_and_ignores_options_of_other_formats():
    assert read_any(b"a\tb\n", "x.txt", column="hyp").segments == ("a\tb",)
    assert read_any(b"h\tr\n1\t2\n", "x.tsv", column="r").segments == ("2",)
    assert read_any(b"h\tr\n1\t2\n", "x.txt", format="tsv", column="h").segments == ("1",)
    assert read_any(b'{"t": "a"}\n', "x.jsonl", field="t").segments == ("a",)
    assert read_any("é\n".encode("latin-1"), "x.txt", encoding="latin-1").segments == ("é",)
    with pytest.raises(UnknownOptionError):
        read_any(b"a\n", "x.txt", format="docx")


# --- checks across files ---------------------------------------------------------------------

def test_check_aligned_lists_every_file():
    check_aligned([])
    check_aligned([text_file("a", ["1", "2"]), text_file("b", ["x", "y"])])
    files = [text_file("ref.de", ["1"] * 1002), text_file("sysA.de", ["1"] * 1002),
             text_file("sysB.de", ["1"] * 1001), text_file("src.en", ["1"] * 3)]
    with pytest.raises(LengthMismatchError) as caught:
        check_aligned(files)
    message = str(caught.value)
    assert isinstance(caught.value, InputError)
    assert ("ref.de: 1,002; sysA.de: 1,002; sysB.de: 1,001 (differs); src.en: 3 (differs)"
            in message)
    assert "as the first, ref.de (1,002)" in message


def test_unique_names():
    assert unique_names(["a", "b"]) == ["a", "b"]
    assert unique_names(["a", "a", "a"]) == ["a", "a (2)", "a (3)"]
    assert unique_names(["a", "a", "a (2)"]) == ["a", "a (3)", "a (2)"]
    assert unique_names(["<b>x</b>", "<b>x</b>"]) == ["<b>x</b>", "<b>x</b> (2)"]
    assert duplicate_name_note("sys", "sys (2)") == ("Another file is already named 'sys'; this "
                                                     "one is shown as 'sys (2)'.")


def test_similarity_to_reference():
    ref = text_file("ref", ["a b", "c", "", "d", "e"])
    system = text_file("sys", ["a  b ", "c", "", "x", "e"])
    # lines 1, 2, 5 equal (whitespace-insensitive); line 3 (empty reference) is not counted
    assert similarity_to_reference(system, ref) == 3 / 4
    assert identical_lines_note(system, ref) == ("sys is identical to the reference ref on 75% "
                                                 "of lines: is it the reference uploaded as a "
                                                 "system (or the reverse)?")
    assert identical_lines_note(system, ref, threshold=0.8) is None
    assert similarity_to_reference(text_file("s", [""]), text_file("r", [""])) == 0.0
    with pytest.raises(LengthMismatchError):
        similarity_to_reference(text_file("s", ["a"]), text_file("r", ["a", "b"]))


@pytest.mark.full_data
def test_similarity_on_real_data():
    """WMT22 en-zh reference B copies Online-B on many lines (MANIFEST.md says 374 of 2037;
    an exact line comparison, done here with plain Python, finds 373; no reference is empty)."""
    folder = SHARED_DATA / "wmt22_generaltest2022_en-zh"
    ref_lines = read_lines(folder / "generaltest2022.en-zh.ref.B.zh")
    sys_lines = read_lines(folder / "generaltest2022.en-zh.hyp.Online-B.zh")
    same = sum(h == r for h, r in zip(sys_lines, ref_lines, strict=True))
    assert same == 373 and all(r.strip() for r in ref_lines)
    ref, system = text_file("ref B", ref_lines), text_file("Online-B", sys_lines)
    assert similarity_to_reference(system, ref) == same / 2037
    assert identical_lines_note(system, ref) is None  # 18% is not "most lines"


def test_looks_tokenized():
    assert looks_tokenized(["Hello world ."] * 100)
    assert not looks_tokenized(["Hello world ."] * 4)
    assert looks_tokenized(["Hello world ."] * 5 + ["Hello world."] * 5)
    assert not looks_tokenized(["Hello world ."] * 5 + ["Hello world."] * 6)
    assert looks_tokenized(["Hello world ."] * 100 + ["x"] * 10_000)  # sacrebleu's count rule
    folder = DATA_DIR / "compare-mt_ted_sk-en"
    assert looks_tokenized(read_lines(folder / "ted.sys1.eng"))
    assert not looks_tokenized(read_lines(folder / "ted.sys1.detok.eng"))


def _warnings_of(logger: str, call) -> list[str]:
    """The warnings ``call()`` logs through ``logger`` (a handler of its own: hypothesis
    runs many examples in one test, so caplog's per-test capture does not fit)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append  # type: ignore[method-assign]
    logging.getLogger(logger).addHandler(handler)
    try:
        call()
    finally:
        logging.getLogger(logger).removeHandler(handler)
    return [record.getMessage() for record in records]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a b .", "a b.", "", " .", "x"]), min_size=1, max_size=230))
@example(["a b ."] * 99)  # sacrebleu's edge: silent; the note's short-file part: tokenized
@example(["a b ."] * 100)
@example(["a b ."] * 100 + ["a b."] * 300)
def test_one_tokenized_rule_whose_first_part_is_sacrebleus_warning(lines: list[str]) -> None:
    """The data note and BLEU's warning come from one rule (bleu.metrics.bleu.engine): BLEU
    warns exactly where sacrebleu's corpus_bleu warns, and wherever it does, the note does."""
    from bleu.metrics.bleu import engine

    assert looks_tokenized is engine.looks_tokenized
    ours = _warnings_of("bleu", lambda: bleu.corpus_bleu(lines, [lines]))
    theirs = _warnings_of("sacrebleu", lambda: sacrebleu.corpus_bleu(lines, [lines]))
    assert bool(ours) == any("tokenized period" in message for message in theirs)
    assert not ours or looks_tokenized(lines)


# --- real data -------------------------------------------------------------------------------

TEXT_FILES = sorted(p for p in DATA_DIR.glob("*/*")
                    if p.suffix not in (".tsv", ".json", ".gz", ".md") and p.is_file())


def test_real_text_files_found():
    assert len(TEXT_FILES) == 7 + 3 + 17 + 24 + 10 + 12 + 16 + 15  # MANIFEST.md's counts


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda p: p.name)
def test_real_text_files_round_trip(path):
    got = read_text(path.read_bytes(), path.name)
    lines = read_lines(path)
    if path.name == "newstest2017.online-A.0.en-de.de":  # MANIFEST: starts with U+FEFF
        assert lines[0].startswith("\ufeff")
        lines[0] = lines[0][1:]
        assert got.notes[0] == "A UTF-8 byte-order mark (BOM) at the start was removed."
    assert list(got.segments) == lines


def test_a_lone_surrogate_escape_in_json_lines_is_read_as_a_replacement_character():
    """``{"text": "\\ud800"}`` is valid JSON for no character: kept, it broke the Data and
    Sentences pages (no text with it can be encoded); read as U+FFFD, with a note."""
    from bleu.io.jsonl import jsonl_fields, read_jsonl
    from bleu.io.model import segments_key

    data = (b'{"text": "fine"}\n{"text": "a \\ud800 b", "\\udfff": "x"}\n'
            b'{"text": "\\ud83d\\ude00 pair"}\n')
    got = read_jsonl(data, "lone.jsonl", field="text")
    assert got.segments == ("fine", "a \ufffd b", "\U0001F600 pair")
    assert got.notes == ("2 lone surrogate escapes (such as \\ud800, which are no characters; "
                         "the first on line 2) were read as U+FFFD (\ufffd).",)
    assert "\ufffd" in jsonl_fields(data, "lone.jsonl")
    for segment in got.segments:
        segment.encode("utf-8")  # strict: every segment is text now
    assert segments_key(got.segments)

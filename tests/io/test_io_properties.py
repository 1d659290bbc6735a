"""Fuzzing the readers: any bytes give a TextFile or a ReadError, never another exception, and
text written as UTF-8 (or TSV, JSON Lines, WMT XML) is read back exactly."""

from __future__ import annotations

import json
from xml.sax.saxutils import escape

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sacrebleu.dataset.wmt_xml import WMTXMLDataset

from bleu.errors import ReadError
from bleu.io import (
    FORMATS,
    TextFile,
    WMTDocumentSet,
    detect_format,
    jsonl_fields,
    read_any,
    read_jsonl,
    read_sgml,
    read_table,
    read_text,
    read_wmt_xml,
    table_columns,
)

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Starts that make bytes binary by their magic numbers, or a byte-order mark.
_PREFIXES = (b"\x89PNG", b"PK", b"\x1f\x8b", b"%PDF-", b"GIF8", b"BZh", b"\xef\xbb\xbf", b"\x7fELF",
             b"SQLite", b"PAR1", b"7z", b"(\xb5/\xfd", b"\xfd7zXZ")

# Byte soup that looks like each format often enough to reach past the first check.
_PIECES = st.sampled_from([b"\n", b"\r", b"\r\n", b"\t", b",", b";", b'"', b"{", b"}", b":", b"[",
                           b'{"text": "a"}', b"<seg id=\"1\">", b"</seg>", b"<doc id=\"d\">",
                           b"</doc>", b"<dataset>", b"<src lang=\"en\">", b"</src>", b"&amp;",
                           b"&x;", b"<!DOCTYPE x>", b"\x00", b"\xff", b"\xc3\xa9", b"\xef\xbb\xbf",
                           b"\xff\xfe", b"\xe2\x80\xa8", b" ", b"a", b"text",
                           *(b'<?xml version="1.0" encoding="%s"?>' % codec for codec in (
                               b"utf-8", b"latin-1", b"utf-16", b"utf-32", b"ascii", b"cp1252",
                               b"idna", b"punycode", b"utf-7", b"rot13", b"nope"))])
FUZZ_BYTES = st.one_of(st.binary(max_size=300),
                       st.lists(_PIECES, max_size=40).map(b"".join))

NAMES = ["x.txt", "x.tsv", "x.csv", "x.jsonl", "x.xml", "x.sgm", "x.de", ""]


def only_read_errors(call, *args, **kwargs):
    """Call a reader: it may return or raise ReadError; anything else fails the property."""
    try:
        return call(*args, **kwargs)
    except ReadError as error:
        assert str(error)
        return None


@FUZZ
@given(data=FUZZ_BYTES, name=st.sampled_from(NAMES), latin1=st.booleans())
def test_any_bytes_read_or_read_error(data, name, latin1):
    encoding = "latin-1" if latin1 else "utf-8"
    assert detect_format(name, data) in FORMATS
    for reader in (read_text, read_table, read_jsonl, read_sgml, read_any):
        got = only_read_errors(reader, data, name, encoding=encoding)
        assert got is None or isinstance(got, TextFile)
        if got is not None:
            assert all(isinstance(s, str) for s in got.segments) and got.segments
    got = only_read_errors(read_wmt_xml, data, name)
    assert got is None or isinstance(got, WMTDocumentSet)
    for lister in (table_columns, jsonl_fields):
        columns = only_read_errors(lister, data, name, encoding=encoding)
        assert columns is None or all(isinstance(c, str) for c in columns)


@FUZZ
@given(text=st.text(max_size=200), name=st.sampled_from(NAMES))
def test_any_unicode_read_or_read_error(text, name):
    for codec in ("utf-8", "utf-16", "utf-16-le"):
        data = text.encode(codec, errors="surrogatepass")
        for reader in (read_text, read_table, read_jsonl, read_sgml, read_any, read_wmt_xml):
            only_read_errors(reader, data, name)


def expected_lines(text: str) -> list[str]:
    """Written out: split on LF only, and drop the one empty string after a final LF."""
    lines = text.split("\n")
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


PLAIN = st.text(st.characters(blacklist_characters="\r\x00", blacklist_categories=("Cs",)),
                min_size=1, max_size=300)


@FUZZ
@given(text=PLAIN)
def test_utf8_text_reads_back_its_lines(text):
    data = text.encode("utf-8")
    assume(text.strip() and not data.startswith(_PREFIXES))
    got = read_text(data, "t.txt")
    assert list(got.segments) == expected_lines(text)
    assert read_text(text.encode("utf-16"), "t16.txt").segments == got.segments


@FUZZ
@given(lines=st.lists(st.text(st.characters(blacklist_characters="\r\n\x00",
                                            blacklist_categories=("Cs",)), max_size=30),
                      min_size=1, max_size=30),
       newline=st.sampled_from(["\n", "\r\n"]), final=st.booleans())
def test_lines_survive_crlf_and_final_newline(lines, newline, final):
    text = newline.join(lines) + (newline if final else "")
    data = text.encode("utf-8")
    assume(text.strip() and not data.startswith(_PREFIXES))
    got = read_text(data, "c.txt")
    assert list(got.segments) == expected_lines(text.replace("\r\n", "\n"))
    assert any("CRLF" in note for note in got.notes) == ("\r\n" in text)


CELL = st.text(st.characters(blacklist_characters="\t\r\n\x00", blacklist_categories=("Cs",)),
               max_size=20)


@FUZZ
@given(rows=st.lists(st.tuples(CELL, CELL), min_size=1, max_size=20))
def test_tsv_reads_back_its_cells(rows):
    text = "doc\ttext\n" + "".join(f"{d}\t{t}\n" for d, t in rows)
    got = read_table(text.encode("utf-8"), "t.tsv", column="text", doc_column="doc")
    assert got.segments == tuple(t for _, t in rows)
    assert got.doc_ids == tuple(d for d, _ in rows)


@FUZZ
@given(values=st.lists(st.text(max_size=30), min_size=1, max_size=20))
def test_jsonl_reads_back_its_strings(values):
    data = "".join(json.dumps({"id": i, "text": v}) + "\n" for i, v in enumerate(values))
    got = read_jsonl(data.encode("utf-8"), "j.jsonl", field="text", doc_field="id")
    assert got.segments == tuple(values)
    assert got.doc_ids == tuple(str(i) for i in range(len(values)))


XML_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"),
                                 blacklist_characters="\ufffe\uffff"), min_size=1, max_size=20)


@FEW
@given(segments=st.lists(st.tuples(XML_TEXT, XML_TEXT, XML_TEXT), min_size=1, max_size=8))
def test_wmt_xml_agrees_with_sacrebleu(tmp_path_factory, segments):
    body = "".join(f'<seg id="{i}">{escape(t)}</seg>' for i, (t, _, _) in enumerate(segments, 1))
    ref = "".join(f'<seg id="{i}">{escape(t)}</seg>' for i, (_, t, _) in enumerate(segments, 1))
    hyp = "".join(f'<seg id="{i}">{escape(t)}</seg>' for i, (_, _, t) in enumerate(segments, 1))
    data = (f'<dataset><collection><doc id="d" origlang="en"><src lang="en"><p>{body}</p></src>'
            f'<ref lang="de" translator="A"><p>{ref}</p></ref><hyp lang="de" system="S"><p>'
            f"{hyp}</p></hyp></doc></collection></dataset>").encode()
    path = tmp_path_factory.mktemp("xml") / "t.xml"
    path.write_bytes(data)
    oracle = WMTXMLDataset._unwrap_wmt21_or_later(str(path))
    got = read_wmt_xml(data, "t.xml")
    def clean(texts):
        return tuple(" ".join(t.split()) for t in texts)
    assert got.references["A"].segments == clean(oracle["ref:A"])
    assert got.systems["S"].segments == clean(oracle["S"])
    assert got.source is not None and got.source.segments == clean(oracle["src"])

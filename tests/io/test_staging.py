"""Files dropped at once: roles guessed from names, streams read, assembled as the table says."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR

from bleu.errors import InputError, ReadError
from bleu.io.staging import assemble_staged, guess_role, stage_file

WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"


@pytest.mark.parametrize(("name", "role"), [
    ("newstest2021.en-de.hyp.Online-W.de", "system"),
    ("newstest2021.en-de.ref.A.de", "reference"),
    ("newstest2021.en-de.src.en", "source"),
    ("newstest2017.en-de.ref.de", "reference"),  # WMT17: no translator letter
    ("newstest2017.C-3MA.4959.en-de.de", "system"),
    ("ted.ref.eng", "reference"), ("ted.sys1.eng", "system"), ("ted.orig.slk", "source"),
    ("refA.de", "reference"), ("refb.txt", "reference"), ("ref-c.txt", "reference"),
    ("references.txt", "reference"), ("gold.de", "reference"), ("my_target.txt", "reference"),
    ("source.txt", "source"), ("input.en", "source"),
    ("prefix-model.de", "system"),  # "ref" inside a word is no reference
    ("baseline.txt", "system"), ("hyp_a", "system"), ("ref", "reference"), ("src", "source"),
])
def test_roles_are_guessed_from_names(name: str, role: str) -> None:
    assert guess_role(name) == role


def test_a_wmt_folder_dropped_at_once_loads_as_the_table_says() -> None:
    names = ["newstest2021.en-de.hyp.UEdin.de", "newstest2021.en-de.hyp.Online-W.de",
             "newstest2021.en-de.ref.A.de", "newstest2021.en-de.ref.C.de",
             "newstest2021.en-de.src.en"]
    streams = [s for name in names for s in stage_file((WMT21 / name).read_bytes(), name)]
    assert [(s.role, s.name) for s in streams] == [
        ("system", "UEdin"), ("system", "Online-W"), ("reference", names[2]),
        ("reference", names[3]), ("source", names[4])]
    data = assemble_staged(streams)
    assert list(data.systems) == ["UEdin", "Online-W"] and data.n_refs == 2
    assert data.source is not None and data.n_segments == 100
    assert data.target_language == "de"


def test_table_columns_are_streams_and_a_document_column_is_not() -> None:
    text = "doc\tsrc\tref\thyp_a\thyp_b\nd1\tHallo\tHello\tHi\tHello\nd1\tJa\tYes\tYes\tYe\n"
    streams = stage_file(text.encode(), "both.tsv")
    assert [(s.role, s.name) for s in streams] == [
        ("source", "src"), ("reference", "ref"), ("system", "hyp_a"), ("system", "hyp_b")]
    assert all(s.file.doc_ids == ("d1", "d1") for s in streams)
    assert streams[2].file.name == "both.tsv [hyp_a]" and streams[2].segments == 2


def test_wmt_xml_gives_its_own_roles() -> None:
    xml = ('<?xml version="1.0" encoding="utf-8"?><dataset id="t"><collection id="c">'
           '<doc id="d1" origlang="en"><src lang="en"><p><seg id="1">Good.</seg></p></src>'
           '<ref lang="de" translator="A"><p><seg id="1">Gut.</seg></p></ref>'
           '<hyp system="S1" language="de"><p><seg id="1">Gut so.</seg></p></hyp></doc>'
           '</collection></dataset>')
    streams = stage_file(xml.encode(), "test.en-de.xml")
    assert [(s.role, s.name) for s in streams][0::2] == [("source", "source"), ("system", "S1")]
    assert streams[1].role == "reference" and streams[2].language == "de"


def test_missing_roles_and_two_sources_are_refused_with_what_to_do() -> None:
    hyp = stage_file(b"a b\n", "sys.txt")
    ref = stage_file(b"a c\n", "ref.txt")
    with pytest.raises(InputError, match="No reference among the files"):
        assemble_staged(hyp)
    with pytest.raises(InputError, match="No system output among the files"):
        assemble_staged(ref)
    two = [*hyp, *ref, *stage_file(b"x\n", "src.txt"), *stage_file(b"y\n", "source.txt")]
    with pytest.raises(InputError, match=r"2 streams have the role 'source'.*'ignore'"):
        assemble_staged(two)


def test_a_bad_file_names_itself() -> None:
    with pytest.raises(ReadError, match=r"latin\.txt is not valid UTF-8: line 2"):
        stage_file("ok\nna\u00efve\n".encode("latin-1"), "latin.txt")
    assert stage_file("ok\nna\u00efve\n".encode("latin-1"), "latin.txt",
                      "latin-1")[0].file.segments == ("ok", "na\u00efve")

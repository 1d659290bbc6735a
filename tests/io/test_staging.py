"""Files dropped at once: roles guessed from names, streams read, assembled as the table says."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR

from bleu.errors import InputError, ReadError
from bleu.io.staging import (
    MissingRoleError,
    RoleUpload,
    assemble_staged,
    guess_role,
    stage_by_role,
    stage_file,
)

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
    ("hyp.GPT4-5shot.he", "system"), ("ref.refA.he", "reference"), ("src.en", "source"),
    ("en-de.refA.txt", "reference"), ("en-de.txt", "source"), ("GPT-4.txt", "system"),
])
def test_roles_are_guessed_from_names(name: str, role: str) -> None:
    assert guess_role(name) == role


def test_a_wmt_folder_dropped_at_once_loads_as_the_table_says() -> None:
    names = ["newstest2021.en-de.hyp.UEdin.de", "newstest2021.en-de.hyp.Online-W.de",
             "newstest2021.en-de.ref.A.de", "newstest2021.en-de.ref.C.de",
             "newstest2021.en-de.src.en"]
    streams = [s for name in names for s in stage_file((WMT21 / name).read_bytes(), name)]
    assert [(s.role, s.name) for s in streams] == [
        ("system", "UEdin"), ("system", "Online-W"), ("reference", "A"),
        ("reference", "C"), ("source", names[4])]
    data = assemble_staged(streams)
    assert list(data.systems) == ["UEdin", "Online-W"] and data.n_refs == 2
    assert data.source is not None and data.n_segments == 100
    assert data.target_language == "de" and str(data.language_pair) == "en-de"
    assert data.title == "newstest2021.en-de · 2 systems"


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
    assert str(assemble_staged(streams).language_pair) == "en-de"  # the XML's langs


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


def test_wmt23_names_lose_the_role_word_and_language() -> None:
    """Issue 24: ``hyp.GPT4-5shot.he`` was staged as ``hyp.GPT4-5shot``, ``ref.refA.he`` as
    itself; a score file names them ``GPT4-5shot`` and ``refA``."""
    [hyp] = stage_file("שלום עולם\n".encode(), "hyp.GPT4-5shot.he")
    [ref] = stage_file("שלום לעולם\n".encode(), "ref.refA.he")
    assert (hyp.role, hyp.name, ref.role, ref.name) == ("system", "GPT4-5shot", "reference",
                                                        "refA")
    data = assemble_staged([hyp, ref])
    assert list(data.systems) == ["GPT4-5shot"] and data.target_language == "he"


XML = (b'<?xml version="1.0" encoding="utf-8"?><dataset id="t"><collection id="c">'
       b'<doc id="d1" origlang="en"><src lang="en"><p><seg id="1">Good.</seg></p></src>'
       b'<ref lang="de" translator="A"><p><seg id="1">Gut.</seg></p></ref>'
       b'<hyp system="S1" language="de"><p><seg id="1">Gut so.</seg></p></hyp></doc>'
       b'</collection></dataset>')


def test_files_given_under_a_role_take_it() -> None:
    """The sidebar's uploaders: roles by uploader, a table's chosen columns, and a WMT XML file
    of systems whose reference and source count only where no file gives them."""
    table = b"id\thyp\tmt\nd1\tGut.\tGut so.\n"
    streams = stage_by_role([RoleUpload(table, "out.tsv", "system", ("hyp", "mt"), "id"),
                             RoleUpload(b"Gut.\n", "gold.de", "reference")])
    assert [(s.role, s.name) for s in streams] == [("system", "hyp"), ("system", "mt"),
                                                   ("reference", "gold")]
    assert streams[0].file.doc_ids == ("d1",)
    alone = stage_by_role([RoleUpload(XML, "test.xml", "system")])
    assert [s.role for s in alone] == ["system", "reference", "source"]
    assert assemble_staged(alone).source is not None
    beside = stage_by_role([RoleUpload(XML, "test.xml", "system"),
                            RoleUpload(b"Gut.\n", "mine.de", "reference")])
    assert [s.role for s in beside] == ["system", "reference", "ignore", "source"]
    assert assemble_staged(beside).references[0].name == "mine.de"
    with pytest.raises(InputError, match="choose at least one column"):
        stage_by_role([RoleUpload(table, "out.tsv", "system", ())])


def test_one_wording_for_a_missing_role() -> None:
    """The drop zone and the sidebar say the same: what is missing, and how to add it."""
    only_systems = stage_by_role([RoleUpload(b"a\n", "sys.de", "system")])
    with pytest.raises(MissingRoleError, match=r"No reference among the files: add the "
                                               r"reference file\(s\)"):
        assemble_staged(only_systems)
    with pytest.raises(MissingRoleError, match="No system output among the files"):
        assemble_staged(stage_by_role([RoleUpload(b"a\n", "sys.de", "reference")]))

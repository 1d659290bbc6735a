"""WMT-style file names read once (bleu.io.names): test set, pair, role, the stream's own name
and language, on the forms WMT's repositories use (WMT17 as sacrebleu ships it, WMT20-24)."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR
from hypothesis import given
from hypothesis import strategies as st

from bleu.io.languages import LanguagePair
from bleu.io.names import guess_role, parse_file_name, stream_name, system_name


@pytest.mark.parametrize(("file_name", "test_set", "pair", "role", "name", "language"), [
    # WMT21-23 (wmt21-news-systems, wmt22-..., wmt23-news-systems/txt-ts)
    ("generaltest2023.en-he.hyp.GPT4-5shot.he", "generaltest2023", "en-he", "system",
     "GPT4-5shot", "he"),
    ("generaltest2023.en-he.ref.refA.he", "generaltest2023", "en-he", "reference", "refA", "he"),
    ("newstest2021.en-de.ref.A.de", "newstest2021", "en-de", "reference", "A", "de"),
    ("newstest2021.zh-en.src.zh", "newstest2021", "zh-en", "source", "", "zh"),
    # a test set of the user's own in WMT's form (tests/browser/test_upload_load.py's files)
    ("zqms0marker.en-de.hyp.OnlineAzqms0marker.de", "zqms0marker", "en-de", "system",
     "OnlineAzqms0marker", "de"),
    # the same without test set and pair
    ("hyp.GPT4-5shot.he", None, None, "system", "GPT4-5shot", "he"),
    ("ref.refA.he", None, None, "reference", "refA", "he"),
    ("src.en", None, None, "source", "", "en"),
    # WMT17 (sacrebleu's test data) and WMT20: no role part, so the stem names the system
    ("newstest2017.C-3MA.4959.en-de.de", "newstest2017", "en-de", None,
     "newstest2017.C-3MA.4959.en-de", "de"),
    ("newstest2017.en-de.ref.de", "newstest2017", "en-de", "reference", "", "de"),
    ("newstest2020.en-de.OPPO.1535.de", "newstest2020", "en-de", None,
     "newstest2020.en-de.OPPO.1535", "de"),
    ("newstest2019.online-A.0.de-en", "newstest2019", "de-en", None,
     "newstest2019.online-A.0.de-en", None),
    # WMT24 (wmt24-news-systems/txt-ts): references and source named by the pair
    ("en-de.refA.txt", None, "en-de", "reference", "refA", None),
    ("ja-zh.txt", None, "ja-zh", "source", "", None),
    ("Claude-3.5.txt", None, None, None, "Claude-3.5", None),
    # no WMT form: the stem, the language of a three-letter suffix (compare-mt)
    ("ted.sys1.eng", None, None, None, "ted.sys1", "en"),
    ("ted.orig.slk", None, None, None, "ted.orig", "sk"),
    ("multited.ref.jpn", None, None, "reference", "multited", "ja"),
    ("some/folder/out.txt", None, None, None, "out", None),
    ("notes.md", None, None, None, "notes", None),  # .md is no language
])
def test_wmt_names_are_read_part_by_part(file_name, test_set, pair, role, name, language):
    parsed = parse_file_name(file_name)
    assert parsed.test_set == test_set
    assert (str(parsed.pair) if parsed.pair else None) == pair
    assert (parsed.role, parsed.name, parsed.language) == (role, name, language)


@pytest.mark.parametrize(("file_name", "expected"), [
    ("hyp.GPT4-5shot.he", "GPT4-5shot"),  # issue 26: was "hyp.GPT4-5shot"
    ("generaltest2023.en-he.hyp.GPT4-5shot.he", "GPT4-5shot"),
    ("generaltest2022.en-de.hyp.Online-B.de", "Online-B"),
    ("newstest2017.C-3MA.4959.en-de.de", "newstest2017.C-3MA.4959.en-de"),  # as before
    ("out.txt", "out"), ("x/out.txt", "out"), ("hyp.de", "hyp"),
])
def test_system_names_are_wmts(file_name: str, expected: str) -> None:
    assert system_name(file_name) == expected


def test_reference_names_lose_the_role_word_and_language() -> None:
    assert stream_name("ref.refA.he") == "refA"  # issue 26: was "ref.refA.he"
    assert stream_name("newstest2021.en-de.ref.A.de") == "A"
    assert stream_name("newstest2017.en-de.ref.de") == "newstest2017.en-de.ref.de"


def test_every_file_of_the_real_sets_gets_its_role_and_pair() -> None:
    """The roles of every WMT file in tests/data come from its ``hyp``/``ref``/``src`` part
    (WMT17's systems have none: they are systems), and its pair from the folder's."""
    checked = 0
    for folder in sorted(DATA_DIR.glob("wmt*")):
        pair = LanguagePair(*folder.name.rsplit("_", 1)[1].split("-"))
        for path in sorted(folder.glob("*test20*[!v]")):  # not the .tsv score files
            parsed = parse_file_name(path.name)
            expected = ("reference" if ".ref." in path.name else "source"
                        if ".src." in path.name else "system")
            assert guess_role(path.name) == expected, path.name
            assert parsed.pair == pair and parsed.test_set == path.name.split(".")[0]
            side = pair.source if expected == "source" else pair.target
            assert parsed.language == side, path.name
            checked += 1
    assert checked == 94  # 17 + 24 + 10 + 12 + 15 + 16 text files in the six WMT folders


_NAME = st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
                min_size=1, max_size=12).filter(lambda text: text.lower() not in
                                                 ("hyp", "ref", "src"))


@given(name=_NAME, test_set=st.one_of(
    st.sampled_from(["newstest2021", "generaltest2023", "wmttest2024"]),
    st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789_"), min_size=1, max_size=12)
    .filter(lambda text: text not in ("hyp", "ref", "src"))),
    pair=st.sampled_from(["en-de", "cs-uk", "ja-zh", "en-he"]))
def test_a_wmt_system_file_is_named_by_its_system(name: str, test_set: str, pair: str) -> None:
    """Every ``TESTSET.PAIR.hyp.NAME.TGT`` (any test set name) and ``hyp.NAME.TGT`` names the
    system ``NAME``; the first form names the test set and the pair too."""
    target = pair.split("-")[1]
    for file_name in (f"{test_set}.{pair}.hyp.{name}.{target}", f"hyp.{name}.{target}"):
        assert system_name(file_name) == name and guess_role(file_name) == "system"
    parsed = parse_file_name(f"{test_set}.{pair}.hyp.{name}.{target}")
    assert (parsed.test_set, str(parsed.pair)) == (test_set, pair)

"""The language pair of a test set (from WMT's file names, else the script of the text) and the
tokenizer it picks, against sacrebleu 2.6's command line (``-l SRC-TGT``) on every real set."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from conftest import DATA_DIR, DATA_ROOTS, read_lines
from sacrebleu.metrics.bleu import BLEU as SacreBLEU

from bleu.errors import InputError
from bleu.io.dataset import assemble, default_tokenizer
from bleu.io.languages import (
    WMT_TOKENIZERS,
    LanguagePair,
    language_code,
    script_language,
    text_direction,
    tokenizer_choice,
)
from bleu.io.model import TextFile
from bleu.io.names import guess_role
from bleu.metrics.tokenizers import LANGUAGE_TOKENIZERS, available_tokenizers, language_tokenizer

#: every set of ../shared/data and tests/data, and its pair (MANIFEST.md; compare-mt's Japanese
#: TED set has no source file, so its source is unknown)
SETS = {
    "compare-mt_ted_sk-en": "sk-en", "compare-mt_multited_ja": "?-ja",
    "wmt17_newstest2017_en-de": "en-de", "wmt21_newstest2021_en-de": "en-de",
    "wmt21_newstest2021_zh-en": "zh-en", "wmt22_generaltest2022_en-de": "en-de",
    "wmt22_generaltest2022_en-ja": "en-ja", "wmt22_generaltest2022_en-zh": "en-zh",
}
_NOT_TEXT = {".tsv", ".md", ".json", ".gz"}


def _files(folder: Path) -> dict[str, list[TextFile]]:
    """The set's text files by the role their names give, as dropped on the Data page."""
    found: dict[str, list[TextFile]] = {"system": [], "reference": [], "source": []}
    for path in sorted(folder.iterdir()):
        if path.suffix not in _NOT_TEXT:
            found[guess_role(path.name)].append(TextFile(path.name, tuple(read_lines(path))))
    return found


def _assembled(folder: Path, rename: bool = False):
    files = _files(folder)
    if rename:  # names that say nothing: only the text's script is left to go by
        files = {role: [TextFile(f"{role}{k}.txt", f.segments) for k, f in enumerate(group)]
                 for role, group in files.items()}
    return assemble(files["system"], files["reference"],
                    files["source"][0] if files["source"] else None)


@cache
def sacrebleu_cli_tokenizer(pair: str, folder: Path) -> str:
    """The ``tok:`` of the signature sacrebleu's command line prints for ``-l pair`` on a
    reference and a system of ``folder`` (its first ones; the cut: the choice is the pair's)."""
    files = _files(folder)
    done = subprocess.run(
        [sys.executable, "-m", "sacrebleu", files["reference"][0].name, "-i",
         files["system"][0].name, "-l", pair.replace("?", "xx")],
        cwd=folder, capture_output=True, text=True, encoding="utf-8", check=True)
    return re.search(r"\|tok:([^|]+)\|", json.loads(done.stdout)["signature"]).group(1)


def test_our_table_is_sacrebleus() -> None:
    """sacrebleu picks the tokenizer for ``-l xx-TGT`` from ``BLEU._TOKENIZER_MAP`` (its
    command line sets ``trg_lang`` to the pair's second half, sacrebleu.py line 322)."""
    assert LANGUAGE_TOKENIZERS == SacreBLEU._TOKENIZER_MAP
    assert language_tokenizer("de") == SacreBLEU.TOKENIZER_DEFAULT == "13a"


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize(("name", "pair"), SETS.items())
def test_every_real_set_gets_its_pair_and_sacrebleus_tokenizer(root: Path, name: str,
                                                               pair: str) -> None:
    """The pair guessed from the files is the set's; the tokenizer it picks is the one
    sacrebleu's command line uses with ``-l`` that pair (run on the set's files), except
    Japanese, where the app keeps WMT's published ``char`` (sacrebleu's CLI needs MeCab there
    and would use ja-mecab: its table, checked above)."""
    data = _assembled(root / name)
    assert str(data.language_pair) == pair
    target = data.language_pair.target
    if target in WMT_TOKENIZERS:
        assert default_tokenizer(target) == "char" and language_tokenizer(target) == "ja-mecab"
    else:
        assert default_tokenizer(target) == sacrebleu_cli_tokenizer(pair, DATA_DIR / name)


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize("name", sorted(SETS))
def test_the_script_alone_names_the_cjk_languages(root: Path, name: str) -> None:
    """Files renamed ``reference0.txt``...: Chinese and Japanese from the script; Latin text
    (English, German, Slovak) names no language, so 13a, as sacrebleu without ``-l``."""
    data = _assembled(root / name, rename=True)
    source, target = SETS[name].split("-")
    expected_target = target if target in ("zh", "ja") else None
    assert data.target_language == expected_target
    if data.source is not None:
        assert data.language_pair.source == (source if source == "zh" else None)
    assert default_tokenizer(data.target_language) == {"zh": "zh", "ja": "char"}.get(
        target, "13a")


def test_the_katakana_middle_dot_does_not_make_chinese_japanese() -> None:
    """Issue 26: WMT24's ja-zh reference writes foreign names with U+30FB (in the Katakana
    block, but Script=Common). WMT22's en-zh reference, its name dots (U+00B7) written so,
    is Chinese, though a block count finds 'kana' in it."""
    lines = read_lines(DATA_DIR / "wmt22_generaltest2022_en-zh" / "generaltest2022.en-zh.ref.A.zh")
    as_wmt24 = [line.replace("\u00b7", "\u30fb") for line in lines]
    assert sum(line.count("\u30fb") for line in as_wmt24) >= 6
    assert re.search("[\u3040-\u30ff]", "".join(as_wmt24))  # what the old block rule saw
    assert script_language(as_wmt24) == "zh"
    data = assemble([TextFile("hyp.txt", tuple(as_wmt24))], [TextFile("ref.txt", tuple(as_wmt24))])
    assert data.target_language == "zh" and default_tokenizer(data.target_language) == "zh"


@pytest.mark.parametrize(("text", "language"), [
    ("これは日本語の文です。", "ja"), ("这是一个中文句子。", "zh"),
    ("이것은 한국어 문장입니다.", "ko"),
    ("החתול ישב על השטיח הירוק", "he"), ("Η γάτα κάθεται στο χαλί.", "el"),
    ("แมวนั่งอยู่บนพรม", "th"), ("The cat sat on the mat.", None),
    ("Кошка сидит на ковре.", None), ("القط جلس على السجادة", None), ("123 456 !?", None),
    ("", None),
])
def test_scripts_that_name_one_language(text: str, language: str | None) -> None:
    assert script_language([text]) == language


def test_names_win_over_the_script_and_the_xml_over_both() -> None:
    chinese = ("这是一个中文句子。",)
    named = assemble([TextFile("newstest2021.en-ja.hyp.X.ja", chinese)],
                     [TextFile("newstest2021.en-ja.ref.A.ja", chinese)])
    assert str(named.language_pair) == "en-ja"
    given = assemble([TextFile("hyp.ja", chinese)], [TextFile("ref.ja", chinese)],
                     language="zh", source_language="de")
    assert str(given.language_pair) == "de-zh"


def test_a_pair_is_typed_as_codes_and_anything_else_is_refused() -> None:
    assert LanguagePair.parse(" EN-De ") == LanguagePair("en", "de")
    assert LanguagePair.parse("eng-jpn") == LanguagePair("en", "ja")
    assert LanguagePair.parse("?-ja") == LanguagePair(None, "ja")
    assert LanguagePair.parse("zh") == LanguagePair(None, "zh")
    assert LanguagePair.parse("") == LanguagePair()
    assert str(LanguagePair(None, "ja")) == "?-ja" and str(LanguagePair()) == ""
    with pytest.raises(InputError, match="'english' in 'english-german' is not a language code"):
        LanguagePair.parse("english-german")
    with pytest.raises(InputError, match="is not a language pair"):
        LanguagePair.parse("en-de-fr")
    assert language_code("md") is None and language_code("deu") == "de"


def test_the_tokenizer_choice_says_why() -> None:
    assert "WMT published" in tokenizer_choice("ja").reason
    assert "ja-mecab" in tokenizer_choice("ja").reason
    assert tokenizer_choice("zh").name == "zh" and tokenizer_choice(None).name == "13a"
    korean = tokenizer_choice("ko")
    if "ko-mecab" in available_tokenizers():
        assert korean.name == "ko-mecab"
    else:  # sacrebleu's ko-mecab needs MeCab-ko: 13a, and the reason says so
        assert korean.name == "13a" and "not installed" in korean.reason


@pytest.mark.parametrize(("text", "direction"), [
    ("החתול ישב על השטיח", "rtl"), ("القط جلس على السجادة", "rtl"),
    ("GPT-4 תרגם את המשפט הזה", "rtl"),  # a Latin name first: most strong letters are Hebrew
    ("The cat sat.", "ltr"), ("12 345", "ltr"), ("", "ltr"),
])
def test_text_direction(text: str, direction: str) -> None:
    assert text_direction(text) == direction

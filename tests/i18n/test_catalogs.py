"""The Dutch catalog: every string of the code is in it, translated, with the same placeholders;
``tr``/``ntr`` translate through it, English needs none, the language is per context."""

from __future__ import annotations

import ast
import threading

import pytest
from catalog import REPO, placeholders, tool

from bleu import i18n
from bleu.i18n import from_locale, in_language, language, ntr, set_language, tr


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    set_language("en")


def test_the_catalog_holds_every_string_of_the_code_and_nothing_else() -> None:
    wanted = {message.id for message in tool().extract() if message.id}
    found = {message.id for message in tool().read("nl") if message.id}
    assert wanted - found == set(), "run: python scripts/i18n.py update"
    assert found - wanted == set(), "run: python scripts/i18n.py update"
    assert len(wanted) > 500  # the extraction found the app's strings, not an empty set


def test_every_msgid_has_a_dutch_translation_that_is_not_fuzzy() -> None:
    assert tool().problems("nl") == []


def test_problems_catch_an_empty_and_a_fuzzy_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = tool().read("nl")
    first, second = [message for message in catalog if message.id][:2]
    first.string = ""
    second.flags.add("fuzzy")
    monkeypatch.setattr(tool(), "read", lambda code: catalog)
    found = tool().problems("nl")
    assert any(line.startswith("untranslated") for line in found)
    assert any(line.startswith("fuzzy") for line in found)


def test_translations_keep_the_placeholders_of_their_msgid() -> None:
    wrong = []
    for message in tool().read("nl"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(placeholders(one) for one in ids))
        wrong += [(ids[0], one) for one in strings if placeholders(one) != wanted]
    assert wrong == []


def test_the_command_line_is_not_extracted() -> None:
    files = {name for message in tool().extract() for name, _ in message.locations}
    assert files and not any(name.startswith("bleu/cli/") for name in files)
    assert any(name.startswith("bleu_app/") for name in files)
    assert any(name.startswith(("bleu/explore/", "bleu/teaching/")) for name in files)


def test_tr_translates_in_dutch_and_is_english_by_default() -> None:
    assert tr("Corpus dashboard") == "Corpus dashboard"
    set_language("nl")
    assert tr("Corpus dashboard") == "Corpusdashboard"
    assert tr("Brevity penalty") == "Straf voor beknoptheid"  # TEACHING_NL.md's term
    assert tr("no such message, kept as it is") == "no such message, kept as it is"
    assert tr("") == ""  # never gettext's catalog header
    assert tr("{n}-grams").format(n=3) == "3-grammen"


def test_ntr_takes_the_dutch_plural_forms() -> None:
    set_language("nl")
    assert ntr("{count} system", "{count} systems", 1).format(count=1) == "1 systeem"
    assert ntr("{count} system", "{count} systems", 4).format(count=4) == "4 systemen"
    set_language("en")
    assert ntr("{count} system", "{count} systems", 1) == "{count} system"


def test_unknown_languages_mean_english() -> None:
    set_language("fr")
    assert language() == "en"


def test_in_language_restores_the_language_before() -> None:
    set_language("nl")
    with in_language("en"):
        assert tr("Corpus dashboard") == "Corpus dashboard"
    assert language() == "nl"


def test_the_language_is_per_thread_of_work() -> None:
    set_language("nl")
    seen = []
    worker = threading.Thread(target=lambda: seen.append(language()))
    worker.start()
    worker.join()
    assert seen == ["en"] and language() == "nl"


@pytest.mark.parametrize(("tag", "code"), [("nl-NL", "nl"), ("nl_BE", "nl"), ("NL", "nl"),
                                           ("en-US", "en"), ("de-DE", None), ("", None),
                                           (None, None)])
def test_a_browser_locale_names_its_interface_language(tag: str | None,
                                                      code: str | None) -> None:
    assert from_locale(tag) == code


def test_the_catalogs_ship_in_the_wheel() -> None:
    text = (REPO / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.po"' in text
    assert '"babel' in text.lower()
    assert i18n.catalog_path("nl").is_file()


def _f_strings(tree: ast.AST) -> list[ast.JoinedStr]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]


def test_no_tr_inside_an_f_string() -> None:
    """Babel's extractor reads no call inside an f-string before Python 3.12 (an f-string is one
    token there), so a ``tr("...")`` written inside one never reaches the catalog and stays
    English in Dutch: every such call is written outside, as a variable."""
    found = []
    for package in ("bleu", "bleu_app"):
        for path in sorted((REPO / package).rglob("*.py")):
            if "cli" in path.relative_to(REPO).parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for joined in _f_strings(tree):
                for node in ast.walk(joined):
                    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                            and node.func.id in {"tr", "ntr", "N_"}):
                        found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize(("text", "variant"), [
    ("De hypothese telt mee.", "hypothese"), ("een geleerde metriek", "geleerde metriek"),
    ("aangeleerde metrics", "aangeleerde metrics"), ("de n-gram precisie", "n-gram precisie"),
    ("de n-gram-orde", "n-gram-orde"), ("een referentie-vertaling", "referentie-vertaling"),
    ("het geometrisch gemiddelde", "geometrisch gemiddelde"), ("zoals sacreBLEU", "sacreBLEU"),
    ("de standaard van sacrebleu", "sacrebleu"), ("Uw voorspelling", "Uw"),
    ("bedoelt u dit?", "u"), ("tegen de basislijn", "basislijn"),
    ("elke metric wordt geladen", "metric"), ("de metrics van WMT", "metrics"),
    ("zijn handtekening zegt dat", "handtekening"),
])
def test_the_term_check_finds_each_drifting_variant(text: str, variant: str) -> None:
    assert [found for found, _ in tool().drifting(text, "nl")][:1] == [variant]


@pytest.mark.parametrize("text", [
    "de kandidaat-vertaling", "wetenschappelijke hypothesen toetsen", "aangeleerde metrieken",
    "de n-gramprecisie en de n-gramorde", "SacreBLEU", "zoals sacrebleu --paired-bs",
    "sacrebleu.sentence_bleu", "~/.sacrebleu/models", "mt-metrics-eval",
    "Multidimensional Quality Metrics", "“Neural Metrics Are Better”", "ongeveer 3 uur",
    "METEOR: An Automatic Metric for MT Evaluation", "de signatuur van SacreBLEU", "{metric}",
    "U+FFFD",
])
def test_the_term_check_lets_the_chosen_terms_and_names_pass(text: str) -> None:
    assert tool().drifting(text, "nl") == []


def test_no_dutch_translation_uses_a_drifting_term(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [p for p in tool().problems("nl") if p.startswith("term:")] == []
    catalog = tool().read("nl")
    planted = next(message for message in catalog if message.id == "Candidate translation")
    planted.string = "Hypothese"
    monkeypatch.setattr(tool(), "read", lambda code: catalog)
    assert any(p.startswith("term: 'Hypothese'") for p in tool().problems("nl"))

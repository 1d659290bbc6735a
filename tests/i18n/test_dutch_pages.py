"""Every page with ?lang=nl through AppTest: no English interface text (every rendered string
compared with the English catalog's msgids), numbers with a decimal comma, and files made in
the Dutch interface keep the decimal point."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from csv import reader
from pathlib import Path

import pytest
from catalog import untranslatable_english
from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

from bleu.explore import dashboard as dashboard_module
from bleu.i18n import LANGUAGES, set_language
from bleu.metrics.tokenizers import available_tokenizers

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bleu_app import page_script  # noqa: E402
from bleu_app.app import PAGES  # noqa: E402
from bleu_app.session._state import SMOOTH_METHODS  # noqa: E402

#: proto fields that hold no text a user reads
SKIPPED = {"id", "form_id", "key", "url", "data", "arrow_data", "datasets", "icon", "type",
           "selection_mode", "page_script_hash", "page", "uuid", "styler", "css", "value",
           "column_order"}
#: sacrebleu's option names, shown as its command line takes them (tokenize none, smooth exp)
CODE_NAMES = {*SMOOTH_METHODS, *available_tokenizers()}
#: a number written with a decimal point after 1 to 3 digits, as English writes 52.32
POINT_NUMBER = re.compile(r"(?<![\w.])\d{1,3}\.\d{1,4}(?![\w.])")
COMMA_NUMBER = re.compile(r"(?<![\w,])\d{1,3},\d{1,4}(?![\w,])")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def _strings(proto: Message) -> Iterator[str]:
    """Every string of a proto a user may read: labels, help, bodies, options, chart specs'
    titles."""
    for field, value in proto.ListFields():
        if field.name in SKIPPED:
            continue
        values = value if getattr(field, "is_repeated", False) else [value]
        for one in values:
            if isinstance(one, Message):
                yield from _strings(one)
            elif isinstance(one, str) and field.name == "spec":
                yield from _spec_strings(json.loads(one))
            elif isinstance(one, str) and field.name == "columns":
                yield from _spec_strings(json.loads(one) if one.startswith("{") else one)
            elif isinstance(one, str):
                yield one


def _spec_strings(spec: object) -> Iterator[str]:
    """The titles, subtitles and labels of a Vega-Lite spec or a column configuration."""
    if isinstance(spec, dict):
        for name, value in spec.items():
            if name in ("title", "subtitle", "text", "label", "help") and isinstance(value, str):
                yield value
            else:
                yield from _spec_strings(value)
    elif isinstance(spec, list):
        for item in spec:
            yield from _spec_strings(item)


def rendered(at: AppTest) -> list[str]:
    """Every text of the page and the sidebar, Markdown escapes removed."""
    texts: list[str] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        # the language switch names each language in its own words ("English", "Nederlands")
        switch = isinstance(proto, Message) and getattr(proto, "id", "").endswith("-lang")
        if isinstance(proto, Message):
            texts.extend(text for text in _strings(proto)
                         if not (switch and text in LANGUAGES.values()))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return [re.sub(r"\\(.)", r"\1", text).strip() for text in texts if text.strip()]


def table_headers(at: AppTest) -> list[str]:
    """Each table's headers as the grid shows them: a column setting's label, else the
    frame's column name (the arrow data, which ``rendered`` skips)."""
    headers = []
    for table in at.dataframe:
        config = json.loads(table.proto.columns or "{}")
        headers += [str((config.get(str(name)) or {}).get("label") or name)
                    for name in table.value.columns]
    return headers


def dutch_app(context: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=180)
    if context is None:
        at.query_params["lang"] = "nl"
    else:
        at.context = context
    at.run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def english() -> frozenset[str]:
    return untranslatable_english()


@pytest.mark.parametrize("script", [script for script, _, _ in PAGES])
def test_each_page_in_dutch_shows_no_english_interface_text(script: str,
                                                            english: frozenset[str]) -> None:
    at = dutch_app()
    if script != "dashboard":
        at.switch_page(page_script(script)).run()
    assert not at.exception
    texts = rendered(at) + table_headers(at)
    assert len(texts) > 20
    assert at.session_state["lang"] == "nl"
    left = sorted({text for text in texts if text in english and text not in CODE_NAMES})
    assert left == [], f"{script}: untranslated interface text"
    # the language switch names the languages in their own words
    assert at.selectbox(key="lang").value == "nl"


def test_the_dashboard_in_dutch_writes_decimal_commas(english: frozenset[str]) -> None:
    at = dutch_app()
    caption = " ".join(c.value for c in at.caption)
    assert COMMA_NUMBER.search(caption), caption  # the caption's p < 0,05
    assert not POINT_NUMBER.search(caption.replace("generaltest2022", "")), caption
    table = at.dataframe[0].proto
    styled = table.arrow_data.styler
    assert styled.display_values  # the grid shows the Styler's text by the rule


def test_the_browser_language_picks_dutch_and_the_link_wins() -> None:
    at = dutch_app(context={"locale": "nl-BE"})
    assert at.session_state["lang"] == "nl"
    assert at.title[0].value == "Corpusdashboard"
    english = AppTest.from_file(str(APP), default_timeout=180)
    english.context = {"locale": "nl-NL"}
    english.query_params["lang"] = "en"
    english.run()
    assert english.title[0].value == "Corpus dashboard"


def test_the_switch_changes_the_language_and_the_link() -> None:
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.run()
    assert at.title[0].value == "Corpus dashboard"
    at.selectbox(key="lang").select("nl").run()
    assert at.title[0].value == "Corpusdashboard"
    assert at.query_params["lang"] == ["nl"] or at.query_params["lang"] == "nl"


def test_a_csv_export_in_the_dutch_interface_keeps_decimal_points(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    original = dashboard_module.table_csv

    def recorded(results):
        made.append(original(results))
        return made[-1]

    monkeypatch.setattr(dashboard_module, "table_csv", recorded)
    at = dutch_app()
    assert COMMA_NUMBER.search(" ".join(c.value for c in at.caption))  # the page is Dutch
    csv = made[-1]
    header, *rows = list(reader(io.StringIO(csv)))
    assert "Δ vs baseline" in header and "p-value" in header  # the file's English names
    cells = [cell for row in rows for cell in row]
    assert any(POINT_NUMBER.fullmatch(cell) for cell in cells)
    assert not any(COMMA_NUMBER.fullmatch(cell) for cell in cells)

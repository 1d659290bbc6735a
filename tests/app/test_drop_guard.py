"""The browser side of the uploaders (``bleu_app/widgets/_drop_guard.py``): the settings the script
gets, its wording equal to the page's refusal in each language, nothing in them able to close
the script element."""

from __future__ import annotations

import json
import re

import pytest

from bleu.i18n import in_language
from bleu_app.widgets import _drop_guard

SETTINGS = re.compile(r"const config = (\{.*?\});", re.S)


def _settings(html: str) -> dict:
    found = SETTINGS.search(html)
    assert found, html[:300]
    return json.loads(found.group(1))


@pytest.mark.parametrize(("language", "n", "limit"), [("en", "10,000", "1,100"),
                                                       ("nl", "10.000", "1.100")])
def test_the_browser_writes_the_pages_refusal(language: str, n: str, limit: str) -> None:
    with in_language(language):
        html = _drop_guard.page_html("files_upload", 1100, 200 * 2**20)
        settings = _settings(html)
        page_message = _drop_guard.too_many_files(10_000, 1100)
    assert settings["key"] == "files_upload" and settings["limit"] == 1100
    assert settings["bundleFrom"] == _drop_guard.BUNDLE_FROM
    assert settings["maxBytes"] == 200 * 2**20
    assert limit in settings["message"] and "{n}" in settings["message"]
    # what the script does with {n}: the count with the rule's thousands separator
    written = settings["message"].replace("{n}", "10" + settings["group"] + "000")
    assert written == page_message and n in written
    assert 'id="bleu-drop-refusal-files_upload"' in html and "hidden" in html


def test_nothing_in_the_settings_closes_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_drop_guard, "tr", lambda text: "</script><b>x</b>" + text)
    html = _drop_guard.page_html("files_upload", 5, 1000)
    assert html.count("</script>") == 1 and html.endswith("</script>")
    assert _settings(html)["bundleName"].startswith("</script>")  # the JSON still reads it

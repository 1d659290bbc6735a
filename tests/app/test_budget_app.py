"""The server's budget through the app: resamples lowered with a note where segments x systems
are too many for the server's budget, and data too big for its memory refused, keeping what was
loaded (limits set by environment variables, as an operator would)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))

#: the bundled sample: 9 systems x 2,037 segments
SAMPLE_CELLS = 9 * 2037
SYSTEM = ("sys.de", b"Das Haus ist klein .\nDer Hund bellt .\n")
REFERENCE = ("ref.de", b"Das Haus ist sehr klein .\nDer Hund bellt laut .\n")


def texts(at: AppTest) -> str:
    return "\n".join(element.value for kind in ("info", "caption", "error", "success")
                     for element in at.get(kind))


def test_resamples_are_lowered_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_RESAMPLE_CELLS", str(SAMPLE_CELLS * 300))
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    assert not at.exception
    shown = texts(at)
    assert "300 resamples instead of the 1,000 asked for" in shown
    assert "300 bootstrap resamples" in shown  # what the table's caption says it used


def test_resamples_within_the_budget_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_RESAMPLE_CELLS", str(SAMPLE_CELLS * 1000))
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    shown = texts(at)
    assert "instead of" not in shown and "1,000 bootstrap resamples" in shown


def test_data_over_the_memory_budget_is_refused_and_the_sample_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_MEMORY_MB", "1")
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    before = at.caption[0].value
    big = ("big.de", b"".join(b"Das ist eine Zeile Nummer %d .\n" % k for k in range(20_000)))
    ref = ("ref.de", big[1])
    at.file_uploader(key="systems_upload").set_value([(big[0], big[1], "text/plain")])
    at.file_uploader(key="references_upload").set_value([(ref[0], ref[1], "text/plain")])
    at.run()
    assert not at.exception
    errors = [element.value for element in at.error]
    assert any("server memory" in text and "allows 1 MiB" in text
               and "Nothing was changed" in text for text in errors), errors
    assert at.caption[0].value == before  # still the sample


def test_small_data_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_MEMORY_MB", "64")
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.file_uploader(key="systems_upload").set_value([(*SYSTEM, "text/plain")])
    at.file_uploader(key="references_upload").set_value([(*REFERENCE, "text/plain")])
    at.run()
    assert not at.exception and not at.error
    assert "2 segments" in at.caption[0].value

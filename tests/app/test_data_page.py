"""The Data page's drop zone through AppTest: one drop of every file, roles guessed and shown,
loaded on request with the scores sacrebleu gives; a bad file is left out, naming its line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"
SYSTEMS = ("Facebook-AI", "Online-W", "UEdin")
REFS = ("A", "C")

if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))


def plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    app.run()
    app.switch_page("bleu_app/views/data.py").run()
    assert not app.exception
    return app


def drop(at: AppTest, names: list[str], folder: Path = WMT21) -> None:
    at.file_uploader(key="files_upload").set_value(
        [(name, (folder / name).read_bytes(), "text/plain") for name in names]).run()
    assert not at.exception


def test_one_drop_of_every_file_loads_them_with_guessed_roles(at: AppTest) -> None:
    names = ([f"newstest2021.en-de.hyp.{s}.de" for s in SYSTEMS]
             + [f"newstest2021.en-de.ref.{r}.de" for r in REFS] + ["newstest2021.en-de.src.en"])
    drop(at, names)
    editor = next(df for df in at.dataframe if "role" in df.value.columns)
    assert list(editor.value["role"]) == ["system"] * 3 + ["reference"] * 2 + ["source"]
    assert list(editor.value["name"])[:3] == list(SYSTEMS)
    assert at.session_state["dataset"].label.startswith("Sample")  # nothing loaded yet
    at.button(key="files_commit").click().run()
    assert not at.exception
    data = at.session_state["dataset"]
    assert list(data.systems) == list(SYSTEMS) and data.n_refs == 2 and data.source is not None
    refs = [read_lines(WMT21 / f"newstest2021.en-de.ref.{r}.de") for r in REFS]
    at.switch_page("bleu_app/views/dashboard.py").run()
    frame = next(df.value for df in at.dataframe if "BLEU" in df.value.columns)
    shown = dict(zip(frame["system"], frame["BLEU"], strict=True))
    for name in SYSTEMS:
        hyps = read_lines(WMT21 / f"newstest2021.en-de.hyp.{name}.de")
        assert shown[name] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)


def test_a_bad_file_is_left_out_and_named(at: AppTest) -> None:
    before = at.session_state["dataset"]
    at.file_uploader(key="files_upload").set_value([
        ("UEdin.de", (WMT21 / "newstest2021.en-de.hyp.UEdin.de").read_bytes(), "text/plain"),
        ("ref.de", (WMT21 / "newstest2021.en-de.ref.A.de").read_bytes(), "text/plain"),
        ("latin1.de", "Stra\xdfe\n".encode("latin-1"), "text/plain")]).run()
    [error] = [plain(e.value) for e in at.error]
    assert "latin1.de is not valid UTF-8: line 1" in error and "left out" in error
    assert at.session_state["dataset"] is before
    at.button(key="files_commit").click().run()
    assert list(at.session_state["dataset"].systems) == ["UEdin"]


def test_roles_can_be_corrected_before_loading(at: AppTest) -> None:
    drop(at, ["newstest2021.en-de.hyp.UEdin.de", "newstest2021.en-de.hyp.Online-W.de"])
    # two systems and no reference: loading says what is missing and keeps the sample
    at.button(key="files_commit").click().run()
    assert any("No reference among the files" in plain(e.value) for e in at.error)
    assert at.session_state["dataset"].label.startswith("Sample")

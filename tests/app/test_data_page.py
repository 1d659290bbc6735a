"""The Data page's drop zone through AppTest: one drop of every file, roles guessed and shown,
loaded on request with the scores sacrebleu gives; a bad file is left out, naming its line."""

from __future__ import annotations

import io
import re
import sys
import tarfile
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


def dashboard_equals_sacrebleu(at: AppTest) -> None:
    """The dashboard's BLEU of each of SYSTEMS against REFS is sacrebleu's."""
    refs = [read_lines(WMT21 / f"newstest2021.en-de.ref.{r}.de") for r in REFS]
    at.switch_page("bleu_app/views/dashboard.py").run()
    frame = next(df.value for df in at.dataframe if "BLEU" in df.value.columns)
    shown = dict(zip(frame["system"], frame["BLEU"], strict=True))
    for name in SYSTEMS:
        hyps = read_lines(WMT21 / f"newstest2021.en-de.hyp.{name}.de")
        assert shown[name] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)


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
    dashboard_equals_sacrebleu(at)


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


def test_the_language_pair_is_shown_editable_and_picks_the_tokenizer(at: AppTest) -> None:
    """Issue 26: a Chinese target's text loaded under names that say nothing, with U+30FB in
    its names (as WMT24 ja-zh writes them): guessed zh, so the zh tokenizer, as sacrebleu's
    ``-l ja-zh``; the pair typed on the Data page re-picks it, and a bad pair is refused."""
    folder = DATA_DIR / "wmt22_generaltest2022_en-zh"
    ref = [line.replace("\u00b7", "\u30fb")
           for line in read_lines(folder / "generaltest2022.en-zh.ref.A.zh")]
    hyp = read_lines(folder / "generaltest2022.en-zh.hyp.Online-B.zh")
    at.file_uploader(key="files_upload").set_value([
        ("system.txt", "\n".join(hyp).encode() + b"\n", "text/plain"),
        ("reference.txt", "\n".join(ref).encode() + b"\n", "text/plain")]).run()
    at.button(key="files_commit").click().run()
    assert not at.exception
    assert str(at.session_state["dataset"].language_pair) == "?-zh"
    assert at.session_state["tokenize"] == "zh"
    assert at.text_input(key="language_pair").value == "?-zh"
    at.text_input(key="language_pair").set_value("ja-zh").run()
    assert str(at.session_state["dataset"].language_pair) == "ja-zh"
    at.text_input(key="language_pair").set_value("en-de").run()
    assert at.session_state["tokenize"] == "13a"  # the edit re-picked it
    at.text_input(key="language_pair").set_value("English-German").run()
    assert any("'English' in 'English-German' is not a language code" in plain(e.value)
               for e in at.error)
    assert str(at.session_state["dataset"].language_pair) == "en-de"  # kept
    at.text_input(key="language_pair").set_value("en-zh").run()
    at.switch_page("bleu_app/views/dashboard.py").run()
    frame = next(df.value for df in at.dataframe if "BLEU" in df.value.columns)
    expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize="zh").score
    assert dict(zip(frame["system"], frame["BLEU"], strict=True))["system"] == pytest.approx(
        expected, abs=1e-9)


def test_the_loaded_data_is_titled_by_its_test_set(at: AppTest) -> None:
    names = [f"newstest2021.en-de.hyp.{s}.de" for s in SYSTEMS] + ["newstest2021.en-de.ref.A.de"]
    drop(at, names)
    at.button(key="files_commit").click().run()
    assert at.session_state["dataset"].title == "newstest2021.en-de · 3 systems"
    assert any("newstest2021.en-de · 3 systems" in plain(c.value) for c in at.caption)


def test_an_archive_loads_as_its_files_would_one_by_one(at: AppTest) -> None:
    """A .tar.gz of a folder (as a user makes one, or the browser packs many dropped files):
    the same streams, roles and scores as the files dropped one by one; a bad file inside is
    left out and named, the others load."""
    names = ([f"newstest2021.en-de.hyp.{s}.de" for s in SYSTEMS]
             + [f"newstest2021.en-de.ref.{r}.de" for r in REFS])
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in [*names, "latin1.de"]:
            data = (WMT21 / name).read_bytes() if name in names else "Stra\xdfe\n".encode(
                "latin-1")
            info = tarfile.TarInfo(f"newstest2021/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    at.file_uploader(key="files_upload").set_value(
        [("newstest2021.tar.gz", buffer.getvalue(), "application/gzip")]).run()
    assert not at.exception
    [error] = [plain(e.value) for e in at.error]
    assert "newstest2021/latin1.de is not valid UTF-8: line 1" in error and "left out" in error
    editor = next(df for df in at.dataframe if "role" in df.value.columns)
    assert list(editor.value["file"]) == [f"newstest2021/{name}" for name in names]
    assert list(editor.value["role"]) == ["system"] * 3 + ["reference"] * 2
    at.button(key="files_commit").click().run()
    data = at.session_state["dataset"]
    assert list(data.systems) == list(SYSTEMS) and data.n_refs == 2
    dashboard_equals_sacrebleu(at)

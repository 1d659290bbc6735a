"""Uploads on a class server (issue 36), through AppTest: an archive (good or refused) is read
once, not on every rerun; the staging table shows control and bidi characters; after loading,
the caption names the data once and the Load button no longer asks to be pressed; the files
table writes a missing document count as a dash; a damaged archive is one sentence, never a
traceback."""

from __future__ import annotations

import io
import re
import sys
import tarfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))
if str(REPO / "tests" / "io") not in sys.path:
    sys.path.insert(0, str(REPO / "tests" / "io"))

import hostile  # noqa: E402 -- after the path

from bleu_app.widgets import _uploads  # noqa: E402

REFERENCE = "Das Haus ist klein .\nDer Hund bellt .\n"
SYSTEM = "Das Haus ist sehr klein .\nDer Hund bellt laut .\n"


def plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def data_page() -> AppTest:
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=90)
    app.run()
    app.switch_page("bleu_app/views/data.py").run()
    assert not app.exception
    return app


def tar_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the drop zone and the sidebar unpack an archive."""
    calls = {"stage_archive": 0, "archive_files": 0}
    for name in calls:
        real = getattr(_uploads, name)

        def counting(*args, real=real, name=name, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(_uploads, name, counting)
    return calls


def test_a_refused_archive_is_read_once_not_on_every_rerun(counted):
    """Before: each click on the page read the refused archive again (10-13 s a click)."""
    at = data_page()
    flipped = hostile.flipped_header({f"s{k}.de": SYSTEM.encode() for k in range(31)}, 11)
    at.file_uploader(key="files_upload").set_value([("flipped.tar", flipped,
                                                     "application/x-tar")]).run()
    for _ in range(2):
        at.checkbox(key="files_latin1").check().run()  # reruns that keep the upload
        at.checkbox(key="files_latin1").uncheck().run()
    assert not at.exception
    [error] = [plain(e.value) for e in at.error]
    assert "flipped.tar: the tar archive is damaged after s10.de" in error
    assert "Traceback" not in error and "/" not in error.replace("flipped.tar", "")
    assert counted["stage_archive"] == 2  # once per encoding, whatever the reruns


def test_a_sidebar_archive_is_unpacked_once(counted):
    at = data_page()
    at.file_uploader(key="systems_upload").set_value(
        [("systems.tar.gz", tar_of({"hyp.A.de": SYSTEM.encode()}), "application/gzip")]).run()
    at.file_uploader(key="references_upload").set_value(
        [("ref.de", REFERENCE.encode(), "text/plain")]).run()
    at.run()
    assert not at.exception
    assert list(at.session_state["dataset"].systems) == ["A"]
    assert counted["archive_files"] == 1


def test_the_staging_table_shows_bidi_controls():
    at = data_page()
    at.file_uploader(key="files_upload").set_value([
        ("gnp\u202eexe.x", SYSTEM.encode(), "text/plain"),
        ("ref.de", REFERENCE.encode(), "text/plain")]).run()
    editor = next(df for df in at.dataframe if "role" in df.value.columns)
    assert editor.value["file"].iloc[0] == "gnp⟨U+202E⟩exe.x"
    assert "\u202e" not in "".join(editor.value["name"])


def test_after_loading_the_caption_names_the_data_once_and_load_is_done():
    at = data_page()
    at.file_uploader(key="files_upload").set_value([
        ("hyp.Online.de", SYSTEM.encode(), "text/plain"),
        ("ref.de", REFERENCE.encode(), "text/plain")]).run()
    assert at.button(key="files_commit").proto.type == "primary"
    at.button(key="files_commit").click().run()
    assert not at.exception
    assert list(at.session_state["dataset"].systems) == ["Online"]
    captions = [plain(caption.value) for caption in at.caption]
    [loaded] = [text for text in captions if " · " in text and "reference(s)" in text]
    assert loaded.count("Uploaded files") == 1, loaded  # before: "Uploaded files: Uploaded ..."
    assert at.button(key="files_commit").proto.type == "secondary"
    assert any(text.startswith("Loaded: every page shows these files") for text in captions)
    files = next(df.value for df in at.dataframe if "Documents" in df.value.columns)
    assert "None" not in map(str, files["Documents"]) and set(files["Documents"]) == {"–"}

"""Many systems in the browser: the sidebar's System names and the Data page's preview stay a
bounded number of widgets and columns however many systems are loaded."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_app.views.data import PREVIEW_SYSTEMS
from bleu_app.widgets._uploads import MAX_DROPPED_FILES, NAME_BOXES, NAME_PICKER

APP = Path(__file__).resolve().parents[2] / "app.py"
REFERENCE = [f"the cat sat on mat {k}" for k in range(5)]


def _many(n: int) -> list[tuple[str, bytes, str]]:
    """``n`` systems (each a different word changed) for one reference of five lines."""
    return [(f"t.en-de.hyp.s{k:03d}.de", "\n".join(
        line.replace("cat", f"dog{k}") if j % 2 else line for j, line in enumerate(REFERENCE)
    ).encode() + b"\n", "text/plain") for k in range(n)]


def _loaded(n: int) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.file_uploader(key="systems_upload").set_value(_many(n))
    at.file_uploader(key="references_upload").set_value(
        [("t.en-de.ref.A.de", ("\n".join(REFERENCE) + "\n").encode(), "text/plain")])
    at.run()
    assert not at.exception
    assert len(at.session_state["dataset"].systems) == n
    return at


def _name_boxes(at: AppTest) -> list:
    return [box for box in at.text_input if box.key.startswith("system_name_")]


def test_many_systems_get_one_name_box_behind_a_picker_and_renaming_works():
    n = NAME_BOXES + 5
    at = _loaded(n)
    assert len(_name_boxes(at)) == 1
    picker = at.selectbox(key=NAME_PICKER)
    assert len(picker.options) == n
    picker.set_value("s007").run()
    [box] = _name_boxes(at)
    assert box.value == "s007"
    box.set_value("renamed").run()
    assert not at.exception
    names = list(at.session_state["dataset"].systems)
    assert "renamed" in names and "s007" not in names and len(names) == n
    assert at.selectbox(key=NAME_PICKER).value == "renamed"  # the renamed system stays picked


def test_few_systems_keep_a_name_box_each():
    at = _loaded(3)
    assert len(_name_boxes(at)) == 3


def test_the_data_page_previews_a_bounded_number_of_systems():
    n = PREVIEW_SYSTEMS + 4
    at = _loaded(n)
    at.switch_page("bleu_app/views/data.py").run()
    assert not at.exception
    frames = [frame.value for frame in at.dataframe]
    preview = next(frame for frame in frames if "ref 1" in frame.columns)
    assert len([c for c in preview.columns if str(c).startswith("s")]) == PREVIEW_SYSTEMS
    files = next(frame for frame in frames if "Role" in frame.columns)
    assert (files["Role"] == "system").sum() == n  # the file table still lists every system
    assert any(f"{PREVIEW_SYSTEMS}" in caption.value for caption in at.caption)


def test_a_drop_of_too_many_files_is_refused_with_what_to_do():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("bleu_app/views/data.py").run()
    at.file_uploader(key="files_upload").set_value(_many(MAX_DROPPED_FILES + 1)).run()
    assert not at.exception
    [error] = [e.value for e in at.error]
    assert f"{MAX_DROPPED_FILES + 1:,} files were dropped" in error and "TSV" in error
    assert "files_commit" not in [button.key for button in at.button]  # nothing staged


def test_an_archive_of_too_many_files_is_refused_by_the_files_it_holds():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data, _ in _many(MAX_DROPPED_FILES + 1):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("bleu_app/views/data.py").run()
    at.file_uploader(key="files_upload").set_value(
        [("dropped files.tar", buffer.getvalue(), "application/x-tar")]).run()
    assert not at.exception
    [error] = [e.value for e in at.error]
    # the archive is read no further than the limit, so the message says "more than" it
    assert f"More than {MAX_DROPPED_FILES:,} files were dropped" in error and "TSV" in error
    assert "files_commit" not in [button.key for button in at.button]


def test_the_sidebars_uploaders_read_an_archive_under_their_role():
    """A .zip of system outputs in "System outputs": each file a system, named by its file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, _ in _many(4):
            archive.writestr(f"systems/{name}", data)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.file_uploader(key="systems_upload").set_value(
        [("systems.zip", buffer.getvalue(), "application/zip")])
    at.file_uploader(key="references_upload").set_value(
        [("t.en-de.ref.A.de", ("\n".join(REFERENCE) + "\n").encode(), "text/plain")])
    at.run()
    assert not at.exception
    assert list(at.session_state["dataset"].systems) == ["s000", "s001", "s002", "s003"]

"""Workspaces in the app (AppTest): an upload is saved, ``?ws=<id>`` reopens it with the same
numbers in a new session, the sidebar manages it, and a broken database never breaks the app."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import streamlit as st
from streamlit.testing.v1 import AppTest

from bleu.workspace import WorkspaceStore

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
WMT17 = (REPO.parent / "shared" / "data" / "wmt17_newstest2017_en-de").resolve()
REF = WMT17 / "newstest2017.en-de.ref.de"
SYSTEMS = [WMT17 / f"newstest2017.{name}.en-de.de" for name in ("C-3MA.4959", "FBK.4870")]
KIT = WMT17 / "newstest2017.KIT.4950.en-de.de"

if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))



@pytest.fixture(autouse=True)
def app_setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A database of this test's own (the caches are emptied by tests/conftest.py)."""
    monkeypatch.delenv("BLEU_EXPLORER_SHARED", raising=False)
    database = tmp_path / "app.sqlite3"
    monkeypatch.setenv("BLEU_EXPLORER_DB", str(database))
    return database


def new_app(ws: str | None = None) -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=60)
    if ws is not None:
        app.query_params["ws"] = ws
    app.run()
    assert not app.exception
    return app


def upload(app: AppTest, systems: list[Path], references: list[Path]) -> None:
    for key, paths in (("systems_upload", systems), ("references_upload", references)):
        app.file_uploader(key=key).set_value(
            [(path.name, path.read_bytes(), "text/plain") for path in paths])
    app.run()
    assert not app.exception


def scores(app: AppTest) -> dict[str, float]:
    frame = app.dataframe[0].value
    return dict(zip(frame["system"], frame["BLEU"], strict=True))


def texts(app: AppTest, kind: str) -> list[str]:
    return [re.sub(r"\\(.)", r"\1", element.value) for element in getattr(app, kind)]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def test_the_link_reopens_the_upload_with_the_same_numbers(app_setup: Path) -> None:
    first = new_app()
    first.session_state["n_bootstrap"] = 100  # fewer resamples: a faster dashboard
    upload(first, SYSTEMS, [REF])
    first.checkbox(key="lowercase").check().run()
    shown = scores(first)
    expected = {path.stem: sacrebleu.corpus_bleu(lines(path), [lines(REF)],
                                                 lowercase=True).score for path in SYSTEMS}
    assert shown == pytest.approx(expected, abs=1e-9)
    workspace_id = first.session_state["workspace_id"]
    assert first.query_params["ws"] == workspace_id
    assert len(workspace_id) == 22

    st.cache_data.clear()
    st.cache_resource.clear()
    again = new_app(ws=workspace_id)  # a new session: nothing shared but the database
    assert scores(again) == shown
    assert again.checkbox(key="lowercase").value is True
    assert again.number_input(key="n_bootstrap").value == 100
    assert any("Reopened workspace" in text for text in texts(again, "success"))
    assert any("Uploaded files: 2 systems" in text for text in texts(again, "caption"))


def test_only_own_workspaces_are_listed_unless_the_server_is_shared(
        app_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = new_app()
    upload(owner, SYSTEMS, [REF])
    workspace_id = owner.session_state["workspace_id"]
    (listed,) = owner.selectbox(key="workspace_pick").options
    assert listed.startswith(f"{REF.name} (2 systems) · 2 systems · ")
    stranger = new_app()
    assert not [box for box in stranger.selectbox if box.key == "workspace_pick"]
    monkeypatch.setenv("BLEU_EXPLORER_SHARED", "1")
    lab = new_app()
    pick = lab.selectbox(key="workspace_pick")
    assert pick.value == workspace_id
    lab.button(key="workspace_open").click().run()
    assert scores(lab) == scores(owner)


def test_rename_add_systems_and_delete_from_the_sidebar(app_setup: Path) -> None:
    app = new_app()
    upload(app, SYSTEMS, [REF])
    workspace_id = app.session_state["workspace_id"]
    store = WorkspaceStore(app_setup)
    app.text_input(key="workspace_name").input("my evaluation").run()
    assert store.load(workspace_id).name == "my evaluation"
    app.file_uploader(key="workspace_add_systems").set_value(
        [(KIT.name, KIT.read_bytes(), "text/plain")])
    app.run()
    assert not app.exception
    names = [path.stem for path in (*SYSTEMS, KIT)]
    assert list(scores(app)) == names
    assert app.session_state["workspace_id"] == workspace_id  # the same workspace, grown
    assert list(store.load(workspace_id).dataset.systems) == names
    app.button(key="workspace_delete").click().run()
    assert len(store.list()) == 1, "nothing is deleted before the user confirms"
    assert any("cannot be undone" in text for text in texts(app, "warning"))
    app.button(key="workspace_delete_cancel").click().run()
    assert len(store.list()) == 1
    assert not [b for b in app.button if b.key == "workspace_delete_confirm"]
    app.button(key="workspace_delete").click().run()
    app.button(key="workspace_delete_confirm").click().run()
    assert store.list() == []
    assert "workspace_id" not in app.session_state
    assert "ws" not in app.query_params
    assert len(scores(app)) == 3  # the data stays loaded


WMT21 = (REPO.parent / "shared" / "data" / "wmt21_newstest2021_en-de").resolve()


def test_an_upload_completed_step_by_step_stays_one_workspace(app_setup: Path) -> None:
    """Systems, then a reference, then a second reference and the source: one workspace that
    grows; replacing the reference is another test set, so it gets a workspace of its own."""
    system, ref_a, ref_c, source = (WMT21 / f"newstest2021.en-de.{part}" for part in (
        "hyp.UEdin.de", "ref.A.de", "ref.C.de", "src.en"))
    app = new_app()
    app.session_state["n_bootstrap"] = 100
    give = {"systems_upload": [system]}
    for key, paths in (("references_upload", [ref_a]), ("references_upload", [ref_a, ref_c]),
                       ("source_upload", [source])):
        give[key] = paths
        for uploader, files in give.items():
            data = [(path.name, path.read_bytes(), "text/plain") for path in files]
            app.file_uploader(key=uploader).set_value(data if uploader != "source_upload"
                                                      else data[0])
        app.run()
        assert not app.exception
    store = WorkspaceStore(app_setup)
    (saved,) = store.list()
    assert app.session_state["workspace_id"] == saved.id == app.query_params["ws"]
    grown = store.load(saved.id).dataset
    assert grown.n_refs == 2 and grown.source is not None
    assert grown.source.segments == tuple(lines(source))

    app.file_uploader(key="references_upload").set_value(
        [(ref_c.name, ref_c.read_bytes(), "text/plain")])
    app.run()
    assert not app.exception
    assert len(store.list()) == 2
    assert app.session_state["workspace_id"] != saved.id
    assert store.load(saved.id).dataset.n_refs == 2  # the first one is left as it was


@pytest.mark.parametrize("broken", ["corrupt file", "a folder"])
def test_a_broken_database_only_stops_saving(app_setup: Path, broken: str) -> None:
    if broken == "corrupt file":
        app_setup.write_bytes(b"not a database\n" * 1000)
    else:
        app_setup.mkdir()
    app = new_app()
    upload(app, SYSTEMS, [REF])
    assert len(scores(app)) == 2  # scored as usual
    warnings = texts(app, "warning")
    assert any("Workspaces are not being saved" in text and str(app_setup) in text
               for text in warnings), warnings
    assert "workspace_id" not in app.session_state


def test_an_unknown_link_says_so_and_shows_the_sample(app_setup: Path) -> None:
    app = new_app(ws="no-such-workspace")
    errors = texts(app, "error")
    assert any("No workspace with id 'no-such-workspace'" in text for text in errors), errors
    assert any(text.startswith("Sample: WMT22") for text in texts(app, "caption"))


def test_external_scores_are_saved_and_come_back(app_setup: Path) -> None:
    from bleu.analysis.external import ExternalScores

    app = new_app()
    upload(app, SYSTEMS, [REF])
    workspace_id = app.session_state["workspace_id"]
    matrix = np.array([np.linspace(0, 1, 3004), np.full(3004, np.nan)])
    matrix[1, :10] = 0.5
    app.session_state["external_scores"] = ExternalScores(
        "COMET", ("C-3MA", "FBK"), matrix, "comet.tsv")
    app.session_state["external_aliases"] = {"C-3MA": SYSTEMS[0].stem, "FBK": SYSTEMS[1].stem}
    app.run()
    assert not app.exception
    saved = WorkspaceStore(app_setup).load(workspace_id).external_scores
    assert list(saved["COMET"]) == [path.stem for path in SYSTEMS]
    assert saved["COMET"][SYSTEMS[1].stem][:11] == (0.5,) * 10 + (None,)

    again = new_app(ws=workspace_id)
    restored = again.session_state["external_scores"]
    assert restored.label == "COMET" and restored.systems == tuple(saved["COMET"])
    np.testing.assert_array_equal(restored.matrix, matrix)

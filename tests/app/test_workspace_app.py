"""Workspaces in the app (AppTest): an upload is saved, ``?ws=<id>`` reopens it with the same
numbers in a new session (read-only there: a visitor copies it or gives its edit secret), the
owner's session manages it, a returning browser finds its own list by its cookies, and a broken
database never breaks the app nor shows its password or path."""

from __future__ import annotations

import re
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import streamlit as st
import streamlit.runtime.context
from conftest import DATA_DIR
from streamlit.testing.v1 import AppTest

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import Workspace, WorkspaceStore, new_edit_token

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
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


def page_text(app: AppTest) -> str:
    """Everything the page sends the browser (every element's fields) and its URL's query."""
    shown = [str(node.proto) for node in app._tree if getattr(node, "proto", None) is not None]
    return "\n".join([*shown, str(dict(app.query_params))])


def widget_keys(app: AppTest) -> set[str]:
    return {node.key for node in app._tree if getattr(node, "key", None)}


def cookie_script(app: AppTest) -> str:
    """The script(s) the sidebar runs in the browser to keep edit secrets as cookies."""
    return "\n".join(node.proto.body for node in app.get("html"))


@dataclass(frozen=True)
class Browser:
    """A ClientContext as a returning browser's websocket request gives it (its cookies)."""

    cookies: dict[str, str] = field(default_factory=dict)
    headers: tuple = ()
    remote_ip: str | None = None


def with_cookies(monkeypatch: pytest.MonkeyPatch, cookies: dict[str, str]) -> None:
    """Sessions started from now on get these cookies in ``st.context.cookies``."""
    monkeypatch.setattr(streamlit.runtime.context, "_get_client_context",
                        lambda: Browser(cookies))


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
    assert listed.startswith("newstest2017.en-de · 2 systems · ")  # Dataset.title
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
    assert sorted(scores(app)) == sorted(names)  # the table is in score order
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


WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"


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
    assert any("Workspaces are not being saved. The workspace database cannot be" in text
               for text in warnings), warnings
    assert str(app_setup.parent) not in page_text(app)  # no server path in the page
    assert "workspace_id" not in app.session_state


def test_an_unknown_link_says_so_and_shows_the_sample(app_setup: Path) -> None:
    app = new_app(ws="no-such-workspace")
    errors = texts(app, "error")
    assert any("No workspace with id 'no-such-workspace'" in text for text in errors), errors
    assert any(text.startswith("Sample: WMT22") for text in texts(app, "caption"))


def test_external_scores_are_saved_and_come_back(app_setup: Path) -> None:
    from bleu.io.scores.read import SegmentScores

    app = new_app()
    upload(app, SYSTEMS, [REF])
    workspace_id = app.session_state["workspace_id"]
    matrix = np.array([np.linspace(0, 1, 3004), np.full(3004, np.nan)])
    matrix[1, :10] = 0.5
    app.session_state["external_scores"] = SegmentScores(
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


def test_a_link_opens_a_read_only_view_that_can_be_copied(app_setup: Path) -> None:
    owner = new_app()
    owner.session_state["n_bootstrap"] = 100
    upload(owner, SYSTEMS, [REF])
    workspace_id = owner.session_state["workspace_id"]
    token = owner.session_state["workspace_tokens"][workspace_id]
    assert token not in str(dict(owner.query_params))  # the secret never goes in the URL
    script = cookie_script(owner)
    assert f'"bleu_ws_{workspace_id}={token}; Max-Age=31536000; Path=/; SameSite=Strict"' \
        in script
    store = WorkspaceStore(app_setup)
    before = store.load(workspace_id)
    assert {"workspace_name", "workspace_add_systems"} <= widget_keys(owner)

    visitor = new_app(ws=workspace_id)  # another browser: the link, no secret
    assert scores(visitor) == scores(owner)  # the data loads, every page works
    keys = widget_keys(visitor)
    assert not {"workspace_name", "workspace_add_systems"} & keys
    assert {"workspace_copy", "workspace_edit_secret"} <= keys
    assert visitor.button(key="workspace_delete").disabled
    assert any("read-only" in text for text in texts(visitor, "caption"))
    assert any(option.endswith(" · view only")
               for option in visitor.selectbox(key="workspace_pick").options)
    assert token not in page_text(visitor) and cookie_script(visitor) == ""
    visitor.checkbox(key="lowercase").check().run()
    assert store.load(workspace_id) == before  # a visitor's options stay in their session

    visitor.button(key="workspace_copy").click().run()
    copy_id = visitor.session_state["workspace_id"]
    assert copy_id != workspace_id and visitor.query_params["ws"] == copy_id
    copy = store.load(copy_id)
    assert copy.dataset == before.dataset and copy.name == f"{before.name} (copy)"
    assert copy.options["lowercase"] is True
    assert any("Copied to your workspaces" in text for text in texts(visitor, "success"))
    visitor.text_input(key="workspace_name").input("my copy").run()
    assert store.load(copy_id).name == "my copy"
    assert store.load(workspace_id) == before  # the original is as it was


def test_the_edit_secret_makes_a_browser_an_owner(app_setup: Path) -> None:
    """What ``bleu-explorer --save-workspace`` prints lets a browser change the workspace."""
    secret = new_edit_token()
    store = WorkspaceStore(app_setup)
    dataset = Dataset({path.stem: TextFile(path.name, tuple(lines(path))) for path in SYSTEMS},
                      (TextFile(REF.name, tuple(lines(REF))),), label="bleu-explorer: cli")
    saved = store.save(Workspace.new(dataset, "from the command line"), token=secret)
    app = new_app(ws=saved.id)
    app.text_input(key="workspace_edit_secret").input(new_edit_token()).run()
    assert any("not the edit secret" in text for text in texts(app, "error"))
    assert "workspace_name" not in widget_keys(app)
    app.text_input(key="workspace_edit_secret").input(secret).run()
    assert any("can now change" in text for text in texts(app, "success"))
    assert f"bleu_ws_{saved.id}={secret};" in cookie_script(app)
    app.text_input(key="workspace_name").input("claimed").run()
    assert store.load(saved.id).name == "claimed"


def test_a_returning_browser_finds_its_own_workspaces(
        app_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine, theirs = new_app(), new_app()
    upload(mine, SYSTEMS, [REF])
    upload(theirs, [KIT], [REF])
    own_id = mine.session_state["workspace_id"]
    token = mine.session_state["workspace_tokens"][own_id]
    other_id = theirs.session_state["workspace_id"]
    assert "workspace_pick" not in widget_keys(new_app())  # a browser without cookies

    with_cookies(monkeypatch, {f"bleu_ws_{own_id}": token,
                               f"bleu_ws_{other_id}": new_edit_token(),  # a wrong secret
                               "bleu_ws_x": "<script>", "_streamlit_xsrf": "abc"})
    again = new_app()  # a reload without ?ws: only the cookies remain
    pick = again.selectbox(key="workspace_pick")
    assert [option.split(" · ")[0] for option in pick.options] == ["newstest2017.en-de"]
    assert not pick.options[0].endswith("view only")
    again.button(key="workspace_open").click().run()
    assert again.session_state["workspace_id"] == own_id
    assert "workspace_name" in widget_keys(again)  # its owner: it can change it
    assert not again.button(key="workspace_delete").disabled
    script = cookie_script(again)  # the cookie renewed, nothing else written
    assert f"bleu_ws_{own_id}={token};" in script and other_id not in script
    assert "<script>(" in script and "bleu_ws_x" not in script
    again.button(key="workspace_delete").click().run()
    again.button(key="workspace_delete_confirm").click().run()
    assert [info.id for info in WorkspaceStore(app_setup).list()] == [other_id]
    assert f'"bleu_ws_{own_id}=; Max-Age=0; Path=/; SameSite=Strict"' in cookie_script(again)


def test_a_shared_server_lets_visitors_delete_only_where_it_allows(
        app_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = new_app()
    upload(owner, SYSTEMS, [REF])
    workspace_id = owner.session_state["workspace_id"]
    monkeypatch.setenv("BLEU_EXPLORER_SHARED", "1")
    lab = new_app()
    assert lab.button(key="workspace_delete").disabled  # AppTest, like a browser, cannot click
    assert "workspace_delete_confirm" not in widget_keys(lab)
    assert [info.id for info in WorkspaceStore(app_setup).list()] == [workspace_id]
    monkeypatch.setenv("BLEU_EXPLORER_SHARED_DELETE", "1")
    cleaner = new_app()
    assert not cleaner.button(key="workspace_delete").disabled
    cleaner.button(key="workspace_delete").click().run()
    cleaner.button(key="workspace_delete_confirm").click().run()
    assert WorkspaceStore(app_setup).list() == []


@pytest.mark.parametrize("broken", ["postgresql with a password", "sqlite under a file"])
def test_a_failing_database_never_shows_its_password_or_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    if broken.startswith("postgresql"):
        location = "postgresql://lab:p@ssw0rd@127.0.0.1:1/postgres?password=hunter2"
        secrets = ("hunter2", "ssw0rd")
    else:
        (tmp_path / "secret-lab-folder").write_text("a file where a folder should be")
        location = str(tmp_path / "secret-lab-folder" / "workspaces.sqlite3")
        secrets = ("secret-lab-folder", str(tmp_path))
    monkeypatch.setenv("BLEU_EXPLORER_DB", location)
    app = new_app(ws="anything")
    upload(app, SYSTEMS, [REF])
    assert len(scores(app)) == 2  # scored as usual
    shown = page_text(app)
    assert "the workspace database cannot be" in shown.lower()
    for secret in secrets:
        assert secret not in shown


def test_a_read_only_database_opens_links_and_says_saving_is_unavailable(
        app_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = new_app()
    upload(owner, SYSTEMS, [REF])
    workspace_id = owner.session_state["workspace_id"]
    st.cache_resource.clear()  # a server started on the database made read-only
    connect = sqlite3.connect  # root ignores file modes: SQLite's read-only mode instead
    monkeypatch.setattr(sqlite3, "connect", lambda path, **options: connect(
        f"file:{path}?mode=ro", uri=True, **options))
    visitor = new_app(ws=workspace_id)
    assert scores(visitor) == scores(owner)  # the link still opens
    assert any("Reopened workspace" in text for text in texts(visitor, "success"))
    warnings = texts(visitor, "warning")
    assert any("not being saved" in text and "cannot be written" in text and "readonly" in text
               for text in warnings), warnings
    captions = texts(visitor, "caption")
    assert not any("saved as a workspace automatically" in text for text in captions)
    assert any("saving is unavailable" in text for text in captions)
    assert not {"workspace_name", "workspace_copy"} & widget_keys(visitor)
    assert str(app_setup.parent) not in page_text(visitor)


def test_names_with_controls_are_stored_as_given_and_shown_visibly(app_setup: Path) -> None:
    app = new_app()
    upload(app, SYSTEMS, [REF])
    workspace_id = app.session_state["workspace_id"]
    hostile = "report\u202ecod.exe\x07"
    app.text_input(key="workspace_name").input(hostile).run()
    assert WorkspaceStore(app_setup).load(workspace_id).name == hostile  # stored as given
    (option,) = app.selectbox(key="workspace_pick").options
    assert option.startswith("report⟨U+202E⟩cod.exe⟨U+0007⟩ · ")
    assert any("U+202E" in text for text in texts(app, "caption"))
    shown = [*texts(app, "caption"), option, app.text_input(key="workspace_name").value]
    assert not any("\u202e" in text or "\x07" in text for text in shown)

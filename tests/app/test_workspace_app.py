"""Workspaces in the app (AppTest): an upload is saved, ``?ws=<id>`` (in every URL form the app
has written) reopens it with the same numbers in a new session (read-only there: a visitor
copies it or gives its edit secret), the link's options win over the workspace's saved ones and
the page says so, the owner's session manages it, a returning browser finds its own list by its
cookies (set by the server: HttpOnly), and a broken, full or read-only database never breaks the
app, says so once per page in one plain sentence, and shows no password, host or path."""

from __future__ import annotations

import json
import logging
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
from bleu.metrics.segment.scores import SegmentScores
from bleu.workspace import Workspace, WorkspaceStore, new_edit_token
from bleu_app.session import cookies

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
REF = WMT17 / "newstest2017.en-de.ref.de"
SYSTEMS = [WMT17 / f"newstest2017.{name}.en-de.de" for name in ("C-3MA.4959", "FBK.4870")]
KIT = WMT17 / "newstest2017.KIT.4950.en-de.de"

if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))
WORKSPACE_TESTS = REPO / "tests" / "workspace"
if str(WORKSPACE_TESTS) not in sys.path:  # the read-only folder helpers
    sys.path.insert(0, str(WORKSPACE_TESTS))


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
    """The script(s) the sidebar runs in the browser to have the server set the cookies."""
    return "\n".join(node.proto.body for node in app.get("html"))


def offered_cookies(app: AppTest) -> list[str]:
    """The Set-Cookie headers the server would send for the sidebar's script (its nonce
    redeemed here, as the route does; empty when there is no script)."""
    found = re.search(r"body: '([A-Za-z0-9_-]+)'", cookie_script(app))
    if found is None:
        return []
    return cookies.set_cookie_headers(cookies.redeem(found[1]), path="/_stcore/", secure=False)


def shown(app: AppTest) -> list[str]:
    """Every message, caption and warning the page shows, as text."""
    return [text for kind in ("success", "info", "warning", "error", "caption")
            for text in texts(app, kind)]


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
def test_a_broken_database_only_stops_saving(app_setup: Path, broken: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    if broken == "corrupt file":
        app_setup.write_bytes(b"not a database\n" * 1000)
    else:
        app_setup.mkdir()
    app = new_app()
    with caplog.at_level(logging.WARNING, logger="bleu_app.session._workspace"):
        upload(app, SYSTEMS, [REF])
    assert len(scores(app)) == 2  # scored as usual
    plain = {"corrupt file": "The workspace database is damaged or is not a BLEU Explorer "
                             "database.",
             "a folder": "The workspace database cannot be reached."}[broken]
    warnings = texts(app, "warning")
    assert warnings == [f"Workspaces are not being saved: {plain} Everything else works as "
                        "usual; the loaded data stays until this tab is closed."]
    assert sum(text.count(plain) for text in shown(app)) == 1  # once on the page
    assert "OperationalError" not in page_text(app) and "DatabaseError" not in page_text(app)
    assert str(app_setup.parent) not in page_text(app)  # no server path in the page
    assert "workspace_id" not in app.session_state
    assert not any("saved as a workspace automatically" in text for text in shown(app))
    logged = [record.getMessage() for record in caplog.records]
    assert any("The workspace database cannot be opened" in text for text in logged), logged
    assert not any(str(app_setup.parent) in text for text in logged)  # redacted there too


def test_an_unknown_link_says_so_instead_of_showing_the_sample(app_setup: Path) -> None:
    app = new_app(ws="no-such-workspace")
    (error,) = texts(app, "error")
    assert error == ("Workspace no-such-workspace cannot be opened: No workspace has this id: "
                     "it was deleted, or the link is mistyped. Nothing from it is shown.")
    assert not app.dataframe and not app.get("vega_lite_chart")  # no page drawn
    assert not any("Sample" in text for text in shown(app))
    assert app.query_params["ws"] == "no-such-workspace"  # the link stays: a reload retries
    app.button(key="workspace_link_continue").click().run()  # the user chooses the sample
    assert app.session_state["dataset"].sample == "wmt22-en-de"
    assert "ws" not in app.query_params and len(scores(app)) == 9


def test_a_link_to_a_database_that_is_down_says_so_in_one_plain_sentence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_DB", "postgresql://lab:hunter2@127.0.0.1:1/postgres")
    app = new_app(ws="AbCdEfGhIjKlMnOpQrStUv")
    assert texts(app, "error") == [
        "Workspace AbCdEfGhIjKlMnOpQrStUv cannot be opened: The workspace database cannot be "
        "reached. Nothing from it is shown."]
    for private in ("127.0.0.1", "lab:", "hunter2", "port 1", "U+000A", "OperationalError"):
        assert private not in page_text(app).replace(str(dict(app.query_params)), "")


def test_every_segment_score_metric_is_saved_and_comes_back(app_setup: Path) -> None:
    """Every set of ``segment_scores`` (the file's names mapped by ``external_aliases``) is
    saved with its direction and source, and a reopened workspace has them all back."""
    app = new_app()
    upload(app, SYSTEMS, [REF])
    workspace_id = app.session_state["workspace_id"]
    matrix = np.array([np.linspace(0, 1, 3004), np.full(3004, np.nan)])
    matrix[1, :10] = 0.5
    names = tuple(path.stem for path in SYSTEMS)
    comet = SegmentScores("COMET", ("C-3MA", "FBK"), matrix, "comet.tsv")
    metricx = SegmentScores("MetricX-23", names, np.full((2, 3004), 2.5), "metricx.jsonl",
                            higher_is_better=False)
    mqm = SegmentScores("MQM", names, -np.ones((2, 3004)), "mqm.tsv")
    app.session_state["segment_scores"] = {"COMET": comet, "MetricX-23": metricx, "MQM": mqm}
    app.session_state["external_aliases"] = {"COMET": {"C-3MA": names[0], "FBK": names[1]}}
    app.run()
    assert not app.exception
    saved = WorkspaceStore(app_setup).load(workspace_id).segment_scores
    assert [(s.label, s.higher_is_better, s.source) for s in saved] == [
        ("COMET", True, "comet.tsv"), ("MetricX-23", False, "metricx.jsonl"),
        ("MQM", True, "mqm.tsv")]
    assert list(saved[0].scores) == list(names)  # named as loaded
    assert saved[0].scores[names[1]][:11] == (0.5,) * 10 + (None,)

    again = new_app(ws=workspace_id)
    restored = again.session_state["segment_scores"]
    assert list(restored) == ["COMET", "MetricX-23", "MQM"]
    for label, original in (("COMET", comet), ("MetricX-23", metricx), ("MQM", mqm)):
        back = restored[label]
        assert (back.higher_is_better, back.source) == (original.higher_is_better,
                                                        original.source)
        assert back.systems == names  # the renaming is done: no aliases left
        np.testing.assert_array_equal(back.matrix, original.matrix)
    assert again.session_state["external_aliases"] == {}


def test_a_link_opens_a_read_only_view_that_can_be_copied(app_setup: Path) -> None:
    owner = new_app()
    owner.session_state["n_bootstrap"] = 100
    upload(owner, SYSTEMS, [REF])
    workspace_id = owner.session_state["workspace_id"]
    token = owner.session_state["workspace_tokens"][workspace_id]
    assert token not in str(dict(owner.query_params))  # the secret never goes in the URL
    assert token not in cookie_script(owner)  # nor into the page: the server sets the cookie
    assert offered_cookies(owner)[0] == (f"bleu_ws_{workspace_id}={token}; Max-Age=7776000; "
                                         "Path=/_stcore/; HttpOnly; SameSite=Strict")
    assert offered_cookies(owner) == []  # the script's nonce works once
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
    assert token not in page_text(visitor) and offered_cookies(visitor) == []
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
    assert offered_cookies(app)[0].startswith(f"bleu_ws_{saved.id}={secret};")
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
    offered = offered_cookies(again)  # the cookie renewed, nothing else written
    assert offered[0].startswith(f"bleu_ws_{own_id}={token}; Max-Age=7776000;")
    assert offered[1] == f"bleu_ws_{own_id}=; Max-Age=0; Path=/; SameSite=Strict"  # the old one
    assert len(offered) == 2 and other_id not in str(offered) and "bleu_ws_x" not in str(offered)
    again.button(key="workspace_delete").click().run()
    again.button(key="workspace_delete_confirm").click().run()
    assert [info.id for info in WorkspaceStore(app_setup).list()] == [other_id]
    assert f"bleu_ws_{own_id}=; Max-Age=0; Path=/_stcore/; HttpOnly; SameSite=Strict" \
        in offered_cookies(again)


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
    app = new_app()
    upload(app, SYSTEMS, [REF])
    assert len(scores(app)) == 2  # scored as usual
    everything = page_text(app)
    assert "The workspace database cannot be reached." in everything
    for secret in (*secrets, "OperationalError", "U+000A", "U+0009", "127.0.0.1", "lab:"):
        assert secret not in everything


def test_a_read_only_database_opens_links_and_says_saving_is_off(tmp_path: Path) -> None:
    """The database's folder really read-only (a process that file modes stop, even as root):
    the link opens with the same numbers, and the sidebar says saving is off."""
    from read_only import read_only_folder, run_read_only

    folder = tmp_path / "db"
    folder.mkdir()
    database = folder / "workspaces.sqlite3"
    dataset = Dataset({path.stem: TextFile(path.name, tuple(lines(path))) for path in SYSTEMS},
                      (TextFile(REF.name, tuple(lines(REF))),), label="saved elsewhere")
    saved = WorkspaceStore(database).save(Workspace.new(dataset, "read-only"),
                                          token=new_edit_token())
    expected = {path.stem: sacrebleu.corpus_bleu(lines(path), [lines(REF)]).score
                for path in SYSTEMS}
    with read_only_folder(folder):
        done = run_read_only([str(WORKSPACE_TESTS / "read_only_worker.py"), "app",
                              str(database), saved.id])
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["folder_refuses_writes"] and seen["exception"] == []
    assert seen["scores"] == pytest.approx(expected, abs=1e-9)  # the link still opens
    assert seen["workspace_id"] == saved.id
    assert any("Reopened workspace 'read-only'" in text for text in seen["success"])
    assert seen["warning"] == [
        "Saving is off: the workspace database is read-only here. Saved workspaces still open "
        "by their links, and every page works."]
    assert any("saving is unavailable" in text for text in seen["caption"])
    assert not any("saved as a workspace automatically" in text for text in seen["caption"])
    assert not {"workspace_name", "workspace_copy"} & set(seen["widgets"])
    assert not any(str(folder) in text for kind in ("warning", "caption", "error")
                   for text in seen[kind])


def test_a_full_disk_is_reported_and_the_captions_follow(
        app_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite answering "database or disk is full" (its page limit set at the schema's size):
    the sidebar says the data was not saved, never that it is saved automatically."""
    WorkspaceStore(app_setup).check_writable()  # the schema fits
    ((pages,),) = sqlite3.connect(app_setup).execute("PRAGMA page_count").fetchall()
    connect = sqlite3.connect

    def limited(*args, **options):
        connection = connect(*args, **options)
        connection.execute(f"PRAGMA max_page_count = {pages}")
        return connection

    monkeypatch.setattr(sqlite3, "connect", limited)
    app = new_app()
    upload(app, SYSTEMS, [REF])
    assert len(scores(app)) == 2
    everything = shown(app)
    assert sum(text.count("The workspace database has no room left.") for text in everything) \
        == 1, everything
    assert not any("saved automatically" in text or "Saved as workspace" in text
                   for text in everything)
    assert "workspace_id" not in app.session_state and "ws" not in app.query_params
    monkeypatch.undo()  # room again: the next upload is saved, and the captions say so
    upload(app, [KIT], [REF])
    assert app.session_state["workspace_id"] == app.query_params["ws"]
    assert not texts(app, "warning")
    assert any(text.startswith("Saved as workspace") for text in texts(app, "caption"))


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


# ---------------------------------------------------------------- links: precedence and forms

def saved_workspace(app_setup: Path, options: dict) -> Workspace:
    dataset = Dataset({path.stem: TextFile(path.name, tuple(lines(path))) for path in SYSTEMS},
                      (TextFile(REF.name, tuple(lines(REF))),), label="saved with options")
    return WorkspaceStore(app_setup).save(
        Workspace.new(dataset, "with options", options=options), token=new_edit_token())


def open_link(query: dict[str, str], page: str | None = None) -> AppTest:
    """A new session opened on ``/<page>?<query>`` (the default page without ``page``)."""
    app = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in query.items():
        app.query_params[key] = value
    if page is not None:  # before the first run: the page a URL path names
        app.switch_page(f"bleu_app/views/{page}.py")
    app.run()
    assert not app.exception
    return app


def test_the_links_options_win_over_the_workspaces_and_the_page_says_so(
        app_setup: Path) -> None:
    saved = saved_workspace(app_setup, {"tokenize": "13a", "lowercase": True,
                                        "n_bootstrap": 200})
    app = open_link({"ws": saved.id, "tokenize": "intl", "n_bootstrap": "200"})
    assert app.selectbox(key="tokenize").value == "intl"  # the link's
    assert app.checkbox(key="lowercase").value is True  # the workspace's (the link has none)
    assert app.query_params["tokenize"] == "intl" and app.query_params["ws"] == saved.id
    assert texts(app, "info") == ["This link's options are used instead of those the "
                                  "workspace was saved with: tokenizer intl (saved: 13a)."]
    expected = {path.stem: sacrebleu.corpus_bleu(lines(path), [lines(REF)], tokenize="intl",
                                                 lowercase=True).score for path in SYSTEMS}
    assert scores(app) == pytest.approx(expected, abs=1e-9)
    assert WorkspaceStore(app_setup).load(saved.id).options["tokenize"] == "13a"  # not written

    plain = open_link({"ws": saved.id})  # no option in the link: the workspace's
    assert plain.selectbox(key="tokenize").value == "13a"
    assert plain.query_params["tokenize"] == "13a"
    assert not texts(plain, "info")
    defaults = open_link({"tokenize": "char"})  # no workspace: the link's over the defaults
    assert defaults.selectbox(key="tokenize").value == "char"
    assert defaults.session_state["dataset"].sample == "wmt22-en-de"


@pytest.mark.parametrize(("query", "page"), [
    pytest.param({}, None, id="/?ws=ID"),
    pytest.param({"page": "compare"}, None, id="/?ws=ID&page=compare"),
    pytest.param({}, "compare", id="/compare?ws=ID"),
    pytest.param({"page": "compare"}, "compare", id="/compare?page=compare&ws=ID"),
    pytest.param({"page": "sentences", "tokenize": "13a", "max_ngram_order": "3"}, None,
                 id="/?page=sentences&ws=ID&options"),
    pytest.param({"page": "compare", "sample": "wmt22-en-de"}, None,
                 id="/?ws=ID&sample=...: the workspace wins"),
])
def test_every_url_form_opens_the_workspace_it_names(app_setup: Path, query: dict,
                                                     page: str | None) -> None:
    saved = saved_workspace(app_setup, {"tokenize": "13a"})
    app = open_link({"ws": saved.id, **query}, page)
    assert app.session_state["dataset"] == saved.dataset
    assert app.session_state["workspace_id"] == saved.id == app.query_params["ws"]
    wanted = query.get("page") or page or "dashboard"
    assert app.query_params["page"] == wanted
    assert "sample" not in app.query_params
    if wanted == "compare":
        assert [title.value for title in app.title] == ["Compare two systems"]
    assert not any("Sample" in text for text in shown(app))


def test_the_data_caption_names_what_was_just_uploaded(app_setup: Path) -> None:
    app = new_app()
    assert any(text.startswith("Sample: WMT22") for text in texts(app, "caption"))
    upload(app, SYSTEMS, [REF])
    captions = texts(app, "caption")
    assert not any("Sample" in text for text in captions), captions
    assert "Uploaded files: 2 systems, 1 reference(s), 100 segments" in captions


def test_the_sample_is_known_by_the_data_not_its_label(app_setup: Path) -> None:
    """Loading the sample leaves the workspace (nothing saved, ``?sample=`` in the link); an
    upload whose label reads like the sample's is saved."""
    app = new_app()
    upload(app, SYSTEMS, [REF])
    assert "ws" in app.query_params
    app.button(key="load_sample").click().run()
    assert app.session_state["dataset"].sample == "wmt22-en-de"
    assert "workspace_id" not in app.session_state and "ws" not in app.query_params
    assert app.query_params["sample"] == "wmt22-en-de"
    assert len(WorkspaceStore(app_setup).list()) == 1  # the sample was not saved

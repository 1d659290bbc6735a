"""Workspaces in the app: the Streamlit glue around ``bleu.workspace`` (which decides where new
data goes, how scores are kept and which options a link opens with).

The database comes from BLEU_EXPLORER_DB, else ``[workspaces] database`` in
.streamlit/secrets.toml, else the user's data folder. Visitors read one plain sentence about a
database problem, once per page (in the sidebar; the details go to the server's log, secrets
hidden); the app goes on without saving, and a read-only database still opens its links.

A link opens a read-only view: changing or deleting a workspace needs its edit secret, which its
owner's browser keeps: in this session's state, and in an HttpOnly cookie the server sets
(``bleu_app/session/cookies.py``) that ``st.context.cookies`` gives back on the next visit, so a
returning user finds their workspaces listed again. A session lists its own workspaces and
those it opened by link, unless the server is a shared lab instance (BLEU_EXPLORER_SHARED=1 or
``[workspaces] shared = true``): then every workspace is listed, and visitors may delete others'
only where the server allows it (BLEU_EXPLORER_SHARED_DELETE=1 or ``[workspaces] shared_delete
= true``). ``?ws=<id>`` is read when a session starts (``session/_url.py``) and written from
``CURRENT`` after each run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import Any, TypeVar

import streamlit as st

from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT
from bleu.errors import InputError
from bleu.i18n import ntr, tr
from bleu.io import read_any
from bleu.io.dataset import Dataset, system_name
from bleu.metrics.segment.scores import SegmentScores
from bleu.workspace import (
    SavedScores,
    StorageError,
    Workspace,
    WorkspaceError,
    WorkspaceInfo,
    WorkspaceNotFoundError,
    WorkspaceReadOnlyError,
    WorkspaceStore,
    database_location,
    new_edit_token,
    shared_delete,
    shared_instance,
)
from bleu.workspace.autosave import Save, copy_name, decide, new_name
from bleu.workspace.precedence import Opening, opening
from bleu.workspace.scores import collect, from_saved
from bleu_app import page_script
from bleu_app.session import _session, _state, cookies

#: session-state keys owned by this module
CURRENT = "workspace_id"  # the workspace the loaded data is saved in (absent: not saved)
CURRENT_NAME = "workspace_current_name"
OWN = "workspace_ids"  # the ids this session saved or opened by link: the ones it may list
TOKENS = "workspace_tokens"  # id -> edit secret, for the workspaces this session made or claimed
DELETED = "workspace_deleted"  # ids this session deleted: their secrets (and cookies) are dropped
SAVED_OPTIONS = "workspace_saved_options"  # the options as last written (or opened)
SAVED_SCORES = "workspace_saved_scores"  # the segment scores as last written (or opened)
SAVE_FAILED = "workspace_save_failed"  # why the latest save failed (plain), until one succeeds
ADDED_FILES = "workspace_added_files"
DELETE_PENDING = "workspace_delete_pending"  # the id the user asked to delete, until confirmed
COOKIES_OFFERED = "workspace_cookies_offered"  # (cookies, script): what the sidebar last sent
#: the query parameter that names the workspace (written by session/_url.py from ``CURRENT``)
QUERY = "ws"
#: a database problem is logged at most once per this many seconds (each rerun meets it again)
LOG_EVERY_SECONDS = 60.0
LOG = logging.getLogger(__name__)
_LOGGED: dict[str, float] = {}
T = TypeVar("T")


def _settings() -> dict[str, Any]:
    """The ``[workspaces]`` section of .streamlit/secrets.toml (empty without the file)."""
    try:
        section = st.secrets.get("workspaces", {})
    except FileNotFoundError:
        return {}
    return dict(section) if hasattr(section, "keys") else {}


@st.cache_resource(show_spinner=False)
def _store_at(location: str) -> WorkspaceStore:
    """One store per location for the whole server; its messages name no path or URL."""
    return WorkspaceStore(location)


def _log(error: StorageError) -> None:
    """The details of a database problem, for the server's log (redacted by the store)."""
    text, now = str(error), time.monotonic()
    if now - _LOGGED.get(text, -LOG_EVERY_SECONDS) >= LOG_EVERY_SECONDS:
        _LOGGED[text] = now
        LOG.warning(tr("Workspaces: %s"), text)


def _store() -> WorkspaceStore:
    """The server's store; a StorageError where it cannot even be made (no psycopg)."""
    try:
        return _store_at(database_location(_settings().get("database")))
    except StorageError:
        raise
    except InputError as error:
        raise StorageError(str(error)) from None


def _attempt(action: Callable[[WorkspaceStore], T]) -> T | None:
    """``action`` on the store; None where the database cannot be used (logged; the sidebar
    says so). A missing workspace, a read-only one or an empty name (another
    ``WorkspaceError``) is the caller's to report."""
    try:
        return action(_store())
    except StorageError as error:
        _log(error)
        return None


def _saving(action: Callable[[WorkspaceStore], T]) -> T | None:
    """``_attempt`` for a write: its outcome is the save state the sidebar reports."""
    try:
        result = action(_store())
    except StorageError as error:
        _log(error)
        st.session_state[SAVE_FAILED] = error.plain
        return None
    st.session_state.pop(SAVE_FAILED, None)
    return result


def _shared() -> bool:
    return shared_instance(_settings().get("shared"))


def _anyone_deletes() -> bool:
    """Whether every visitor may delete any workspace: a shared server that enables it."""
    return _shared() and shared_delete(_settings().get("shared_delete"))


def _tokens() -> dict[str, str]:
    """Every edit secret this browser holds (id -> secret): its cookies and this session's."""
    state = st.session_state
    held = {**cookies.browser_secrets(st.context.cookies), **state.get(TOKENS, {})}
    return {key: token for key, token in held.items() if key not in state.get(DELETED, ())}


def _keep_token(workspace_id: str, token: str) -> None:
    """This browser owns ``workspace_id`` from now on (the cookie follows, see ``_cookies``)."""
    state = st.session_state
    state.setdefault(TOKENS, {})[workspace_id] = token
    state[DELETED] = [key for key in state.get(DELETED, []) if key != workspace_id]


def _cookies(owned: frozenset[str]) -> None:
    """Have the server set the cookies of the workspaces this browser owns (renewing them:
    wrong or stale ones are left to expire) and expire those this session deleted; sent again
    only when they change."""
    state = st.session_state
    keep = owned | set(state.get(TOKENS, {}))
    wanted = frozenset([cookies.Cookie(key, token) for key, token in _tokens().items()
                        if key in keep]
                       + [cookies.Cookie(key, None) for key in state.get(DELETED, [])])
    offered = state.get(COOKIES_OFFERED)
    if offered is None or offered[0] != wanted:
        nonce = cookies.offer(sorted(wanted, key=lambda c: c.workspace_id))
        offered = state[COOKIES_OFFERED] = (wanted, cookies.script(nonce) if nonce else None)
    if offered[1]:
        st.sidebar.html(offered[1], unsafe_allow_javascript=True)


def _owned() -> frozenset[str]:
    """The workspaces this browser may change: those whose edit secret it holds (checked)."""
    tokens = _tokens()
    if not tokens:
        return frozenset()
    return _attempt(lambda store: store.editable(tokens)) or frozenset()


def _options() -> dict[str, Any]:
    """The sidebar's options as saved with a workspace (JSON values by widget key)."""
    state = st.session_state
    keys = [*_state.SAVED_OPTION_KEYS,
            *sorted(k for k in state if str(k).startswith(_state.smooth_value_key("")))]
    return {key: state[key] for key in keys if key in state}


def _segment_scores() -> tuple[SavedScores, ...]:
    """Every segment-score metric of the session (``_state.SEGMENT_SCORES``, as read) as a
    workspace keeps it: systems renamed by ``_state.ALIASES`` to the loaded names."""
    state = st.session_state
    found = {label: scores for label, scores in (state.get(_state.SEGMENT_SCORES) or {}).items()
             if isinstance(scores, SegmentScores)}
    return collect(found, state.get(_state.ALIASES))


def _restore_scores(saved: tuple[SavedScores, ...]) -> None:
    """Put a workspace's scores back where scoring/_segment_scores.py reads them: every metric,
    its systems named as loaded (so no renaming is left to do)."""
    state = st.session_state
    state[_state.SEGMENT_SCORES] = {one.label: from_saved(one) for one in saved}
    state[_state.ALIASES] = {}


def _attach(workspace_id: str, name: str) -> None:
    state = st.session_state
    state[CURRENT], state[CURRENT_NAME] = workspace_id, name
    own = state.setdefault(OWN, [])
    if workspace_id not in own:
        own.append(workspace_id)


def _detach() -> None:
    for key in (CURRENT, CURRENT_NAME):
        st.session_state.pop(key, None)


def current() -> str | None:
    """The id of the workspace the loaded data is saved in (None: not saved)."""
    return st.session_state.get(CURRENT)


def load(new: Dataset, done: str | None) -> None:
    """Make ``new`` the loaded data (``_session.commit``) and save it (``autosave``): what every
    user action that loads data calls. Data over the server's memory budget is refused
    (``_session.admit``) and the loaded data stays."""
    if _session.admit(new):
        autosave(_session.commit(new, done), new)


def _saved(saved: Workspace) -> None:
    """The session is in ``saved`` now, with its options and scores as saved."""
    state = st.session_state
    _attach(saved.id, saved.name)
    state[SAVED_OPTIONS] = dict(saved.options)
    state[SAVED_SCORES] = saved.segment_scores


def _save_new(data: Dataset, name: str) -> Workspace | None:
    """Save ``data`` (with the session's options and scores) as a new workspace this browser
    owns, and open it; None where the database cannot be used."""
    token = new_edit_token()
    workspace = Workspace.new(data, name, options=_options(),
                              segment_scores=_segment_scores())
    saved = _saving(lambda store: store.save(workspace, token=token))
    if saved is not None:
        _keep_token(saved.id, token)
        _saved(saved)
    return saved


def _save_in_place(workspace_id: str, new: Dataset) -> bool | None:
    """Save ``new`` into the open workspace with this browser's edit secret: True when saved,
    False when this browser may not change it, None when the database cannot be used."""
    state = st.session_state
    workspace = Workspace(workspace_id, state.get(CURRENT_NAME) or workspace_id, new,
                          _options(), _segment_scores())
    token = _tokens().get(workspace_id)
    try:
        saved = _saving(lambda store: store.save(workspace, token=token))
    except WorkspaceReadOnlyError:
        return False
    if saved is not None:
        _saved(saved)
    return None if saved is None else True


def autosave(previous: Dataset | None, new: Dataset) -> None:
    """Save newly committed data where ``bleu.workspace.autosave.decide`` says: into the open
    workspace, as the user's copy of it, as a new workspace, or not at all (the samples)."""
    state = st.session_state
    workspace_id = current()
    plan = decide(previous, new, current=workspace_id, owned=workspace_id in _tokens())
    if plan is Save.NOT_THE_SAMPLE:
        _detach()
        state.pop(SAVE_FAILED, None)  # nothing is to be saved: nothing failed
        return
    if plan is Save.IN_PLACE:
        done = _save_in_place(workspace_id, new)
        if done is not False:
            if done is None:
                _session.add_message("info", tr("Not saved: see Workspaces in the sidebar."))
            return
        plan = Save.COPY  # its secret changed hands meanwhile
    name = (copy_name(state.get(CURRENT_NAME) or workspace_id) if plan is Save.COPY
            else new_name(new))
    if _save_new(new, name) is None:
        if plan is Save.NEW:
            _detach()
        _session.add_message("info", tr("Not saved as a workspace: see Workspaces in the "
                                        "sidebar."))
    elif plan is Save.COPY:
        _session.add_message("info", tr("Saved as your own workspace {name!r}: the workspace "
                                        "you opened is read-only here.").format(name=name))


def fetch(workspace_id: str) -> Workspace | str:
    """The saved workspace, or why it cannot be opened (one sentence a visitor may read)."""
    try:
        return _store().load(workspace_id)
    except WorkspaceNotFoundError:
        return tr("No workspace has this id: it was deleted, or the link is mistyped.")
    except StorageError as error:
        _log(error)
        return error.plain


def enter(workspace: Workspace, link: Mapping[str, Any] | None = None) -> Opening:
    """Make a saved workspace the session's: its data, its options under the link's
    (``bleu.workspace.precedence``), its scores. Returns the options applied and those the link
    overrode; the overriding ones are not written into the workspace on opening."""
    state = st.session_state
    data = workspace.dataset
    _session.commit(data, tr("Reopened workspace {name!r}: {systems} system(s), {refs} "
                             "reference(s), {segments} segments.").format(
        name=workspace.name, systems=len(data.systems), refs=data.n_refs,
        segments=COUNT.text(data.n_segments)))
    found = opening(workspace.options, link or {})
    for key, value in found.options.items():
        state[key] = value
    _restore_scores(workspace.segment_scores)
    _attach(workspace.id, workspace.name)
    state[SAVED_OPTIONS] = _options()  # what the link overrode is not written on opening
    state[SAVED_SCORES] = workspace.segment_scores
    return found


def cannot_open_link(workspace_id: str, why: str) -> None:
    """Instead of any page: the link's workspace cannot be opened, and why; the way on is the
    user's choice (the bundled sample is not shown as if it were theirs). Stops the run, so
    the link stays as it is (a reload tries again)."""
    st.error(escape_markdown(tr("Workspace {id} cannot be opened: {why} Nothing from it is "
                                "shown.").format(id=workspace_id, why=why)))
    st.page_link(page_script("data"), label=tr("Load your files on the Data page"))
    st.button(tr("Continue with the bundled sample"), key="workspace_link_continue")
    st.stop()


def _sync_settings(owned: frozenset[str]) -> None:
    """Keep the open workspace's options and scores in step with the session, where this
    browser owns it (a visitor's changes stay in their session)."""
    state = st.session_state
    workspace_id, options, scores = current(), _options(), _segment_scores()
    if workspace_id not in owned:
        return
    token = _tokens().get(workspace_id)
    try:
        if options != state.get(SAVED_OPTIONS):
            _saving(lambda store: store.set_options(workspace_id, options, token=token))
        if scores != state.get(SAVED_SCORES, ()):
            _saving(lambda store: store.set_segment_scores(workspace_id, scores, token=token))
    except WorkspaceNotFoundError:  # deleted meanwhile (by another session of a shared server)
        _detach()
    except WorkspaceReadOnlyError:  # its secret changed hands meanwhile: nothing was written
        pass
    # recorded also after a failure: no retry on every rerun (the sidebar says it failed)
    state[SAVED_OPTIONS], state[SAVED_SCORES] = options, scores


def _rename() -> None:
    state = st.session_state
    workspace_id, name = current(), state.get("workspace_name", "").strip()
    if not workspace_id:
        return
    token = _tokens().get(workspace_id)
    try:
        _saving(lambda store: store.rename(workspace_id, name, token=token))
    except WorkspaceError as error:
        _session.say("error", str(error))
        return
    if SAVE_FAILED not in state:
        state[CURRENT_NAME] = name


def _add_systems() -> None:
    """Systems uploaded into the open workspace: checked against its references, then saved."""
    state = st.session_state
    added = state.setdefault(ADDED_FILES, [])
    new = _session.dataset()
    count = 0
    try:
        for upload in state.get("workspace_add_systems") or []:
            if upload.file_id in added:
                continue
            added.append(upload.file_id)
            new = new.with_system(read_any(upload.getvalue(), upload.name),
                                  system_name(upload.name))
            count += 1
    except InputError as error:
        _session.refuse(error)
        return
    if count:
        load(new, tr("Added {count} system(s) to workspace {name!r}.").format(
            count=count, name=state.get(CURRENT_NAME)))


def _copy() -> None:
    """The "Copy to my workspaces" button: the open workspace as it is shown, saved as a new
    one this browser owns (the original stays as it was)."""
    state = st.session_state
    name = copy_name(state.get(CURRENT_NAME) or current())
    if _save_new(_session.dataset(), name) is None:
        _session.say("error", tr("Nothing was copied: see Workspaces in the sidebar."))
        return
    _session.say("success", tr("Copied to your workspaces as {name!r}: this browser can change "
                               "the copy; the original is as it was.").format(name=name))


def _claim() -> None:
    """An edit secret typed in (e.g. printed by ``--save-workspace``): if it is the open
    workspace's, this browser may change it from now on."""
    state = st.session_state
    workspace_id, token = current(), state.get("workspace_edit_secret", "").strip()
    state["workspace_edit_secret"] = ""
    if not workspace_id or not token:
        return
    owned = _attempt(lambda store: store.editable({workspace_id: token}))
    name = state.get(CURRENT_NAME)
    if owned is None:
        _session.say("error", tr("The secret could not be checked: see Workspaces in the "
                                 "sidebar."))
    elif workspace_id in owned:
        _keep_token(workspace_id, token)
        _session.say("success", tr("This browser can now change workspace {name!r}.").format(
            name=name))
    else:
        _session.say("error", tr("That is not the edit secret of workspace {name!r}; nothing "
                                 "was changed.").format(name=name))


def _open_picked() -> None:
    """The Open button: the picked workspace with its saved options."""
    picked = st.session_state.get("workspace_pick")
    if not picked:
        return
    found = fetch(picked)
    if isinstance(found, Workspace):
        enter(found)
    else:
        _session.say("error", tr("The workspace cannot be opened: {why} Nothing was "
                                 "changed.").format(why=found))


def _ask_delete() -> None:
    """The first step of deleting: remember which workspace, and ask (the sidebar shows it)."""
    st.session_state[DELETE_PENDING] = st.session_state.get("workspace_pick")


def _cancel_delete() -> None:
    st.session_state.pop(DELETE_PENDING, None)


def _delete_pending() -> None:
    """The user confirmed: delete the workspace they asked about (not whatever is picked now),
    with this browser's edit secret (or as anyone, where the server allows it)."""
    state = st.session_state
    picked = state.pop(DELETE_PENDING, None)
    if not picked:
        return
    token, anyone = _tokens().get(picked), _anyone_deletes()
    try:
        with suppress(WorkspaceNotFoundError):  # deleted meanwhile: gone either way
            if not _attempt(lambda store: store.delete(picked, token=token, anyone=anyone)
                            or True):
                _session.say("error", tr("Nothing was deleted: see Workspaces in the "
                                         "sidebar."))
                return
    except WorkspaceReadOnlyError as error:
        _session.say("error", tr("{error} Nothing was deleted.").format(error=error))
        return
    if picked in state.get(OWN, []):
        state[OWN].remove(picked)
    state.get(TOKENS, {}).pop(picked, None)
    state[DELETED] = [*state.get(DELETED, []), picked]
    if picked == current():
        _detach()
        _session.say("info", tr("Deleted the workspace; the data stays loaded but is no longer "
                                "saved."))


def _database_problem() -> StorageError | None:
    """What keeps the database from taking writes now (None: it takes them)."""
    try:
        _store().check_writable()
    except StorageError as error:
        _log(error)
        return error
    return None


def _state_line(problem: StorageError | None) -> None:
    """The one line on the save state, as it really is: saving is off (read-only), the database
    cannot be used, the latest save failed, or (a caption) new data is saved."""
    failed = st.session_state.get(SAVE_FAILED)
    if problem is not None and problem.read_only:
        st.sidebar.warning(tr("Saving is off: the workspace database is read-only here. Saved "
                              "workspaces still open by their links, and every page works."))
    elif problem is not None:
        st.sidebar.warning(tr("Workspaces are not being saved: {why} Everything else works as "
                              "usual; the loaded data stays until this tab is closed.").format(
            why=problem.plain))
    elif failed:
        st.sidebar.warning(tr("The latest changes were not saved: {why} They stay loaded in "
                              "this tab; the next change tries again.").format(why=failed))
    elif not current():
        st.sidebar.caption(tr("Uploaded data is saved as a workspace automatically."))


def _current_area(workspace_id: str, owned: frozenset[str], saving: bool) -> None:
    """The open workspace: its owner renames it or adds systems; a visitor may copy it, or give
    its edit secret; nobody changes anything while nothing can be saved."""
    state = st.session_state
    name = state.get(CURRENT_NAME, "")  # controls shown as ⟨U+XXXX⟩ by escape_markdown
    if not saving:
        st.sidebar.caption(escape_markdown(tr(
            "Workspace '{name}' is open, but saving is unavailable: changes you make here are "
            "not saved.").format(name=name)))
        return
    if workspace_id in owned:
        saved = SAVE_FAILED not in state
        st.sidebar.caption(escape_markdown(tr(
            "Saved as workspace '{name}'. This page's link (?ws={id}) shows it read-only to "
            "anyone you give it to; only this browser can change or delete it.").format(
            name=name, id=workspace_id) if saved else tr(
            "Workspace '{name}' is open; its latest changes were not saved.").format(name=name)))
        state["workspace_name"] = show_controls(name)
        st.sidebar.text_input(tr("Workspace name"), key="workspace_name", on_change=_rename)
        st.sidebar.file_uploader(tr("Add systems to this workspace"),
                                 accept_multiple_files=True, key="workspace_add_systems",
                                 on_change=_add_systems)
        return
    st.sidebar.caption(escape_markdown(tr(
        "Viewing workspace '{name}' read-only: every page works, but changes you make here are "
        "not saved to it. Copy it to keep a version you can change.").format(name=name)))
    st.sidebar.button(tr("Copy to my workspaces"), key="workspace_copy", on_click=_copy)
    with st.sidebar.expander(tr("Edit with its secret")):
        st.text_input(tr("Edit secret"), key="workspace_edit_secret", type="password",
                      on_change=_claim,
                      help=tr("The owner's secret (printed by bleu-explorer --save-workspace): "
                              "with it, this browser may rename, add systems to or delete it."))


def sidebar() -> None:
    """The sidebar's Workspaces area: where the data is saved (or why not), and the saved
    workspaces to reopen, rename, add systems to, copy or delete."""
    state = st.session_state
    owned = _owned()
    _sync_settings(owned)
    st.sidebar.header(tr("Workspaces"))
    _cookies(owned)
    problem = _database_problem()
    _state_line(problem)
    workspace_id = current()
    if workspace_id:
        _current_area(workspace_id, owned, problem is None)
    shared = _shared()
    listed = None if shared else [*owned, *state.get(OWN, [])]
    infos = _attempt(lambda store: store.list(listed))
    if infos:
        _saved_list(infos, owned, shared)


def _label_parts(info: WorkspaceInfo) -> list[str]:
    """A saved workspace in the picker: its name, its systems (unless the name says them, as
    a new workspace's title does) and when it was last saved."""
    count = ntr("{count} system", "{count} systems", info.n_systems).format(
        count=info.n_systems)
    parts = [show_controls(info.name)]
    if not info.name.endswith(count):
        parts.append(count)
    return [*parts, time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated))]


def _saved_list(infos: list[WorkspaceInfo], owned: frozenset[str], shared: bool) -> None:
    """The saved workspaces to open or delete (with a confirmation); others' are view only."""
    state = st.session_state
    workspace_id = current()
    labels = {info.id: " · ".join(_label_parts(info))
              + ("" if info.id in owned else tr(" · view only")) for info in infos}
    if state.get("workspace_pick") not in labels:
        state["workspace_pick"] = workspace_id if workspace_id in labels else infos[0].id
    st.sidebar.selectbox(tr("Saved workspaces (everyone's: shared server)") if shared
                         else tr("Your saved workspaces"), list(labels), key="workspace_pick",
                         format_func=lambda key: labels.get(key, key))
    deletable = state["workspace_pick"] in owned or _anyone_deletes()
    left, right = st.sidebar.columns(2)
    left.button(tr("Open"), key="workspace_open", on_click=_open_picked)
    right.button(tr("Delete"), key="workspace_delete", on_click=_ask_delete,
                 disabled=not deletable,
                 help=None if deletable else tr("Only its owner's browser can delete it."))
    pending = state.get(DELETE_PENDING)
    if pending in labels:
        st.sidebar.warning(escape_markdown(tr(
            "Delete workspace {label}? Its saved texts, options and scores are removed for "
            "everyone who has its link; this cannot be undone.").format(label=labels[pending])))
        yes, no = st.sidebar.columns(2)
        yes.button(tr("Yes, delete"), key="workspace_delete_confirm", type="primary",
                   on_click=_delete_pending)
        no.button(tr("Cancel"), key="workspace_delete_cancel", on_click=_cancel_delete)

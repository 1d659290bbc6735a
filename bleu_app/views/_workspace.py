"""Workspaces in the app: saved after each upload, opened by ``?ws=<id>``, listed in the sidebar.

The database comes from BLEU_EXPLORER_DB, else ``[workspaces] database`` in
.streamlit/secrets.toml, else the user's data folder; messages call it "the workspace database"
(no path or URL). A database that cannot be used, or only read, gives a warning saying so and
the app goes on without saving.

A link opens a read-only view: changing or deleting a workspace needs its edit secret, which its
owner's browser keeps: in this session's state, and in a cookie ``bleu_ws_<id>`` (set by a small
script, SameSite=Strict, never in the URL) that ``st.context.cookies`` gives back on the next
visit, so a returning user finds their workspaces listed again. A session lists its own
workspaces and those it opened by link, unless the server is a shared lab instance
(BLEU_EXPLORER_SHARED=1 or ``[workspaces] shared = true``): then every workspace is listed, and
visitors may delete others' only where the server allows it (BLEU_EXPLORER_SHARED_DELETE=1 or
``[workspaces] shared_delete = true``).
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.errors import InputError
from bleu.io import read_any
from bleu.io.dataset import Dataset, system_name
from bleu.io.scores.read import SegmentScores
from bleu.workspace import (
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
from bleu_app.views import _session, _state

#: session-state keys owned by this module
CURRENT = "workspace_id"  # the workspace the loaded data is saved in (absent: not saved)
CURRENT_NAME = "workspace_current_name"
OWN = "workspace_ids"  # the ids this session saved or opened by link: the ones it may list
TOKENS = "workspace_tokens"  # id -> edit secret, for the workspaces this session made or claimed
DELETED = "workspace_deleted"  # ids this session deleted: their secrets (and cookies) are dropped
SAVED_OPTIONS = "workspace_saved_options"
STORAGE_ERROR = "workspace_error"
URL_SEEN = "workspace_url_seen"
ADDED_FILES = "workspace_added_files"
DELETE_PENDING = "workspace_delete_pending"  # the id the user asked to delete, until confirmed
SAVED_EXTERNAL = "workspace_saved_external"
#: the query parameter that names the workspace; views/_url.py rewrites the query string from
#: ``_state.URL_STATE`` after each run, so ``ws`` goes in there too
QUERY = "ws"
#: a browser's edit secret for workspace <id> is its cookie ``bleu_ws_<id>``
COOKIE = "bleu_ws_"
#: how long a browser keeps an edit secret: a year, renewed on every visit
COOKIE_SECONDS = 365 * 24 * 3600
#: what an id or an edit secret looks like (``secrets.token_urlsafe``): nothing else goes into a
#: cookie or into the script that sets it
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{16,64}")
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


def _failed(error: InputError) -> None:
    st.session_state[STORAGE_ERROR] = (
        f"Workspaces are not being saved. {error} Everything else works as usual; the loaded "
        "data stays until this tab is closed.")


def _attempt(action: Callable[[WorkspaceStore], T]) -> T | None:
    """``action`` on the store; None (and the warning set) where the database cannot be used.

    A missing workspace, a read-only one or an empty name (another ``WorkspaceError``) is the
    caller's to report.
    """
    try:
        settings = _settings()
        result = action(_store_at(database_location(settings.get("database"))))
    except StorageError as error:
        _failed(error)
        return None
    except WorkspaceError:
        raise
    except InputError as error:  # e.g. psycopg missing for a postgresql:// URL
        _failed(error)
        return None
    st.session_state.pop(STORAGE_ERROR, None)
    return result


def _shared() -> bool:
    return shared_instance(_settings().get("shared"))


def _anyone_deletes() -> bool:
    """Whether every visitor may delete any workspace: a shared server that enables it."""
    return _shared() and shared_delete(_settings().get("shared_delete"))


def _browser_tokens() -> dict[str, str]:
    """The edit secrets this browser sent when the session started (its ``bleu_ws_`` cookies)."""
    return {name[len(COOKIE):]: value for name, value in st.context.cookies.items()
            if name.startswith(COOKIE) and _TOKEN_LIKE.fullmatch(name[len(COOKIE):])
            and _TOKEN_LIKE.fullmatch(value)}


def _tokens() -> dict[str, str]:
    """Every edit secret this browser holds (id -> secret): its cookies and this session's."""
    state = st.session_state
    held = {**_browser_tokens(), **state.get(TOKENS, {})}
    return {key: token for key, token in held.items() if key not in state.get(DELETED, ())}


def _keep_token(workspace_id: str, token: str) -> None:
    """This browser owns ``workspace_id`` from now on (the cookie follows, see ``_cookies``)."""
    state = st.session_state
    state.setdefault(TOKENS, {})[workspace_id] = token
    state[DELETED] = [key for key in state.get(DELETED, []) if key != workspace_id]


def _cookie_script(owned: frozenset[str]) -> str | None:
    """A script that stores the edit secrets of the workspaces this browser owns as cookies
    (renewing them; wrong or stale ones are left to expire) and drops those of deleted
    workspaces; None when there is nothing to store. Only id- and secret-shaped text goes in
    (``_TOKEN_LIKE``), JSON-quoted."""
    tail = f"; Max-Age={COOKIE_SECONDS}; Path=/; SameSite=Strict"
    keep = owned | set(st.session_state.get(TOKENS, {}))
    cookies = [f"{COOKIE}{key}={token}{tail}" for key, token in sorted(_tokens().items())
               if key in keep and _TOKEN_LIKE.fullmatch(key) and _TOKEN_LIKE.fullmatch(token)]
    cookies += [f"{COOKIE}{key}=; Max-Age=0; Path=/; SameSite=Strict"
                for key in st.session_state.get(DELETED, []) if _TOKEN_LIKE.fullmatch(key)]
    if not cookies:
        return None
    return ("<script>(() => { const secure = location.protocol === 'https:' ? '; Secure' : '';"
            f" for (const cookie of {json.dumps(cookies)}) document.cookie = cookie + secure;"
            " })();</script>")


def _cookies(owned: frozenset[str]) -> None:
    """Write the cookie script into the sidebar (it runs once per change of its text)."""
    script = _cookie_script(owned)
    if script:
        st.sidebar.html(script, unsafe_allow_javascript=True)


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


def _external() -> dict[str, dict[str, tuple[float | None, ...]]]:
    """The session's external scores as a workspace keeps them: metric -> system -> scores
    (system names as loaded, NaN as None)."""
    scores = st.session_state.get(_state.EXTERNAL)
    if not isinstance(scores, SegmentScores):
        return {}
    aliases = st.session_state.get(_state.ALIASES) or {}
    return {scores.label: {
        aliases.get(name, name): tuple(None if math.isnan(value) else float(value)
                                       for value in row)
        for name, row in scores.by_system().items()}}


def _restore_external(saved: Mapping[str, Mapping[str, tuple[float | None, ...]]]) -> None:
    """Put a workspace's external scores back where views/_metrics.py reads them."""
    state = st.session_state
    state[SAVED_EXTERNAL] = {metric: dict(by_system) for metric, by_system in saved.items()}
    if not saved:
        state[_state.EXTERNAL], state[_state.ALIASES] = None, {}
        return
    label, by_system = next(iter(saved.items()))
    matrix = np.array([[np.nan if value is None else value for value in values]
                       for values in by_system.values()], dtype=float)
    state[_state.EXTERNAL] = SegmentScores(label, tuple(by_system), matrix,
                                            "the saved workspace")
    state[_state.ALIASES] = {}


def _attach(workspace_id: str, name: str) -> None:
    state = st.session_state
    state[CURRENT], state[CURRENT_NAME], state[URL_SEEN] = workspace_id, name, workspace_id
    own = state.setdefault(OWN, [])
    if workspace_id not in own:
        own.append(workspace_id)
    st.query_params[QUERY] = workspace_id
    state[_state.URL_STATE] = {**state.get(_state.URL_STATE, {}), QUERY: workspace_id}


def _detach() -> None:
    state = st.session_state
    for key in (CURRENT, CURRENT_NAME, URL_SEEN):
        state.pop(key, None)
    if QUERY in st.query_params:
        del st.query_params[QUERY]
    state[_state.URL_STATE] = {k: v for k, v in state.get(_state.URL_STATE, {}).items()
                             if k != QUERY}


def _extends(previous: Dataset, new: Dataset) -> bool:
    """Whether ``new`` keeps all of ``previous`` (same segments, its systems, its references in
    order, its source) and only renames or adds systems, adds references or adds a source: a
    user completing an upload step by step stays in one workspace."""
    kept_source = previous.source is None or (
        new.source is not None and previous.source.segments == new.source.segments)
    old_refs = [ref.key for ref in previous.references]
    new_refs = [ref.key for ref in new.references]
    return (previous.n_segments == new.n_segments and kept_source
            and new_refs[:len(old_refs)] == old_refs
            and set(previous.system_keys.values()) <= set(new.system_keys.values()))


def load(new: Dataset, done: str | None) -> None:
    """Make ``new`` the loaded data (``_session.commit``) and save it (``autosave``): what every
    user action that loads data calls. Data over the server's memory budget is refused
    (``_session.admit``) and the loaded data stays."""
    if _session.admit(new):
        autosave(_session.commit(new, done), new)


def _save_new(data: Dataset, name: str) -> Workspace | None:
    """Save ``data`` (with the session's options and external scores) as a new workspace this
    browser owns, and open it; None (the warning set) where the database cannot be used."""
    token = new_edit_token()
    workspace = Workspace.new(data, name, options=_options(), external_scores=_external())
    saved = _attempt(lambda store: store.save(workspace, token=token))
    if saved is not None:
        _keep_token(saved.id, token)
        _saved(saved)
    return saved


def _saved(saved: Workspace) -> None:
    """The session is in ``saved`` now, with its options and external scores as saved."""
    state = st.session_state
    _attach(saved.id, saved.name)
    state[SAVED_OPTIONS] = dict(saved.options)
    state[SAVED_EXTERNAL] = dict(saved.external_scores)


def _save_in_place(current: str, new: Dataset) -> bool | None:
    """Save ``new`` into the open workspace with this browser's edit secret: True when saved,
    False when this browser may not change it, None when the database cannot be used."""
    state = st.session_state
    workspace = Workspace(current, state.get(CURRENT_NAME) or current, new, _options(),
                          _external())
    token = _tokens().get(current)
    try:
        saved = _attempt(lambda store: store.save(workspace, token=token))
    except WorkspaceReadOnlyError:
        return False
    if saved is not None:
        _saved(saved)
    return None if saved is None else True


def autosave(previous: Dataset | None, new: Dataset) -> None:
    """Save newly committed data: into the open workspace when it only renames or adds
    systems and this browser owns it, as a copy of its own when it does not, else as a new
    workspace (the bundled samples are never saved)."""
    state = st.session_state
    if new.label.startswith("Sample:"):
        if state.get(CURRENT):  # the user left the workspace for the sample
            _detach()
        return
    current = state.get(CURRENT)
    grows = bool(current) and previous is not None and _extends(previous, new)
    done = _save_in_place(current, new) if grows and current in _tokens() else False
    if done is False:
        name = (f"{state.get(CURRENT_NAME) or current} (copy)" if grows
                else new.title)
        done = _save_new(new, name) is not None
        if done and grows:
            _session.add_message("info", f"Saved as your own workspace {name!r}: the workspace "
                                         "you opened is read-only here.")
    if not done:
        if not grows:
            _detach()
        _session.add_message("warning", state.get(STORAGE_ERROR, "The workspace was not saved."))


def _open(workspace_id: str) -> None:
    """Load a saved workspace: its data, options and external scores."""
    state = st.session_state
    try:
        workspace = _attempt(lambda store: store.load(workspace_id))
    except WorkspaceNotFoundError as error:
        _session.say("error", f"{error} Nothing was changed.")
        if st.query_params.get(QUERY) == workspace_id:
            _detach()
        return
    if workspace is None:
        _session.say("error", state[STORAGE_ERROR])
        return
    data = workspace.dataset
    _session.commit(data, f"Reopened workspace {workspace.name!r}: {len(data.systems)} "
                          f"system(s), {data.n_refs} reference(s), {data.n_segments:,} segments.")
    for key, value in workspace.options.items():
        state[key] = value
    _restore_external(workspace.external_scores)
    _attach(workspace.id, workspace.name)
    state[SAVED_OPTIONS] = dict(workspace.options)


def restore_from_url() -> None:
    """Reopen the workspace of ``?ws=<id>``, once per id (later reruns keep the user's changes)."""
    wanted = st.query_params.get(QUERY)
    state = st.session_state
    if not wanted or wanted == state.get(URL_SEEN):
        return
    state[URL_SEEN] = wanted
    if wanted != state.get(CURRENT):
        _open(wanted)


def _sync_settings(owned: frozenset[str]) -> None:
    """Keep the open workspace's options and external scores in step with the session, where
    this browser owns it (a visitor's changes stay in their session)."""
    state = st.session_state
    current, options, external = state.get(CURRENT), _options(), _external()
    if current not in owned:
        return
    token = _tokens().get(current)
    try:
        if options != state.get(SAVED_OPTIONS):
            _attempt(lambda store: store.set_options(current, options, token=token))
        if external != state.get(SAVED_EXTERNAL, {}):
            _attempt(lambda store: store.set_external_scores(current, external, token=token))
    except WorkspaceNotFoundError:  # deleted meanwhile (by another session of a shared server)
        _detach()
    except WorkspaceReadOnlyError:  # its secret changed hands meanwhile: nothing was written
        pass
    # recorded also after a failure: no retry on every rerun
    state[SAVED_OPTIONS], state[SAVED_EXTERNAL] = options, external


def _rename() -> None:
    state = st.session_state
    current, name = state.get(CURRENT), state.get("workspace_name", "").strip()
    if not current:
        return
    token = _tokens().get(current)
    try:
        _attempt(lambda store: store.rename(current, name, token=token))
    except WorkspaceError as error:
        _session.say("error", str(error))
        return
    if STORAGE_ERROR not in state:
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
        load(new, f"Added {count} system(s) to workspace "
                            f"{state.get(CURRENT_NAME)!r}.")


def _copy() -> None:
    """The "Copy to my workspaces" button: the open workspace as it is shown, saved as a new
    one this browser owns (the original stays as it was)."""
    state = st.session_state
    name = f"{state.get(CURRENT_NAME) or state.get(CURRENT)} (copy)"
    if _save_new(_session.dataset(), name) is None:
        _session.say("error", state[STORAGE_ERROR])
        return
    _session.say("success", f"Copied to your workspaces as {name!r}: this browser can change "
                            "the copy; the original is as it was.")


def _claim() -> None:
    """An edit secret typed in (e.g. printed by ``--save-workspace``): if it is the open
    workspace's, this browser may change it from now on."""
    state = st.session_state
    current, token = state.get(CURRENT), state.get("workspace_edit_secret", "").strip()
    state["workspace_edit_secret"] = ""
    if not current or not token:
        return
    owned = _attempt(lambda store: store.editable({current: token}))
    name = state.get(CURRENT_NAME)
    if owned is None:
        _session.say("error", state[STORAGE_ERROR])
    elif current in owned:
        _keep_token(current, token)
        _session.say("success", f"This browser can now change workspace {name!r}.")
    else:
        _session.say("error", f"That is not the edit secret of workspace {name!r}; nothing "
                              "was changed.")


def _open_picked() -> None:
    picked = st.session_state.get("workspace_pick")
    if picked:
        _open(picked)


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
            _attempt(lambda store: store.delete(picked, token=token, anyone=anyone))
    except WorkspaceReadOnlyError as error:
        _session.say("error", f"{error} Nothing was deleted.")
        return
    if STORAGE_ERROR in state:
        return
    if picked in state.get(OWN, []):
        state[OWN].remove(picked)
    state.get(TOKENS, {}).pop(picked, None)
    state[DELETED] = [*state.get(DELETED, []), picked]
    if picked == state.get(CURRENT):
        _detach()
        _session.say("info", "Deleted the workspace; the data stays loaded but is no longer "
                             "saved.")


def _why_unsaved() -> str | None:
    """Why nothing can be saved (the database cannot be written), or None when it can."""
    _attempt(lambda store: store.check_writable())
    return st.session_state.get(STORAGE_ERROR)


def _current_area(current: str, owned: frozenset[str], unsaved: bool) -> None:
    """The open workspace: its owner renames it or adds systems; a visitor may copy it, or give
    its edit secret; nobody changes anything while the database cannot be written."""
    state = st.session_state
    name = state.get(CURRENT_NAME, "")  # controls shown as ⟨U+XXXX⟩ by escape_markdown
    if unsaved:
        st.sidebar.caption(escape_markdown(
            f"Workspace '{name}' is open, but saving is unavailable (below): changes you make "
            "here are not saved."))
        return
    if current in owned:
        st.sidebar.caption(escape_markdown(
            f"Saved as workspace '{name}'. This page's link (?ws={current}) shows it read-only "
            "to anyone you give it to; only this browser can change or delete it."))
        state["workspace_name"] = show_controls(name)
        st.sidebar.text_input("Workspace name", key="workspace_name", on_change=_rename)
        st.sidebar.file_uploader("Add systems to this workspace", accept_multiple_files=True,
                                 key="workspace_add_systems", on_change=_add_systems)
        return
    st.sidebar.caption(escape_markdown(
        f"Viewing workspace '{name}' read-only: every page works, but changes you make here are "
        "not saved to it. Copy it to keep a version you can change."))
    st.sidebar.button("Copy to my workspaces", key="workspace_copy", on_click=_copy)
    with st.sidebar.expander("Edit with its secret"):
        st.text_input("Edit secret", key="workspace_edit_secret", type="password",
                      on_change=_claim,
                      help="The owner's secret (printed by bleu-explorer --save-workspace): "
                           "with it, this browser may rename, add systems to or delete it.")


def sidebar() -> None:
    """The sidebar's Workspaces area: where the data is saved, and the saved workspaces to
    reopen, rename, add systems to, copy or delete."""
    state = st.session_state
    owned = _owned()
    _sync_settings(owned)
    st.sidebar.header("Workspaces")
    _cookies(owned)
    unsaved = _why_unsaved()
    current = state.get(CURRENT)
    if current:
        _current_area(current, owned, bool(unsaved))
    elif not unsaved:
        st.sidebar.caption("Uploaded data is saved as a workspace automatically.")
    shared = _shared()
    listed = None if shared else [*owned, *state.get(OWN, [])]
    infos = _attempt(lambda store: store.list(listed))
    problem = state.get(STORAGE_ERROR) or unsaved
    if problem:
        st.sidebar.warning(escape_markdown(problem))
    if infos:
        _saved_list(infos, owned, shared)


def _saved_list(infos: list[WorkspaceInfo], owned: frozenset[str], shared: bool) -> None:
    """The saved workspaces to open or delete (with a confirmation); others' are view only."""
    state = st.session_state
    current = state.get(CURRENT)
    labels = {info.id: f"{show_controls(info.name)} · {info.n_systems} systems · "
                       f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(info.updated))}"
                       + ("" if info.id in owned else " · view only")
              for info in infos}
    if state.get("workspace_pick") not in labels:
        state["workspace_pick"] = current if current in labels else infos[0].id
    st.sidebar.selectbox("Saved workspaces (everyone's: shared server)" if shared
                         else "Your saved workspaces", list(labels), key="workspace_pick",
                         format_func=lambda key: labels.get(key, key))
    deletable = state["workspace_pick"] in owned or _anyone_deletes()
    left, right = st.sidebar.columns(2)
    left.button("Open", key="workspace_open", on_click=_open_picked)
    right.button("Delete", key="workspace_delete", on_click=_ask_delete, disabled=not deletable,
                 help=None if deletable else "Only its owner's browser can delete it.")
    pending = state.get(DELETE_PENDING)
    if pending in labels:
        st.sidebar.warning(escape_markdown(
            f"Delete workspace {labels[pending]}? Its saved texts, options and scores are "
            "removed for everyone who has its link; this cannot be undone."))
        yes, no = st.sidebar.columns(2)
        yes.button("Yes, delete", key="workspace_delete_confirm", type="primary",
                   on_click=_delete_pending)
        no.button("Cancel", key="workspace_delete_cancel", on_click=_cancel_delete)

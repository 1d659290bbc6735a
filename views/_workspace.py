"""Workspaces in the app: saved after each upload, reopened by ``?ws=<id>``, listed in the sidebar.

The database comes from BLEU_EXPLORER_DB, else ``[workspaces] database`` in
.streamlit/secrets.toml, else the user's data folder. A database that cannot be used gives a
warning and the app goes on without saving. A session lists only the workspaces it saved or
opened by link, unless the server is a shared lab instance (BLEU_EXPLORER_SHARED=1 or
``[workspaces] shared = true``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from bleu.analysis.escaping import escape_markdown
from bleu.analysis.external import ExternalScores
from bleu.errors import InputError
from bleu.io import read_any
from bleu.io.dataset import Dataset, system_name
from bleu.workspace import (
    StorageError,
    Workspace,
    WorkspaceError,
    WorkspaceNotFoundError,
    WorkspaceStore,
    database_location,
    shared_instance,
)
from views import _session, _state

#: session-state keys owned by this module
CURRENT = "workspace_id"  # the workspace the loaded data is saved in (absent: not saved)
CURRENT_NAME = "workspace_current_name"
OWN = "workspace_ids"  # the ids this session saved or opened by link: the ones it may list
SAVED_OPTIONS = "workspace_saved_options"
STORAGE_ERROR = "workspace_error"
URL_SEEN = "workspace_url_seen"
ADDED_FILES = "workspace_added_files"
DELETE_PENDING = "workspace_delete_pending"  # the id the user asked to delete, until confirmed
SAVED_EXTERNAL = "workspace_saved_external"
#: the query parameter that names the workspace; views/_url.py rewrites the query string from
#: ``_state.URL_STATE`` after each run, so ``ws`` goes in there too
QUERY = "ws"
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
    return WorkspaceStore(location)


def _failed(error: InputError) -> None:
    st.session_state[STORAGE_ERROR] = (
        f"Workspaces are not being saved. {error} Everything else works as usual; the loaded "
        "data stays until this tab is closed.")


def _attempt(action: Callable[[WorkspaceStore], T]) -> T | None:
    """``action`` on the store; None (and the warning set) where the database cannot be used.

    A missing workspace or an empty name (another ``WorkspaceError``) is the caller's to report.
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
    if not isinstance(scores, ExternalScores):
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
    state[_state.EXTERNAL] = ExternalScores(label, tuple(by_system), matrix,
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
    user action that loads data calls."""
    autosave(_session.commit(new, done), new)


def autosave(previous: Dataset | None, new: Dataset) -> None:
    """Save newly committed data: into the open workspace when it only renames or adds
    systems, else as a new workspace (the bundled samples are never saved)."""
    state = st.session_state
    if new.label.startswith("Sample:"):
        if state.get(CURRENT):  # the user left the workspace for the sample
            _detach()
        return
    current = state.get(CURRENT)
    if current and previous is not None and _extends(previous, new):
        workspace = Workspace(current, state.get(CURRENT_NAME) or current, new, _options(),
                              _external())
    else:
        current = None
        name = f"{new.references[0].name} ({len(new.systems)} systems)"
        workspace = Workspace.new(new, name, options=_options(), external_scores=_external())
    try:
        saved = _attempt(lambda store: store.save(workspace))
    except WorkspaceNotFoundError:
        saved = None
    if saved is None:
        if not current:
            _detach()
        _session.add_message("warning", state.get(STORAGE_ERROR, "The workspace was not saved."))
        return
    _attach(saved.id, saved.name)
    state[SAVED_OPTIONS] = dict(workspace.options)
    state[SAVED_EXTERNAL] = dict(workspace.external_scores)


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


def _sync_settings() -> None:
    """Keep the open workspace's options and external scores in step with the session."""
    state = st.session_state
    current, options, external = state.get(CURRENT), _options(), _external()
    if not current:
        return
    try:
        if options != state.get(SAVED_OPTIONS):
            _attempt(lambda store: store.set_options(current, options))
        if external != state.get(SAVED_EXTERNAL, {}):
            _attempt(lambda store: store.set_external_scores(current, external))
    except WorkspaceNotFoundError:  # deleted meanwhile (by another session of a shared server)
        _detach()
    # recorded also after a failure: no retry on every rerun
    state[SAVED_OPTIONS], state[SAVED_EXTERNAL] = options, external


def _rename() -> None:
    state = st.session_state
    current, name = state.get(CURRENT), state.get("workspace_name", "").strip()
    if not current:
        return
    try:
        _attempt(lambda store: store.rename(current, name))
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
    """The user confirmed: delete the workspace they asked about (not whatever is picked now)."""
    state = st.session_state
    picked = state.pop(DELETE_PENDING, None)
    if not picked:
        return
    with suppress(WorkspaceNotFoundError):  # deleted meanwhile: gone either way
        _attempt(lambda store: store.delete(picked))
    if STORAGE_ERROR in state:
        return
    if picked in state.get(OWN, []):
        state[OWN].remove(picked)
    if picked == state.get(CURRENT):
        _detach()
        _session.say("info", "Deleted the workspace; the data stays loaded but is no longer "
                             "saved.")


def sidebar() -> None:
    """The sidebar's Workspaces area: where the data is saved, and the saved workspaces to
    reopen, rename, add systems to or delete."""
    state = st.session_state
    _sync_settings()
    st.sidebar.header("Workspaces")
    current = state.get(CURRENT)
    if current:
        st.sidebar.caption(escape_markdown(
            f"Saved as workspace {state.get(CURRENT_NAME)!r}; this page's link (?ws={current}) "
            "reopens it."))
        state["workspace_name"] = state.get(CURRENT_NAME, "")
        st.sidebar.text_input("Workspace name", key="workspace_name", on_change=_rename)
        st.sidebar.file_uploader("Add systems to this workspace", accept_multiple_files=True,
                                 key="workspace_add_systems", on_change=_add_systems)
    else:
        st.sidebar.caption("Uploaded data is saved as a workspace automatically.")
    shared = _shared()
    infos = _attempt(lambda store: store.list(None if shared else state.get(OWN, [])))
    if state.get(STORAGE_ERROR):
        st.sidebar.warning(escape_markdown(state[STORAGE_ERROR]))
    if not infos:
        return
    labels = {info.id: f"{info.name} · {info.n_systems} systems · "
                       f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(info.updated))}"
              for info in infos}
    if state.get("workspace_pick") not in labels:
        state["workspace_pick"] = current if current in labels else infos[0].id
    st.sidebar.selectbox("Saved workspaces (everyone's: shared server)" if shared
                         else "Your saved workspaces", list(labels), key="workspace_pick",
                         format_func=lambda key: labels.get(key, key))
    left, right = st.sidebar.columns(2)
    left.button("Open", key="workspace_open", on_click=_open_picked)
    right.button("Delete", key="workspace_delete", on_click=_ask_delete)
    pending = state.get(DELETE_PENDING)
    if pending in labels:
        st.sidebar.warning(escape_markdown(
            f"Delete workspace {labels[pending]}? Its saved texts, options and scores are "
            "removed for everyone who has its link; this cannot be undone."))
        yes, no = st.sidebar.columns(2)
        yes.button("Yes, delete", key="workspace_delete_confirm", type="primary",
                   on_click=_delete_pending)
        no.button("Cancel", key="workspace_delete_cancel", on_click=_cancel_delete)

"""The sidebar's workspaces: the open workspace's name, owner actions (rename, add systems,
delete with a confirmation) and a visitor's (copy, edit with the secret), the saved list, and the
one line on the database's state. What they act on is ``session/_workspace``'s.
"""

from __future__ import annotations

import time
from contextlib import suppress

import streamlit as st

from bleu.display.escaping import escape_markdown, show_controls
from bleu.errors import InputError
from bleu.i18n import ntr, tr
from bleu.io import read_any
from bleu.io.dataset import system_name
from bleu.workspace import (
    StorageError,
    Workspace,
    WorkspaceError,
    WorkspaceInfo,
    WorkspaceNotFoundError,
    WorkspaceReadOnlyError,
)
from bleu.workspace.autosave import copy_name
from bleu_app.session import _session, _workspace


def _rename() -> None:
    state = st.session_state
    workspace_id, name = _workspace.current(), state.get("workspace_name", "").strip()
    if not workspace_id:
        return
    token = _workspace.edit_tokens().get(workspace_id)
    try:
        _workspace.saving(lambda store: store.rename(workspace_id, name, token=token))
    except WorkspaceError as error:
        _session.say("error", str(error))
        return
    if _workspace.SAVE_FAILED not in state:
        state[_workspace.CURRENT_NAME] = name


def _add_systems() -> None:
    """Systems uploaded into the open workspace: checked against its references, then saved."""
    state = st.session_state
    added = state.setdefault(_workspace.ADDED_FILES, [])
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
        _workspace.load(new, tr("Added {count} system(s) to workspace {name!r}.").format(
            count=count, name=state.get(_workspace.CURRENT_NAME)))


def _copy() -> None:
    """The "Copy to my workspaces" button: the open workspace as it is shown, saved as a new
    one this browser owns (the original stays as it was)."""
    state = st.session_state
    name = copy_name(state.get(_workspace.CURRENT_NAME) or _workspace.current())
    if _workspace.save_new(_session.dataset(), name) is None:
        _session.say("error", tr("Nothing was copied: see Workspaces in the sidebar."))
        return
    _session.say("success", tr("Copied to your workspaces as {name!r}: this browser can change "
                               "the copy; the original is as it was.").format(name=name))


def _claim() -> None:
    """An edit secret typed in (e.g. printed by ``--save-workspace``): if it is the open
    workspace's, this browser may change it from now on."""
    state = st.session_state
    workspace_id, token = _workspace.current(), state.get("workspace_edit_secret", "").strip()
    state["workspace_edit_secret"] = ""
    if not workspace_id or not token:
        return
    owned = _workspace.attempt(lambda store: store.editable({workspace_id: token}))
    name = state.get(_workspace.CURRENT_NAME)
    if owned is None:
        _session.say("error", tr("The secret could not be checked: see Workspaces in the "
                                 "sidebar."))
    elif workspace_id in owned:
        _workspace.keep_token(workspace_id, token)
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
    found = _workspace.fetch(picked)
    if isinstance(found, Workspace):
        _workspace.enter(found)
    else:
        _session.say("error", tr("The workspace cannot be opened: {why} Nothing was "
                                 "changed.").format(why=found))


def _ask_delete() -> None:
    """The first step of deleting: remember which workspace, and ask (the sidebar shows it)."""
    st.session_state[_workspace.DELETE_PENDING] = st.session_state.get("workspace_pick")


def _cancel_delete() -> None:
    st.session_state.pop(_workspace.DELETE_PENDING, None)


def _delete_pending() -> None:
    """The user confirmed: delete the workspace they asked about (not whatever is picked now),
    with this browser's edit secret (or as anyone, where the server allows it)."""
    state = st.session_state
    picked = state.pop(_workspace.DELETE_PENDING, None)
    if not picked:
        return
    token, anyone = _workspace.edit_tokens().get(picked), _workspace.anyone_deletes()
    try:
        with suppress(WorkspaceNotFoundError):  # deleted meanwhile: gone either way
            if not _workspace.attempt(lambda store: store.delete(picked, token=token, anyone=anyone)
                            or True):
                _session.say("error", tr("Nothing was deleted: see Workspaces in the "
                                         "sidebar."))
                return
    except WorkspaceReadOnlyError as error:
        _session.say("error", tr("{error} Nothing was deleted.").format(error=error))
        return
    if picked in state.get(_workspace.OWN, []):
        state[_workspace.OWN].remove(picked)
    state.get(_workspace.TOKENS, {}).pop(picked, None)
    state[_workspace.DELETED] = [*state.get(_workspace.DELETED, []), picked]
    if picked == _workspace.current():
        _workspace.detach()
        _session.say("info", tr("Deleted the workspace; the data stays loaded but is no longer "
                                "saved."))


def _database_problem() -> StorageError | None:
    """What keeps the database from taking writes now (None: it takes them)."""
    try:
        _workspace.store().check_writable()
    except StorageError as error:
        _workspace.log(error)
        return error
    return None


def _state_line(problem: StorageError | None) -> None:
    """The one line on the save state, as it really is: saving is off (read-only), the database
    cannot be used, the latest save failed, or (a caption) new data is saved."""
    failed = st.session_state.get(_workspace.SAVE_FAILED)
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
    elif not _workspace.current():
        st.sidebar.caption(tr("Uploaded data is saved as a workspace automatically."))


def _current_area(workspace_id: str, owned: frozenset[str], saving: bool) -> None:
    """The open workspace: its owner renames it or adds systems; a visitor may copy it, or give
    its edit secret; nobody changes anything while nothing can be saved."""
    state = st.session_state
    name = state.get(_workspace.CURRENT_NAME, "")  # controls shown as ⟨U+XXXX⟩ by escape_markdown
    if not saving:
        st.sidebar.caption(escape_markdown(tr(
            "Workspace '{name}' is open, but saving is unavailable: changes you make here are "
            "not saved.").format(name=name)))
        return
    if workspace_id in owned:
        saved = _workspace.SAVE_FAILED not in state
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
    owned = _workspace.owned()
    _workspace.sync_settings(owned)
    st.sidebar.header(tr("Workspaces"))
    _workspace.offer_cookies(owned)
    problem = _database_problem()
    _state_line(problem)
    workspace_id = _workspace.current()
    if workspace_id:
        _current_area(workspace_id, owned, problem is None)
    shared = _workspace.shared()
    listed = None if shared else [*owned, *state.get(_workspace.OWN, [])]
    infos = _workspace.attempt(lambda store: store.list(listed))
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
    workspace_id = _workspace.current()
    labels = {info.id: " · ".join(_label_parts(info))
              + ("" if info.id in owned else tr(" · view only")) for info in infos}
    if state.get("workspace_pick") not in labels:
        state["workspace_pick"] = workspace_id if workspace_id in labels else infos[0].id
    st.sidebar.selectbox(tr("Saved workspaces (everyone's: shared server)") if shared
                         else tr("Your saved workspaces"), list(labels), key="workspace_pick",
                         format_func=lambda key: labels.get(key, key))
    deletable = state["workspace_pick"] in owned or _workspace.anyone_deletes()
    left, right = st.sidebar.columns(2)
    left.button(tr("Open"), key="workspace_open", on_click=_open_picked)
    right.button(tr("Delete"), key="workspace_delete", on_click=_ask_delete,
                 disabled=not deletable,
                 help=None if deletable else tr("Only its owner's browser can delete it."))
    pending = state.get(_workspace.DELETE_PENDING)
    if pending in labels:
        st.sidebar.warning(escape_markdown(tr(
            "Delete workspace {label}? Its saved texts, options and scores are removed for "
            "everyone who has its link; this cannot be undone.").format(label=labels[pending])))
        yes, no = st.sidebar.columns(2)
        yes.button(tr("Yes, delete"), key="workspace_delete_confirm", type="primary",
                   on_click=_delete_pending)
        no.button(tr("Cancel"), key="workspace_delete_cancel", on_click=_cancel_delete)

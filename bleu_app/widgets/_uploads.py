"""Data coming in: the Data page's drop zone (every file at once, roles guessed and shown for
correction), the sidebar's three uploaders by role (systems, references, source), pasted text
and system names. Everything is read and checked whole into a new Dataset first, then loaded
(``_workspace.load``); a bad file is refused with its name and line, and the data loaded
before stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import COUNT
from bleu.errors import InputError
from bleu.i18n import N_, tr
from bleu.io import read_text
from bleu.io.archive import TooManyFilesError, archive_files, is_archive
from bleu.io.dataset import Dataset, assemble
from bleu.io.staging import (
    ROLES,
    MissingRoleError,
    RoleUpload,
    StagedArchive,
    StagedStream,
    assemble_staged,
    default_columns,
    stage_archive,
    stage_by_role,
    stage_file,
    table_fields,
)
from bleu_app.session import _session, _state, _workspace
from bleu_app.widgets import _drop_guard

#: the sidebar's uploaders: widget key prefix -> the role their files have
_UPLOADERS = {"systems": "system", "references": "reference", "source": "source"}

#: files one drop may hold (a thousand systems and their references); beyond, one table with a
#: column per system. The browser side refuses more at once (``_drop_guard``), and packs many
#: into archives, which are unpacked here and count by the files they hold.
MAX_DROPPED_FILES = 1100


def _choose_columns(upload: Any, key: str, columns: list[str]) -> tuple[tuple[str, ...],
                                                                         str | None]:
    """Column/field choice widgets for a TSV, CSV or JSONL upload; returns the choice."""
    label = escape_markdown(upload.name)
    role = _UPLOADERS[key]
    widget = f"{key}_columns_{upload.file_id}"
    if role == "source":
        chosen = [st.selectbox(tr("Column of {file}").format(file=label), columns,
                               format_func=show_controls, key=widget,
                               index=columns.index(default_columns(columns, role)[0]))]
    else:
        chosen = st.multiselect(tr("Columns of {file} (one {role} each)")
                                .format(file=label, role=role), columns,
                                format_func=show_controls, key=widget,
                                default=default_columns(columns, role))
    doc = st.selectbox(tr("Document id column of {file}").format(file=label),
                       ("(none)", *columns), format_func=show_controls,
                       key=f"{key}_doc_{upload.file_id}")
    return tuple(chosen), None if doc == "(none)" else doc


def upload_section() -> None:
    """The three uploaders, the encoding choice, column choices; loads when the uploads change,
    through the core's staging (``stage_by_role``, ``assemble_staged``)."""
    limit = st.get_option("server.maxUploadSize")
    help_text = tr("Plain text (one segment per line), TSV/CSV with a header, JSONL or WMT XML, "
                   "or a .tar or .zip of such files. Up to {limit} MB per file "
                   "(server.maxUploadSize).").format(limit=limit)
    systems = st.file_uploader(tr("System outputs"), accept_multiple_files=True,
                               key="systems_upload", help=help_text) or []
    _drop_guard.install("systems_upload", MAX_DROPPED_FILES)
    references = st.file_uploader(tr("References"), accept_multiple_files=True,
                                  key="references_upload", help=help_text) or []
    _drop_guard.install("references_upload", MAX_DROPPED_FILES)
    uploads = {"systems": systems, "references": references}
    source = st.file_uploader(tr("Source (optional)"), key="source_upload", help=help_text)
    uploads["source"] = [source] if source is not None else []
    latin1 = st.checkbox(tr("Read files that are not UTF-8 as Latin-1"), key="latin1",
                         help=tr("Only if a file was refused as not UTF-8 and you know it is "
                                 "Latin-1 (ISO-8859-1)."))
    encoding = "latin-1" if latin1 else "utf-8"
    given: list[RoleUpload] = []
    try:
        for key, files in uploads.items():
            for upload in files:
                if is_archive(upload.name):  # its files, each under the uploader's role
                    given += [RoleUpload(file.data, file.name, _UPLOADERS[key])
                              for file in archive_files(upload.getvalue(), upload.name,
                                                        max_files=MAX_DROPPED_FILES,
                                                        limit_mb=limit)]
                    continue
                columns = table_fields(upload.getvalue(), upload.name, encoding,
                                       limit_mb=limit)
                chosen, doc = (None, None) if columns is None else \
                    _choose_columns(upload, key, columns)
                given.append(RoleUpload(upload.getvalue(), upload.name, _UPLOADERS[key],
                                        chosen, doc))
    except InputError as error:
        _session.refuse(error)
        return
    signature = (tuple((key, f.file_id) for key, files in uploads.items() for f in files),
                 tuple((g.columns, g.doc_column) for g in given), encoding)
    if signature == st.session_state.get(_state.UPLOADED):
        return
    if given:
        try:
            staged = assemble_staged(stage_by_role(given, encoding, limit_mb=limit))
        except MissingRoleError as error:
            _session.say("info", tr("{error} The dashboard keeps showing the data loaded "
                                    "before.").format(error=error))
        except InputError as error:
            _session.refuse(error)
        else:
            _workspace.load(staged, tr("Loaded {systems} system(s) and {refs} reference(s), "
                                       "{segments} segments each, from the uploaded files.")
                            .format(systems=COUNT.text(len(staged.systems)), refs=staged.n_refs,
                                    segments=COUNT.text(staged.n_segments)))
    # Recorded only once handled: a run interrupted before this (the user uploads again while
    # it reads) leaves the signature unchanged, so the next run handles these files again
    # instead of dropping them.
    st.session_state[_state.UPLOADED] = signature


def _add_pasted() -> None:
    """Pasted text: with a reference it replaces the data; without, it adds a system."""
    state = st.session_state
    name = state.get("paste_name", "").strip() or tr("pasted")
    try:
        system = read_text(state.get("paste_system", "").encode("utf-8"),
                           tr("pasted system {name}").format(name=name))
        if state.get("paste_reference", "").strip():
            reference = read_text(state["paste_reference"].encode("utf-8"),
                                  tr("pasted reference"))
            new = assemble([system], [reference], names=[name], label=tr("Pasted text"))
            done = tr("Loaded the pasted system {name!r} and reference ({segments} "
                      "segments).").format(name=name, segments=COUNT.text(new.n_segments))
        else:
            new = _session.dataset().with_system(system, name)
            done = tr("Added the pasted system {name!r} to {label}.").format(
                name=name, label=tr(new.label))
    except InputError as error:
        _session.refuse(error)
        return
    _workspace.load(new, done)


def paste_section() -> None:
    st.text_input(tr("System name"), key="paste_name", placeholder=tr("pasted"))
    st.text_area(tr("System output, one segment per line"), key="paste_system")
    st.text_area(tr("Reference (leave empty to add the system to the loaded data)"),
                 key="paste_reference")
    st.button(tr("Use the pasted text"), key="paste_add", on_click=_add_pasted)


def _rename(widget: str, old: str) -> None:
    new = st.session_state[widget].strip()
    try:
        _workspace.load(_session.dataset().renamed(old, new),
                        tr("Renamed {old!r} to {new!r}.").format(old=old, new=new))
    except InputError as error:
        _session.refuse(error)
        return
    for kept in (_state.BASELINE, NAME_PICKER):  # the renamed system stays chosen there
        if st.session_state.get(kept) == old:
            st.session_state[kept] = new


#: up to this many systems the sidebar has a name box each; beyond, a picker and one box (a
#: thousand text boxes keep the browser busy for a minute on every rerun)
NAME_BOXES = 20
#: the picker of the system to rename, when there are more than NAME_BOXES
NAME_PICKER = "system_name_pick"


def names_section(current: Dataset) -> None:
    """A text box per system (up to NAME_BOXES; beyond, the system is picked first): names
    default to the file name and can be edited."""
    systems = list(current.systems.items())
    if len(systems) > NAME_BOXES:
        names = [name for name, _ in systems]
        picked = st.selectbox(tr("System to rename ({n} systems)").format(
            n=COUNT.text(len(names))), names, format_func=show_controls, key=NAME_PICKER)
        index = names.index(picked)
        systems = [systems[index]]
    else:
        index = 0
    for offset, (name, file) in enumerate(systems):
        widget = f"system_name_{index + offset}_{current.system_keys[name][:12]}"
        st.session_state[widget] = name
        st.text_input(escape_markdown(file.name), key=widget, on_change=_rename,
                      args=(widget, name))


# ---------------------------------------------------------------- the Data page's drop zone

ROLE_HELP = N_("system: one system's output; reference: a reference translation (several are "
               "allowed); source: the source text (at most one); ignore: leave this stream "
               "out.")


@st.cache_data(max_entries=64, show_spinner=False)
def _stage_file(name: str, data: bytes, encoding: str, limit_mb: int) -> StagedArchive:
    """One dropped file's streams, as an archive of one (an archive's own files, unpacked)."""
    if is_archive(name):
        return stage_archive(data, name, encoding, max_files=MAX_DROPPED_FILES,
                             limit_mb=limit_mb)
    return StagedArchive(tuple(stage_file(data, name, encoding, limit_mb=limit_mb)), (), 1)


@dataclass(frozen=True)
class Dropped:
    """What the dropped files hold: their streams, a message per file left out, how many
    files (an archive counts its own)."""

    streams: list[StagedStream]
    errors: list[str]
    files: int


def _staged(uploads: Sequence[Any], encoding: str) -> Dropped:
    """Every stream of the dropped files, and a message for each file that cannot be read."""
    limit = st.get_option("server.maxUploadSize")
    left_out = tr("{error} This file is left out; the others can be loaded.")
    streams: list[StagedStream] = []
    errors: list[str] = []
    files = 0
    for upload in uploads:
        try:
            staged = _stage_file(upload.name, upload.getvalue(), encoding, limit)
        except TooManyFilesError as error:
            files += error.count
            continue
        except InputError as error:
            errors.append(left_out.format(error=error))
            files += 1
            continue
        streams += staged.streams
        errors += [left_out.format(error=error) for error in staged.errors]
        files += staged.files
    return Dropped(streams, errors, files)


def _staged_table(streams: Sequence[StagedStream]) -> Any:
    import pandas as pd

    return pd.DataFrame({
        "file": [s.file.name for s in streams],
        "role": [s.role for s in streams],
        "name": [s.name for s in streams],
        "segments": [s.segments for s in streams],
        "notes": [" ".join(s.file.notes) for s in streams],
    })


def _drop_encoding() -> str:
    return "latin-1" if st.session_state.get("files_latin1") else "utf-8"


def _load_dropped() -> None:
    """``files_commit``'s callback (it runs before the widgets, so the options can follow the
    new data): the dropped streams with the roles and names edited in the table, loaded."""
    state = st.session_state
    streams = _staged(state.get("files_upload") or [], _drop_encoding()).streams
    edits = (state.get("files_roles") or {}).get("edited_rows", {})
    chosen = []
    for row, stream in enumerate(streams):
        edit = edits.get(row, edits.get(str(row), {}))
        name = str(edit.get("name", stream.name)).strip() or stream.name
        chosen.append(replace(stream, role=edit.get("role", stream.role), name=name))
    try:
        new = assemble_staged(chosen)
    except InputError as error:
        _session.refuse(error)
        return
    _workspace.load(new, (tr("Loaded {systems} system(s) and {refs} reference(s), {segments} "
                             "segments each, with the source.") if new.source else
                          tr("Loaded {systems} system(s) and {refs} reference(s), {segments} "
                             "segments each.")).format(
        systems=COUNT.text(len(new.systems)), refs=new.n_refs,
        segments=COUNT.text(new.n_segments)))


def drop_zone() -> None:
    """Every file at once: each stream gets a guessed role and name, shown in a table the user
    can correct, and nothing is loaded until they say so (``files_commit``)."""
    limit = st.get_option("server.maxUploadSize")
    uploads = st.file_uploader(
        tr("Drop all your files here: system outputs, references, a source"), key="files_upload",
        accept_multiple_files=True,
        help=tr("Plain text (one segment per line), TSV/CSV with a header, JSONL or WMT XML, "
                "up to {limit} MB each, or a .tar or .zip of such files. Roles are guessed from "
                "the names (WMT's *.hyp.NAME.de, *.ref.A.de, *.src.en; 'ref', 'reference', "
                "'src', 'source' in a name or column) and can be changed below before "
                "loading.").format(limit=COUNT.text(limit))) or []
    _drop_guard.install("files_upload", MAX_DROPPED_FILES)
    st.checkbox(tr("Read files that are not UTF-8 as Latin-1"), key="files_latin1",
                help=tr("Only if a file was refused as not UTF-8 and you know it is Latin-1 "
                     "(ISO-8859-1)."))
    dropped = _staged(uploads, _drop_encoding()) if len(uploads) <= MAX_DROPPED_FILES else None
    files = len(uploads) if dropped is None else dropped.files
    if dropped is None or files > MAX_DROPPED_FILES:
        st.error(_drop_guard.too_many_files(files, MAX_DROPPED_FILES))
        return
    for error in dropped.errors:
        st.error(escape_markdown(error))
    streams = dropped.streams
    if not streams:
        return
    table = st.data_editor(
        _staged_table(streams), key="files_roles", hide_index=True, width="stretch",
        disabled=["file", "segments", "notes"],
        column_config={
            "file": st.column_config.TextColumn(tr("File (column)"), width="large"),
            "role": st.column_config.SelectboxColumn(tr("Role"), options=ROLES, required=True,
                                                     help=tr(ROLE_HELP)),
            "name": st.column_config.TextColumn(tr("System name"),
                                                help=tr("How a system is shown.")),
            "segments": st.column_config.NumberColumn(tr("Segments"), format="%d"),
            "notes": st.column_config.TextColumn(tr("Notes"), width="large"),
        })
    counts = {role: int((table["role"] == role).sum()) for role in ROLES[:3]}
    st.button((tr("Load {systems} system(s), {refs} reference(s), the source")
               if counts["source"] else tr("Load {systems} system(s), {refs} reference(s)")
               ).format(systems=COUNT.text(counts["system"]), refs=counts["reference"]),
              key="files_commit",
              type="primary", on_click=_load_dropped)

"""Data coming in: the Data page's drop zone (every file at once, roles guessed and shown for
correction), the sidebar's three uploaders by role (systems, references, source), pasted text
and system names. Everything is read and checked whole into a new Dataset first, then loaded
(``_workspace.load``); a bad file is refused with its name and line, and the data loaded
before stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.errors import InputError
from bleu.io import (
    TextFile,
    check_size,
    detect_format,
    jsonl_fields,
    read_any,
    read_text,
    read_wmt_xml,
    table_columns,
)
from bleu.io.dataset import Dataset, assemble, system_name
from bleu.io.staging import ROLES, StagedStream, assemble_staged, stage_file
from bleu_app.views import _session, _state, _workspace


def _default_columns(columns: Sequence[str], role: str) -> list[str]:
    """Columns a role most likely means, by name (``hyp``, ``ref``, ``src``), else the first."""
    hints = {"systems": ("hyp", "sys", "mt", "output", "translation", "pred"),
             "references": ("ref", "target", "tgt", "gold"), "source": ("src", "source")}[role]
    found = [column for column in columns if any(h in column.lower() for h in hints)]
    return found or list(columns[:1])


def _choose_columns(upload: Any, role: str, kind: str, encoding: str) -> tuple[Any, ...]:
    """Column/field choice widgets for a TSV, CSV or JSONL upload; returns the choice."""
    data = upload.getvalue()
    if kind == "jsonl":
        columns = jsonl_fields(data, upload.name, encoding=encoding)
    else:
        columns = table_columns(data, upload.name, encoding=encoding)
    label = escape_markdown(upload.name)
    key = f"{role}_columns_{upload.file_id}"
    if role == "source":
        chosen = [st.selectbox(f"Column of {label}", columns, format_func=show_controls, key=key,
                               index=columns.index(_default_columns(columns, role)[0]))]
    else:
        chosen = st.multiselect(f"Columns of {label} (one {role[:-1]} each)", columns,
                                format_func=show_controls, key=key,
                                default=_default_columns(columns, role))
    doc = st.selectbox(f"Document id column of {label}", ("(none)", *columns),
                       format_func=show_controls, key=f"{role}_doc_{upload.file_id}")
    return tuple(chosen), None if doc == "(none)" else doc


def _read_columns(upload: Any, kind: str, choice: tuple[Any, ...], encoding: str,
                  ) -> list[tuple[str, TextFile]]:
    """The chosen columns of a table or JSONL upload, each as (default name, TextFile)."""
    columns, doc = choice
    if not columns:
        raise InputError(f"{upload.name}: choose at least one column to read.")
    out = []
    for column in columns:
        if kind == "jsonl":
            file = read_any(upload.getvalue(), upload.name, format=kind, field=column,
                            doc_field=doc, encoding=encoding)
        else:
            file = read_any(upload.getvalue(), upload.name, format=kind, column=column,
                            doc_column=doc, encoding=encoding)
        name = column if len(columns) > 1 else system_name(upload.name)
        out.append((name, TextFile(f"{upload.name} [{column}]", file.segments, file.doc_ids,
                                   file.notes)))
    return out


def _stage(uploads: dict[str, list[Any]], choices: dict[str, tuple[Any, ...]],
           encoding: str) -> Dataset | str:
    """Read every upload and assemble a Dataset; a string says what is still missing."""
    systems: list[tuple[str, TextFile]] = []
    references: list[TextFile] = []
    sources: list[TextFile] = []
    bundled_refs: list[TextFile] = []
    bundled_source: list[TextFile] = []
    language = None
    for role, files in uploads.items():
        for upload in files:
            data = upload.getvalue()
            check_size(data, upload.name, limit_mb=st.get_option("server.maxUploadSize"))
            kind = detect_format(upload.name, data)
            if kind == "wmt-xml":
                docs = read_wmt_xml(data, upload.name)
                language = docs.target_lang or language
                found_refs = list(docs.references.values())
                found_src = [docs.source] if docs.source is not None else []
                if role == "systems":
                    systems += list(docs.systems.items())
                    bundled_refs += found_refs
                    bundled_source += found_src
                elif role == "references":
                    references += found_refs
                    bundled_source += found_src
                else:
                    sources += found_src
            elif kind in ("tsv", "csv", "jsonl"):
                read = _read_columns(upload, kind, choices[upload.file_id], encoding)
                if role == "systems":
                    systems += read
                elif role == "references":
                    references += [file for _, file in read]
                else:
                    sources += [file for _, file in read[:1]]
            else:
                file = read_any(data, upload.name, format=kind, encoding=encoding)
                if role == "systems":
                    systems.append((system_name(upload.name), file))
                elif role == "references":
                    references.append(file)
                else:
                    sources.append(file)
    references = references or bundled_refs
    source = (sources or bundled_source or [None])[0]
    if systems and not references:
        return ("System outputs are uploaded; add the reference file(s) to score them. The "
                "dashboard keeps showing the data loaded before.")
    if references and not systems:
        return ("References are uploaded; add the system output file(s) to score them. The "
                "dashboard keeps showing the data loaded before.")
    return assemble([file for _, file in systems], references, source,
                    names=[name for name, _ in systems], label="Uploaded files",
                    language=language)


def upload_section() -> None:
    """The three uploaders, the encoding choice, column choices; loads when the uploads change."""
    limit = st.get_option("server.maxUploadSize")
    help_text = (f"Plain text (one segment per line), TSV/CSV with a header, JSONL or WMT XML. "
                 f"Up to {limit} MB per file (server.maxUploadSize).")
    uploads = {
        "systems": st.file_uploader("System outputs", accept_multiple_files=True,
                                    key="systems_upload", help=help_text) or [],
        "references": st.file_uploader("References", accept_multiple_files=True,
                                       key="references_upload", help=help_text) or [],
    }
    source = st.file_uploader("Source (optional)", key="source_upload", help=help_text)
    uploads["source"] = [source] if source is not None else []
    latin1 = st.checkbox("Read files that are not UTF-8 as Latin-1", key="latin1",
                         help="Only if a file was refused as not UTF-8 and you know it is "
                              "Latin-1 (ISO-8859-1).")
    encoding = "latin-1" if latin1 else "utf-8"
    choices: dict[str, tuple[Any, ...]] = {}
    try:
        for role, files in uploads.items():
            for upload in files:
                kind = detect_format(upload.name, upload.getvalue())
                if kind in ("tsv", "csv", "jsonl"):
                    choices[upload.file_id] = _choose_columns(upload, role, kind, encoding)
    except InputError as error:
        _session.refuse(error)
        return
    signature = (tuple((role, f.file_id) for role, files in uploads.items() for f in files),
                 tuple(sorted(choices.items())), encoding)
    if signature == st.session_state.get(_state.UPLOADED):
        return
    if signature[0]:
        try:
            staged = _stage(uploads, choices, encoding)
        except InputError as error:
            _session.refuse(error)
        else:
            if isinstance(staged, str):
                _session.say("info", staged)
            else:
                _workspace.load(staged, f"Loaded {len(staged.systems)} system(s) and "
                                        f"{staged.n_refs} reference(s), {staged.n_segments:,} "
                                        "segments each, from the uploaded files.")
    # Recorded only once handled: a run interrupted before this (the user uploads again while
    # it reads) leaves the signature unchanged, so the next run handles these files again
    # instead of dropping them.
    st.session_state[_state.UPLOADED] = signature


def _add_pasted() -> None:
    """Pasted text: with a reference it replaces the data; without, it adds a system."""
    state = st.session_state
    name = state.get("paste_name", "").strip() or "pasted"
    try:
        system = read_text(state.get("paste_system", "").encode("utf-8"), f"pasted system {name}")
        if state.get("paste_reference", "").strip():
            reference = read_text(state["paste_reference"].encode("utf-8"), "pasted reference")
            new = assemble([system], [reference], names=[name], label="Pasted text")
            done = f"Loaded the pasted system {name!r} and reference ({new.n_segments} segments)."
        else:
            new = _session.dataset().with_system(system, name)
            done = f"Added the pasted system {name!r} to {new.label}."
    except InputError as error:
        _session.refuse(error)
        return
    _workspace.load(new, done)


def paste_section() -> None:
    st.text_input("System name", key="paste_name", placeholder="pasted")
    st.text_area("System output, one segment per line", key="paste_system")
    st.text_area("Reference (leave empty to add the system to the loaded data)",
                 key="paste_reference")
    st.button("Use the pasted text", key="paste_add", on_click=_add_pasted)


def _rename(widget: str, old: str) -> None:
    new = st.session_state[widget].strip()
    try:
        _workspace.load(_session.dataset().renamed(old, new), f"Renamed {old!r} to {new!r}.")
    except InputError as error:
        _session.refuse(error)
        return
    if st.session_state.get(_state.BASELINE) == old:
        st.session_state[_state.BASELINE] = new


def names_section(current: Dataset) -> None:
    """One text box per system: names default to the file name and can be edited."""
    for index, (name, file) in enumerate(current.systems.items()):
        widget = f"system_name_{index}_{current.system_keys[name][:12]}"
        st.session_state[widget] = name
        st.text_input(escape_markdown(file.name), key=widget, on_change=_rename,
                      args=(widget, name))




# ---------------------------------------------------------------- the Data page's drop zone

ROLE_HELP = ("system: one system's output; reference: a reference translation (several are "
             "allowed); source: the source text (at most one); ignore: leave this stream out.")


@st.cache_data(max_entries=64, show_spinner=False)
def _stage_file(name: str, data: bytes, encoding: str, limit_mb: int) -> list[StagedStream]:
    check_size(data, name, limit_mb=limit_mb)
    return stage_file(data, name, encoding)


def _staged(uploads: Sequence[Any], encoding: str) -> tuple[list[StagedStream], list[str]]:
    """Every stream of the dropped files, and a message for each file that cannot be read."""
    limit = st.get_option("server.maxUploadSize")
    streams: list[StagedStream] = []
    errors: list[str] = []
    for upload in uploads:
        try:
            streams += _stage_file(upload.name, upload.getvalue(), encoding, limit)
        except InputError as error:
            errors.append(f"{error} This file is left out; the others can be loaded.")
    return streams, errors


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
    streams, _ = _staged(state.get("files_upload") or [], _drop_encoding())
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
    _workspace.load(new, f"Loaded {len(new.systems)} system(s) and {new.n_refs} reference(s), "
                         f"{new.n_segments:,} segments each"
                         + (", with the source" if new.source else "") + ".")


def drop_zone() -> None:
    """Every file at once: each stream gets a guessed role and name, shown in a table the user
    can correct, and nothing is loaded until they say so (``files_commit``)."""
    limit = st.get_option("server.maxUploadSize")
    uploads = st.file_uploader(
        "Drop all your files here: system outputs, references, a source", key="files_upload",
        accept_multiple_files=True,
        help=f"Plain text (one segment per line), TSV/CSV with a header, JSONL or WMT XML, up "
             f"to {limit} MB each. Roles are guessed from the names (WMT's *.hyp.NAME.de, "
             "*.ref.A.de, *.src.en; 'ref', 'reference', 'src', 'source' in a name or column) "
             "and can be changed below before loading.") or []
    st.checkbox("Read files that are not UTF-8 as Latin-1", key="files_latin1",
                help="Only if a file was refused as not UTF-8 and you know it is Latin-1 "
                     "(ISO-8859-1).")
    streams, errors = _staged(uploads, _drop_encoding())
    for error in errors:
        st.error(escape_markdown(error))
    if not streams:
        return
    table = st.data_editor(
        _staged_table(streams), key="files_roles", hide_index=True, width="stretch",
        disabled=["file", "segments", "notes"],
        column_config={
            "file": st.column_config.TextColumn("File (column)", width="large"),
            "role": st.column_config.SelectboxColumn("Role", options=ROLES, required=True,
                                                     help=ROLE_HELP),
            "name": st.column_config.TextColumn("System name", help="How a system is shown."),
            "segments": st.column_config.NumberColumn("Segments", format="%d"),
            "notes": st.column_config.TextColumn("Notes", width="large"),
        })
    counts = {role: int((table["role"] == role).sum()) for role in ROLES[:3]}
    st.button(f"Load {counts['system']} system(s), {counts['reference']} reference(s)"
              + (", the source" if counts["source"] else ""), key="files_commit",
              type="primary", on_click=_load_dropped)

"""Streamlit glue shared by every page: the Data and Options sidebar, session state, caching.

Loaded data lives in ``st.session_state[DATASET]`` (a ``bleu.dataset.Dataset``). New data is read
and checked into a staging Dataset first and committed only when valid, so a bad file never
replaces what was loaded. Heavy work is cached on content hashes and options: the references are
tokenized and counted once per (reference set, options), each system once per (system,
reference set, options).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

import bleu
from bleu.analysis.dashboard import Dashboard, build_dashboard
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
from bleu.io.dataset import Dataset, assemble, default_tokenizer, load_folder, system_name
from bleu.metrics.bleu_score import SMOOTH_DEFAULTS, BLEUOptions
from bleu.metrics.tokenizers import available_tokenizers
from views import _workspace

SAMPLE_DIR = Path(__file__).resolve().parents[1] / "sample_data"
SAMPLE_LABEL = "Sample: WMT22 General MT English→German (generaltest2022)"
#: session-state keys owned by this module (widget keys are in ../shared/DESIGN.md)
DATASET = "dataset"
MESSAGES = "data_messages"
UPLOADED = "uploaded_signature"
SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~$])")


def md_escape(text: str) -> str:
    """Text shown literally by Streamlit's Markdown (file and system names hold ``_``, ``*``...)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


@st.cache_resource(show_spinner=False)
def sample_dataset() -> Dataset:
    """The bundled WMT22 en-de test set (sample_data/), read once per process."""
    return load_folder(SAMPLE_DIR, SAMPLE_LABEL)


def dataset() -> Dataset:
    """The committed dataset: the sample until the user loads something valid."""
    if DATASET not in st.session_state:
        commit(sample_dataset(), None)
    return st.session_state[DATASET]


def _say(kind: str, text: str) -> None:
    st.session_state[MESSAGES] = [(kind, text)]


def commit(new: Dataset, done: str | None) -> None:
    """Make ``new`` the loaded data; pick the target language's tokenizer when references change."""
    previous = st.session_state.get(DATASET)
    st.session_state[DATASET] = new
    if previous is None or previous.references_key != new.references_key:
        st.session_state["tokenize"] = default_tokenizer(new.target_language)
    messages = [("success", done)] if done else []
    st.session_state[MESSAGES] = messages + [("warning", note) for note in new.notes]
    _workspace.autosave(previous, new)


def refuse(error: InputError) -> None:
    """Show why new data was not loaded; the loaded data stays as it is."""
    kept = st.session_state[DATASET].label if DATASET in st.session_state else "nothing"
    _say("error", f"{error} Nothing was changed: still showing {kept}.")


def show_messages() -> None:
    """The last data action's outcome, in the page (not only the sidebar)."""
    for kind, text in st.session_state.get(MESSAGES, []):
        getattr(st, kind)(md_escape(text))


# ----------------------------------------------------------------------------- reading uploads

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
    label = md_escape(upload.name)
    key = f"{role}_columns_{upload.file_id}"
    if role == "source":
        chosen = [st.selectbox(f"Column of {label}", columns, key=key,
                               index=columns.index(_default_columns(columns, role)[0]))]
    else:
        chosen = st.multiselect(f"Columns of {label} (one {role[:-1]} each)", columns, key=key,
                                default=_default_columns(columns, role))
    doc = st.selectbox(f"Document id column of {label}", ("(none)", *columns),
                       key=f"{role}_doc_{upload.file_id}")
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


def _upload_section() -> None:
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
        refuse(error)
        return
    signature = (tuple((role, f.file_id) for role, files in uploads.items() for f in files),
                 tuple(sorted(choices.items())), encoding)
    if signature == st.session_state.get(UPLOADED):
        return
    if signature[0]:
        try:
            staged = _stage(uploads, choices, encoding)
        except InputError as error:
            refuse(error)
        else:
            if isinstance(staged, str):
                _say("info", staged)
            else:
                commit(staged, f"Loaded {len(staged.systems)} system(s) and {staged.n_refs} "
                               f"reference(s), {staged.n_segments:,} segments each, from the "
                               "uploaded files.")
    # Recorded only once handled: a run interrupted before this (the user uploads again while
    # it reads) leaves the signature unchanged, so the next run handles these files again
    # instead of dropping them.
    st.session_state[UPLOADED] = signature


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
            new = dataset().with_system(system, name)
            done = f"Added the pasted system {name!r} to {new.label}."
    except InputError as error:
        refuse(error)
        return
    commit(new, done)


def _paste_section() -> None:
    st.text_input("System name", key="paste_name", placeholder="pasted")
    st.text_area("System output, one segment per line", key="paste_system")
    st.text_area("Reference (leave empty to add the system to the loaded data)",
                 key="paste_reference")
    st.button("Use the pasted text", key="paste_add", on_click=_add_pasted)


def _rename(widget: str, old: str) -> None:
    new = st.session_state[widget].strip()
    try:
        commit(dataset().renamed(old, new), f"Renamed {old!r} to {new!r}.")
    except InputError as error:
        refuse(error)
        return
    if st.session_state.get("baseline") == old:
        st.session_state["baseline"] = new


def _names_section(current: Dataset) -> None:
    """One text box per system: names default to the file name and can be edited."""
    for index, (name, file) in enumerate(current.systems.items()):
        widget = f"system_name_{index}_{current.system_keys[name][:12]}"
        st.session_state[widget] = name
        st.text_input(md_escape(file.name), key=widget, on_change=_rename, args=(widget, name))


def data_sidebar() -> None:
    """The sidebar's Data area: what is loaded, the sample, uploads, paste, system names."""
    st.sidebar.header("Data")
    with st.sidebar.expander("Upload files", expanded=False):
        _upload_section()
    with st.sidebar.expander("Paste text", expanded=False):
        _paste_section()
    current = dataset()
    st.sidebar.caption(md_escape(
        f"{current.label}: {len(current.systems)} systems, {current.n_refs} reference(s), "
        f"{current.n_segments:,} segments" + (", with source" if current.source else "")))
    st.sidebar.button("Load the sample", key="load_sample",
                      on_click=lambda: commit(sample_dataset(), f"Loaded {SAMPLE_LABEL}."))
    with st.sidebar.expander("System names", expanded=False):
        _names_section(current)


# ------------------------------------------------------------------------------------ options

#: the largest smoothing value the sidebar takes: floor replaces a zero count by this many
#: matches, so above 1 it would beat a real match (and could push BLEU over 100); add-k adds k
#: to every count of order 2 and above
SMOOTH_VALUE_MAX = {"floor": 1.0, "add-k": 10.0}


def kept(key: str, default: Any) -> Any:
    """The session's value of the keyed widget ``key`` (``default`` at first), to give the widget
    as its ``value=`` too: a freshly opened page then draws it at that value from the first
    message, instead of at the widget's minimum for a moment, which an upload or click in that
    moment sent back as the user's choice (options reset to their minimums)."""
    return st.session_state.setdefault(key, default)


def kept_index(key: str, choices: Sequence[Any], default: Any) -> int:
    """``kept`` for a selectbox: the position of the kept value among ``choices``."""
    value = kept(key, default)
    return list(choices).index(value) if value in choices else 0


def options_sidebar() -> None:
    """The sidebar's Options: they apply to every page; the signature shows them with scores."""
    state = st.session_state
    st.sidebar.header("Options")
    tokenizers = available_tokenizers()
    st.sidebar.selectbox("Tokenizer", tokenizers, index=kept_index("tokenize", tokenizers, "13a"),
                         key="tokenize",
                         help="The default follows the target language, as WMT scores: zh for "
                              "Chinese, char for Japanese, 13a otherwise.")
    st.sidebar.checkbox("Lowercase", value=kept("lowercase", False), key="lowercase")
    method = st.sidebar.selectbox("Smoothing", SMOOTH_METHODS,
                                  index=kept_index("smooth_method", SMOOTH_METHODS, "exp"),
                                  key="smooth_method")
    if SMOOTH_DEFAULTS[method] is not None:
        key = f"smooth_value_{method}"
        st.sidebar.number_input("Smoothing value", min_value=0.0,
                                max_value=SMOOTH_VALUE_MAX[method], step=0.1,
                                value=kept(key, float(SMOOTH_DEFAULTS[method])), key=key)
    st.sidebar.number_input("Max n-gram order", min_value=1, max_value=9, step=1,
                            value=kept("max_ngram_order", 4), key="max_ngram_order")
    st.sidebar.checkbox("Effective order", value=kept("effective_order", False),
                        key="effective_order",
                        help="Average over the n-gram orders that exist (sacrebleu's "
                             "--effective-order, the default for sentence BLEU).")
    names = list(dataset().systems)
    if state.get("baseline") not in names:
        state["baseline"] = names[0]
    st.sidebar.selectbox("Baseline", names, index=names.index(state["baseline"]),
                         key="baseline",
                         help="p-values compare each system with this one (paired bootstrap).")
    st.sidebar.number_input("Bootstrap resamples", min_value=100, max_value=10000, step=100,
                            value=kept("n_bootstrap", 1000), key="n_bootstrap")


def options() -> BLEUOptions:
    """The options chosen in the sidebar."""
    state = st.session_state
    method = state.get("smooth_method", "exp")
    value = state.get(f"smooth_value_{method}") if SMOOTH_DEFAULTS[method] is not None else None
    return BLEUOptions(tokenize=state.get("tokenize", "13a"),
                       lowercase=bool(state.get("lowercase", False)), smooth_method=method,
                       smooth_value=value, max_ngram_order=int(state.get("max_ngram_order", 4)),
                       effective_order=bool(state.get("effective_order", False)))


def sidebar() -> None:
    """Everything in the sidebar, in order: data first (it may set the tokenizer), then options."""
    _workspace.restore_from_url()
    data_sidebar()
    options_sidebar()
    _workspace.sidebar()


# -------------------------------------------------------------------------------- computation

@st.cache_resource(max_entries=4, show_spinner=False)
def _metric(references_key: str, options: BLEUOptions,
            _references: tuple[tuple[str, ...], ...]) -> bleu.BLEU:
    """The references tokenized and counted once per (reference set, options)."""
    return bleu.BLEU(tokenize=options.tokenize, lowercase=options.lowercase,
                     smooth_method=options.smooth_method, smooth_value=options.smooth_value,
                     max_ngram_order=options.max_ngram_order,
                     effective_order=options.effective_order, force=True,
                     references=_references)


@st.cache_data(max_entries=512, show_spinner=False)
def _system_stats(system_key: str, references_key: str, options: BLEUOptions,
                  _hypotheses: tuple[str, ...],
                  _references: tuple[tuple[str, ...], ...]) -> np.ndarray:
    return _metric(references_key, options, _references).segment_stats(_hypotheses)


#: above this many segments x systems, scoring shows a progress bar (one step per system)
PROGRESS_SEGMENTS = 100_000


def system_stats(data: Dataset, opts: BLEUOptions) -> dict[str, np.ndarray]:
    """The statistics matrix of every system, by name (cached on content and options)."""
    names = list(data.systems)
    bar = (st.progress(0.0, text="Scoring the systems")
           if data.n_segments * len(names) > PROGRESS_SEGMENTS else None)
    stats = {}
    for done, name in enumerate(names, start=1):
        stats[name] = _system_stats(data.system_keys[name], data.references_key, opts,
                                    data.systems[name].segments, data.reference_streams)
        if bar is not None:
            bar.progress(done / len(names), text=f"Scored {done} of {len(names)} systems")
    if bar is not None:
        bar.empty()
    return stats


@st.cache_data(max_entries=64, show_spinner=False)
def _dashboard(systems: tuple[tuple[str, str], ...], references_key: str, opts: BLEUOptions,
               n_refs: int, baseline: str | None, n_samples: int,
               _stats: dict[str, np.ndarray]) -> Dashboard:
    return build_dashboard(_stats, opts, n_refs, baseline=baseline, n_samples=n_samples)


def dashboard() -> Dashboard:
    """The corpus dashboard of the loaded data with the sidebar's options (cached)."""
    data, opts = dataset(), options()
    stats = system_stats(data, opts)
    baseline = st.session_state.get("baseline")
    return _dashboard(tuple(data.system_keys.items()), data.references_key, opts, data.n_refs,
                      baseline if baseline in data.systems else None,
                      int(st.session_state.get("n_bootstrap", 1000)), stats)

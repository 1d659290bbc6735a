"""Data: drop every file at once (roles guessed, corrected in a table, then loaded); what is
loaded, file by file, and its first segments side by side."""

import pandas as pd
import streamlit as st

from bleu.analysis.escaping import escape_markdown
from bleu_app.views import _session, _tables, _uploads

st.title("Data")
st.subheader("Load your files")
_uploads.drop_zone()

data = _session.dataset()
st.subheader("Loaded now")
st.caption(escape_markdown(
    f"{data.label}: {len(data.systems)} systems, {data.n_refs} reference(s), "
    f"{data.n_segments:,} segments" + (", with source" if data.source else "")))
files = [("source", "", data.source)] if data.source is not None else []
files += [("reference", f"ref {k + 1}", ref) for k, ref in enumerate(data.references)]
files += [("system", name, file) for name, file in data.systems.items()]
_tables.dataframe(pd.DataFrame([
    {"role": role, "name": name, "file": file.name, "segments": len(file.segments),
     "documents": len(set(file.doc_ids)) if file.doc_ids else None,
     "notes": " ".join(file.notes)}
    for role, name, file in files]), hide_index=True, key="files")

rows = st.number_input("Segments to preview", min_value=1, max_value=data.n_segments,
                       value=min(20, data.n_segments), key="preview_rows")
preview = {"source": data.source.segments[:rows]} if data.source is not None else {}
preview.update({f"ref {k + 1}": ref.segments[:rows] for k, ref in enumerate(data.references)})
preview.update({name: file.segments[:rows] for name, file in data.systems.items()})
_tables.dataframe(pd.DataFrame(preview, index=range(1, rows + 1)), key="preview")

"""Data: drop every file at once (roles guessed, corrected in a table, then loaded); what is
loaded, file by file, its language pair (guessed, editable) and its first segments side by side."""

import pandas as pd
import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.display.formatting import COUNT
from bleu.errors import InputError
from bleu.i18n import tr
from bleu.io.languages import LanguagePair, tokenizer_choice
from bleu_app.session import _session, _state, _workspace
from bleu_app.widgets import _tables, _uploads

#: the language pair's text box (a stable widget key)
PAIR = "language_pair"
#: the segment preview's system columns, at most (a column per system of a thousand is a
#: table no one reads, and the browser draws it slowly)
PREVIEW_SYSTEMS = 30


def _set_pair() -> None:
    """The typed pair, checked, made the data's; the tokenizer follows its target language."""
    try:
        pair = LanguagePair.parse(st.session_state[PAIR])
    except InputError as error:
        _session.refuse(error)
        return
    choice = tokenizer_choice(pair.target)
    _workspace.load(_session.dataset().with_language_pair(pair),
                    tr("Language pair set to {pair}; tokenizer {reason}")
                    .format(pair=str(pair) or tr("unknown"), reason=choice.reason))
    st.session_state[_state.TOKENIZE] = choice.name


st.title(tr("Data"))
st.subheader(tr("Load your files"))
_uploads.drop_zone()

data = _session.dataset()
st.subheader(tr("Loaded now"))
st.caption(escape_markdown(
    tr("{label}: {title}, {refs} reference(s), {segments} segments")
    .format(title=data.title, label=tr(data.label), refs=data.n_refs,
            segments=COUNT.text(data.n_segments))
    + (tr(", with source") if data.source else "")))
st.session_state[PAIR] = str(data.language_pair)
st.text_input(tr("Language pair (source-target)"), key=PAIR, on_change=_set_pair,
              placeholder=tr("en-de"),
              help=tr("Guessed from WMT's file names (newstest2021.en-de..., *.src.en, *.ref.A.de) "
                      "or from the script of the text; ? for an unknown side. The target "
                      "language picks the default tokenizer (as sacrebleu's -l does) and "
                      "METEOR's language."))
st.caption(escape_markdown(tr("Default tokenizer for this target: {reason}")
                           .format(reason=tokenizer_choice(data.target_language).reason)))
files = [(tr("source"), "", data.source)] if data.source is not None else []
files += [(tr("reference"), f"ref {k + 1}", ref) for k, ref in enumerate(data.references)]
files += [(tr("system"), name, file) for name, file in data.systems.items()]
_tables.dataframe(pd.DataFrame([
    {tr("Role"): role, tr("Name"): name, tr("File"): file.name,
     tr("Segments"): len(file.segments),
     tr("Documents"): len(set(file.doc_ids)) if file.doc_ids else None,
     tr("Notes"): " ".join(file.notes)}
    for role, name, file in files]), hide_index=True, key="files")

rows = st.number_input(tr("Segments to preview"), min_value=1, max_value=data.n_segments,
                       value=min(20, data.n_segments), key="preview_rows")
preview = {tr("source"): data.source.segments[:rows]} if data.source is not None else {}
preview.update({f"ref {k + 1}": ref.segments[:rows] for k, ref in enumerate(data.references)})
previewed = list(data.systems)[:PREVIEW_SYSTEMS]
preview.update({name: data.systems[name].segments[:rows] for name in previewed})
_tables.dataframe(pd.DataFrame(preview, index=range(1, rows + 1)), key="preview")
if len(previewed) < len(data.systems):
    st.caption(tr("The first {n} of {total} systems; the table above lists every file.").format(
        n=COUNT.text(len(previewed)), total=COUNT.text(len(data.systems))))

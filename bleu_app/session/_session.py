"""The loaded data of this session: the bundled sample until the user loads something valid.

New data is built and validated whole before ``commit`` makes it current, so a bad file never
replaces what was loaded; ``refuse`` says why and what is still shown.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.errors import InputError
from bleu.evaluation.budget import Resamples, ServerLimits, check_memory, fit_resamples
from bleu.i18n import N_, tr
from bleu.io.dataset import Dataset, default_tokenizer, load_folder
from bleu_app import SAMPLE_DATA
from bleu_app.session import _state

SAMPLE_DIR = SAMPLE_DATA
SAMPLE_LABEL = N_("Sample: WMT22 General MT English→German (generaltest2022)")
#: the bundled sample's name (``Dataset.sample``; ``?sample=`` in a link)
SAMPLE = "wmt22-en-de"


@st.cache_resource(show_spinner=False)
def sample_dataset() -> Dataset:
    """The bundled WMT22 en-de test set (sample_data/), read once per process."""
    return replace(load_folder(SAMPLE_DIR, SAMPLE_LABEL), sample=SAMPLE)


def dataset() -> Dataset:
    """The committed dataset: the sample until the user loads something valid."""
    if _state.DATASET not in st.session_state:
        commit(sample_dataset(), None)
    return st.session_state[_state.DATASET]


def say(kind: str, text: str) -> None:
    """Replace the data messages with one (kind: success, info, warning, error)."""
    st.session_state[_state.MESSAGES] = [(kind, text)]


def add_message(kind: str, text: str) -> None:
    st.session_state.setdefault(_state.MESSAGES, []).append((kind, text))


def commit(new: Dataset, done: str | None) -> Dataset | None:
    """Make ``new`` the loaded data and return the one it replaces; a new reference set picks
    its target language's tokenizer (zh for Chinese, char for Japanese, 13a otherwise)."""
    previous = st.session_state.get(_state.DATASET)
    st.session_state[_state.DATASET] = new
    if previous is None or previous.references_key != new.references_key:
        st.session_state[_state.TOKENIZE] = default_tokenizer(new.target_language)
    messages = [("success", done)] if done else []
    st.session_state[_state.MESSAGES] = messages + [("warning", note) for note in new.notes]
    return previous


def limits() -> ServerLimits:
    """This server's limits (``BLEU_EXPLORER_MEMORY_MB``, ``BLEU_EXPLORER_RESAMPLE_CELLS``),
    read when needed (two environment look-ups), so a change applies at once."""
    return ServerLimits.from_environment()


def admit(new: Dataset) -> bool:
    """Whether ``new`` fits this server's memory budget; when not, ``refuse`` says so (with
    the numbers) and the loaded data stays."""
    try:
        check_memory(new, limits())
    except InputError as error:
        refuse(error)
        return False
    return True


def resamples(requested: int) -> Resamples:
    """``requested`` resamples (or trials) for the loaded data, fewer where its segments x
    systems would keep the server busy for minutes (``Resamples.note`` says so)."""
    data = dataset()
    return fit_resamples(requested, data.n_segments, len(data.systems), limits())


def n_bootstrap() -> int:
    """The sidebar's bootstrap resamples, within the server's budget for the loaded data."""
    return resamples(_state.n_bootstrap()).used


def refuse(error: InputError) -> None:
    """Show why new data was not loaded; the loaded data stays as it is."""
    kept = tr(st.session_state[_state.DATASET].label) if _state.DATASET in st.session_state \
        else tr("nothing")
    say("error", tr("{error} Nothing was changed: still showing {kept}.").format(
        error=error, kept=kept))


def show_messages() -> None:
    """The last data action's outcome, shown once (the next page shows it no more)."""
    for kind, text in st.session_state.pop(_state.MESSAGES, []):
        getattr(st, kind)(escape_markdown(text))


def first_steps() -> None:
    """On a session that still shows the bundled sample: what to do first, in one line."""
    if dataset().sample == SAMPLE and not st.session_state.get(_state.MESSAGES):
        st.info(tr("This is the bundled sample (WMT22 English→German, 9 systems). To score your "
                "own, drop your system outputs and references on the **Data** page."))

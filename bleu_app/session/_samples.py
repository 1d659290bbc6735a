"""The bundled samples beside the default one (``_session.sample_dataset``): the WMT21 en-de test
set with Google's MQM scores, loaded as the data and its segment scores at once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import streamlit as st

from bleu.i18n import N_, tr
from bleu.io.dataset import Dataset, load_folder
from bleu.io.scores.read import read_scores
from bleu.metrics.segment.scores import SegmentScores
from bleu_app.session import _session, _state, _workspace

MQM_SAMPLE_DIR = _session.SAMPLE_DIR / "wmt21_en-de_mqm"
MQM_SAMPLE_LABEL = N_("Sample: WMT21 newstest2021 English→German with Google MQM scores")
MQM_FILE = "mqm_newstest2021_ende.avg_seg_scores.tsv"
#: the MQM sample's name (``Dataset.sample``; ``?sample=`` in a link)
MQM_SAMPLE = "wmt21-en-de-mqm"


@st.cache_resource(show_spinner=False)
def mqm_sample() -> tuple[Dataset, SegmentScores]:
    """The bundled WMT21 en-de sample and its MQM file, read once per process."""
    data = replace(load_folder(MQM_SAMPLE_DIR, MQM_SAMPLE_LABEL), sample=MQM_SAMPLE)
    return data, read_scores(Path(MQM_SAMPLE_DIR) / MQM_FILE, n_segments=data.n_segments)


def load_mqm_sample() -> None:
    """Load the WMT21 en-de sample and its MQM scores (MQM's ``Nemo`` is ``NVIDIA-NeMo``, as
    the matching policy knows)."""
    data, found = mqm_sample()
    _workspace.load(data, tr("Loaded {label}.").format(label=tr(MQM_SAMPLE_LABEL)))
    st.session_state[_state.SEGMENT_SCORES] = {found.label: found}
    st.session_state[_state.ALIASES] = {found.label: {}}
    st.session_state[_state.SEGMENT_SCORE_SPANS] = {}

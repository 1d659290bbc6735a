"""The segment scores loaded in this session (COMET, xCOMET, MQM, DA...: files uploaded on the
Metrics & human scores page, the MQM sample, a saved workspace's) as metrics beside BLEU.

``st.session_state[_state.SEGMENT_SCORES]`` maps each label to its ``SegmentScores`` as read
(the file's system names); ``[_state.ALIASES]`` maps a label to its renamings (file name ->
loaded name). They are matched to the loaded systems on use, and become ``MetricScores`` that
every page shows and tests as it does BLEU. A learned metric computed here (``_learned``) is one
more set; where its model marks error spans (xCOMET), ``[SPANS]`` keeps them beside the scores,
with the texts they were marked on (workspaces keep the scores, not the spans: a rerun of the
model takes them from the score cache).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bleu.errors import InputError
from bleu.evaluation import registry
from bleu.evaluation.registry import TEXT
from bleu.evaluation.systems import Matching, match_scores
from bleu.i18n import tr
from bleu.io.dataset import Dataset
from bleu.metrics.learned.results import ErrorSpan
from bleu.metrics.segment.scores import SegmentScores
from bleu_app.session import _state

#: label -> {system: (its texts, the error spans of each segment)}
SPANS = _state.SEGMENT_SCORE_SPANS

#: one system's error spans: the texts the model read, and each segment's spans
SystemSpans = tuple[tuple[str, ...], tuple[tuple[ErrorSpan, ...], ...]]


def loaded() -> dict[str, SegmentScores]:
    """Every segment-score set of the session, by label, as read (a learned metric's finished
    run is added by ``_learned.collect`` when a script run starts)."""
    return st.session_state.setdefault(_state.SEGMENT_SCORES, {})


def _free_label(scores: SegmentScores) -> str:
    """The label the scores are shown under: their own, unless a text metric (BLEU, chrF...)
    has it."""
    if scores.label not in registry.names(TEXT):
        return scores.label
    return tr("{label} ({source})").format(label=scores.label, source=scores.source)


def add(scores: SegmentScores, aliases: dict[str, str] | None = None,
        spans: dict[str, SystemSpans] | None = None) -> str:
    """Load ``scores`` (a set with the same label is replaced: a newer file of that metric),
    with the error spans its model marked, if any; returns the label they are shown under."""
    label = _free_label(scores)
    loaded()[label] = replace(scores, label=label)
    st.session_state.setdefault(_state.ALIASES, {})[label] = dict(aliases or {})
    kept = st.session_state.setdefault(SPANS, {})
    kept.pop(label, None)
    if spans:
        kept[label] = dict(spans)
    return label


def remove(label: str) -> None:
    loaded().pop(label, None)
    st.session_state.setdefault(_state.ALIASES, {}).pop(label, None)
    st.session_state.setdefault(SPANS, {}).pop(label, None)


def error_spans(system: str, segment: int, text: str) -> list[tuple[str, tuple[ErrorSpan, ...]]]:
    """(label, spans) of each loaded metric that marked spans on segment ``segment`` (1-based)
    of ``system``, where that segment still reads ``text`` (spans belong to the text)."""
    found = []
    sets = loaded()
    for label, by_system in st.session_state.get(SPANS, {}).items():
        renamed = {loaded_name: name for name, loaded_name in aliases(label).items()}
        marked = by_system.get(renamed.get(system, system))
        if label not in sets or marked is None or not 1 <= segment <= len(marked[0]):
            continue
        texts, spans = marked
        if texts[segment - 1] == text:
            found.append((label, spans[segment - 1]))
    return found


def set_direction(label: str, higher_is_better: bool) -> None:
    """Say which way a set's scores point (the guess from its label can be wrong)."""
    found = loaded().get(label)
    if found is not None and found.higher_is_better != higher_is_better:
        loaded()[label] = replace(found, higher_is_better=higher_is_better)


def aliases(label: str) -> dict[str, str]:
    """The set's renamings: file system name -> loaded system name."""
    return dict(st.session_state.setdefault(_state.ALIASES, {}).get(label, {}))


def set_aliases(label: str, mapping: dict[str, str]) -> None:
    st.session_state.setdefault(_state.ALIASES, {})[label] = dict(mapping)


def matching(data: Dataset, label: str) -> Matching | str:
    """A set matched to the loaded systems (renamed, restricted); a string says why not."""
    scores = loaded().get(label)
    if scores is None:
        return tr("No segment scores named {label} are loaded.").format(label=label)
    if scores.n_segments != data.n_segments:
        return tr("The {label} scores ({source}) are for {scores} segments; the loaded data has "
                  "{loaded}. Load the matching test set.").format(
            label=label, source=scores.source, scores=scores.n_segments,
            loaded=data.n_segments)
    try:
        return match_scores(scores, list(data.systems), aliases(label))
    except InputError as error:
        return str(error)


def labels(data: Dataset) -> list[str]:
    """The sets that match the loaded data, in the order they were loaded."""
    return [label for label in loaded() if isinstance(matching(data, label), Matching)]


def sets(data: Dataset) -> tuple[tuple[str, SegmentScores, tuple[tuple[str, str], ...]], ...]:
    """The sets that match the loaded data, each with its label and renamings (what the
    evaluation adds), in the order they were loaded."""
    found = loaded()
    return tuple((label, found[label], tuple(sorted(aliases(label).items())))
                 for label in labels(data))

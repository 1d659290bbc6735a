"""Streamlit glue shared by the Sentences and Compare pages: system pair, cached tables, details.

Everything here reads the loaded data and options through ``views._session``/``views._state``
and caches core results on content (``_compute.HASH_FUNCS``), so that after the first load an
interaction only filters or redraws.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

import bleu
from bleu.analysis import compare, concordance, highlight
from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import SMALL_DELTA, metric_delta
from bleu.analysis.segment_edit import edit_segment
from bleu.analysis.segments import (
    reference_lengths,
    sentence_options,
    sentence_scores,
    sentence_table,
)
from bleu.io import TextFile, read_frequencies
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.explain import Explanation
from bleu.metrics.bleu.score import BLEUOptions
from bleu_app.views import _compute, _session, _state


def pair_picker(prefix: str, names: Sequence[str]) -> tuple[str, str]:
    """Two system selectboxes (keys ``{prefix}_a``, ``{prefix}_b``): A defaults to the baseline."""
    names = list(names)
    state = st.session_state
    baseline = state.get(_state.BASELINE)
    if state.get(f"{prefix}_a") not in names:
        state[f"{prefix}_a"] = baseline if baseline in names else names[0]
    if state.get(f"{prefix}_b") not in names:
        others = [n for n in names if n != state[f"{prefix}_a"]]
        state[f"{prefix}_b"] = others[0] if others else names[0]
    left, right = st.columns(2)
    a = left.selectbox("System A", names, index=names.index(state[f"{prefix}_a"]),
                       format_func=show_controls, key=f"{prefix}_a")
    b = right.selectbox("System B", names, index=names.index(state[f"{prefix}_b"]),
                        format_func=show_controls, key=f"{prefix}_b")
    return a, b


def sentence_smoothing() -> BLEUOptions:
    """The sentence-BLEU options: the sidebar's tokenization, this selectbox's smoothing."""
    method = st.selectbox(
        "Sentence BLEU smoothing", _state.SMOOTH_METHODS,
        index=_state.kept_index(_state.SENTENCE_SMOOTH, _state.SMOOTH_METHODS, "exp"),
        key=_state.SENTENCE_SMOOTH,
        help="Sentence BLEU as sacrebleu computes it: effective order, and exp smoothing by "
             "default. Corpus scores use the sidebar's options.")
    return sentence_options(_state.options(), method)


def documents(data: Dataset) -> tuple[str, ...] | None:
    """Document ids of the segments, from the first stream that has them (else None)."""
    files = [*data.references, *([data.source] if data.source else []), *data.systems.values()]
    for file in files:
        if file.doc_ids is not None:
            return tuple(file.doc_ids)
    return None


@st.cache_data(max_entries=8, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _table(data: Dataset, options: BLEUOptions, sentence: BLEUOptions,
           pair: tuple[str, str]) -> pd.DataFrame:
    return sentence_table(
        {name: file.segments for name, file in data.systems.items()},
        data.reference_streams, _compute.system_stats(data, options), options,
        sentence=sentence, source=data.source.segments if data.source else None,
        documents=documents(data), pair=pair)


def table(data: Dataset, sentence: BLEUOptions, pair: tuple[str, str]) -> pd.DataFrame:
    """The sentence table of the loaded data (cached; every call gets its own copy)."""
    options = _state.options()
    _compute.system_stats(data, options)  # the progress bar, outside the cached function
    return _table(data, options, sentence, pair)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _ngram_differences(a: TextFile, b: TextFile, references: tuple[TextFile, ...],
                       options: BLEUOptions) -> compare.NgramDifferences:
    return compare.ngram_differences(a.segments, b.segments,
                                      [ref.segments for ref in references], options)


def ngram_differences(data: Dataset, a: str, b: str) -> compare.NgramDifferences:
    """The n-grams A matches more often than B and the reverse (cached per pair and options)."""
    return _ngram_differences(data.systems[a], data.systems[b], data.references,
                              _state.options())


def segment_references(data: Dataset, segment: int) -> list[str | None]:
    """The references of one segment (1-based id), as ``bleu.explain`` takes them."""
    return [stream[segment - 1] for stream in data.reference_streams]


def explain(data: Dataset, system: str, segment: int, sentence: BLEUOptions) -> Explanation:
    """``bleu.explain`` for one system on one segment, with the sentence options."""
    return bleu.explain(
        data.systems[system].segments[segment - 1], segment_references(data, segment),
        tokenize=sentence.tokenize, lowercase=sentence.lowercase,
        smooth_method=sentence.smooth_method, smooth_value=sentence.smooth_value,
        max_ngram_order=sentence.max_ngram_order, effective_order=sentence.effective_order)


def _marked(ngram: str, explained: dict[str, Explanation]) -> str:
    """The tokenized outputs and references of one segment with ``ngram`` marked (HTML)."""
    first = next(iter(explained.values()))
    texts = {name: explanation.hypothesis_tokens for name, explanation in explained.items()}
    texts.update({f"reference {ref.index + 1}": ref.tokens for ref in first.references
                  if ref is not None})
    return concordance.marked_html(ngram, texts)


def segment_detail(data: Dataset, a: str, b: str, segment: int, sentence: BLEUOptions,
                   key: str, mark: str | None = None) -> None:
    """Segment ``segment`` with A and B side by side, n-gram layers toggled by checkboxes;
    ``mark``: an n-gram whose occurrences are marked in every text above the layers."""
    order = sentence.max_ngram_order
    st.markdown(f"**Segment {segment}**")
    if data.source is not None:
        st.caption("Source: " + escape_markdown(data.source.segments[segment - 1]))
    toggles = st.columns(order)
    shown = [n for n in range(1, order + 1)
             if toggles[n - 1].checkbox(f"{n}-grams", value=n <= 2, key=f"{key}_order_{n}")]
    st.markdown(highlight.legend_html(), unsafe_allow_html=True)
    explained = {name: explain(data, name, segment, sentence) for name in dict.fromkeys((a, b))}
    if mark:
        st.markdown(_marked(mark, explained), unsafe_allow_html=True)
    columns = st.columns(len(explained))
    for column, (name, explanation) in zip(columns, explained.items(), strict=True):
        other = explained[b if name == a else a] if len(explained) > 1 else None
        with column:
            st.markdown(f"**{escape_markdown(name)}**")
            st.markdown(highlight.segment_html(explanation, shown, contrast=other, label=name),
                        unsafe_allow_html=True)
    whatif(data, list(explained), segment, sentence, shown, key)


def _reset_edit(text_key: str, original: str) -> None:
    st.session_state[text_key] = original


def whatif(data: Dataset, names: Sequence[str], segment: int, sentence: BLEUOptions,
           shown: Sequence[int], key: str) -> None:
    """Edit one system's hypothesis of this segment: its n-gram matches, sentence BLEU and the
    system's corpus BLEU change at once (the segment's row of the cached statistics matrix is
    replaced, nothing else rescored), with a reset. Keys ``{key}_edit_system``,
    ``{key}_edit_text``, ``{key}_edit_reset``."""
    state = st.session_state
    with st.expander("What if this hypothesis read differently?", expanded=True):
        system = st.radio("Edit the output of", list(names), horizontal=True,
                          format_func=escape_markdown, key=f"{key}_edit_system")
        original = data.systems[system].segments[segment - 1]
        text_key, owner = f"{key}_edit_text", (data.key, system, segment)
        if state.get(f"{key}_edit_of") != owner:  # another segment or system: start afresh
            state[f"{key}_edit_of"], state[text_key] = owner, original
        edited = st.text_area("Hypothesis (Ctrl+Enter to apply)", key=text_key, height=80)
        st.button("Reset to the system's output", key=f"{key}_edit_reset", on_click=_reset_edit,
                  args=(text_key, original))
        options = _state.options()
        result = edit_segment(_compute.system_stats(data, options)[system], segment, edited,
                              segment_references(data, segment), options, sentence)
        m1, m2 = st.columns(2)
        m1.metric("Sentence BLEU", f"{result.sentence_after:.2f}",
                  **metric_delta(result.sentence_after - result.sentence_before))
        m2.metric(f"Corpus BLEU of {escape_markdown(system)}", f"{result.corpus_after.score:.2f}",
                  **metric_delta(result.corpus_after.score - result.corpus_before.score,
                                 SMALL_DELTA),
                  help="One segment of many moves the corpus score a little: the change is "
                       "shown with 4 decimals.")
        if result.changed:
            st.markdown(highlight.segment_html(result.explanation, shown,
                                               label=f"{system} (edited)"),
                        unsafe_allow_html=True)
        else:
            st.caption("Edit the text: the matches, sentence BLEU and corpus BLEU follow.")


def resample_note() -> None:
    """Where resamples were lowered for this data's size (``_session.resamples``): say so."""
    note = _session.resamples(_state.n_bootstrap()).note
    if note:
        st.info(note)


@st.cache_data(max_entries=4, show_spinner=False)
def frequencies(data: bytes, name: str) -> dict[str, int]:
    """A word-frequency file parsed once per content (``read_frequencies``; may raise)."""
    return read_frequencies(data, name)


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=_compute.HASH_FUNCS)
def _buckets(a: TextFile, b: TextFile, references: tuple[TextFile, ...], options: BLEUOptions,
             sentence: BLEUOptions, analysis: str, n_samples: int,
             frequency_file: tuple[bytes, str] | None) -> pd.DataFrame:
    if analysis == "word frequency":
        return compare.word_accuracy_by_frequency(
            {"A": a.segments, "B": b.segments}, references[0].segments, options,
            frequencies=frequencies(*frequency_file) if frequency_file else None,
            n_samples=n_samples)
    pair = {"A": _compute.stats_of(a, references, options),
            "B": _compute.stats_of(b, references, options)}
    if analysis == "reference length":
        cutoffs = compare.LENGTH_CUTOFFS
        lengths = reference_lengths([ref.segments for ref in references], options)
        values = {name: lengths for name in pair}
    elif analysis == "length difference":
        cutoffs = compare.LENGTH_DIFF_CUTOFFS
        values = {name: m[:, 0] - m[:, 1] for name, m in pair.items()}
    else:
        cutoffs = compare.SENTENCE_BLEU_CUTOFFS
        values = {name: sentence_scores(m, sentence) for name, m in pair.items()}
    buckets = {name: compare.assign_buckets(v, cutoffs) for name, v in values.items()}
    return compare.bleu_by_bucket(pair, buckets, compare.bucket_labels(cutoffs), options,
                                  n_samples=n_samples)


def buckets(data: Dataset, a: str, b: str, analysis: str, sentence: BLEUOptions,
            n_samples: int, frequency_file: tuple[bytes, str] | None = None) -> pd.DataFrame:
    """compare-mt's bucket analyses for A and B with bootstrap intervals (cached).

    ``analysis``: ``reference length``, ``length difference``, ``sentence BLEU`` or
    ``word frequency`` (``frequency_file``: the bytes and name of a training-data word-count
    file, hashed as bytes, parsed once; else the reference's counts).
    """
    found = _buckets(data.systems[a], data.systems[b], data.references, _state.options(),
                     sentence, analysis, n_samples, frequency_file)
    return found.assign(system=found["system"].map({"A": a, "B": b}))

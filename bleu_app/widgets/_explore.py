"""Streamlit glue shared by the Sentences and Compare pages: system pair, cached tables, details.

Everything here reads the loaded data and options through ``session._session``/``session._state``
and caches core results on content (``_cache.HASH_FUNCS``), so that after the first load an
interaction only filters or redraws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

import bleu
from bleu.charts import segments as charts_segments
from bleu.display import long_text as long_text_rule
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import (
    COUNT,
    SCORE,
    SMALL_DELTA,
    NumberFormat,
    metric_delta,
    score_formats,
)
from bleu.evaluation.scores import MetricScores
from bleu.explore import compare, concordance, error_spans, highlight
from bleu.explore.segment_edit import edit_segment
from bleu.explore.segments import (
    DIFF,
    reference_lengths,
    sentence_options,
    sentence_scores,
    sentence_table,
)
from bleu.i18n import tr
from bleu.io import TextFile, read_frequencies
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.explain import Explanation
from bleu.metrics.bleu.score import BLEUOptions
from bleu.teaching.option_names import smoothing_names
from bleu_app.runtime import _cache
from bleu_app.scoring import _metrics, _segment_scores
from bleu_app.session import _session, _state


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
    a = left.selectbox(tr("System A"), names, index=names.index(state[f"{prefix}_a"]),
                       format_func=show_controls, key=f"{prefix}_a")
    b = right.selectbox(tr("System B"), names, index=names.index(state[f"{prefix}_b"]),
                        format_func=show_controls, key=f"{prefix}_b")
    return a, b


def sentence_smoothing() -> BLEUOptions:
    """The sentence-BLEU options: the sidebar's tokenization, this selectbox's smoothing."""
    method = st.selectbox(
        tr("Sentence BLEU smoothing"), _state.SMOOTH_METHODS,
        index=_state.kept_index(_state.SENTENCE_SMOOTH, _state.SMOOTH_METHODS, "exp"),
        key=_state.SENTENCE_SMOOTH, format_func=smoothing_names(),
        help=tr("Sentence BLEU as sacrebleu computes it: effective order, and exp smoothing by "
             "default. Corpus scores use the sidebar's options."))
    return sentence_options(_state.options(), method)


def score_bounds(table: pd.DataFrame, column: str, bleu_like: bool,
                 ) -> tuple[float, float, float]:
    """A score filter's slider: 0..100 (-100..100 for a difference) for BLEU's columns, the
    column's own range for another metric's (COMET 0..1, MQM negative), and its step."""
    if bleu_like:
        return (-100.0 if column == DIFF else 0.0), 100.0, 0.5
    values = table[column].to_numpy(dtype=float)
    values = values[~np.isnan(values)]
    if not len(values):
        return 0.0, 1.0, 0.01
    low, high = float(values.min()), float(values.max())
    span = high - low or 1.0
    step = 10.0 ** np.floor(np.log10(span / 100))
    return float(np.floor(low / step) * step), float(np.ceil(high / step) * step), float(step)


def score_steps(low: float, high: float, step: float) -> list[float]:
    """The values a score filter's slider stops at: ``low`` to ``high`` by ``step`` (rounded, so
    that 90.0 is one of them, not 90.00000000000001)."""
    decimals = max(0, math.ceil(-math.log10(step)) + 1)
    count = round((high - low) / step)
    return [round(low + k * step, decimals) + 0.0 for k in range(count + 1)]


def step_format(step: float, signed: bool = False) -> NumberFormat:
    """The number rule of a slider's values: as many decimals as its step needs (0,5; 0,01)."""
    decimals = max(0, math.ceil(-math.log10(step) - 1e-9))
    if not float(step * 10 ** decimals).is_integer():
        decimals += 1
    return NumberFormat(decimals, signed=signed)


def documents(data: Dataset) -> tuple[str, ...] | None:
    """Document ids of the segments, from the first stream that has them (else None)."""
    files = [*data.references, *([data.source] if data.source else []), *data.systems.values()]
    for file in files:
        if file.doc_ids is not None:
            return tuple(file.doc_ids)
    return None


@_cache.shared(max_entries=8)
def _table(data: Dataset, bleu: MetricScores, options: BLEUOptions, sentence: BLEUOptions,
           pair: tuple[str, str]) -> pd.DataFrame:
    return sentence_table(
        {name: file.segments for name, file in data.systems.items()},
        data.reference_streams, bleu.stats, options,
        sentence=sentence, source=data.source.segments if data.source else None,
        documents=documents(data), pair=pair)


def table(data: Dataset, sentence: BLEUOptions, pair: tuple[str, str]) -> pd.DataFrame:
    """The sentence table of the loaded data (cached; every call gets its own copy, a
    copy-on-write one: the cached table is the server's)."""
    return _table(data, _metrics.scores(data, "BLEU"), _state.options(), sentence,
                  pair).copy(deep=False)


def histogram_chart(data: Dataset, options: BLEUOptions, sentence: BLEUOptions,
                    pair: tuple[str, str]) -> alt.FacetChart:
    """The Sentences histogram of the loaded data under ``options`` (the sidebar's, passed so
    that ``_charts.show`` keys the chart on them and the data's content key, not by hashing
    the table's every cell on every rerun)."""
    return charts_segments.histogram_chart(_table_for(data, options, sentence, pair),
                                           list(data.systems))


def scatter_chart(data: Dataset, options: BLEUOptions, sentence: BLEUOptions,
                  pair: tuple[str, str]) -> alt.LayerChart:
    """The Sentences scatter of A against B, keyed as ``histogram_chart`` is."""
    return charts_segments.scatter_chart(_table_for(data, options, sentence, pair), *pair)


def _table_for(data: Dataset, options: BLEUOptions, sentence: BLEUOptions,
               pair: tuple[str, str]) -> pd.DataFrame:
    """``table`` for ``options``: the run's own (the session's BLEU scores are of them)."""
    return _table(data, _metrics.scores(data, "BLEU"), options, sentence, pair)


@_cache.shared(max_entries=16)
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
    texts.update({tr("reference {k}").format(k=ref.index + 1): ref.tokens
                  for ref in first.references
                  if ref is not None})
    return concordance.marked_html(ngram, texts)


def long_text(label: str, text: str, key: str) -> None:
    """``text`` of any length, bounded: a part of ``PART_CHARS`` characters at a time (a
    picker for the others) and the whole as a download; as plain text, never Markdown."""
    count = long_text_rule.parts(text)
    st.markdown(tr("**{label}**: {chars} characters").format(
        label=escape_markdown(label), chars=COUNT.text(len(text))))
    number = 1
    if count > 1:
        number = st.number_input(tr("Part (of {count}, {size} characters each)").format(
            count=COUNT.text(count), size=COUNT.text(long_text_rule.PART_CHARS)),
            min_value=1, max_value=count, value=1, key=f"{key}_part")
    st.text(show_controls(long_text_rule.part(text, int(number))))
    st.download_button(tr("The whole text"), lambda: text.encode("utf-8"),
                       f"segment-{key}.txt", "text/plain", key=f"{key}_download",
                       on_click="ignore")


def _long_segment(data: Dataset, names: Sequence[str], segment: int, sentence: BLEUOptions,
                  key: str) -> None:
    """A segment too long for its n-grams to be drawn: each text in parts, each system's
    sentence BLEU and other metrics as computed on the whole text."""
    texts = [data.systems[name].segments[segment - 1] for name in names]
    texts += [ref for ref in segment_references(data, segment) if ref is not None]
    st.info(tr("This segment is long ({chars} characters in its longest text), so its n-gram "
               "matches are not drawn and it cannot be edited here: each text is shown in parts "
               "and can be downloaded whole. Every score is computed on the whole text.")
            .format(chars=COUNT.text(max(map(len, texts)))))
    bleu_rows = _metrics.bleu_stats(data)
    columns = st.columns(len(names))
    for index, (column, name) in enumerate(zip(columns, names, strict=True)):
        with column:
            score = float(sentence_scores(bleu_rows[name][segment - 1:segment], sentence)[0])
            st.caption(tr("Sentence BLEU {score}").format(score=SCORE.text(score)))
            if scores := segment_metric_scores(data, name, segment):
                st.caption(escape_markdown(scores))
            long_text(name, data.systems[name].segments[segment - 1], f"{key}_system_{index}")
    for index, reference in enumerate(segment_references(data, segment)):
        if reference is not None:
            long_text(tr("reference {k}").format(k=index + 1), reference,
                      f"{key}_reference_{index}")


def segment_detail(data: Dataset, a: str, b: str, segment: int, sentence: BLEUOptions,
                   key: str, mark: str | None = None) -> None:
    """Segment ``segment`` with A and B side by side, n-gram layers toggled by checkboxes;
    ``mark``: an n-gram whose occurrences are marked in every text above the layers. A
    segment over ``HIGHLIGHT_CHARS`` is shown in bounded parts instead (``_long_segment``)."""
    order = sentence.max_ngram_order
    st.markdown("**{}**".format(tr("Segment {segment}").format(segment=segment)))
    if data.source is not None:
        st.caption(tr("Source: {text}").format(
            text=escape_markdown(long_text_rule.cut(data.source.segments[segment - 1],
                                                    long_text_rule.PART_CHARS))))
    names = list(dict.fromkeys((a, b)))
    texts = [data.systems[name].segments[segment - 1] for name in names]
    if any(long_text_rule.is_long(text)
           for text in (*texts, *segment_references(data, segment))):
        _long_segment(data, names, segment, sentence, key)
        return
    toggles = st.columns(order)
    shown = [n for n in range(1, order + 1)
             if toggles[n - 1].checkbox(tr("{n}-grams").format(n=n), value=n <= 2,
                                        key=f"{key}_order_{n}")]
    st.markdown(highlight.legend_html(), unsafe_allow_html=True)
    explained = {name: explain(data, name, segment, sentence) for name in names}
    if mark:
        st.markdown(_marked(mark, explained), unsafe_allow_html=True)
    columns = st.columns(len(explained))
    for column, (name, explanation) in zip(columns, explained.items(), strict=True):
        other = explained[b if name == a else a] if len(explained) > 1 else None
        with column:
            st.markdown(f"**{escape_markdown(name)}**")
            st.markdown(highlight.segment_html(explanation, shown, contrast=other, label=name),
                        unsafe_allow_html=True)
            if scores := segment_metric_scores(data, name, segment):
                st.caption(escape_markdown(scores))
            _error_spans(data, name, segment)
    whatif(data, list(explained), segment, sentence, shown, key)


def segment_metric_scores(data: Dataset, system: str, segment: int) -> str:
    """The other metrics' scores of one system on one segment, as a line ("chrF 61.20 · COMET
    0.8123"; "not rated" where a segment score is missing); "" with BLEU alone."""
    parts = []
    for metric, found in _metrics.all_scores(data).items():
        if metric == "BLEU" or system not in found.sentence_scores:
            continue
        value = float(found.sentence_scores[system][segment - 1])
        rule = score_formats(found.scores.values())[0]
        parts.append(tr("{metric} {score}").format(
            metric=metric, score=tr("not rated") if math.isnan(value) else rule.text(value)))
    return " · ".join(parts)


def _error_spans(data: Dataset, system: str, segment: int) -> None:
    """The error spans each computed metric (xCOMET) marked on this segment of ``system``."""
    text = data.systems[system].segments[segment - 1]
    found = _segment_scores.error_spans(system, segment, text)
    for label, spans in found:
        st.markdown(tr("**{label}** error spans: {summary}").format(
            label=escape_markdown(label), summary=escape_markdown(error_spans.summary(spans))))
        if spans:
            st.markdown(error_spans.spans_html(text, spans), unsafe_allow_html=True)
    if any(spans for _, spans in found):
        st.markdown(error_spans.legend_html(), unsafe_allow_html=True)


def _reset_edit(text_key: str, original: str) -> None:
    st.session_state[text_key] = original


def whatif(data: Dataset, names: Sequence[str], segment: int, sentence: BLEUOptions,
           shown: Sequence[int], key: str) -> None:
    """Edit one system's hypothesis of this segment: its n-gram matches, sentence BLEU and the
    system's corpus BLEU change at once (the segment's row of the cached statistics matrix is
    replaced, nothing else rescored), with a reset. Keys ``{key}_edit_system``,
    ``{key}_edit_text``, ``{key}_edit_reset``."""
    state = st.session_state
    with st.expander(tr("What if this hypothesis read differently?"), expanded=True):
        system = st.radio(tr("Edit the output of"), list(names), horizontal=True,
                          format_func=escape_markdown, key=f"{key}_edit_system")
        original = data.systems[system].segments[segment - 1]
        text_key, owner = f"{key}_edit_text", (data.key, system, segment)
        if state.get(f"{key}_edit_of") != owner:  # another segment or system: start afresh
            state[f"{key}_edit_of"], state[text_key] = owner, original
        edited = st.text_area(tr("Hypothesis (Ctrl+Enter to apply)"), key=text_key, height=80,
                              max_chars=2 * long_text_rule.HIGHLIGHT_CHARS)
        st.button(tr("Reset to the system's output"), key=f"{key}_edit_reset", on_click=_reset_edit,
                  args=(text_key, original))
        options = _state.options()
        result = edit_segment(_metrics.bleu_stats(data)[system], segment, edited,
                              segment_references(data, segment), options, sentence)
        m1, m2 = st.columns(2)
        m1.metric(tr("Sentence BLEU"), SCORE.text(result.sentence_after),
                  **metric_delta(result.sentence_after - result.sentence_before))
        m2.metric(tr("Corpus BLEU of {system}").format(system=escape_markdown(system)),
                  SCORE.text(result.corpus_after.score),
                  **metric_delta(result.corpus_after.score - result.corpus_before.score,
                                 SMALL_DELTA),
                  help=tr("One segment of many moves the corpus score a little: the change is "
                       "shown with 4 decimals."))
        if result.changed and long_text_rule.is_long(edited):
            st.caption(tr("The edited text is over {limit} characters: its n-gram matches are "
                          "not drawn.").format(limit=COUNT.text(long_text_rule.HIGHLIGHT_CHARS)))
        elif result.changed:
            st.markdown(highlight.segment_html(result.explanation, shown,
                                               label=f"{system} (edited)"),
                        unsafe_allow_html=True)
        else:
            st.caption(tr("Edit the text: the matches, sentence BLEU and corpus BLEU follow."))


def resample_note() -> None:
    """Where resamples were lowered for this data's size (``_session.resamples``): say so."""
    note = _session.resamples(_state.n_bootstrap()).note
    if note:
        st.info(note)


@_cache.data(max_entries=4)
def frequencies(data: bytes, name: str) -> dict[str, int]:
    """A word-frequency file parsed once per content (``read_frequencies``; may raise)."""
    return read_frequencies(data, name)


def bucket_values(data: Dataset, a: str, b: str, analysis: str,
                  sentence: BLEUOptions) -> tuple[dict[str, np.ndarray], tuple[float, ...]]:
    """What puts a segment in a bucket for A and B (``reference length`` is the same for both;
    ``length difference`` and ``sentence BLEU`` are each system's), and the cutoffs."""
    bleu = _metrics.bleu_stats(data)
    if analysis == "reference length":
        lengths = reference_lengths([ref.segments for ref in data.references],
                                    _state.options())
        return {a: lengths, b: lengths}, compare.LENGTH_CUTOFFS
    if analysis == "length difference":
        return ({name: bleu[name][:, 0] - bleu[name][:, 1] for name in (a, b)},
                compare.LENGTH_DIFF_CUTOFFS)
    return ({name: sentence_scores(bleu[name], sentence) for name in (a, b)},
            compare.SENTENCE_BLEU_CUTOFFS)


@_cache.shared(max_entries=32)
def _buckets(scored: MetricScores, pair: tuple[str, str], values: tuple[np.ndarray, ...],
             cutoffs: tuple[float, ...], n_samples: int) -> pd.DataFrame:
    stats = {"A": scored.stats[pair[0]], "B": scored.stats[pair[1]]}
    buckets = {"A": compare.assign_buckets(values[0], cutoffs),
               "B": compare.assign_buckets(values[1], cutoffs)}
    return compare.score_by_bucket(stats, buckets, compare.bucket_labels(cutoffs),
                                   scored.scorer, n_samples=n_samples)


@_cache.shared(max_entries=8)
def _word_buckets(a: TextFile, b: TextFile, reference: TextFile, options: BLEUOptions,
                  n_samples: int, frequency_file: tuple[bytes, str] | None) -> pd.DataFrame:
    return compare.word_accuracy_by_frequency(
        {"A": a.segments, "B": b.segments}, reference.segments, options,
        frequencies=frequencies(*frequency_file) if frequency_file else None,
        n_samples=n_samples)


def buckets(data: Dataset, a: str, b: str, analysis: str, sentence: BLEUOptions,
            n_samples: int, frequency_file: tuple[bytes, str] | None = None,
            metric: str = "BLEU") -> pd.DataFrame:
    """compare-mt's bucket analyses for A and B with bootstrap intervals (cached).

    ``analysis``: ``reference length``, ``length difference``, ``sentence BLEU`` (each bucket
    scored with ``metric``) or ``word frequency`` (``frequency_file``: the bytes and name of a
    training-data word-count file, hashed as bytes, parsed once; else the reference's counts).
    """
    if analysis == "word frequency":
        found = _word_buckets(data.systems[a], data.systems[b], data.references[0],
                              _state.options(), n_samples, frequency_file)
    else:
        values, cutoffs = bucket_values(data, a, b, analysis, sentence)
        found = _buckets(_metrics.scores(data, metric), (a, b), (values[a], values[b]),
                         cutoffs, n_samples)
    return found.assign(system=found["system"].map({"A": a, "B": b}))


def reference_length_rows(data: Dataset, label: str) -> np.ndarray:
    """The 0-based segments of one reference-length bucket (the same for every system)."""
    lengths = reference_lengths([ref.segments for ref in data.references], _state.options())
    labels = compare.bucket_labels(compare.LENGTH_CUTOFFS)
    return np.flatnonzero(compare.assign_buckets(lengths, compare.LENGTH_CUTOFFS)
                          == labels.index(label))

"""The sentence table: one row per segment with texts, sentence BLEU, lengths; and its filters.

Sentence BLEU comes from the statistics matrix rows (``scores_from_stats``), so it costs no
tokenization once the matrix exists, and equals ``bleu.sentence_bleu`` segment by segment.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..display.escaping import safe_csv
from ..display.formatting import COUNT, DELTA, SCORE, Column
from ..errors import InputError, LengthMismatchError
from ..i18n import N_, tr
from ..metrics.bleu.engine import words
from ..metrics.bleu.score import BLEUOptions, score_from_stats, scores_from_stats

ID = "id"
DOCUMENT = "document"
SOURCE = "source"
REF_LEN = N_("ref len")
DIFF = "Δ BLEU"


class BadPatternError(InputError):
    """A text search pattern is not a valid regular expression."""


class UnknownColumnError(InputError):
    """A filter names a column the sentence table does not have."""


def bleu_column(system: str) -> str:
    """The sentence-BLEU column of a system."""
    return f"BLEU {system}"


def length_column(system: str) -> str:
    """The hypothesis-length (tokens) column of a system."""
    return f"len {system}"


def reference_columns(n_refs: int) -> list[str]:
    """Names of the reference text columns: ``reference``, or ``reference 1..k``."""
    return ["reference"] if n_refs == 1 else [f"reference {k + 1}" for k in range(n_refs)]


def sentence_options(options: BLEUOptions, smooth_method: str = "exp",
                     smooth_value: float | None = None) -> BLEUOptions:
    """sacrebleu's sentence-BLEU options (effective order) with the corpus tokenization."""
    return replace(options, smooth_method=smooth_method, smooth_value=smooth_value,
                   effective_order=True)


def sentence_scores(stats: np.ndarray, options: BLEUOptions) -> np.ndarray:
    """Sentence BLEU of every row of a statistics matrix (pass ``sentence_options``)."""
    return scores_from_stats(np.asarray(stats), options)


def reference_label(column: str) -> str | None:
    """A reference column's name in the interface language ("referentie 2"), None for a column
    that is not a reference's."""
    if column == "reference":
        return tr("reference")
    number = column.removeprefix("reference ")
    if number != column and number.isdigit():
        return tr("reference {k}").format(k=int(number))
    return None


def reference_lengths(references: Sequence[Sequence[str | None]], options: BLEUOptions,
                      ) -> np.ndarray:
    """Tokens in each segment's first present reference: a length that no system changes."""
    n_segments = len(references[0])
    lengths = np.full(n_segments, -1, np.int64)
    for stream in references:
        todo = np.flatnonzero(lengths < 0)
        if not len(todo):
            break
        present = [i for i in todo if stream[i] is not None]
        if present:
            lengths[present] = np.diff(words([stream[i] for i in present], options).offsets)
    return np.maximum(lengths, 0)


def _check_inputs(systems: Mapping[str, Sequence[str]], stats: Mapping[str, np.ndarray],
                  references: Sequence[Sequence[str | None]], n_segments: int,
                  reserved: set[str]) -> None:
    for name, lines in systems.items():
        if name in reserved or name.startswith(("BLEU ", "len ")):
            raise InputError(tr(
                "System name {name!r} clashes with a column of the sentence table; "
                "rename the system (e.g. after its file).").format(name=name))
        if len(lines) != n_segments or len(stats[name]) != n_segments:
            raise LengthMismatchError(tr(
                "System {name!r} has {lines} lines and {rows} statistics rows, but the "
                "references have {segments} segments.").format(
                name=name, lines=len(lines), rows=len(stats[name]), segments=n_segments))
    for k, stream in enumerate(references):
        if len(stream) != n_segments:
            raise LengthMismatchError(tr(
                "Reference stream {k} has {found} segments, expected {segments}.").format(
                k=k + 1, found=len(stream), segments=n_segments))


def sentence_table(systems: Mapping[str, Sequence[str]],
                   references: Sequence[Sequence[str | None]],
                   stats: Mapping[str, np.ndarray], options: BLEUOptions, *,
                   sentence: BLEUOptions | None = None, source: Sequence[str] | None = None,
                   documents: Sequence[str] | None = None,
                   pair: tuple[str, str] | None = None) -> pd.DataFrame:
    """All segments with texts, each system's sentence BLEU and length, and B − A for ``pair``.

    ``stats[name]`` is the statistics matrix of ``systems[name]`` against ``references`` with
    ``options``; ``sentence`` defaults to ``sentence_options(options)`` (sacrebleu's defaults).
    """
    n_segments = len(references[0]) if references else 0
    ref_names = reference_columns(len(references))
    reserved = {ID, DOCUMENT, SOURCE, REF_LEN, DIFF, *ref_names}
    _check_inputs(systems, stats, references, n_segments, reserved)
    sentence = sentence or sentence_options(options)
    columns: dict[str, object] = {ID: np.arange(1, n_segments + 1)}
    for what, stream in ((DOCUMENT, documents), (SOURCE, source)):
        if stream is not None:
            if len(stream) != n_segments:
                raise LengthMismatchError(tr(
                    "The {what} stream has {found} lines, expected {segments}.").format(
                    what=tr(what), found=len(stream), segments=n_segments))
            columns[what] = list(stream)
    for name, stream in zip(ref_names, references, strict=True):
        columns[name] = ["" if line is None else line for line in stream]
    columns[REF_LEN] = reference_lengths(references, options)
    for name, lines in systems.items():
        columns[name] = list(lines)
        columns[bleu_column(name)] = sentence_scores(stats[name], sentence)
        columns[length_column(name)] = np.asarray(stats[name])[:, 0]
    if pair is not None:
        a, b = pair
        columns[DIFF] = columns[bleu_column(b)] - columns[bleu_column(a)]
    return pd.DataFrame(columns)


def table_columns(table: pd.DataFrame, pair: tuple[str, str]) -> dict[str, Column]:
    """How the sentence table's columns are shown, for the pair (A, B) on screen: ids and texts
    (every system's output), A's and B's sentence BLEU and length, B − A."""
    a, b = pair
    columns = {ID: Column(help=tr("Segment number (1-based line number).")),
               DOCUMENT: Column(help=tr("Document id.")),
               SOURCE: Column(help=tr("Source text."))}
    columns.update({name: Column(help=tr("Reference text."), label=reference_label(name))
                    for name in table.columns if reference_label(name)})
    columns.update({name: Column(help=tr("{system}'s output.").format(system=name), label=name)
                    for name in table.columns if bleu_column(name) in table.columns})
    for name in dict.fromkeys(pair):
        columns[bleu_column(name)] = Column(SCORE, tr(
            "Sentence BLEU of {system} (sacrebleu's sentence_bleu: effective order).").format(
            system=name), label=bleu_column(name))
    columns[DIFF] = Column(DELTA, tr("Sentence BLEU of {b} minus that of {a}.").format(a=a, b=b),
                           label=DIFF)
    columns[REF_LEN] = Column(COUNT, tr("Tokens in the segment's first reference."))
    for name in dict.fromkeys(pair):
        columns[length_column(name)] = Column(COUNT, tr("Tokens in {system}'s output.").format(
            system=name), label=tr("len {system}").format(system=name))
    return {name: column for name, column in columns.items() if name in table.columns}


@dataclass(frozen=True)
class SegmentFilter:
    """What to keep: ranges are inclusive; ``query`` is searched in ``search_columns``.

    An empty ``search_columns`` means every text column. ``ids`` keeps only those segments
    (e.g. the points selected on a chart).
    """

    score_column: str | None = None
    score_range: tuple[float, float] | None = None
    length_column: str | None = None
    length_range: tuple[int, int] | None = None
    query: str = ""
    search_columns: tuple[str, ...] = ()
    regex: bool = False
    case_sensitive: bool = False
    ids: tuple[int, ...] | None = None


def _require(table: pd.DataFrame, column: str, what: str) -> None:
    if column not in table.columns:
        raise UnknownColumnError(tr(
            "The {what} column {column!r} is not in the sentence table; it has: {columns}."
        ).format(what=tr(what), column=column, columns=", ".join(map(str, table.columns))))


def compile_pattern(query: str, case_sensitive: bool) -> re.Pattern[str]:
    """The regular expression of a search, or a ``BadPatternError`` saying what is wrong."""
    try:
        return re.compile(query, 0 if case_sensitive else re.IGNORECASE)
    except re.error as error:
        raise BadPatternError(tr(
            "The search pattern {query!r} is not a valid regular expression: {error} at "
            "position {position}. Fix it, or turn off 'regex' to search for the text as "
            "typed.").format(query=query, error=error.msg, position=error.pos)) from None


def text_mask(table: pd.DataFrame, query: str, columns: Sequence[str] = (),
              regex: bool = False, case_sensitive: bool = False) -> np.ndarray:
    """Rows where any of ``columns`` (default: every text column) contains ``query``."""
    if not columns:
        columns = [c for c in table.columns if table[c].dtype == object
                   or pd.api.types.is_string_dtype(table[c])]
    for column in columns:
        _require(table, column, "search")
    mask = np.zeros(len(table), bool)
    if regex:
        pattern = compile_pattern(query, case_sensitive)
        with warnings.catch_warnings():  # pandas warns when a user's pattern has groups: harmless
            warnings.filterwarnings("ignore", "This pattern .* has match groups", UserWarning)
            for column in columns:
                mask |= table[column].astype(str).str.contains(pattern, regex=True).to_numpy(bool)
        return mask
    for column in columns:
        mask |= table[column].astype(str).str.contains(
            query, case=case_sensitive, regex=False).to_numpy(bool)
    return mask


def filter_segments(table: pd.DataFrame, spec: SegmentFilter) -> pd.DataFrame:
    """The rows of the sentence table that pass every part of ``spec``."""
    mask = np.ones(len(table), bool)
    if spec.score_column is not None and spec.score_range is not None:
        _require(table, spec.score_column, "score")
        low, high = spec.score_range
        values = table[spec.score_column].to_numpy()
        mask &= (values >= low) & (values <= high)
    if spec.length_column is not None and spec.length_range is not None:
        _require(table, spec.length_column, "length")
        low, high = spec.length_range
        values = table[spec.length_column].to_numpy()
        mask &= (values >= low) & (values <= high)
    if spec.ids is not None:
        mask &= np.isin(table[ID].to_numpy(), np.asarray(spec.ids, np.int64))
    if spec.query:
        mask &= text_mask(table, spec.query, spec.search_columns, spec.regex,
                          spec.case_sensitive)
    return table[mask]


def table_csv(table: pd.DataFrame) -> bytes:
    """The rows as UTF-8 CSV with a header, for the download button; text that a spreadsheet
    would run as a formula is neutralised (``escaping.safe_csv``)."""
    return safe_csv(table).encode("utf-8")


@dataclass(frozen=True)
class MeanVersusCorpus:
    """The mean of sentence BLEU next to corpus BLEU for one system, and why they differ."""

    system: str
    mean_sentence_bleu: float
    corpus_bleu: float
    segments: int
    without_top_match: int  # segments with no match of the highest order (smoothing decides)
    max_order: int
    smooth_method: str

    def summary(self) -> str:
        """One line with the two numbers (plain text)."""
        return tr("{system}: mean of sentence BLEU {mean}, corpus BLEU {corpus}").format(
            system=self.system, mean=SCORE.text(self.mean_sentence_bleu),
            corpus=SCORE.text(self.corpus_bleu))

    def text(self) -> str:
        """Plain-text explanation with the numbers (no markdown)."""
        return tr(
            "The mean of sentence BLEU for {system} is {mean}, but its corpus BLEU is "
            "{corpus}. Corpus BLEU first sums the n-gram matches, n-gram totals and lengths "
            "over all {segments} segments and divides once (a sum of counts), so long segments "
            "weigh more and the brevity penalty applies to the whole corpus. The mean averages "
            "one ratio per segment instead, each smoothed ({smoothing}): {unmatched} segments "
            "have no matching {order}-gram and would score 0 without smoothing.").format(
            system=self.system, mean=SCORE.text(self.mean_sentence_bleu),
            corpus=SCORE.text(self.corpus_bleu), segments=COUNT.text(self.segments),
            smoothing=self.smooth_method, unmatched=COUNT.text(self.without_top_match),
            order=self.max_order)


def mean_versus_corpus(system: str, stats: np.ndarray, options: BLEUOptions,
                       sentence: BLEUOptions | None = None) -> MeanVersusCorpus:
    """Numbers for the note that the mean of sentence BLEU is not corpus BLEU."""
    stats = np.asarray(stats)
    sentence = sentence or sentence_options(options)
    per_segment = sentence_scores(stats, sentence)
    corpus = score_from_stats(stats.sum(axis=0), options).score
    order = options.max_ngram_order
    return MeanVersusCorpus(
        system=system,
        mean_sentence_bleu=float(per_segment.mean()) if len(per_segment) else 0.0,
        corpus_bleu=corpus,
        segments=len(stats),
        without_top_match=int((stats[:, 1 + order] == 0).sum()),
        max_order=order,
        smooth_method=sentence.smooth_method,
    )

"""What every metric shares: per-segment statistics that sum to a corpus, and a scorer of sums.

A metric (BLEU, chrF, TER, a segment-score metric) turns each segment into one row of
sufficient statistics; a corpus, a bootstrap resample, an approximate-randomization trial or a
bucket is a sum of rows, and a ``StatsScorer`` turns summed rows into scores, many rows at once.
``bleu.metrics.significance`` needs nothing else to test any metric. ``Metric`` is the base of
the text metrics (as sacrebleu's ``Metric``): references given once or per call, the same
calls, the same signature rules and the same errors for each.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .._version import __version__
from ..errors import MissingReferenceError
from .checks import References, check_text_stream

#: a progress callback: called with the fraction of the work done (0..1)
Progress = Callable[[float], None]


@runtime_checkable
class StatsScorer(Protocol):
    """How a metric scores summed per-segment statistics (rows of a matrix)."""

    #: the score's name as sacrebleu prints it: ``BLEU``, ``chrF2``, ``chrF2++``, ``TER``
    name: str
    #: True where a higher score is better (False for TER)
    higher_is_better: bool
    #: True when every statistic is an integer count: sums of up to 2**24 are then exact in
    #: float32, so resample sums may be computed in any order
    integer_stats: bool
    #: True where sacrebleu sums resampled statistics in float32 one segment after the other
    #: (TER's averaged reference lengths), so ours must too; False: exact integers (BLEU,
    #: chrF) or float64 sums (segment scores, which no sacrebleu number constrains)
    float32_resamples: bool
    #: the column that says whether a segment is rated (segment scores: 1 rated, 0 not), so
    #: that a paired test leaves out segments either system lacks; None: every segment counts
    rated_column: int | None
    #: statistics per segment (the matrix's columns)
    columns: int

    def score(self, sums: np.ndarray) -> float:
        """The corpus score of one row of summed statistics, exactly as ``corpus_score``."""
        ...

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of rows of summed statistics, as the metric's ``corpus_score`` computes them
        (real scores and approximate-randomization trials)."""
        ...

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        """Scores of bootstrap-resample sums as sacrebleu computes them: from float32
        statistics (``np.array(stats, dtype="float32")[indices].sum(0)``), in the dtype
        sacrebleu's scores come out in (float32 where its arithmetic stays in float32: its
        mean and CI are then float32 computations too)."""
        ...


class Prepared(Protocol):
    """References made ready once for scoring many systems (tokenized, counted...)."""

    #: sacrebleu's ``nrefs``: references per segment, -1 where the count varies
    n_refs: int


class Metric(ABC):
    """A text metric with fixed options, as sacrebleu's ``Metric``: references given to the
    constructor are prepared once for every system scored against them; references given to
    a call are used for that call, and the signature's ``nrefs`` follows the references last
    used (as in sacrebleu).

    Subclasses give the scorer, how references are prepared and matched, and the signature;
    ``corpus_score``, ``segment_stats``, ``sentence_scores``, ``get_signature`` and
    ``signature`` are the same for every metric.
    """

    def __init__(self, scorer: StatsScorer, references: References | None) -> None:
        #: the scorer of summed statistics (significance tests, sentence scores)
        self.scorer = scorer
        self._references = self._prepare(references) if references is not None else None
        #: sacrebleu's ``nrefs`` of the references last used (-1: it varies); None before any
        self.n_refs: int | None = (self._references.n_refs
                                   if self._references is not None else None)

    @property
    def name(self) -> str:
        """The score's name as sacrebleu prints it (``BLEU``, ``chrF2``, ``TER``)."""
        return self.scorer.name

    @property
    def higher_is_better(self) -> bool:
        return self.scorer.higher_is_better

    @abstractmethod
    def _prepare(self, references: References, n_segments: int | None = None) -> Prepared:
        """The references checked and made ready (``n_segments``: the hypotheses' count)."""

    @abstractmethod
    def _stats(self, hypotheses: Sequence[str], references: Prepared) -> np.ndarray:
        """The statistics matrix of ``hypotheses`` against prepared references."""

    @abstractmethod
    def _signature(self, n_refs: int, **resampling: Any) -> Signature:
        """sacrebleu's signature of this metric for ``n_refs`` references per segment."""

    @abstractmethod
    def score_stats(self, stats: np.ndarray) -> Any:
        """The corpus score object of a statistics matrix (its rows summed)."""

    @abstractmethod
    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Any:
        """The score object of one segment against its references (a list of strings)."""

    def _stats_once(self, hypotheses: Sequence[str], references: References,
                    ) -> tuple[np.ndarray, int]:
        """The statistics against references used this once, and their ``nrefs``."""
        check_text_stream(hypotheses, "hypotheses")
        prepared = self._prepare(references, len(hypotheses))
        return self._stats(hypotheses, prepared), prepared.n_refs

    def segment_stats(self, hypotheses: Sequence[str], references: References | None = None,
                      ) -> np.ndarray:
        """One row of statistics per segment, against ``references`` (streams) or, with None,
        the constructor's."""
        if references is not None:
            matrix, self.n_refs = self._stats_once(hypotheses, references)
            return matrix
        if self._references is None:
            raise MissingReferenceError(
                f"No references given, and none were given to "
                f"{type(self).__name__}(references=...).")
        return self._stats(hypotheses, self._references)

    def corpus_score(self, hypotheses: Sequence[str], references: References | None = None,
                     ) -> Any:
        """The corpus score; ``references`` (streams) None uses the constructor's."""
        return self.score_stats(self.segment_stats(hypotheses, references))

    def sentence_scores(self, hypotheses: Sequence[str], references: References | None = None,
                        ) -> np.ndarray:
        """Every segment's sentence score at once, from its row of statistics."""
        return self.scorer.scores(self.segment_stats(hypotheses, references))

    def get_signature(self, **resampling: Any) -> Signature:
        """The signature object (sacrebleu's ``get_signature``), once references are known;
        ``resampling`` adds a test's or CI's ``bs``, ``ar`` and ``seed``."""
        if self.n_refs is None:
            raise ValueError(f"The number of references is unknown: score something first, or "
                             f"give the references to {type(self).__name__}(references=...).")
        return self._signature(self.n_refs, **resampling)

    @property
    def signature(self) -> str:
        """sacrebleu's signature string, ``version:`` naming this package."""
        return self.get_signature().format()


@dataclass(frozen=True)
class SignificanceResult:
    """One system's score and what resampling says of it: the bootstrap mean and 95% interval,
    and a paired test's p-value against the baseline.

    ``ci`` is the interval's half-width as sacrebleu reports it (``mean ± ci``); ``low`` and
    ``high`` are its ends (the resamples' 2.5th and 97.5th percentiles). ``p_value`` is None for
    the baseline and where no paired test ran; ``mean``, ``ci``, ``low``, ``high`` are None
    where no bootstrap ran. ``n_segments`` is the segments tested for segment scores (those
    rated for the system and, in a paired test, the baseline); None where all were.
    """

    name: str
    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    low: float | None = None
    high: float | None = None
    n_segments: int | None = None


class ScoreText:
    """sacrebleu's text and JSON for a score object with ``name`` and ``score`` (chrF, TER)."""

    name: str
    score: float

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False, interval: SignificanceResult | None = None) -> str:
        """sacrebleu's text (``chrF2 = 48.34``, ``TER|nrefs:1|... = 49.95``) or its JSON;
        ``interval`` (a bootstrap's mean and CI) adds ``(μ = mean ± ci)`` as sacrebleu does.
        Unlike sacrebleu, JSON without a signature works (sacrebleu raises ValueError)."""
        return format_score(self.name, self.score, width, score_only, signature, is_json,
                            interval=interval)

    def __str__(self) -> str:
        return self.format()


def format_score(name: str, score: float, width: int = 2, score_only: bool = False,
                 signature: str = "", is_json: bool = False, verbose: str = "",
                 interval: SignificanceResult | None = None, *, any_sign: bool = False,
                 note: str = "", fields: Mapping[str, object] | None = None) -> str:
    """A score as sacrebleu prints it: ``NAME|signature = 22.67 (μ = .. ± ..) verbose`` or its
    JSON (the signature's fields as keys too); the interval appears where its mean is > 0, as
    in sacrebleu, or whatever its sign with ``any_sign`` (segment scores, often negative).
    ``note`` ends the text line and ``fields`` the JSON object (ours, not sacrebleu's)."""
    text = f"{score:.{width}f}"
    record: dict[str, object] = {"name": name, "score": float(text), "signature": signature}
    if interval is not None and interval.mean is not None and interval.ci is not None \
            and (any_sign or interval.mean > 0):
        mean, ci = f"{interval.mean:.{width}f}", f"{interval.ci:.{width}f}"
        text += f" (μ = {mean} ± {ci})"
        record.update(confidence_mean=float(mean), confidence_var=float(ci),
                      confidence=f"μ = {mean} ± {ci}")
    if verbose:
        record["verbose_score"] = verbose
    if score_only:
        return text
    if is_json:
        for part in signature.split("|") if signature else ():
            key, value = part.split(":", 1)
            record[key] = value
        record.update(fields or {})
        import json  # loaded here: text output (the default) does not need it

        return json.dumps(record, indent=1, ensure_ascii=False)
    head = f"{name}|{signature}" if signature else name
    return f"{head} = {text}" + "".join(f" {part}" for part in (verbose, note) if part)


#: short names of the fields every sacrebleu signature shares
_COMMON_SHORT = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "version": "v"}


@dataclass(frozen=True)
class Signature:
    """A metric's reproducibility signature as sacrebleu prints it: ``nrefs``, then the
    resampling fields of a test or CI (``bs``, ``ar``, ``seed``), then the metric's own fields,
    and ``version`` (naming this package) last; ``format(short=True)`` abbreviates the names."""

    fields: tuple[tuple[str, str], ...]
    short_names: tuple[tuple[str, str], ...]

    @classmethod
    def build(cls, n_refs: int, own: Sequence[tuple[str, Any]], short_names: Mapping[str, str],
              **resampling: Any) -> Signature:
        """``n_refs`` -1 (references per segment vary) prints as ``var``."""
        values: list[tuple[str, Any]] = [("nrefs", "var" if n_refs == -1 else n_refs)]
        values += [(key, resampling[key]) for key in ("bs", "ar", "seed")
                   if resampling.get(key) is not None]
        values += [*own, ("version", f"bleu-explorer-{__version__}")]
        return cls(tuple((key, str(value)) for key, value in values),
                   tuple({**_COMMON_SHORT, **short_names}.items()))

    def with_resampling(self, **resampling: Any) -> Signature:
        """The same signature with a test's or CI's ``bs``, ``ar`` and ``seed`` fields where
        sacrebleu puts them (after ``nrefs``); fields it had already are replaced."""
        added = [(key, str(resampling[key])) for key in ("bs", "ar", "seed")
                 if resampling.get(key) is not None]
        kept = [field for field in self.fields[1:] if field[0] not in ("bs", "ar", "seed")]
        return Signature((self.fields[0], *added, *kept), self.short_names)

    def format(self, short: bool = False) -> str:
        names = dict(self.short_names) if short else {}
        return "|".join(f"{names.get(key, key)}:{value}" for key, value in self.fields)

    def __str__(self) -> str:
        return self.format()

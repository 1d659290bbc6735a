"""What every metric shares: per-segment statistics that sum to a corpus, and a scorer of sums.

A metric (BLEU, chrF, TER) turns each segment into one row of sufficient statistics; a corpus,
a bootstrap resample, an approximate-randomization trial or a bucket is a sum of rows, and a
``StatsScorer`` turns summed rows into scores, many rows at once. ``bleu.metrics.significance``
needs nothing else to test any metric.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .._version import __version__

#: a progress callback: called with the fraction of the work done (0..1)
Progress = Callable[[float], None]


class StatsScorer(Protocol):
    """How a metric scores summed per-segment statistics (rows of a matrix)."""

    #: the score's name as sacrebleu prints it: ``BLEU``, ``chrF2``, ``chrF2++``, ``TER``
    name: str
    #: True where a higher score is better (False for TER)
    higher_is_better: bool
    #: True when every statistic is an integer count: sums of up to 2**24 are then exact in
    #: float32, so resample sums may be computed in any order
    integer_stats: bool
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


@dataclass(frozen=True)
class SignificanceResult:
    """One system's score and what resampling says of it: the bootstrap mean and 95% interval,
    and a paired test's p-value against the baseline.

    ``ci`` is the interval's half-width as sacrebleu reports it (``mean ± ci``); ``low`` and
    ``high`` are its ends (the resamples' 2.5th and 97.5th percentiles). ``p_value`` is None for
    the baseline and where no paired test ran; ``mean``, ``ci``, ``low``, ``high`` are None
    where no bootstrap ran.
    """

    name: str
    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    low: float | None = None
    high: float | None = None


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
                 interval: SignificanceResult | None = None) -> str:
    """A score as sacrebleu prints it: ``NAME|signature = 22.67 (μ = .. ± ..) verbose`` or its
    JSON (the signature's fields as keys too); the interval appears where its mean is > 0."""
    text = f"{score:.{width}f}"
    record: dict[str, object] = {"name": name, "score": float(text), "signature": signature}
    if interval is not None and interval.mean is not None and interval.ci is not None \
            and interval.mean > 0:
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
        import json  # loaded here: text output (the default) does not need it

        return json.dumps(record, indent=1, ensure_ascii=False)
    head = f"{name}|{signature}" if signature else name
    return f"{head} = {text}" + (f" {verbose}" if verbose else "")


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

    def format(self, short: bool = False) -> str:
        names = dict(self.short_names) if short else {}
        return "|".join(f"{names.get(key, key)}:{value}" for key, value in self.fields)

    def __str__(self) -> str:
        return self.format()

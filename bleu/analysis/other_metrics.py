"""chrF, chrF++ and TER beside BLEU, computed by sacrebleu's own metric classes (its numbers).

sacrebleu is a runtime dependency for these metrics only. Each system's per-segment statistics
(sacrebleu's sufficient statistics: chrF's n-gram matches and totals, TER's edits and reference
length) are extracted once, in chunks of segments (so a caller can show progress), and cached
on content; corpus scores, sentence scores and the paired bootstrap are all computed from them,
with sacrebleu's scoring functions and its resampling scheme (seed 12345, float32 sums).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sacrebleu.metrics import CHRF, TER
from sacrebleu.metrics.base import Metric
from sacrebleu.significance import _compute_p_value, estimate_ci

from ..errors import InputError, LengthMismatchError, MissingReferenceError, UnknownOptionError

#: the metrics this module computes, in display order
METRICS = ("chrF", "chrF++", "TER")
#: True where a higher score is better
HIGHER_IS_BETTER = {"chrF": True, "chrF++": True, "TER": False}
CHUNK_SEGMENTS = 256
CACHE_ENTRIES = 256
DEFAULT_SEED = 12345

References = Sequence[Sequence[str | None]]
#: called with (segments done, segments in all) after each chunk
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MetricResult:
    """One system's corpus score, per-segment scores and statistics for one metric."""

    metric: str
    system: str
    score: float
    sentence_scores: np.ndarray
    stats: np.ndarray
    signature: str


@dataclass(frozen=True)
class MetricSignificance:
    """Paired bootstrap against a baseline, as sacrebleu's ``--paired-bs`` prints it."""

    score: float
    mean: float
    ci: float
    p_value: float | None


def make_metric(name: str, *, lowercase: bool = False,
                references: References | None = None) -> Metric:
    """The sacrebleu metric object for ``name`` (sacrebleu's defaults; ``lowercase`` as BLEU's)."""
    if name == "chrF":
        return CHRF(lowercase=lowercase, references=references)
    if name == "chrF++":
        return CHRF(word_order=2, lowercase=lowercase, references=references)
    if name == "TER":
        return TER(case_sensitive=not lowercase, references=references)
    raise UnknownOptionError(f"Unknown metric {name!r}: expected one of {', '.join(METRICS)}.")


def _check(systems: Mapping[str, Sequence[str]], references: References) -> int:
    if not references:
        raise InputError("Expected at least one reference stream, found none.")
    n = len(references[0])
    for k, stream in enumerate(references):
        if len(stream) != n:
            raise LengthMismatchError(f"Reference stream {k + 1} has {len(stream)} segments, "
                                      f"reference stream 1 has {n}.")
    for name, hyps in systems.items():
        if len(hyps) != n:
            raise LengthMismatchError(f"System {name!r} has {len(hyps)} segments, the "
                                      f"references have {n}.")
    for i in range(n):
        if all(stream[i] is None for stream in references):
            raise MissingReferenceError(f"Segment {i + 1} has no reference in any stream.")
    return n


def n_refs(references: References) -> int:
    """References per segment, as sacrebleu's signature counts them (-1 where it varies)."""
    counts = {sum(stream[i] is not None for stream in references)
              for i in range(len(references[0]))}
    return counts.pop() if len(counts) == 1 else -1


def metric_signature(name: str, references: References, *, lowercase: bool = False,
                     n_samples: int | None = None, seed: int = DEFAULT_SEED) -> str:
    """sacrebleu's signature of ``name`` for these references, e.g. ``nrefs:2|case:mixed|...``.

    With ``n_samples``, the paired bootstrap's ``bs:`` and ``seed:`` fields are included.
    """
    metric = make_metric(name, lowercase=lowercase)
    metric.num_refs = n_refs(references)
    if n_samples is not None:
        metric.n_bootstrap, metric.seed = n_samples, seed
    return metric.get_signature().format()


def content_key(hypotheses: Sequence[str], references: References) -> str:
    """A hash of a system's text and its references: the cache key of its statistics."""
    digest = hashlib.blake2b(digest_size=16)
    for stream in (hypotheses, *references):
        for line in stream:
            digest.update(b"\x00" if line is None else line.encode("utf-8", "surrogatepass"))
            digest.update(b"\x01")
        digest.update(b"\x02")
    return digest.hexdigest()


_CACHE: OrderedDict[tuple[str, bool, str], np.ndarray] = OrderedDict()


def _remember(key: tuple[str, bool, str], stats: np.ndarray) -> None:
    _CACHE[key] = stats
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_ENTRIES:
        _CACHE.popitem(last=False)


def chunk_statistics(name: str, systems: Mapping[str, Sequence[str]], references: References,
                     *, lowercase: bool = False) -> dict[str, np.ndarray]:
    """sacrebleu's statistics of a chunk of segments for every system (references read once)."""
    metric = make_metric(name, lowercase=lowercase,
                         references=[list(stream) for stream in references])
    dtype = np.float64 if name == "TER" else np.int64
    out = {}
    for system, hyps in systems.items():
        rows = metric._extract_corpus_statistics(list(hyps), None)
        out[system] = np.array(rows, dtype=dtype).reshape(len(hyps), -1)
    return out


def _extract(name: str, systems: Mapping[str, Sequence[str]], references: References,
             lowercase: bool, chunk: int, progress: Progress | None) -> dict[str, np.ndarray]:
    """Statistics of every system, chunk by chunk."""
    n = len(references[0])
    parts: dict[str, list[np.ndarray]] = {system: [] for system in systems}
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        found = chunk_statistics(name, {system: hyps[start:stop]
                                        for system, hyps in systems.items()},
                                 [stream[start:stop] for stream in references],
                                 lowercase=lowercase)
        for system, matrix in found.items():
            parts[system].append(matrix)
        if progress is not None:
            progress(stop, n)
    out = {}
    for system, matrices in parts.items():
        matrix = np.concatenate(matrices)
        matrix.setflags(write=False)
        out[system] = matrix
    return out


def segment_statistics(name: str, systems: Mapping[str, Sequence[str]], references: References,
                       *, lowercase: bool = False, chunk: int = CHUNK_SEGMENTS,
                       progress: Progress | None = None) -> dict[str, np.ndarray]:
    """sacrebleu's per-segment statistics of ``name`` for each system (cached on content)."""
    make_metric(name)
    _check(systems, references)
    keys = {system: (name, lowercase, content_key(hyps, references))
            for system, hyps in systems.items()}
    missing = {system: hyps for system, hyps in systems.items() if keys[system] not in _CACHE}
    if missing:
        for system, stats in _extract(name, missing, references, lowercase, chunk,
                                      progress).items():
            _remember(keys[system], stats)
    elif progress is not None:
        progress(len(references[0]), len(references[0]))
    return {system: _CACHE[keys[system]] for system in systems}


def scores_from_stats(name: str, stats: np.ndarray, *,
                      lowercase: bool = False) -> tuple[float, np.ndarray]:
    """The corpus score and every sentence score from per-segment statistics, as sacrebleu's."""
    metric = make_metric(name, lowercase=lowercase)
    rows = np.asarray(stats).tolist()
    corpus = metric._aggregate_and_compute(rows).score
    sentences = np.array([metric._aggregate_and_compute([row]).score for row in rows])
    sentences.setflags(write=False)
    return float(corpus), sentences


def results_from_stats(name: str, stats: Mapping[str, np.ndarray], references: References, *,
                       lowercase: bool = False) -> dict[str, MetricResult]:
    """Corpus and sentence scores of every system from its statistics, with the signature."""
    sig = metric_signature(name, references, lowercase=lowercase)
    out = {}
    for system, matrix in stats.items():
        corpus, sentences = scores_from_stats(name, matrix, lowercase=lowercase)
        out[system] = MetricResult(name, system, corpus, sentences, matrix, sig)
    return out


def score_systems(name: str, systems: Mapping[str, Sequence[str]], references: References, *,
                  lowercase: bool = False, chunk: int = CHUNK_SEGMENTS,
                  progress: Progress | None = None) -> dict[str, MetricResult]:
    """Corpus and sentence scores of ``name`` for every system, with sacrebleu's signature."""
    stats = segment_statistics(name, systems, references, lowercase=lowercase, chunk=chunk,
                               progress=progress)
    return results_from_stats(name, stats, references, lowercase=lowercase)


def corpus_score(name: str, hypotheses: Sequence[str], references: References, *,
                 lowercase: bool = False) -> float:
    """One system's corpus score of ``name`` (sacrebleu's ``corpus_score(...).score``)."""
    return score_systems(name, {"system": hypotheses}, references,
                         lowercase=lowercase)["system"].score


def _resampled(metric: Metric, stats: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Scores of the bootstrap resamples, summed in float32 as sacrebleu sums them."""
    values = np.asarray(stats, dtype="float32")
    return np.array([metric._compute_score_from_stats(values[row].sum(0)).score
                     for row in indices])


def paired_bootstrap(results: Mapping[str, MetricResult], *, baseline: str | None = None,
                     n_samples: int = 1000, seed: int = DEFAULT_SEED,
                     lowercase: bool = False) -> dict[str, MetricSignificance]:
    """sacrebleu's paired bootstrap (``PairedTest(test_type="bs")``) from cached statistics.

    Every system is resampled with the same indices (sacrebleu seeds one generator per system
    with the same seed); with no baseline, or one system, only the mean and CI are computed.
    """
    if not results:
        raise InputError("Expected at least one system's scores, found none.")
    if baseline is not None and baseline not in results:
        raise InputError(f"The baseline {baseline!r} is not one of the systems: "
                         f"{list(results)}.")
    if n_samples < 1:
        raise InputError(f"Expected at least 1 resample, found n_samples={n_samples}.")
    first = next(iter(results.values()))
    metric = make_metric(first.metric, lowercase=lowercase)
    n = len(first.stats)
    indices = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    resampled = {system: _resampled(metric, result.stats, indices)
                 for system, result in results.items()}
    out = {}
    for system, result in results.items():
        mean, ci = estimate_ci(resampled[system])
        p_value = None
        if baseline is not None and system != baseline and len(results) > 1:
            diffs = np.abs(resampled[system] - resampled[baseline])
            real = abs(results[baseline].score - result.score)
            p_value = float(_compute_p_value(diffs - diffs.mean(), real))
        out[system] = MetricSignificance(result.score, float(mean), float(ci), p_value)
    return out


def significance_table(other: Mapping[str, Mapping[str, MetricSignificance]]) -> pd.DataFrame:
    """One row per system: each metric's score, bootstrap mean (``μ``), 95% CI half-width
    (``±``) and p-value against the baseline (``p``); what the dashboard and the report show."""
    systems = list(dict.fromkeys(name for by_system in other.values() for name in by_system))
    rows = []
    for system in systems:
        row: dict[str, object] = {"system": system}
        for metric, by_system in other.items():
            result = by_system.get(system)
            if result is None:
                continue
            row[metric] = result.score
            row[f"{metric} μ"] = result.mean
            row[f"{metric} ±"] = result.ci
            row[f"{metric} p"] = result.p_value
        rows.append(row)
    return pd.DataFrame(rows)

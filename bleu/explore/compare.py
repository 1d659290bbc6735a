"""What decides system A versus system B: paired tests, contributions, n-gram differences,
buckets, documents.

Everything BLEU-valued is a sum of statistics-matrix rows scored with ``scores_from_stats``:
leaving a segment out subtracts its row, swapping in B's output adds B's row instead, and a
bucket or a document is the sum of its rows. N-gram and word counts use integer ids and numpy.
The paired tests work for any metric's statistics (``StatsScorer``): the difference's interval
is a bootstrap of A − B on the very resamples of the paired bootstrap (same seed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..display.formatting import COUNT, DELTA, LEVEL, P_VALUE, PLAIN, SCORE, Column, score_formats
from ..errors import InputError, LengthMismatchError
from ..evaluation.ranking import ALPHA
from ..i18n import N_, tr
from ..metrics.base import StatsScorer
from ..metrics.bleu.clipping import credited, lookup, reference_max
from ..metrics.bleu.engine import words
from ..metrics.bleu.score import BLEUOptions, scores_from_stats
from ..metrics.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    PairedTTest,
    as_scorer,
    bootstrap_ci_from_stats,
    paired_ar_from_stats,
    paired_bootstrap_from_stats,
    paired_t_test,
)

_SHIFT = np.int64(32)
_LOW = np.int64((1 << 32) - 1)

#: compare-mt's default cutoffs (value < cutoff[i] goes to bucket i; the rest to the last one)
LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_CUTOFFS = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
SENTENCE_BLEU_CUTOFFS = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)

#: the contribution table's columns (``contributions``)
LOO_A, LOO_B, LOO_GAP, SWAP = (N_("A without it"), N_("B without it"), N_("gap change"),
                               N_("swap to B"))


def contribution_columns(metric: str = "BLEU") -> dict[str, Column]:
    """How ``contributions``' columns are shown for ``metric``: format and help."""
    return {
        "id": Column(help=tr("Segment number (1-based line number).")),
        LOO_A: Column(DELTA, tr("A's corpus {metric} without this segment, minus A's corpus "
                                "{metric}.").format(metric=metric)),
        LOO_B: Column(DELTA, tr("B's corpus {metric} without this segment, minus B's corpus "
                                "{metric}.").format(metric=metric)),
        LOO_GAP: Column(DELTA, tr("How the gap A − B changes without this segment (A without it "
                               "− B without it).")),
        SWAP: Column(DELTA, tr("How A's corpus {metric} changes if this one segment took B's "
                               "output (with a higher-is-better metric, negative: A's output is "
                               "the better one there).").format(metric=metric)),
    }
#: the n-gram tables' columns (``ngram_differences``)
MATCHED_A, MATCHED_B, DIFFERENCE, IN_A, IN_B = (N_("matched A"), N_("matched B"),
                                                 N_("difference"), N_("in A"), N_("in B"))
NGRAM_COLUMNS = {
    "ngram": Column(help=tr("The n-gram, as tokenized for BLEU."), label=N_("n-gram")),
    "order": Column(help=tr("n: words in the n-gram."), label=N_("order")),
    MATCHED_A: Column(COUNT, tr("Clipped matches credited to A, summed over the segments.")),
    MATCHED_B: Column(COUNT, tr("Clipped matches credited to B, summed over the segments.")),
    DIFFERENCE: Column(COUNT, tr("matched A − matched B.")),
    IN_A: Column(COUNT, tr("Occurrences in A's output, matched or not.")),
    IN_B: Column(COUNT, tr("Occurrences in B's output, matched or not.")),
}


def _check_pair(stats_a: np.ndarray, stats_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    stats_a, stats_b = np.asarray(stats_a), np.asarray(stats_b)
    if stats_a.shape != stats_b.shape:
        raise LengthMismatchError(
            f"The statistics of A have shape {stats_a.shape} and those of B {stats_b.shape}; "
            "both systems must be scored on the same segments with the same options."
        )
    return stats_a, stats_b


def contributions(stats_a: np.ndarray, stats_b: np.ndarray,
                  metric: BLEUOptions | StatsScorer) -> pd.DataFrame:
    """Per segment: the corpus score's change when it is left out, and A's change when it takes
    B's output, for BLEU (its options) or any metric's scorer.

    Columns (``contribution_columns``): ``id`` (1-based), ``LOO_A`` and ``LOO_B`` (the score
    without the segment minus the score), ``LOO_GAP`` (change of A − B when the segment is left
    out), ``SWAP`` (A's score with this segment from B, minus A's score: negative where A's
    output is the better one, for a higher-is-better metric). Segment scores leave a segment
    one system lacks out of that system's mean.
    """
    scorer = as_scorer(metric)
    stats_a, stats_b = _check_pair(stats_a, stats_b)
    total_a, total_b = stats_a.sum(axis=0), stats_b.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        base_a, base_b = scorer.scores(np.stack([total_a, total_b]))
        loo_a = scorer.scores(total_a[None, :] - stats_a) - base_a
        loo_b = scorer.scores(total_b[None, :] - stats_b) - base_b
        swap = scorer.scores(total_a[None, :] - stats_a + stats_b) - base_a
    return pd.DataFrame({
        "id": np.arange(1, len(stats_a) + 1), LOO_A: loo_a, LOO_B: loo_b,
        LOO_GAP: loo_a - loo_b, SWAP: swap,
    })


def deciding_segments(frame: pd.DataFrame, k: int = 20, by: str = SWAP) -> pd.DataFrame:
    """The ``k`` segments whose ``by`` column (default: swap delta) is largest in absolute value."""
    if by not in frame.columns:
        raise InputError(f"Cannot rank by {by!r}: the columns are {', '.join(frame.columns)}.")
    order = np.argsort(-np.abs(frame[by].to_numpy()), kind="stable")[:k]
    return frame.iloc[order]


# --- paired tests ----------------------------------------------------------------------


@dataclass(frozen=True)
class DifferenceScorer:
    """A metric's score of A minus its score of B, from both statistics side by side (each row
    ``[A's row | B's row]``): a bootstrap of it is the interval of the difference."""

    inner: StatsScorer

    @property
    def name(self) -> str:
        return f"{self.inner.name} A − B"

    @property
    def higher_is_better(self) -> bool:
        return self.inner.higher_is_better

    @property
    def integer_stats(self) -> bool:
        return self.inner.integer_stats

    @property
    def float32_resamples(self) -> bool:
        return self.inner.float32_resamples

    #: rows are segments rated for both systems already (``paired_comparison`` keeps those)
    rated_column: int | None = None

    @property
    def columns(self) -> int:
        return 2 * self.inner.columns

    def score(self, sums: np.ndarray) -> float:
        k = self.inner.columns
        return self.inner.score(sums[:k]) - self.inner.score(sums[k:])

    def scores(self, sums: np.ndarray) -> np.ndarray:
        k = self.inner.columns
        return self.inner.scores(sums[:, :k]) - self.inner.scores(sums[:, k:])

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        k = self.inner.columns
        return self.inner.resample_scores(sums[:, :k]) - self.inner.resample_scores(sums[:, k:])


@dataclass(frozen=True)
class PairedComparison:
    """A against B on one metric: both scores, A − B with the 95% bootstrap interval of the
    difference, and the p-values of the paired bootstrap and of approximate randomization
    (sacrebleu's ``--paired-bs`` and ``--paired-ar`` with A as the baseline)."""

    metric: str
    higher_is_better: bool
    score_a: float
    score_b: float
    low: float
    high: float
    p_bootstrap: float
    p_ar: float
    n_bootstrap: int
    n_ar: int
    seed: int
    #: segment scores: the segments rated for both systems (what the tests used), the paired
    #: t-test comet-compare reports; None for text metrics, which test every segment
    n_segments: int | None = None
    t_test: PairedTTest | None = None

    @property
    def delta(self) -> float:
        return self.score_a - self.score_b

    def verdict(self, a: str = "A", b: str = "B", alpha: float = ALPHA) -> str:
        """Which system is better, and by which tests (p < ``alpha``), or "not significant"
        (in the interface language)."""
        tests = [name for name, p in (("bootstrap", self.p_bootstrap), ("AR", self.p_ar))
                 if p < alpha]
        if not tests:
            return tr("not significant")
        a_ahead = self.delta > 0 if self.higher_is_better else self.delta < 0
        winner = a if a_ahead else b
        if len(tests) == 2:
            return tr("{system} better").format(system=winner)
        return tr("{system} better ({test} only)").format(system=winner, test=tests[0])


def paired_comparison(stats_a: np.ndarray, stats_b: np.ndarray,
                      metric: BLEUOptions | StatsScorer, *, n_bootstrap: int = 1000,
                      n_ar: int = DEFAULT_SAMPLES["ar"], seed: int = DEFAULT_SEED,
                      ) -> PairedComparison:
    """Test A against B on one metric (BLEU's options or any ``StatsScorer``).

    The p-values are those of ``paired_bootstrap_from_stats`` and ``paired_ar_from_stats``
    with A as the baseline; the interval of A − B comes from the same bootstrap resamples.
    """
    scorer = as_scorer(metric)
    stats_a, stats_b = _check_pair(stats_a, stats_b)
    pair = {"A": stats_a, "B": stats_b}
    bootstrap = paired_bootstrap_from_stats(pair, scorer, baseline="A", n_samples=n_bootstrap,
                                            seed=seed)
    randomized = paired_ar_from_stats(pair, scorer, baseline="A", n_samples=n_ar, seed=seed)
    joint = _jointly_rated(scorer, stats_a, stats_b)
    difference = bootstrap_ci_from_stats(np.hstack([stats_a, stats_b])[joint],
                                         DifferenceScorer(scorer), n_samples=n_bootstrap,
                                         seed=seed)
    rated = scorer.rated_column is not None
    return PairedComparison(
        metric=scorer.name, higher_is_better=scorer.higher_is_better,
        score_a=bootstrap["A"].score, score_b=bootstrap["B"].score,
        low=float(difference.low), high=float(difference.high),
        p_bootstrap=float(bootstrap["B"].p_value), p_ar=float(randomized["B"].p_value),
        n_bootstrap=n_bootstrap, n_ar=n_ar, seed=seed,
        n_segments=int(joint.sum()) if rated else None,
        t_test=paired_t_test(stats_a, stats_b, scorer) if rated else None)


def _jointly_rated(scorer: StatsScorer, stats_a: np.ndarray, stats_b: np.ndarray) -> np.ndarray:
    """The segments both systems are rated on (every segment for text metrics)."""
    column = scorer.rated_column
    if column is None:
        return np.ones(len(stats_a), bool)
    return (np.asarray(stats_a)[:, column] > 0) & (np.asarray(stats_b)[:, column] > 0)


def paired_columns(a: str, b: str) -> dict[str, Column]:
    """How ``paired_table``'s columns are shown: format and help."""
    return {
        "metric": Column(help=tr("TER, MetricX and MQM penalties: lower is better; the others: "
                                 "higher is better."), label=tr("metric")),
        a: Column(SCORE, tr("Corpus score of {system} (A).").format(system=a), label=a),
        b: Column(SCORE, tr("Corpus score of {system} (B).").format(system=b), label=b),
        "A − B": Column(DELTA, tr("Score of A minus score of B.")),
        "95% CI": Column(help=tr("95% bootstrap interval of A − B (the paired bootstrap's "
                                 "resamples)."), label=tr("95% CI")),
        "p (bootstrap)": Column(P_VALUE, tr("Paired bootstrap resampling (Koehn 2004), as "
                                            "sacrebleu --paired-bs."), label=tr("p (bootstrap)")),
        "p (AR)": Column(P_VALUE, tr("Approximate randomization (Riezler & Maxwell 2005), as "
                                  "sacrebleu --paired-ar.")),
        "p (t-test)": Column(P_VALUE, tr("Segment scores: Student's paired t-test of the segment "
                                      "scores, as comet-compare reports it (– for metrics of "
                                         "the text: their corpus score is not a mean)."),
                                label=tr("p (t-test)")),
        "segments": Column(COUNT, tr("Segments tested: for segment scores, those rated for "
                                     "both systems."), label=tr("segments")),
        "verdict": Column(help=tr("Which system is better at p < {level}, and by which "
                                  "tests.").format(level=LEVEL.text(ALPHA)), label=tr("verdict")),
    }


def paired_table(results: Sequence[PairedComparison], a: str, b: str,
                 n_segments: int | None = None) -> pd.DataFrame:
    """One row per metric: both scores and A − B with its 95% interval (written by that
    metric's rule: 2 decimals for BLEU, 4 for a 0..1 score such as COMET), the p-values, the
    segments tested (``n_segments`` for metrics that test every one), the verdict."""
    rows = []
    for found in results:
        score, delta = score_formats((found.score_a, found.score_b))
        rows.append({
            "metric": found.metric, a: score.text(found.score_a), b: score.text(found.score_b),
            "A − B": delta.text(found.delta),
            "95% CI": f"[{delta.text(found.low)}, {delta.text(found.high)}]",
            "p (bootstrap)": found.p_bootstrap, "p (AR)": found.p_ar,
            "p (t-test)": None if found.t_test is None else found.t_test.p_value,
            "segments": found.n_segments if found.n_segments is not None else n_segments,
            "verdict": found.verdict(a, b)})
    return pd.DataFrame(rows, columns=list(paired_columns(a, b))).astype(
        {"p (t-test)": "float64"})


def winners(results: Sequence[PairedComparison], alpha: float = ALPHA) -> dict[str, list[str]]:
    """The metrics by the system they find significantly better (bootstrap p < ``alpha``):
    ``{"A": [...], "B": [...]}``."""
    found: dict[str, list[str]] = {"A": [], "B": []}
    for result in results:
        if result.p_bootstrap < alpha and result.delta != 0:
            a_ahead = result.delta > 0 if result.higher_is_better else result.delta < 0
            found["A" if a_ahead else "B"].append(result.metric)
    return found


def disagreement(results: Sequence[PairedComparison], a: str, b: str,
                 alpha: float = ALPHA) -> str | None:
    """A sentence saying that the metrics disagree on the winner, naming which metric finds
    which system significantly better; None when they do not disagree."""
    found = winners(results, alpha)
    if not found["A"] or not found["B"]:
        return None
    return tr("The metrics disagree on the winner: {for_a} find {a} significantly better, "
              "{for_b} find {b} significantly better (paired bootstrap, p < {alpha}). Each "
              "metric sees different qualities: look at the segments where they differ "
              "(Metrics & human scores, 'Where BLEU and another metric disagree').").format(
        for_a=", ".join(found["A"]), a=a, for_b=", ".join(found["B"]), b=b, alpha=alpha)


# --- n-gram differences -------------------------------------------------------------------


def _token_stream(lines: Sequence[str | None], options: BLEUOptions,
                  ) -> tuple[list[str], np.ndarray]:
    """All tokens of a stream, flattened, and the segment number of each token."""
    tokens = words(["" if line is None else line for line in lines], options)
    segment = np.repeat(np.arange(len(tokens.offsets) - 1, dtype=np.int64),
                        np.diff(tokens.offsets))
    return tokens.strings(), segment


def _pair_counts(segment: np.ndarray, grams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (segment, n-gram) keys, sorted, with their counts."""
    return np.unique((segment << _SHIFT) | grams, return_counts=True)


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """Distinct values, sorted (a stable sort merges already sorted runs in linear time)."""
    ordered = np.sort(values, kind="stable")
    if not len(ordered):
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


@dataclass(frozen=True)
class NgramDifferences:
    """N-grams credited more often in A than in B (``a_better``) and the reverse (``b_better``).

    Columns (``NGRAM_COLUMNS``): ``ngram``, ``order``, ``MATCHED_A``, ``MATCHED_B`` (clipped
    matches summed over segments), ``DIFFERENCE`` (matched A − matched B), ``IN_A``, ``IN_B``
    (occurrences in each output), ``segments`` (1-based ids of the segments where A and B are
    credited differently).
    """

    a_better: pd.DataFrame
    b_better: pd.DataFrame


def ngram_differences(hyps_a: Sequence[str], hyps_b: Sequence[str],
                      references: Sequence[Sequence[str | None]], options: BLEUOptions,
                      top: int = 30) -> NgramDifferences:
    """The n-grams (orders 1..N) whose clipped matches differ most between A and B."""
    n_segments = len(references[0])
    streams = [hyps_a, hyps_b, *references]
    for k, stream in enumerate(streams):
        if len(stream) != n_segments:
            raise LengthMismatchError(
                f"Stream {k + 1} of A, B and the references has {len(stream)} segments, "
                f"expected {n_segments}."
            )
    tokenized = [_token_stream(stream, options) for stream in streams]
    sizes = np.cumsum([0] + [len(words) for words, _ in tokenized])
    codes, vocabulary = pd.factorize(np.array(
        [w for words, _ in tokenized for w in words], dtype=object))
    ids = [codes[sizes[k]:sizes[k + 1]].astype(np.int64) for k in range(len(streams))]
    segs = [segment for _, segment in tokenized]
    rows = []
    grams = list(ids)  # order-1 n-gram ids are token ids, per token position
    parents: list[np.ndarray] = []  # per order >= 2: n-gram id -> packed (prefix id, last token)
    for n in range(1, options.max_ngram_order + 1):
        if n > 1:
            packed, valid = [], []
            for tokens, segment, prefix in zip(ids, segs, grams, strict=True):
                ok = np.flatnonzero(segment[: len(segment) - n + 1] == segment[n - 1 :]) \
                    if len(segment) >= n else np.zeros(0, np.int64)
                valid.append(ok)
                packed.append((prefix[ok] << _SHIFT) | tokens[ok + n - 1])
            gram_codes, uniques = pd.factorize(np.concatenate(packed))
            parents.append(np.asarray(uniques, np.int64))
            bounds = np.cumsum([0] + [len(p) for p in packed])
            grams = []
            for k, ok in enumerate(valid):
                full = np.full(len(ids[k]), -1, np.int64)
                full[ok] = gram_codes[bounds[k]:bounds[k + 1]]
                grams.append(full)
            positions = valid
        else:
            positions = [np.arange(len(t)) for t in ids]
        keyed = [_pair_counts(segs[k][p], grams[k][p]) for k, p in enumerate(positions)]
        ref_keys, max_counts = reference_max(
            np.concatenate([keys for keys, _ in keyed[2:]]),
            np.concatenate([counts for _, counts in keyed[2:]]))
        (keys_a, count_a), (keys_b, count_b) = keyed[0], keyed[1]
        credit_a = credited(count_a, lookup(keys_a, ref_keys, max_counts))
        credit_b = credited(count_b, lookup(keys_b, ref_keys, max_counts))
        rows.append(_order_frame(n, keys_a, count_a, credit_a, keys_b, count_b, credit_b,
                                 top))
    table = pd.concat(rows, ignore_index=True)
    table["ngram"] = [_gram_text(int(g), n, vocabulary, parents)
                      for g, n in zip(table["gram"], table["order"], strict=True)]
    table = table.drop(columns="gram")[[*NGRAM_COLUMNS, "segments"]]
    a_better = table[table[DIFFERENCE] > 0].sort_values([DIFFERENCE, "order"],
                                                        ascending=[False, True])
    b_better = table[table[DIFFERENCE] < 0].sort_values([DIFFERENCE, "order"],
                                                        ascending=[True, True])
    return NgramDifferences(a_better.head(top).reset_index(drop=True),
                            b_better.head(top).reset_index(drop=True))


def _order_frame(n: int, keys_a: np.ndarray, count_a: np.ndarray, credit_a: np.ndarray,
                 keys_b: np.ndarray, count_b: np.ndarray, credit_b: np.ndarray,
                 top: int) -> pd.DataFrame:
    """The ``top`` n-grams of one order in each direction, with the segments that differ."""
    keys = _sorted_unique(np.concatenate([keys_a, keys_b]))
    cred_a, cred_b = lookup(keys, keys_a, credit_a), lookup(keys, keys_b, credit_b)
    occ_a, occ_b = lookup(keys, keys_a, count_a), lookup(keys, keys_b, count_b)
    gram = keys & _LOW
    size = int(gram.max()) + 1 if len(gram) else 0
    matched_a = np.bincount(gram, weights=cred_a, minlength=size).astype(np.int64)
    matched_b = np.bincount(gram, weights=cred_b, minlength=size).astype(np.int64)
    diff = matched_a - matched_b
    ranked = np.argsort(-diff, kind="stable")
    chosen = np.unique(np.concatenate([ranked[:top], ranked[::-1][:top]]))
    chosen = chosen[diff[chosen] != 0]
    differs = (cred_a != cred_b) & np.isin(gram, chosen)
    segments: dict[int, list[int]] = {int(g): [] for g in chosen}
    for g, s in zip(gram[differs], keys[differs] >> _SHIFT, strict=True):
        segments[int(g)].append(int(s) + 1)
    return pd.DataFrame({
        "gram": chosen, "order": n, MATCHED_A: matched_a[chosen],
        MATCHED_B: matched_b[chosen], DIFFERENCE: diff[chosen],
        IN_A: np.bincount(gram, weights=occ_a, minlength=size)[chosen].astype(np.int64),
        IN_B: np.bincount(gram, weights=occ_b, minlength=size)[chosen].astype(np.int64),
        "segments": [tuple(segments[int(g)]) for g in chosen],
    })


def _gram_text(gram: int, n: int, vocabulary: np.ndarray, parents: list[np.ndarray]) -> str:
    """The words of n-gram ``gram`` of order ``n``, rebuilt from its (prefix, last token) chain."""
    words = []
    while n > 1:
        packed = int(parents[n - 2][gram])
        words.append(vocabulary[packed & int(_LOW)])
        gram, n = packed >> 32, n - 1
    words.append(vocabulary[gram])
    return " ".join(reversed(words))


# --- buckets with bootstrap intervals -----------------------------------------------------


def bucket_labels(cutoffs: Sequence[float]) -> list[str]:
    """compare-mt's labels: ``<c0``, ``k`` for a one-integer bucket, ``[a,b)``, ``>=last``."""
    write = PLAIN.text  # the number rule: a decimal comma in Dutch (and ";" between bounds)
    labels = []
    for i, cut in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{write(cut)}")
        elif isinstance(cut, int | np.integer) and cut - 1 == cutoffs[i - 1]:
            labels.append(write(cut - 1))
        else:
            labels.append(tr("[{low},{high})").format(low=write(cutoffs[i - 1]), high=write(cut)))
    labels.append(f">={write(cutoffs[-1])}")
    return labels


def assign_buckets(values: np.ndarray, cutoffs: Sequence[float]) -> np.ndarray:
    """The bucket of each value: the first i with value < cutoffs[i], else len(cutoffs)."""
    return np.searchsorted(np.asarray(cutoffs, np.float64), np.asarray(values, np.float64),
                           side="right")


def score_by_bucket(stats: Mapping[str, np.ndarray], buckets: Mapping[str, np.ndarray],
                    labels: Sequence[str], metric: BLEUOptions | StatsScorer, *,
                    n_samples: int = 1000, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """Each system's corpus score on each bucket of its segments (BLEU's options or any
    metric's scorer), with a bootstrap interval.

    ``buckets[name]`` gives each segment's bucket index for that system (into ``labels``);
    empty buckets (for segment scores: with no rated segment) are left out. Columns: system,
    bucket, label, segments, score, mean, low, high, ci.
    """
    scorer = as_scorer(metric)
    rows = []
    for name, matrix in stats.items():
        for index, label in enumerate(labels):
            members = np.flatnonzero(buckets[name] == index)
            if len(members) and _rated_in(scorer, matrix, members):
                found = bootstrap_ci_from_stats(matrix, scorer, n_samples=n_samples,
                                                seed=seed, rows=members)
                rows.append((name, index, label, len(members), found.score, found.mean,
                             found.low, found.high, found.ci))
    return pd.DataFrame(rows, columns=["system", "bucket", "label", "segments", "score", "mean",
                                       "low", "high", "ci"])


def _rated_in(scorer: StatsScorer, matrix: np.ndarray, members: np.ndarray) -> bool:
    """Whether any of ``members`` is rated (always, for metrics that rate every segment)."""
    column = scorer.rated_column
    return column is None or bool((np.asarray(matrix)[members, column] > 0).any())


@dataclass(frozen=True)
class FMeasureScorer:
    """compare-mt's word F-measure as a ``StatsScorer``: per segment (matches, output words,
    reference words); F = 2·matches / (output + reference), 0 without a match."""

    name: str = "F-measure"
    higher_is_better: bool = True
    integer_stats: bool = True
    float32_resamples: bool = False
    rated_column: int | None = None
    columns: int = 3

    def scores(self, sums: np.ndarray) -> np.ndarray:
        matches, output, reference = np.asarray(sums, dtype=np.float64).T
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(matches > 0, 2 * matches / (output + reference), 0.0)

    def resample_scores(self, sums: np.ndarray) -> np.ndarray:
        return self.scores(sums)

    def score(self, sums: np.ndarray) -> float:
        return float(self.scores(np.asarray(sums)[None, :])[0])


def word_accuracy_by_frequency(systems: Mapping[str, Sequence[str]], reference: Sequence[str],
                               options: BLEUOptions, *,
                               cutoffs: Sequence[int] = FREQUENCY_CUTOFFS,
                               frequencies: Mapping[str, int] | None = None,
                               n_samples: int = 1000, seed: int = DEFAULT_SEED) -> pd.DataFrame:
    """compare-mt's word F-measure by word-frequency bucket, with bootstrap intervals.

    A word of the output matches an unused occurrence of it in the reference of the same
    segment; per bucket, F = 2·matches / (output words + reference words). A word's frequency
    comes from ``frequencies`` (training-data counts, compare-mt's ``--freq_count_file``; see
    ``bleu.io.read_frequencies``) or, without them, is counted in the reference; then the
    ``<1`` bucket (words the reference lacks, whose F is 0 by construction) says nothing and is
    left out, as are empty buckets. Columns: system, bucket, label, words (reference words in
    the bucket: its size), matches, output, score, mean, low, high, ci.
    """
    n_segments = len(reference)
    for name, lines in systems.items():
        if len(lines) != n_segments:
            raise LengthMismatchError(
                f"System {name!r} has {len(lines)} lines, the reference {n_segments}.")
    streams = [_token_stream(reference, options),
               *(_token_stream(lines, options) for lines in systems.values())]
    codes, vocabulary = pd.factorize(pd.Index([t for tokens, _ in streams for t in tokens],
                                              dtype=object))
    bounds = np.cumsum([0, *(len(tokens) for tokens, _ in streams)])
    ids = [codes[bounds[k] : bounds[k + 1]].astype(np.int64) for k in range(len(streams))]
    if frequencies is None:
        frequency = np.bincount(ids[0], minlength=len(vocabulary))
    else:
        counts = _case_folded(frequencies) if options.lowercase else frequencies
        frequency = np.array([counts.get(word, 0) for word in vocabulary], np.int64)
    word_bucket = assign_buckets(frequency, cutoffs)
    n_buckets = len(cutoffs) + 1
    ref_keys, ref_counts = _pair_counts(streams[0][1], ids[0])
    ref_matrix = _bucket_matrix(ref_keys, ref_counts, word_bucket, n_segments, n_buckets)
    labels = bucket_labels(cutoffs)
    scorer = FMeasureScorer()
    rows = []
    for name, (_, segment), tokens in zip(systems, streams[1:], ids[1:], strict=True):
        keys, counts = _pair_counts(segment, tokens)
        matched = credited(counts, lookup(keys, ref_keys, ref_counts))
        out_matrix = _bucket_matrix(keys, counts, word_bucket, n_segments, n_buckets)
        match_matrix = _bucket_matrix(keys, matched, word_bucket, n_segments, n_buckets)
        for b in range(n_buckets):
            size, matches, output = (int(m[:, b].sum()) for m in (ref_matrix, match_matrix,
                                                                   out_matrix))
            if (size == 0 and output == 0) or (b == 0 and frequencies is None):
                continue
            bucket = np.stack([match_matrix[:, b], out_matrix[:, b], ref_matrix[:, b]], axis=1)
            found = bootstrap_ci_from_stats(bucket, scorer, n_samples=n_samples, seed=seed)
            rows.append((name, b, labels[b], size, matches, output, found.score, found.mean,
                         found.low, found.high, found.ci))
    return pd.DataFrame(rows, columns=["system", "bucket", "label", "words", "matches", "output",
                                       "score", "mean", "low", "high", "ci"])


def _case_folded(frequencies: Mapping[str, int]) -> dict[str, int]:
    """Training counts with the words lowercased (case variants summed), for lowercased BLEU."""
    folded: dict[str, int] = {}
    for word, count in frequencies.items():
        folded[word.lower()] = folded.get(word.lower(), 0) + count
    return folded


def _bucket_matrix(keys: np.ndarray, counts: np.ndarray, word_bucket: np.ndarray,
                   n_segments: int, n_buckets: int) -> np.ndarray:
    """(segments, buckets) sums of ``counts`` over (segment, word) keys."""
    flat = (keys >> _SHIFT) * n_buckets + word_bucket[keys & _LOW]
    return np.bincount(flat, weights=counts, minlength=n_segments * n_buckets).reshape(
        n_segments, n_buckets)


def document_scores(stats: Mapping[str, np.ndarray], documents: Sequence[str],
                    options: BLEUOptions) -> pd.DataFrame:
    """Corpus BLEU of each document for each system (documents in order of first appearance).

    Columns: document, segments, first (1-based id of its first segment), then one per system.
    """
    codes, names = pd.factorize(pd.Series(list(documents), dtype=object), sort=False)
    frame = pd.DataFrame({
        "document": list(names), "segments": np.bincount(codes, minlength=len(names)),
        "first": _first_positions(codes, len(names)),
    })
    for name, matrix in stats.items():
        matrix = np.asarray(matrix)
        if len(matrix) != len(codes):
            raise LengthMismatchError(
                f"System {name!r} has {len(matrix)} statistics rows, but there are "
                f"{len(codes)} document ids.")
        sums = np.zeros((len(names), matrix.shape[1]), np.float64)
        np.add.at(sums, codes, matrix)
        frame[name] = scores_from_stats(sums, options)
    return frame


def _first_positions(codes: np.ndarray, n: int) -> np.ndarray:
    first = np.full(n, len(codes), np.int64)
    np.minimum.at(first, codes, np.arange(len(codes)))
    return first + 1

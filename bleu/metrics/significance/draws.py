"""The resampling engine: bootstrap resamples and approximate-randomization selectors drawn as
sacrebleu draws them (the same generator, the same order), in blocks of rows so that memory
grows with the segments, not with segments x resamples; resample sums scored as sacrebleu
scores them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..base import StatsScorer
from .base import (
    Reporter,
)

#: resamples x segments drawn and summed at once (about 16 MiB of counts): bounds memory, not
#: results; large enough that each block is one BLAS call on a busy machine
CHUNK_CELLS = 1 << 21


#: AR selectors are drawn in blocks of a multiple of this many rows (see the module docstring)
BOOL_ROWS = 32


def block_rows(n_segments: int, multiple: int = 1) -> int:
    rows = max(1, CHUNK_CELLS // max(n_segments, 1))
    return max(multiple, rows - rows % multiple)


def draw_blocks(rng: np.random.Generator, n_segments: int, n_samples: int,
                 ) -> Iterator[np.ndarray]:
    """sacrebleu's ``rng.choice(n_segments, (n_samples, n_segments))``, block by block.

    int32 draws give the same numbers as ``choice``'s int64 (both take the 32-bit halves of
    the generator's 64-bit words, the unused half kept in the bit generator between calls).
    """
    dtype = np.int32 if n_segments < 2**31 else np.int64
    rows = block_rows(n_segments)
    for start in range(0, n_samples, rows):
        yield rng.integers(0, n_segments, size=(min(rows, n_samples - start), n_segments),
                           dtype=dtype)


def selector_blocks(rng: np.random.Generator, n_segments: int, n_trials: int,
                     ) -> Iterator[np.ndarray]:
    """sacrebleu's ``rng.integers(2, size=(n_trials, n_segments), dtype=bool)``, block by block
    (blocks of a multiple of 32 rows: a bool draw takes 32 values from each 32-bit word)."""
    rows = block_rows(n_segments, BOOL_ROWS)
    for start in range(0, n_trials, rows):
        yield rng.integers(2, size=(min(rows, n_trials - start), n_segments), dtype=bool)


def stack(matrices: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(m, dtype=np.float64) for m in matrices], axis=1)


def product_dtype(bound: float) -> type:
    """float32 when every sum (and, the terms being >= 0, every partial sum) is an integer
    below 2**24, so that float32 products are exact and fast; float64 otherwise."""
    return np.float32 if bound < 2**24 else np.float64


class Resampler:
    """Sums the statistics of every system over bootstrap resamples, block by block."""

    def __init__(self, matrices: Sequence[np.ndarray], scorer: StatsScorer) -> None:
        self.columns = matrices[0].shape[1]
        self.stacked = stack(matrices)
        self.n_segments = len(self.stacked)
        self.sequential = scorer.float32_resamples
        if scorer.integer_stats:
            dtype = product_dtype(self.n_segments * float(np.abs(self.stacked).max(initial=0)))
            self.weights = self.stacked.astype(dtype)
        elif self.sequential:
            self.weights = self.stacked.astype(np.float32)
        else:
            self.weights = self.stacked

    def sums(self, indices: np.ndarray) -> np.ndarray:
        """Summed statistics of each resample (a row of segment indices), all systems at once."""
        if self.sequential:
            # float32, one segment after the other, as numpy sums the rows of stats[idxs][k]
            sums = np.zeros((len(indices), self.weights.shape[1]), np.float32)
            for column in indices.T:
                sums += self.weights[column]
            return sums.astype(np.float64)
        flat = (indices + (np.arange(len(indices)) * self.n_segments)[:, None]).ravel()
        counts = np.bincount(flat, minlength=indices.size).reshape(indices.shape)
        return counts.astype(self.weights.dtype) @ self.weights

    def scores(self, indices: np.ndarray, scorer: StatsScorer) -> list[np.ndarray]:
        """Each system's resample scores for one block of resamples."""
        sums = self.sums(indices)
        return [scorer.resample_scores(sums[:, k * self.columns : (k + 1) * self.columns])
                for k in range(self.stacked.shape[1] // self.columns)]


def bootstrap_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer,
                      rng: np.random.Generator, n_samples: int, report: Reporter,
                      ) -> list[np.ndarray]:
    """Every system's scores on the same ``n_samples`` resamples."""
    resampler = Resampler(matrices, scorer)
    parts: list[list[np.ndarray]] = [[] for _ in matrices]
    for indices in draw_blocks(rng, resampler.n_segments, n_samples):
        for part, scores in zip(parts, resampler.scores(indices, scorer), strict=True):
            part.append(scores)
        report.advance(len(indices))
    return [np.concatenate(part) for part in parts]


def real_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer) -> np.ndarray:
    """Corpus scores from the summed rows, on the path the AR trials take (so a trial equal to
    the real pair ties exactly)."""
    return scorer.scores(np.stack([np.asarray(m, dtype=np.float64).sum(axis=0)
                                   for m in matrices]))


class Randomizer:
    """Counts, for pairs of systems, the AR trials at least as different as the real pair."""

    def __init__(self, matrices: Sequence[np.ndarray], scorer: StatsScorer,
                 pairs: Sequence[tuple[int, int]]) -> None:
        self.scorer, self.pairs = scorer, list(pairs)
        self.columns = matrices[0].shape[1]
        self.stacked = stack(matrices)
        self.totals = self.stacked.sum(axis=0)
        self.real = real_scores(matrices, scorer)
        self.above = np.zeros(len(self.pairs), np.int64)
        self.trials = 0
        self.dtype = product_dtype(float(np.abs(self.totals).max(initial=0)))

    def _part(self, sums: np.ndarray, k: int) -> np.ndarray:
        return sums[:, k * self.columns : (k + 1) * self.columns]

    def _sums(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every system's summed statistics where the selectors are 1 (``chosen``) and 0.

        Integer statistics are exact in any order: one product with all systems side by side,
        the rest as the total minus the chosen. Other statistics (TER's averaged reference
        lengths) are rounded as BLAS adds them, which depends on the matrix shapes: each
        system's product is taken as sacrebleu takes it, ``selectors @ stats`` with that one
        system's columns, so that a trial that ties the real difference ties in both."""
        if self.scorer.integer_stats:
            chosen = block.astype(self.dtype) @ self.stacked.astype(self.dtype)
            return chosen, self.totals[None, :] - chosen
        on, off = block.astype(np.float64), (~block).astype(np.float64)
        parts = [np.ascontiguousarray(self._part(self.stacked, k))
                 for k in range(self.stacked.shape[1] // self.columns)]
        return (np.concatenate([on @ part for part in parts], axis=1),
                np.concatenate([off @ part for part in parts], axis=1))

    def add(self, selectors: np.ndarray) -> None:
        """One block of trials: system a's statistics where a selector is 1, b's elsewhere, and
        the other way round (as sacrebleu's ``pos_sel @ a + neg_sel @ b``). Blocks hold a
        multiple of 32 trials: OpenBLAS's AVX-512 kernels summed TER rows in blocks of 7
        differently from one product of all trials, in blocks of 32 as that product does."""
        rows = block_rows(len(self.stacked), BOOL_ROWS)
        for start in range(0, len(selectors), rows):
            chosen, others = self._sums(selectors[start : start + rows])
            for index, (a, b) in enumerate(self.pairs):
                pseudo_a = self._part(chosen, a) + self._part(others, b)
                pseudo_b = self._part(others, a) + self._part(chosen, b)
                trials = np.abs(self.scorer.scores(pseudo_a) - self.scorer.scores(pseudo_b))
                self.above[index] += np.count_nonzero(trials > abs(self.real[a] - self.real[b]))
        self.trials += len(selectors)

    def p_values(self) -> list[float]:
        return [(int(c) + 1) / (self.trials + 1) for c in self.above]


def exact_scores(matrices: Sequence[np.ndarray], scorer: StatsScorer) -> list[float]:
    """Each system's corpus score exactly as its metric's ``corpus_score`` reports it."""
    return [float(scorer.score(np.asarray(m).sum(axis=0))) for m in matrices]

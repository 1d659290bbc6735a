"""The n-grams that differ between A and B: how often each system produces an n-gram and how often
it is credited (clipped by the references), by order, as integer ids and numpy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...display.formatting import COUNT, Column
from ...errors import LengthMismatchError
from ...i18n import N_, tr
from ...metrics.bleu.clipping import credited, lookup, reference_max
from ...metrics.bleu.score import BLEUOptions
from .keys import LOW, SHIFT, pair_counts, sorted_unique, token_stream, token_text

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
    tokenized = [token_stream(stream, options) for stream in streams]
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
                packed.append((prefix[ok] << SHIFT) | tokens[ok + n - 1])
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
        keyed = [pair_counts(segs[k][p], grams[k][p]) for k, p in enumerate(positions)]
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
    keys = sorted_unique(np.concatenate([keys_a, keys_b]))
    cred_a, cred_b = lookup(keys, keys_a, credit_a), lookup(keys, keys_b, credit_b)
    occ_a, occ_b = lookup(keys, keys_a, count_a), lookup(keys, keys_b, count_b)
    gram = keys & LOW
    size = int(gram.max()) + 1 if len(gram) else 0
    matched_a = np.bincount(gram, weights=cred_a, minlength=size).astype(np.int64)
    matched_b = np.bincount(gram, weights=cred_b, minlength=size).astype(np.int64)
    diff = matched_a - matched_b
    ranked = np.argsort(-diff, kind="stable")
    chosen = np.unique(np.concatenate([ranked[:top], ranked[::-1][:top]]))
    chosen = chosen[diff[chosen] != 0]
    differs = (cred_a != cred_b) & np.isin(gram, chosen)
    segments: dict[int, list[int]] = {int(g): [] for g in chosen}
    for g, s in zip(gram[differs], keys[differs] >> SHIFT, strict=True):
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
        words.append(token_text(vocabulary[packed & int(LOW)]))
        gram, n = packed >> 32, n - 1
    words.append(token_text(vocabulary[gram]))
    return " ".join(reversed(words))

"""All pairs and WMT's ranking clusters: the cluster rule on hand-made significance matrices, the
all-pairs numbers against the core's pairwise test and sacrebleu's scores."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines

import bleu
from bleu.evaluation.ranking import all_pairs, clusters, min_samples, rank_labels
from bleu.explore.dashboard import ranking_table
from bleu.metrics.bleu.score import BLEUOptions

FOLDER = DATA_DIR / "wmt17_newstest2017_en-de"
SYSTEMS = ("uedin-nmt.4722", "KIT.4950", "online-F.0", "PROMT-Rule-based.4735")


def better(n: int, significant: set[tuple[int, int]]) -> np.ndarray:
    """A hand-made matrix: ``[i, j]`` True for each (i, j) listed (i above j in the order)."""
    matrix = np.zeros((n, n), bool)
    for i, j in significant:
        matrix[i, j] = True
    return matrix


def test_clusters_every_pair_significant_gives_one_system_each():
    pairs = {(i, j) for i in range(3) for j in range(i + 1, 3)}
    assert clusters(["A", "B", "C"], better(3, pairs)) == (("A",), ("B",), ("C",))


def test_clusters_no_pair_significant_gives_one_cluster():
    assert clusters(["A", "B", "C"], better(3, set())) == (("A", "B", "C"),)


def test_clusters_two_groups():
    # A~B and C~D; each of A, B significantly better than each of C, D: a cut after B only
    across = {(i, j) for i in (0, 1) for j in (2, 3)}
    assert clusters(list("ABCD"), better(4, across)) == (("A", "B"), ("C", "D"))


def test_clusters_significance_is_not_transitive():
    # A>C is significant, A~B and B~C are not: no cut can separate them (B bridges), so one
    # cluster, as in WMT's tables, though A and C differ
    assert clusters(list("ABC"), better(3, {(0, 2)})) == (("A", "B", "C"),)
    # with D below all three significantly: a cut before D
    below = {(0, 2), (0, 3), (1, 3), (2, 3)}
    assert clusters(list("ABCD"), better(4, below)) == (("A", "B", "C"), ("D",))


def test_a_cut_needs_every_pair_across_it():
    # A>B, A>C, but B~C: cut after A; B and C together
    assert clusters(list("ABC"), better(3, {(0, 1), (0, 2)})) == (("A",), ("B", "C"))
    # A>C, B>C, A~B: cut after B
    assert clusters(list("ABC"), better(3, {(0, 2), (1, 2)})) == (("A", "B"), ("C",))


def test_rank_labels_are_position_ranges():
    assert rank_labels([("A", "B"), ("C",), ("D", "E", "F")]) == {
        "A": "1–2", "B": "1–2", "C": "3", "D": "4–6", "E": "4–6", "F": "4–6"}


def test_min_samples_by_hand():
    # one pair: p >= 1/(N+1) < 0.05 needs N >= 20; 36 pairs (9 systems): 36/(N+1) < 0.05
    # needs N + 1 > 720, N >= 720
    assert min_samples(2) == 20 and min_samples(9) == 720 and min_samples(3) == 60
    assert 1 / (min_samples(9) + 1) * 36 < 0.05 <= 1 / min_samples(9) * 36


@pytest.fixture(scope="module")
def corpus():
    ref = read_lines(FOLDER / "newstest2017.en-de.ref.de")
    hyps = {name: read_lines(FOLDER / f"newstest2017.{name}.en-de.de") for name in SYSTEMS}
    metric = bleu.BLEU(references=[ref])
    return hyps, ref, {name: metric.segment_stats(lines) for name, lines in hyps.items()}


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_all_pairs_against_the_core_and_sacrebleu(corpus, method):
    hyps, ref, stats = corpus
    found = all_pairs(stats, BLEUOptions(), method=method, n_samples=200)
    scores = {name: sacrebleu.corpus_bleu(lines, [ref]).score for name, lines in hyps.items()}
    assert list(found.names) == sorted(SYSTEMS, key=lambda name: -scores[name])
    assert found.scores == pytest.approx([scores[name] for name in found.names], abs=1e-9)
    core = bleu.pairwise_significance(stats, BLEUOptions(), method=method, n_samples=200)
    where = {name: k for k, name in enumerate(core.names)}
    for i, row in enumerate(found.names):
        for j, column in enumerate(found.names):
            assert found.deltas[i, j] == pytest.approx(scores[row] - scores[column], abs=1e-9)
            if i != j:
                assert found.p_values[i, j] == core.p_values[where[row], where[column]]
                assert found.adjusted[i, j] == core.adjusted[where[row], where[column]]
                assert found.significant[i, j] == (core.adjusted[where[row],
                                                                 where[column]] < 0.05)
    # the clusters keep the rule: a cut where every system above is significantly better than
    # every system below, and no cut anywhere else
    significant_cut = [all(found.significant[i, j] and found.deltas[i, j] > 0
                           for i in range(k) for j in range(k, len(found.names)))
                       for k in range(1, len(found.names))]
    sizes = np.cumsum([len(group) for group in found.clusters])[:-1]
    assert [k for k, cut in enumerate(significant_cut, start=1) if cut] == list(sizes)


def test_lower_is_better_sorts_lowest_first(corpus):
    hyps, ref, _ = corpus
    ter = bleu.TER(references=[ref])
    stats = {name: ter.segment_stats(lines) for name, lines in hyps.items()}
    found = all_pairs(stats, ter.scorer, n_samples=100)
    scores = {name: sacrebleu.corpus_ter(lines, [ref]).score for name, lines in hyps.items()}
    assert list(found.names) == sorted(SYSTEMS, key=lambda name: scores[name])
    assert found.metric == "TER" and not found.higher_is_better
    table = ranking_table(found)
    assert list(table.columns) == ["rank", "cluster", "system", "TER"]
    assert list(table["system"]) == list(found.names)

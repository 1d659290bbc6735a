"""The evaluation service as ../shared/DESIGN.md shows it: the registry declares each metric once
(and is read for directions), an Evaluation takes sacrebleu's option names and hands each metric
the options it has, keeps statistics in a caller's store, scores subsets, compares two systems,
takes segment-score files and computes learned metrics through their registry entry."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF, TER
from sacrebleu.significance import PairedTest

from bleu.errors import InputError, LengthMismatchError, UnknownOptionError
from bleu.evaluation import Evaluation, MetricSpec, registry
from bleu.evaluation.registry import LEARNED
from bleu.metrics.learned.cache import CachedScore, MemoryScoreCache
from bleu.metrics.learned.progress import Estimate
from bleu.metrics.learned.runner import Step
from bleu.metrics.segment.scores import SegmentScores

WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"
NAMES = ("Facebook-AI", "UEdin", "Online-W")
SYSTEMS = {name: read_lines(WMT21 / f"newstest2021.en-de.hyp.{name}.de") for name in NAMES}
REFS = [read_lines(WMT21 / "newstest2021.en-de.ref.A.de")]
SOURCE = read_lines(WMT21 / "newstest2021.en-de.src.en")


def test_the_registry_declares_each_metric_once_and_is_read_for_directions():
    assert registry.names()[:4] == ["BLEU", "chrF", "chrF++", "TER"]
    ter = registry.get("TER")
    assert (ter.name, ter.higher_is_better, ter.needs_source, ter.needs_reference) == (
        "TER", False, False, True)
    assert registry.get("COMET").needs_source and registry.get("COMET").higher_is_better
    assert set(registry.get("chrF").option_names) == {
        "char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing"}
    assert registry.get("chrF++").make_options().word_order == 2
    assert registry.direction("TER") is False and registry.direction("COMET (wmt22)") is True
    assert registry.direction("MetricX-24 score") is False  # guessed from the words
    assert registry.direction("MQM") is True  # WMT's MQM files hold negated penalties
    with pytest.raises(UnknownOptionError, match="Unknown metric 'METEOR'"):
        registry.get("METEOR")
    with pytest.raises(UnknownOptionError, match="chrF has no option 'tokenize'"):
        registry.get("chrF").make_options(tokenize="13a")


def test_each_metric_takes_the_options_it_has():
    evaluation = Evaluation(SYSTEMS, REFS, tokenize="intl", lowercase=True)
    evaluation.add_metric("chrF")
    evaluation.add_metric("TER")
    bleu_found = evaluation.scores("BLEU")
    for name, hyps in SYSTEMS.items():
        expected = sacrebleu.corpus_bleu(hyps, REFS, tokenize="intl", lowercase=True)
        assert bleu_found.scores[name] == pytest.approx(expected.score, abs=1e-9)
        chrf = CHRF(lowercase=True).corpus_score(hyps, REFS).score
        assert evaluation.scores("chrF").scores[name] == pytest.approx(chrf, abs=1e-9)
        ter = TER().corpus_score(hyps, REFS).score  # TER: case-insensitive
        assert evaluation.scores("TER").scores[name] == pytest.approx(ter, abs=1e-9)
    assert "tok:intl" in bleu_found.signature and "case:lc" in bleu_found.signature
    assert evaluation.add_metric("chrF") == "chrF"  # the same metric again: nothing new
    with pytest.raises(InputError, match="called chrF already"):
        evaluation.add_metric("chrF", lowercase=False)
    assert evaluation.add_metric("chrF", label="chrF (cased)", lowercase=False)
    with pytest.raises(UnknownOptionError, match="Unknown option 'tokenise'"):
        Evaluation(SYSTEMS, REFS, tokenise="13a")
    with pytest.raises(LengthMismatchError, match="System UEdin has 99 segments"):
        Evaluation({**SYSTEMS, "UEdin": SYSTEMS["UEdin"][:99]}, REFS)


def test_the_target_language_picks_the_default_tokenizer():
    evaluation = Evaluation({"a": ["我们 去 了"]}, [["我们去了"]], target_language="zh")
    assert "tok:zh" in evaluation.scores("BLEU").signature


class DictStore:
    """A store that counts what it is asked for."""

    def __init__(self) -> None:
        self.items: dict = {}
        self.puts = 0

    def get(self, key):
        return self.items.get(key)

    def put(self, key, matrix):
        self.puts += 1
        self.items[key] = matrix


def test_statistics_come_from_the_store_the_second_time():
    store, seen = DictStore(), []
    first = Evaluation(SYSTEMS, REFS, store=store, progress=seen.append)
    first.add_metric("chrF")
    first.scores("chrF")
    assert store.puts == 3 and [(step.done, step.total) for step in seen] == [
        (0, 3), (1, 3), (2, 3), (3, 3)]
    seen.clear()
    again = Evaluation(dict(reversed(list(SYSTEMS.items()))), REFS, store=store,
                       progress=seen.append)
    again.add_metric("chrF")
    found = again.scores("chrF")
    assert store.puts == 3 and seen == []  # nothing computed, nothing to wait for
    assert list(found.scores) == list(reversed(NAMES))  # in this evaluation's order
    assert found.scores == first.scores("chrF").scores
    assert found.signature == first.scores("chrF").signature


def test_a_subset_is_scored_as_a_corpus_of_its_own():
    rows = np.arange(10, 60)
    evaluation = Evaluation(SYSTEMS, REFS)
    evaluation.add_metric("chrF")
    part = evaluation.subset(rows)
    for name, hyps in SYSTEMS.items():
        kept = [hyps[i] for i in rows]
        refs = [[REFS[0][i] for i in rows]]
        assert part.scores("BLEU").scores[name] == pytest.approx(
            sacrebleu.corpus_bleu(kept, refs).score, abs=1e-9)
        assert part.scores("chrF").scores[name] == pytest.approx(
            sacrebleu.corpus_chrf(kept, refs).score, abs=1e-9)
    with pytest.raises(InputError, match="no segment"):
        evaluation.subset([])


def test_compare_tests_every_metric_that_scores_both():
    evaluation = Evaluation(SYSTEMS, REFS)
    evaluation.add_metric("TER")
    found = {result.metric: result for result in evaluation.compare("UEdin", "Online-W",
                                                                    n_bootstrap=200, n_ar=200)}
    assert set(found) == {"BLEU", "TER"}
    ter = found["TER"]
    assert not ter.higher_is_better
    assert ter.delta == pytest.approx(evaluation.scores("TER").scores["UEdin"]
                                      - evaluation.scores("TER").scores["Online-W"])
    assert ter.low <= ter.delta <= ter.high


def test_significance_is_sacrebleus_paired_bootstrap():
    evaluation = Evaluation(SYSTEMS, REFS)
    found = evaluation.significance("BLEU", baseline="UEdin", n_samples=300)
    test = PairedTest(
        [("UEdin", SYSTEMS["UEdin"]), *((n, h) for n, h in SYSTEMS.items() if n != "UEdin")],
        {"BLEU": SacreBLEU()}, REFS, test_type="bs", n_samples=300)
    _, table = test()
    for name, result in zip(table["System"], table["BLEU"], strict=True):
        ours = found[name.removeprefix("Baseline: ")]
        assert ours.score == pytest.approx(result.score, abs=1e-9)
        assert ours.p_value == result.p_value
        assert ours.ci == pytest.approx(result.ci, abs=1e-9)


def test_segment_scores_join_in_the_registry_direction():
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(len(NAMES), len(REFS[0])))
    scores = SegmentScores("MetricX-24", NAMES, matrix, "metricx.tsv", higher_is_better=True)
    evaluation = Evaluation(SYSTEMS, REFS)
    label = evaluation.add_scores(scores)
    found = evaluation.scores(label)
    assert label == "MetricX-24" and not found.higher_is_better  # the registry's, not the file's
    assert found.scores["UEdin"] == pytest.approx(matrix[1].mean())
    assert found.ranked == sorted(NAMES, key=lambda name: found.scores[name])
    with pytest.raises(InputError, match="called MetricX-24 already"):
        evaluation.add_scores(scores)
    short = SegmentScores("COMET", NAMES, matrix[:, :10], "short.tsv")
    with pytest.raises(InputError, match="scores 10 segments, but the test set has 100"):
        evaluation.add_scores(short)
    assert evaluation.add_scores(scores, label="mine", higher_is_better=True) == "mine"
    assert evaluation.scores("mine").higher_is_better


@dataclass
class WordCountScorer:
    """A learned metric's scorer that needs no model: a segment's score is its word count
    minus the reference's (lower is better in the spec it is declared with)."""

    metric: str = "Lengths"
    model: str = "none"
    model_path: str = "none"
    model_version: str = "1"
    library: str = "test"
    identity: str = "word-count"
    has_spans: bool = False
    components: tuple[str, ...] = ()
    needs_reference: bool = True
    reads_reference: bool = True

    def segment_texts(self, system: Sequence[str], sources, references) -> list[tuple]:
        return [(hyp, ref) for hyp, ref in zip(system, references[0], strict=True)]

    def estimate(self, pending) -> Estimate:
        return Estimate(0.0, "cpu", 0, 0.0, 1.0)

    def compute(self, pending, keys) -> Iterator[Step]:
        for start in range(0, len(pending), 40):
            yield Step({key: CachedScore(float(abs(len(hyp.split()) - len(ref.split()))))
                        for key, (hyp, ref) in zip(keys[start:start + 40],
                                                   pending[start:start + 40], strict=True)},
                       float(len(pending[start:start + 40])))

    def signature(self, nrefs: int) -> str:
        return f"nrefs:{nrefs}|model:none"


def test_a_learned_metric_is_computed_through_its_registry_entry(monkeypatch):
    spec = MetricSpec("Lengths", LEARNED, higher_is_better=False,
                      load=lambda model, **options: WordCountScorer(),
                      label=lambda model, **options: f"Lengths ({model})")
    monkeypatch.setitem(registry._specs, "Lengths", spec)
    cache, seen = MemoryScoreCache(), []
    evaluation = Evaluation(SYSTEMS, REFS, SOURCE, progress=seen.append)
    label = evaluation.add_metric("Lengths", model="none", cache=cache)
    assert label == "Lengths (none)"
    found = evaluation.scores(label)
    for name, hyps in SYSTEMS.items():
        expected = np.mean([abs(len(h.split()) - len(r.split())) for h, r in zip(hyps, REFS[0],
                                                                              strict=True)])
        assert found.scores[name] == pytest.approx(expected)
    assert not found.higher_is_better  # declared once, in the spec
    assert seen[-1].done == seen[-1].total and seen[-1].unit == "segments"
    assert evaluation.learned_run(label).computed > 0
    again = Evaluation(SYSTEMS, REFS, SOURCE)
    again.add_metric("Lengths", model="none", cache=cache)
    again.scores("Lengths (none)")
    assert again.learned_run("Lengths (none)").computed == 0  # every segment from the cache
    with pytest.raises(InputError, match="needs its model"):
        evaluation.add_metric("Lengths")

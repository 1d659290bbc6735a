"""chrF, chrF++ and TER for every system through the evaluation service: sacrebleu's
numbers, signatures and paired bootstrap, and the chrF values WMT published for the test sets."""

from __future__ import annotations

import pytest
from conftest import DATA_DIR, read_lines
from sacrebleu.metrics import CHRF, TER
from sacrebleu.significance import PairedTest

from bleu.errors import InputError, LengthMismatchError, UnknownOptionError
from bleu.evaluation import Evaluation
from bleu.evaluation import scores as metric_scores

WMT22 = DATA_DIR / "wmt22_generaltest2022_en-de"
REFS = [read_lines(WMT22 / f"generaltest2022.en-de.ref.{k}.de") for k in ("A", "B")]
SYSTEMS = {name: read_lines(WMT22 / f"generaltest2022.en-de.hyp.{name}.de")
           for name in ("Online-B", "PROMT", "Lan-Bridge")}


def score_systems(name: str, systems, refs, **options):
    """``name`` for every system through the evaluation service, with its options."""
    evaluation = Evaluation(systems, refs, **options)
    evaluation.add_metric(name)
    return evaluation.scores(name)


def sacrebleu_metric(name: str, lowercase: bool = False):
    """sacrebleu's twin of a registered text metric: TER keeps its case-insensitive default,
    whatever the evaluation's ``lowercase``."""
    if name == "TER":
        return TER()
    return CHRF(word_order=2 if name == "chrF++" else 0, lowercase=lowercase)


def cut(n: int, start: int = 0):
    systems = {name: hyps[start:start + n] for name, hyps in SYSTEMS.items()}
    return systems, [ref[start:start + n] for ref in REFS]


@pytest.mark.parametrize(("name", "n", "lowercase"), [
    ("chrF", 100, False), ("chrF", 60, True), ("chrF++", 80, False), ("TER", 30, False),
    ("TER", 15, True)])
def test_corpus_and_sentence_scores_are_sacrebleus(name, n, lowercase):
    systems, refs = cut(n)
    found = score_systems(name, systems, refs, lowercase=lowercase)
    for system, hyps in systems.items():
        expected = sacrebleu_metric(name, lowercase).corpus_score(hyps, refs)
        assert found.scores[system] == expected.score
        sentences = [sacrebleu_metric(name, lowercase).sentence_score(h, [r[i] for r in refs])
                     .score for i, h in enumerate(hyps)]
        assert found.sentence_scores[system].tolist() == sentences
    metric = sacrebleu_metric(name, lowercase)
    metric.corpus_score(systems["PROMT"], refs)
    assert found.signature == metric.get_signature().format().replace(
        "version:2.6.0", f"version:bleu-explorer-{__import__('bleu').__version__}")
    assert found.higher_is_better == (name != "TER")


def test_variable_reference_counts_follow_sacrebleu():
    systems, refs = cut(60)
    refs = [refs[0], [None if i % 3 == 0 else line for i, line in enumerate(refs[1])]]
    found = score_systems("chrF", systems, refs)
    metric = CHRF()
    expected = metric.corpus_score(systems["PROMT"], refs)
    assert found.scores["PROMT"] == expected.score
    assert found.signature.startswith("nrefs:var|")


def test_statistics_are_read_only_and_progress_counts_systems():
    systems, refs = cut(20, start=7)
    seen = []
    evaluation = Evaluation(systems, refs,
                            progress=lambda step: seen.append((step.done, step.total)))
    evaluation.add_metric("chrF++")
    found = evaluation.scores("chrF++")
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert not found.stats["PROMT"].flags.writeable
    again = metric_scores.from_stats("chrF++", found.signature, found.scorer, found.stats)
    assert again.scores == found.scores


@pytest.mark.parametrize(("name", "n", "n_samples"), [("chrF", 100, 300), ("chrF++", 90, 200),
                                                      ("TER", 40, 150)])
def test_paired_bootstrap_is_sacrebleus(name, n, n_samples, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    systems, refs = cut(n)
    found = metric_scores.significance(score_systems(name, systems, refs),
                                       baseline="Online-B", n_samples=n_samples)
    test = PairedTest(list(systems.items()), {name: sacrebleu_metric(name)}, refs,
                      test_type="bs", n_samples=n_samples)
    _, table = test()
    key = next(k for k in table if k != "System")
    for system, result in zip(table["System"], table[key], strict=True):
        ours = found[system]
        assert ours.score == result.score
        assert ours.mean == pytest.approx(result.mean, abs=1e-12)
        assert ours.ci == pytest.approx(result.ci, abs=1e-12)
        if system == "Online-B":
            assert ours.p_value is None
        else:
            assert ours.p_value == result.p_value


def test_without_a_baseline_each_system_gets_its_own_interval():
    systems, refs = cut(50)
    found = metric_scores.significance(score_systems("chrF", systems, refs),
                                       n_samples=100)
    assert set(found) == set(systems)
    for system, result in found.items():
        assert result.name == system
        assert result.p_value is None and result.low <= result.score <= result.high


def test_bad_calls_say_what_is_wrong():
    systems, refs = cut(10)
    with pytest.raises(UnknownOptionError, match="BLEU, chrF, chrF\\+\\+, TER"):
        score_systems("METEOR", systems, refs)
    with pytest.raises(LengthMismatchError):
        score_systems("chrF", dict(systems, PROMT=systems["PROMT"][:9]), refs)
    results = score_systems("chrF", systems, refs)
    with pytest.raises(InputError, match="nope"):
        metric_scores.significance(results, baseline="nope")

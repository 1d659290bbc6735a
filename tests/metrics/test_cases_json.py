"""Every BLEU case recorded from sacrebleu 2.6.0 (data/sacrebleu_cases/cases.json), against ours.

Kinds covered: corpus_bleu, sentence_bleu, compute_bleu, bleu_signature, bleu_format, tokenize,
tokenize_zh_is_chinese_char and sentence_bleu_all (the chrF, TER, significance and bootstrap
kinds belong to other modules). Numbers must agree within 1e-9, integers and strings exactly.

Deliberate differences from sacrebleu, each asserted below:
- Signatures end in ``version:bleu-explorer-<version>`` instead of ``version:2.6.0``; every other
  field is equal.
- Streams of different lengths raise ``bleu.errors.LengthMismatchError`` (sacrebleu's ``zip``
  silently drops the extra hypotheses).
- A segment whose references are all None raises ``bleu.errors.MissingReferenceError`` naming the
  segment (sacrebleu raises TypeError for a non-empty hypothesis and counts ref_len -1 for an
  empty one).
- An empty corpus raises ``bleu.errors.InputError`` (sacrebleu raises IndexError).
- There is no ``trg_lang`` option: pass ``tokenize="zh"`` (sacrebleu maps trg_lang zh to it).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from conftest import case_param, sacrebleu_cases, ted_lines, wmt17_case_data

import bleu
from bleu.errors import InputError, LengthMismatchError, MissingReferenceError
from bleu.metrics.base import Signature
from bleu.metrics.bleu import SHORT_NAMES
from bleu.metrics.tokenizers import get_tokenizer
from bleu.metrics.tokenizers.mteval import _CHINESE_RANGES

OUR_VERSION = f"bleu-explorer-{bleu.__version__}"
TOL = 1e-9


def _cases(*kinds: str) -> list[Any]:
    return [case_param(case) for case in sacrebleu_cases()
            if case["kind"] in kinds]


def _corpus_inputs(case: dict[str, Any]) -> tuple[list[str], list[list[str | None]]]:
    """The hypotheses and reference streams of a corpus case (inline, WMT17 file or TED)."""
    if "hyps" in case:
        return case["hyps"], case["refs"]
    if "data_file" in case:
        data = wmt17_case_data()
        refs = [data["references"]] + [data["systems"][s] for s in case.get("extra_ref_systems",
                                                                               [])]
        return data["systems"][case["system"]], refs
    refs = [ted_lines("ref")]
    if "[ref, sys2]" in case["call"]:  # the TED case with sys2 as a second pseudo-reference
        refs.append(ted_lines("sys2"))
    return ted_lines(case["system"]), refs


#: our BLEU signature's short names (sacrebleu's ``--short``), as its Signature object has them
SHORT = dict(Signature.build(1, (), SHORT_NAMES).short_names)


def _short(signature: str) -> str:
    """A long BLEU signature in its short form, by our table of short names."""
    return "|".join(f"{SHORT[key]}:{value}"
                    for key, value in (part.split(":", 1) for part in signature.split("|")))


def _ours_as_sacrebleu(text: str) -> str:
    """Our signature text with our version swapped for sacrebleu's, after checking it is there."""
    assert OUR_VERSION in text, text
    return text.replace(OUR_VERSION, "2.6.0")


def _assert_score(ours: bleu.BLEUScore, expected: dict[str, Any]) -> None:
    assert math.isclose(ours.score, expected["score"], rel_tol=0, abs_tol=TOL)
    assert ours.precisions == pytest.approx(expected["precisions"], rel=0, abs=TOL)
    assert math.isclose(ours.bp, expected["bp"], rel_tol=0, abs_tol=TOL)
    assert ours.format() == expected["str"]
    if "counts" in expected:
        assert list(ours.counts) == expected["counts"]
        assert list(ours.totals) == expected["totals"]
        assert (ours.sys_len, ours.ref_len) == (expected["sys_len"], expected["ref_len"])
    for width in (1, 2, 4):
        if f"score_w{width}" in expected:
            assert ours.format(width=width, score_only=True) == expected[f"score_w{width}"]
    if "signature" in expected:
        assert _ours_as_sacrebleu(ours.signature) == expected["signature"]
        assert _ours_as_sacrebleu(_short(ours.signature)) == expected["signature_short"]


def _metric(kwargs: dict[str, Any]) -> bleu.BLEU:
    return bleu.BLEU(**kwargs)


# Cases where sacrebleu's answer is a quirk we refuse on purpose: the error class we raise.
REFUSED = {
    "case0097": MissingReferenceError,  # all refs None, empty hyp: sacrebleu counts ref_len -1
    "case0098": MissingReferenceError,  # all refs None, non-empty hyp: sacrebleu TypeError
    "case0099": LengthMismatchError,  # 3 hypotheses, 1 reference line: sacrebleu truncates
    "case0100": InputError,  # no segments at all: sacrebleu IndexError
}
@pytest.mark.parametrize("case", _cases("corpus_bleu"))
def test_corpus_bleu(case: dict[str, Any]) -> None:
    hyps, refs = _corpus_inputs(case)
    if case["id"] in REFUSED:
        with pytest.raises(REFUSED[case["id"]]) as caught:
            _metric(case["kwargs"]).corpus_score(hyps, refs)
        message = str(caught.value)
        if case["id"] in ("case0097", "case0098"):
            assert "Segment 2" in message
        if case["id"] == "case0099":
            assert "3 segments" in message and "hypotheses" in message
        return
    _assert_score(_metric(case["kwargs"]).corpus_score(hyps, refs), case["expected"])


def test_refused_cases_are_sacrebleu_quirks() -> None:
    """The refused cases really are the recorded quirks (so the list above cannot go stale)."""
    by_id = {case["id"]: case for case in sacrebleu_cases()}
    assert by_id["case0098"]["expected"]["exception"] == "TypeError"
    assert by_id["case0100"]["expected"]["exception"] == "IndexError"
    truncated = by_id["case0099"]
    assert len(truncated["hyps"]) != len(truncated["refs"][0])
    assert truncated["expected"]["sys_len"] == 2  # only the first hypothesis was scored
    minus_one = by_id["case0097"]
    assert minus_one["refs"][0][1] is None and minus_one["hyps"][1] == ""
    assert minus_one["expected"]["ref_len"] == 2 - 1  # ref_len of segment 2 counted as -1


@pytest.mark.parametrize("case", _cases("sentence_bleu"))
def test_sentence_bleu(case: dict[str, Any]) -> None:
    _assert_score(_metric(case["kwargs"]).sentence_score(case["hyp"], case["refs"]),
                  case["expected"])


@pytest.mark.parametrize("case", _cases("compute_bleu"))
def test_compute_bleu(case: dict[str, Any]) -> None:
    args, kwargs = case["args"], case["kwargs"]
    options = bleu.BLEUOptions(smooth_method=kwargs.get("smooth_method", "none"),
                               smooth_value=kwargs.get("smooth_value"))
    row = [args["sys_len"], args["ref_len"], *args["correct"], *args["total"]]
    _assert_score(bleu.score_from_stats(row, options), case["expected"])


@pytest.mark.parametrize("case", _cases("bleu_signature"))
def test_bleu_signature(case: dict[str, Any]) -> None:
    metric = bleu.BLEU(**case["kwargs"])  # trg_lang too: it picks the tokenizer, as sacrebleu
    score = metric.corpus_score(["a b"], [["a b"], ["a c"]])
    assert _ours_as_sacrebleu(score.signature) == case["expected"]["long"]
    assert _ours_as_sacrebleu(_short(score.signature)) == case["expected"]["short"]
    assert score.signature.split("|")[-1] == f"version:{OUR_VERSION}"


@pytest.mark.parametrize("case", _cases("bleu_format"))
def test_bleu_format(case: dict[str, Any]) -> None:
    score = bleu.BLEU().corpus_score(case["hyps"], case["refs"])
    sig, short = score.signature, _short(score.signature)
    ours = {
        "format()": score.format(),
        "format(width=1)": score.format(width=1),
        "format(score_only=True)": score.format(score_only=True),
        "format(width=1, signature=sig)": score.format(width=1, signature=sig),
        "format(width=1, signature=sig, is_json=True)":
            score.format(width=1, signature=sig, is_json=True),
        "format(width=1, signature=short_sig)": score.format(width=1, signature=short),
    }
    assert set(ours) == set(case["expected"])
    for key, text in ours.items():
        expected = case["expected"][key]
        if "signature" in key:
            text = _ours_as_sacrebleu(text)
        assert text == expected, key
    record = json.loads(ours["format(width=1, signature=sig, is_json=True)"])
    assert record["version"] == OUR_VERSION


@pytest.mark.parametrize("case", _cases("tokenize"))
@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_tokenize(case: dict[str, Any], name: str) -> None:
    assert get_tokenizer(name)(case["input"]) == case["expected"][name]


@pytest.mark.parametrize("case", _cases("tokenize_zh_is_chinese_char"))
def test_zh_is_chinese_char(case: dict[str, Any]) -> None:
    # our ranges (the table the zh tokenizer builds from) against sacrebleu's _is_chinese_char
    ours = {key: any(low <= int(key[2:], 16) <= high for low, high in _CHINESE_RANGES)
            for key in case["expected"]}
    assert ours == case["expected"]


@pytest.mark.parametrize("case", _cases("sentence_bleu_all"))
def test_every_ted_sentence(case: dict[str, Any]) -> None:
    """All 2445 TED sentence scores from the statistics matrix (what the app shows), and every
    fifth one through the public sentence_score as well."""
    hyps, ref = ted_lines(case["system"]), ted_lines("ref")
    expected = case["expected"]
    assert [e["i"] for e in expected] == list(range(len(hyps)))
    metric = bleu.BLEU(**case["kwargs"])
    stats = bleu.segment_stats(hyps, [ref])
    options = bleu.BLEUOptions(**case["kwargs"])
    for row, want in zip(stats, expected, strict=True):
        i = want["i"]
        if i % 5 == 0:
            score = metric.sentence_score(hyps[i], [ref[i]])
            assert math.isclose(score.score, want["score"], rel_tol=0, abs_tol=TOL), i
            assert list(score.counts) == want["counts"], i
            assert list(score.totals) == want["totals"], i
            assert (score.sys_len, score.ref_len) == (want["sys_len"], want["ref_len"]), i
        assert list(row) == [want["sys_len"], want["ref_len"], *want["counts"], *want["totals"]]
        from_row = bleu.score_from_stats(row, options)
        assert math.isclose(from_row.score, want["score"], rel_tol=0, abs_tol=TOL), i


def test_every_bleu_kind_is_covered() -> None:
    """A new BLEU kind in cases.json must get a test here (this list fails when it appears)."""
    ours = {"corpus_bleu", "sentence_bleu", "compute_bleu", "bleu_signature", "bleu_format",
            "tokenize", "tokenize_zh_is_chinese_char", "sentence_bleu_all"}
    others = {"bleu_bootstrap_ci", "corpus_chrf", "sentence_chrf", "chrf_signature",
              "corpus_ter", "ter_tokenize", "ter_signature", "paired_bs", "paired_ar"}
    assert {case["kind"] for case in sacrebleu_cases()} == ours | others
    assert sum(1 for case in sacrebleu_cases() if case["kind"] in ours) == 154

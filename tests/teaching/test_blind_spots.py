"""Blind spots: every metric of every case equals the reference library's own output (sacrebleu
for BLEU, chrF and TER; rouge-score for ROUGE-L; NLTK for METEOR), the cases are the real lines
they claim to be, and the corpus disagreements are ranked as a hand computation says."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from conftest import SHARED_DATA, read_lines
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer
from nltk.translate.meteor_score import meteor_score
from rouge_score.rouge_scorer import RougeScorer
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleu.errors import InputError
from bleu.metrics.meteor import DEBIAN_WORDNET, NoSynonyms, meteor, wordnet
from bleu.metrics.rouge import rouge_l
from bleu.teaching.blind_spots import (
    METRIC_COLUMNS,
    by_metric,
    case_frame,
    disagreements,
    language_names,
    load_cases,
    metric_help,
    score_pair,
)

REPO = Path(__file__).resolve().parents[2]
CASES_FILE = REPO / "sample_data" / "blind_spots" / "cases.json"
CASES = load_cases(CASES_FILE)
HAS_WORDNET = (DEBIAN_WORDNET / "data.noun").is_file()


@pytest.fixture
def require_wordnet() -> None:
    """METEOR's synonym stage needs Debian's WordNet (scripts/test.sh installs it): fail, never
    skip, without it."""
    assert HAS_WORDNET, f"{DEBIAN_WORDNET} missing: apt-get install wordnet-base"


needs_wordnet = pytest.mark.usefixtures("require_wordnet")
TOKENIZERS = {"13a": Tokenizer13a(), "zh": TokenizerZh()}


def tokens(text: str, tokenize: str = "13a") -> list[str]:
    """sacrebleu's own tokenizer, split on whitespace (what METEOR and ROUGE are given)."""
    return TOKENIZERS[tokenize](text.rstrip()).split()


class ZhTokens:
    """rouge-score's tokenizer interface over sacrebleu's tokenizer, lowercased."""

    def __init__(self, name: str) -> None:
        self.name = name

    def tokenize(self, text: str) -> list[str]:
        return tokens(text.lower(), self.name)


def library_scores(hyp: str, refs: list[str], language: str, tokenize: str,
                   synonyms) -> dict[str, float]:
    """Every metric straight from its library, as the blind-spot page should report it."""
    if language == "en":
        rouge = RougeScorer(["rougeL"], use_stemmer=True).score_multi(refs, hyp)["rougeL"]
        stemmer = PorterStemmer()
    else:
        rouge = RougeScorer(["rougeL"], tokenizer=ZhTokens(tokenize)).score_multi(
            refs, hyp)["rougeL"]
        stemmer = {"de": SnowballStemmer("german"), "nl": SnowballStemmer("dutch")}.get(
            language)
    net = synonyms if language == "en" and synonyms is not None else NoSynonyms()
    meteor_value = meteor_score(
        [tokens(r, tokenize) for r in refs], tokens(hyp, tokenize),
        stemmer=stemmer or type("Same", (), {"stem": staticmethod(lambda w: w)})(),
        wordnet=net)
    return {
        "BLEU": sacrebleu.sentence_bleu(hyp, refs, tokenize=tokenize).score,
        "chrF": sacrebleu.sentence_chrf(hyp, refs).score,
        # sacrebleu's defaults (case-insensitive), as the Metrics page computes TER
        "TER": sacrebleu.metrics.TER().sentence_score(hyp, refs).score,
        "ROUGE-L": 100 * rouge.fmeasure,
        "METEOR": 100 * meteor_value,
    }


@pytest.mark.parametrize("case", CASES, ids=[case.key for case in CASES])
def test_every_case_shows_every_metric_as_its_library(case):
    synonyms = wordnet() if HAS_WORDNET else None
    frame = case_frame(case, synonyms=synonyms)
    assert list(frame.candidate) == [c.label for c in case.candidates]
    for row, candidate in zip(frame.to_dict("records"), case.candidates, strict=True):
        expected = library_scores(candidate.hypothesis, list(candidate.references),
                                  case.language, candidate.tokenize or "13a", synonyms)
        assert {m: row[m] for m in METRIC_COLUMNS} == pytest.approx(expected, abs=1e-9)
        shown = row["MQM (human)"]  # None or NaN in the frame where no human rated the text
        assert shown == candidate.mqm if candidate.mqm is not None else pd.isna(shown)


def test_the_cases_teach_what_they_say():
    scores = {case.key: case_frame(case, synonyms=wordnet() if HAS_WORDNET else None)
              for case in CASES}
    # meaning flips: the edited text keeps most of its BLEU (a single word changed)
    for key in ("negation", "number", "entity"):
        real, edited = scores[key].BLEU
        assert real >= 95 and edited >= 80
    # a flawless paraphrase (MQM 0) scores under 5 BLEU
    assert (scores["paraphrase"]["MQM (human)"] == 0).all()
    assert (scores["paraphrase"].BLEU < 5).all()
    # the garbled clause order keeps a higher BLEU than the correct reordering
    real, swapped, garbled = scores["order"].BLEU
    assert real == pytest.approx(100) and garbled > swapped
    # more references, higher BLEU for the same output
    assert scores["references"].BLEU.is_monotonic_increasing
    # cut short: precisions 100 % (every n-gram is in the reference), BLEU is BP = e^(1 - r/c)
    short = next(c for c in CASES if c.key == "short").candidates[1]
    c, r = len(tokens(short.hypothesis)), len(tokens(short.references[0]))
    assert scores["short"].BLEU.iloc[1] == pytest.approx(100 * math.exp(1 - r / c))
    # unsegmented Chinese: 13a sees one token and BLEU is 0; the zh tokenizer sees the match
    assert list(scores["cjk"].tokenizer) == ["13a", "zh"]
    assert scores["cjk"].BLEU.iloc[0] == 0 and scores["cjk"].BLEU.iloc[1] > 50
    assert scores["cjk"].chrF.iloc[0] == scores["cjk"].chrF.iloc[1]


def test_the_dutch_cases_teach_what_they_say():
    scores = {case.key: case_frame(case) for case in CASES if case.language == "nl"}
    assert set(scores) == {"nl-negation", "nl-order", "nl-compound", "nl-inflection",
                           "nl-regional"}
    # the negation dropped beats the correct passive on every metric (TER: lower)
    correct, flipped = scores["nl-negation"].to_dict("records")
    assert all(flipped[m] > correct[m] for m in ("BLEU", "chrF", "ROUGE-L", "METEOR"))
    assert flipped["TER"] < correct["TER"]
    # verb second: the correct variant loses a third of BLEU; TER and ROUGE-L tie it with
    # the garbled order
    other, garbled = scores["nl-order"].to_dict("records")
    assert other["BLEU"] < 70 and other["TER"] == garbled["TER"]
    assert other["ROUGE-L"] == garbled["ROUGE-L"]
    # the compound: BLEU prefers the text that lost the ward, chrF the correct one
    written_out, lost = scores["nl-compound"].to_dict("records")
    assert lost["BLEU"] > written_out["BLEU"] and written_out["chrF"] > lost["chrF"]
    # the Dutch stemmer matches singular and plural: 10 tokens, one chunk, so
    # METEOR = 1 - 0.5 (1/10)^3; without a stemmer 8 of 10 match (in 3 chunks)
    inflected = next(c for c in CASES if c.key == "nl-inflection").candidates[0]
    with_stem = score_pair(inflected.hypothesis, inflected.references, language="nl").meteor
    assert with_stem == pytest.approx(100 * (1 - 0.5 / 10**3))
    without = score_pair(inflected.hypothesis, inflected.references, language="other").meteor
    # P = R = 8/10, F-mean = 8/10; chunks: "Tijdens de", "werd over de nieuwe", "gesproken ."
    assert without == pytest.approx(100 * 0.8 * (1 - 0.5 * (3 / 8) ** 3))
    assert language_names()["nl"] == "Dutch"


def test_ter_is_sacrebleus_default_case_insensitive():
    """Issue 24: the page computed TER case-sensitively (85.71 here); sacrebleu's default
    and the rest of the app say 71.43."""
    hyp, ref = "Yesterday, after the meeting, we went home.", \
        "We went home yesterday after the meeting."
    ours = score_pair(hyp, [ref])
    assert ours.ter == pytest.approx(sacrebleu.metrics.TER().sentence_score(hyp, [ref]).score)
    assert f"{ours.ter:.2f}" == "71.43"
    assert f"{sacrebleu.metrics.TER(case_sensitive=True).sentence_score(hyp, [ref]).score:.2f}" \
        == "85.71"
    assert ours.chrf == pytest.approx(sacrebleu.sentence_chrf(hyp, [ref]).score)


def test_every_metric_has_its_signature():
    hyp, refs = "De kat zat op de mat.", ["De kat zit op de mat.", "Een kat zat op de mat."]
    scores = score_pair(hyp, refs, language="nl", lowercase=True)
    signatures = dict(scores.signatures)
    assert list(signatures) == list(METRIC_COLUMNS)
    bleu_metric = sacrebleu.metrics.BLEU(lowercase=True, effective_order=True)
    bleu_metric.sentence_score(hyp, refs)
    # sacrebleu's fields in sacrebleu's order; only the version differs
    assert signatures["BLEU"].rsplit("|version:", 1)[0] == \
        bleu_metric.get_signature().format().rsplit("|version:", 1)[0]
    chrf_metric = sacrebleu.metrics.CHRF(lowercase=True)
    chrf_metric.sentence_score(hyp, refs)
    assert signatures["chrF"].rsplit("|version:", 1)[0] == \
        chrf_metric.get_signature().format().rsplit("|version:", 1)[0]
    ter_metric = sacrebleu.metrics.TER()
    ter_metric.sentence_score(hyp, refs)
    assert signatures["TER"].rsplit("|version:", 1)[0] == \
        ter_metric.get_signature().format().rsplit("|version:", 1)[0]
    assert "case:lc" in signatures["TER"] and "nrefs:2" in signatures["TER"]
    assert "stem:Snowball (dutch)" in signatures["METEOR"] and "syn:none" in signatures["METEOR"]
    assert signatures["ROUGE-L"].startswith("rouge-score ")


@pytest.mark.parametrize("m", [3, 10])
def test_meteor_help_says_what_an_identical_output_scores(m):
    words = " ".join(f"w{i}" for i in range(m))
    assert score_pair(words, [words]).meteor == pytest.approx(100 * (1 - 0.5 / m**3), abs=1e-9)
    assert f"{100 * (1 - 0.5 / 10**3):.2f} for 10 words" in metric_help()["METEOR"]
    assert set(metric_help()) == {*METRIC_COLUMNS, "ROUGE-L recall"}


def test_references_are_named_as_the_candidates_labels_say():
    """The labels say "against refs A, C": the references are listed as ref A, ref C, ref D
    (not "reference 1, 2, 3"); a case with one unnamed reference calls it "reference"."""
    by_key = {case.key: case for case in CASES}
    several = by_key["references"]
    named = dict(several.named_references())
    assert list(named) == ["ref A", "ref C", "ref D"]
    for candidate in several.candidates:
        letters = [named_as.removeprefix("ref ") for named_as, text in named.items()
                   if text in candidate.references]
        assert candidate.label.endswith(", ".join(letters))
    (only,) = by_key["negation"].named_references()
    assert only == ("reference", by_key["negation"].candidates[0].references[0])


@needs_wordnet
def test_synonym_case_needs_wordnet():
    case = next(c for c in CASES if c.key == "synonym")
    with_net = case_frame(case, synonyms=wordnet()).METEOR.iloc[0]
    without = case_frame(case, synonyms=None).METEOR.iloc[0]
    # 10 tokens ("strong ." split by 13a), "strong" vs "firm" the only difference: without
    # synonyms 9 match in 2 chunks, F-mean = 9/10 (P = R), penalty 0.5 (2/9)^3; with WordNet
    # all 10 match in one chunk, penalty 0.5 (1/10)^3
    assert without == pytest.approx(100 * 9 / 10 * (1 - 0.5 * (2 / 9) ** 3))
    assert with_net == pytest.approx(100 * (1 - 0.5 * (1 / 10) ** 3))


@needs_wordnet
def test_debian_wordnet_gives_nltks_documented_meteor():
    # the example of NLTK's own docstring (single_meteor_score): 0.6944 with WordNet 3.0
    hyp_text = ("It is a guide to action which ensures that the military always obeys the "
                "commands of the party")
    ref_text = ("It is a guide to action that ensures that the military will forever heed "
                "Party commands")
    hyp, ref = hyp_text.split(), ref_text.split()
    assert round(meteor_score([ref], hyp, wordnet=wordnet()), 4) == 0.6944
    assert "serious" in {lemma.name() for synset in wordnet().synsets("severe")
                         for lemma in synset.lemmas()}


def test_meteor_without_wordnet_runs_exact_and_stem_only():
    found = meteor("the cats are sitting", ["the cat is sitting"], synonyms=None)
    assert found.stages == ("exact", "stem")
    expected = meteor_score([["the", "cat", "is", "sitting"]], ["the", "cats", "are", "sitting"],
                            wordnet=NoSynonyms())
    assert found.score == pytest.approx(expected)
    assert meteor("a b", ["a b"], language="zh", synonyms=None).stages == ("exact",)


def test_rouge_l_of_german_keeps_umlauts():
    # rouge-score's default tokenizer drops non-ASCII letters ("für" -> "f", "r"); the German
    # path gives it BLEU's tokens instead
    found = rouge_l("Tausende von Menschen erhalten ein Medikament",
                    ["Tausende Menschen erhalten ein Medikament"], language="de")
    # LCS = 5 tokens; hypothesis 6, reference 5: P = 5/6, R = 1, F1 = 2PR/(P+R) = 10/11
    assert (found.precision, found.recall) == pytest.approx((5 / 6, 1.0))
    assert found.fmeasure == pytest.approx(10 / 11)


def test_score_pair_refuses_no_reference():
    with pytest.raises(InputError, match="at least one reference"):
        score_pair("a b", [])


def test_disagreements_by_hand():
    # 5 rated segments (the 6th unrated). BLEU ranks: 10 -> 0.2, 20 -> 0.4, ... 50 -> 1.0;
    # the other score ranks them the other way round: gaps 0.8, 0.4, 0, -0.4, -0.8
    bleu_scores = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    other = np.array([5.0, 4.0, 3.0, 2.0, 1.0, np.nan])
    found = disagreements(bleu_scores, other, k=2)
    assert list(found.segment) == [1, 2, 5, 4]
    assert list(found.gap) == pytest.approx([0.8, 0.4, -0.8, -0.4])
    assert found.direction.iloc[0].startswith("the other score likes it")
    with pytest.raises(InputError, match="same segments"):
        disagreements(bleu_scores, other[:3])


def test_a_broken_case_file_is_refused(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": [{"key": "x"}]}), encoding="utf-8")
    with pytest.raises(InputError, match="not a blind-spot case file"):
        load_cases(path)


def test_every_case_reads_in_dutch_with_the_same_texts_scored():
    dutch = load_cases(CASES_FILE, "nl")
    assert [case.key for case in dutch] == [case.key for case in CASES]
    for english, case in zip(CASES, dutch, strict=True):
        # what a reader reads is Dutch: none of it left as the English case file writes it
        assert case.title != english.title and case.lesson != english.lesson, case.key
        assert case.data != english.data, case.key
        for en, nl in zip(english.candidates, case.candidates, strict=True):
            assert nl.label != en.label or "tokenize" in en.label, (case.key, nl.label)
            assert nl.origin != en.origin, (case.key, nl.origin)
            # what is scored stays: the same hypothesis, references and human score
            assert (nl.hypothesis, nl.references, nl.mqm) == (en.hypothesis, en.references,
                                                              en.mqm)
        assert (case.source_text, case.language) == (english.source_text, english.language)
        assert len({c.label for c in case.candidates}) == len(case.candidates)
    # a language the file has no texts for reads as written
    assert load_cases(CASES_FILE, "fr") == CASES


def test_a_translation_with_other_candidates_is_refused(tmp_path):
    raw = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    raw["cases"][0]["translations"]["nl"]["candidates"].pop()
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(InputError, match="translation has 1 candidates, the case 2"):
        load_cases(path, "nl")


@pytest.mark.full_data
def test_real_lines_are_the_upstream_lines():
    raw = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    mqm_files = {"wmt21_newstest2021_zh-en": "mqm_newstest2021_zhen.avg_seg_scores.tsv",
                 "wmt21_newstest2021_en-de": "mqm_newstest2021_ende.avg_seg_scores.tsv"}
    for case in raw:
        if "written" in case:  # the Dutch cases written for the app: no upstream line
            assert case["data"].startswith("Written for this app") and case["language"] == "nl"
            assert all(c["origin"].startswith("written for this app: ") and c["mqm"] is None
                       for c in case["candidates"])
            continue
        segment = case["segment"]
        refs = [read_lines(SHARED_DATA / path)[segment - 1] for path in case["reference_files"]]
        for candidate in case["candidates"]:
            assert set(candidate.get("references", case["references"])) <= set(refs)
            if "file" not in candidate:
                assert candidate["origin"].startswith("edited: ")
                continue
            assert candidate["line"] == segment
            assert read_lines(SHARED_DATA / candidate["file"])[segment - 1] == \
                candidate["hypothesis"]
            folder, name = candidate["file"].split("/")
            if folder in mqm_files and candidate["mqm"] is not None:
                system = name.split(".hyp.")[1].rsplit(".", 1)[0]
                rows = [line.split() for line in
                        read_lines(SHARED_DATA / folder / mqm_files[folder])[1:]]
                score = next(float(s) for sys_, s, seg in rows
                             if sys_ == system and int(seg) == segment)
                assert candidate["mqm"] == score


def test_by_metric_turns_a_case_round():
    negation = next(c for c in CASES if c.key == "negation")
    frame = case_frame(negation)
    turned = by_metric(frame).set_index("metric")
    assert list(turned.columns) == [c.label for c in negation.candidates]
    assert list(turned.index) == [*METRIC_COLUMNS, "ROUGE-L recall", "MQM (human)"]
    for _, row in frame.iterrows():
        assert turned.loc["TER", row.candidate] == row.TER
    assert turned.loc["MQM (human)"].isna().tolist() == [False, True]  # the edit: no rating
    written = by_metric(case_frame(next(c for c in CASES if c.key == "nl-order")))
    assert "MQM (human)" not in set(written.metric)  # nobody rated the written cases

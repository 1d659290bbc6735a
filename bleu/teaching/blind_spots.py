"""BLEU's blind spots, shown on real cases: every candidate of a case scored by BLEU, chrF, TER,
ROUGE-L and METEOR on the same pair, beside the human (MQM) score where raters scored it.

The cases (``sample_data/blind_spots/cases.json``, its README names sources and terms) are real
WMT segments: real system outputs, and for the meaning flips and the scrambles a real output
with one edit, named as such. ``disagreements`` finds, in a loaded corpus with uploaded segment
scores (human or COMET...), the segments where sentence BLEU and that score disagree most.

Metrics, each the reference implementation or one equal to it, computed as the rest of the app
computes them: BLEU ``bleu.sentence_bleu`` (sacrebleu's sentence defaults, the sidebar's
tokenizer and case), chrF and TER our own with sacrebleu's defaults, made by the metric registry
(``bleu.evaluation.registry``: TER case-insensitive, as sacrebleu and the Metrics page),
ROUGE-L ``rouge-score`` (``bleu.metrics.rouge``), METEOR NLTK's (``bleu.metrics.meteor``,
with NLTK's Snowball stemmer for German and Dutch). Each comes with its signature (sacrebleu's
for BLEU, chrF and TER; library, version and settings for ROUGE-L and METEOR).

Besides the real cases, the case file holds Dutch cases written for this app (their ``origin``
says so; sample_data/blind_spots/README.md gives each one's purpose).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ..evaluation import registry
from ..i18n import DEFAULT, N_, tr
from ..metrics.bleu import sentence_bleu
from ..metrics.meteor import meteor, stemmer_name
from ..metrics.rouge import rouge_l
from .breakdown import no_reference

#: the languages a case or the user's own pair can be in (METEOR's stemmer and synonyms,
#: ROUGE's tokenizer depend on it), by code
LANGUAGES = ("en", "de", "nl", "zh", "other")
#: the score columns of ``case_frame`` and ``PairScores.row``, in display order
METRIC_COLUMNS = ("BLEU", "chrF", "TER", "ROUGE-L", "METEOR")


def language_names() -> dict[str, str]:
    """Each language code's name, in the interface's language."""
    return {"en": tr("English"), "de": tr("German"), "nl": tr("Dutch"), "zh": tr("Chinese"),
            "other": tr("another language")}


def metric_help() -> dict[str, str]:
    """What each score column means, for the tables' column help."""
    return {
        "BLEU": tr("Sentence BLEU with sacrebleu's sentence defaults (exp smoothing, effective "
                   "order), the sidebar's tokenizer and case."),
        "chrF": tr("chrF2: character 1- to 6-gram F-score, recall weighted twice (β = 2); "
                   "sacrebleu's defaults, the sidebar's case."),
        "TER": tr("Translation edit rate: word edits (shifts included) per reference word × "
                  "100, with sacrebleu's defaults (case-insensitive, tercom tokens), as on the "
                  "Metrics page. Lower is better; it can pass 100."),
        "ROUGE-L": tr("ROUGE-L F1 (rouge-score): precision and recall of the longest common "
                      "subsequence of words, against the best reference."),
        "ROUGE-L recall": tr("The longest common subsequence's share of that reference: how "
                             "much of it the output contains, in order."),
        "METEOR": tr("METEOR (NLTK): unigram matches (exact, stem: Porter for English, Snowball "
                     "for German and Dutch, WordNet synonyms for English) with a penalty for "
                     "fragmented matches that is never 0, so an identical output of m words "
                     "scores 100 × (1 − 0.5/m³): 99.95 for 10 words."),
    }


@dataclass(frozen=True)
class Candidate:
    """One hypothesis of a case and the references it is scored against."""

    label: str
    hypothesis: str
    references: tuple[str, ...]
    origin: str  # "real: <file>, line n" or "edited: <what changed>"
    mqm: float | None = None  # the human MQM score (negated; 0 = no error) where rated
    tokenize: str | None = None  # a tokenizer this candidate is about (None: the caller's)
    reference_names: tuple[str, ...] = ()  # the references' names in the test set ("ref A")


@dataclass(frozen=True)
class Case:
    """A ready-made blind-spot case: what it teaches, where it comes from, its candidates."""

    key: str
    title: str
    lesson: str
    language: str
    source_text: str
    data: str  # which test set and segment
    candidates: tuple[Candidate, ...]

    def named_references(self) -> tuple[tuple[str, str], ...]:
        """Each distinct reference once, as (name, text): the test set's name where the case
        file gives one ("ref A", as the candidates' labels say), else "reference k" (just
        "reference" when there is one)."""
        names: dict[str, str | None] = {}
        for candidate in self.candidates:
            given = dict(zip(candidate.references, candidate.reference_names, strict=False))
            for ref in candidate.references:
                names[ref] = names.get(ref) or given.get(ref)
        numbered = len(names) > 1
        return tuple((name or (tr("reference {k}").format(k=k) if numbered else tr("reference")),
                      ref)
                     for k, (ref, name) in enumerate(names.items(), start=1))


def load_cases(path: str | Path, language: str = DEFAULT) -> tuple[Case, ...]:
    """The cases of a ``cases.json`` file (see sample_data/blind_spots/README.md), their
    title, lesson, data and candidates' labels and origins in the interface ``language`` where
    the case's ``translations`` give them (the texts scored stay as they are)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        return tuple(_case(_translated(item, language)) for item in raw["cases"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InputError(tr("{path}: not a blind-spot case file ({error}).").format(
            path=path, error=error)) from error


def _translated(item: dict[str, Any], language: str) -> dict[str, Any]:
    """A case's item with its texts for readers in ``language`` (as written where it has none)."""
    given = item.get("translations", {}).get(language)
    if not given:
        return item
    candidates = given.get("candidates", [])
    if len(candidates) != len(item["candidates"]):
        raise ValueError(f"case {item['key']!r}: its {language!r} translation has "
                         f"{len(candidates)} candidates, the case {len(item['candidates'])}")
    return {**item, **{name: given[name] for name in ("title", "lesson", "data") if name in given},
            "candidates": [{**candidate, **texts}
                           for candidate, texts in zip(item["candidates"], candidates,
                                                       strict=True)]}


def _case(item: dict[str, Any]) -> Case:
    refs = tuple(item["references"])
    candidates = tuple(
        Candidate(c["label"], c["hypothesis"], tuple(c.get("references", refs)), c["origin"],
                  c.get("mqm"), c.get("tokenize"), tuple(c.get("reference_names", ())))
        for c in item["candidates"])
    if item["language"] not in LANGUAGES:
        raise ValueError(f"unknown language {item['language']!r} in case {item['key']!r}")
    return Case(item["key"], item["title"], item["lesson"], item["language"],
                item["source_text"], item["data"], candidates)


@dataclass(frozen=True)
class PairScores:
    """Every metric of one hypothesis against its references, each 0..100 (TER: lower is
    better, can exceed 100), and each metric's signature."""

    bleu: float
    chrf: float
    ter: float
    rouge_l: float  # F1
    rouge_l_recall: float
    meteor: float
    meteor_stages: tuple[str, ...]
    tokenize: str
    signatures: tuple[tuple[str, str], ...] = ()  # (metric, signature) in METRIC_COLUMNS order

    def row(self) -> dict[str, float]:
        """The scores by ``METRIC_COLUMNS`` name."""
        return dict(zip(METRIC_COLUMNS, (self.bleu, self.chrf, self.ter, self.rouge_l,
                                         self.meteor), strict=True))


def _library(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return name


def rouge_signature(language: str, tokenize: str) -> str:
    """ROUGE-L's library, version and tokens, in the style of a sacrebleu signature."""
    tokens = "rouge-score+porter" if language == "en" else f"{tokenize}+lc"
    return f"{_library('rouge-score')}|rougeL|F1|best-ref|tok:{tokens}"


def meteor_signature(language: str, tokenize: str, stages: Sequence[str]) -> str:
    """METEOR's library, version, tokens, stemmer and synonyms, as a signature."""
    synonyms = "wordnet-3.0" if "synonym" in stages else "none"
    return (f"{_library('nltk')}|meteor_score|tok:{tokenize}|stem:{stemmer_name(language)}"
            f"|syn:{synonyms}")


def score_pair(hypothesis: str, references: Sequence[str], *, language: str = "en",
               tokenize: str = "13a", lowercase: bool = False,
               synonyms: Any | None = None) -> PairScores:
    """BLEU, chrF, TER, ROUGE-L and METEOR of ``hypothesis`` against ``references``, as the
    rest of the app computes them, with their signatures.

    ``tokenize`` is BLEU's tokenizer, also used for METEOR's words and (outside English)
    ROUGE's; ``lowercase`` applies to BLEU and chrF (TER is case-insensitive, its default).
    ``synonyms``: the WordNet for METEOR's synonym stage (``meteor.wordnet()``), None for exact
    and stem stages only.
    """
    refs = list(references)
    if not refs or any(not isinstance(r, str) for r in refs):
        raise InputError(no_reference())
    rouge = rouge_l(hypothesis, refs, language=language, tokenize=tokenize)
    found = meteor(hypothesis, refs, language=language, tokenize=tokenize, synonyms=synonyms)
    bleu_score = sentence_bleu(hypothesis, refs, tokenize=tokenize, lowercase=lowercase)
    chrf = registry.get("chrF").make(lowercase=lowercase)
    ter = registry.get("TER").make()
    chrf_score = chrf.sentence_score(hypothesis, refs).score
    ter_score = ter.sentence_score(hypothesis, refs).score
    signatures = (("BLEU", bleu_score.signature), ("chrF", chrf.signature),
                  ("TER", ter.signature), ("ROUGE-L", rouge_signature(language, tokenize)),
                  ("METEOR", meteor_signature(language, tokenize, found.stages)))
    return PairScores(
        bleu=bleu_score.score, chrf=chrf_score, ter=ter_score,
        rouge_l=100 * rouge.fmeasure, rouge_l_recall=100 * rouge.recall,
        meteor=100 * found.score, meteor_stages=found.stages, tokenize=tokenize,
        signatures=signatures)


def case_frame(case: Case, *, tokenize: str = "13a", lowercase: bool = False,
               synonyms: Any | None = None) -> pd.DataFrame:
    """One row per candidate of ``case``: every metric (``METRIC_COLUMNS``), ROUGE-L's
    recall, the human MQM score (None where not rated: the edits) and the tokenizer used."""
    rows = []
    for candidate in case.candidates:
        scores = score_pair(candidate.hypothesis, candidate.references, language=case.language,
                            tokenize=candidate.tokenize or tokenize, lowercase=lowercase,
                            synonyms=synonyms)
        rows.append({"candidate": candidate.label, **scores.row(),
                     "ROUGE-L recall": scores.rouge_l_recall, "MQM (human)": candidate.mqm,
                     "tokenizer": scores.tokenize, "origin": candidate.origin})
    return pd.DataFrame(rows)


#: the rows of ``by_metric``: every score a candidate has, in display order (named in English;
#: the page shows them in the interface language)
SCORE_ROWS = (*METRIC_COLUMNS, N_("ROUGE-L recall"), N_("MQM (human)"))


def by_metric(frame: pd.DataFrame) -> pd.DataFrame:
    """``case_frame`` (or a frame of the same columns) turned round: one row per metric, one
    column per candidate. Two or three candidates make a table narrow enough for a phone,
    where one column per metric ran off the screen. A row no candidate has a value in (MQM
    for texts nobody rated) is left out."""
    rows = [name for name in SCORE_ROWS if name in frame
            and not frame[name].isna().all()]
    turned = frame.set_index("candidate")[rows].T.astype(float)
    turned.columns = [str(name) for name in turned.columns]
    return turned.rename_axis("metric").reset_index()


def case_signatures(case: Case, *, tokenize: str = "13a", lowercase: bool = False,
                    synonyms: Any | None = None) -> tuple[tuple[str, str], ...]:
    """Every (metric, signature) the candidates of ``case`` were scored with, each once (a
    candidate with its own tokenizer or references has its own)."""
    seen: dict[tuple[str, str], None] = {}
    for candidate in case.candidates:
        scores = score_pair(candidate.hypothesis, candidate.references, language=case.language,
                            tokenize=candidate.tokenize or tokenize, lowercase=lowercase,
                            synonyms=synonyms)
        seen.update(dict.fromkeys(scores.signatures))
    return tuple(seen)


def signature_frame(signatures: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """(metric, signature) pairs as a table."""
    return pd.DataFrame(list(signatures), columns=["metric", "signature"])


def disagreements(sentence_scores: np.ndarray, external: np.ndarray, *, k: int = 5,
                  ) -> pd.DataFrame:
    """The segments where sentence BLEU and an external score (human, COMET...) disagree most.

    Both are ranked over the segments the external score rates (percentile ranks, ties
    averaged); ``gap`` = external percentile − BLEU percentile. The ``k`` largest gaps ("the
    other score likes it, BLEU does not") and the ``k`` smallest ("BLEU likes it, the other
    does not") are returned, largest |gap| first within each. ``segment`` is 1-based.
    """
    bleu_scores = np.asarray(sentence_scores, dtype=float)
    other = np.asarray(external, dtype=float)
    if bleu_scores.shape != other.shape:
        raise InputError(tr("{bleu} sentence scores against {other} external scores: they must "
                            "be for the same segments.").format(bleu=len(bleu_scores),
                                                                other=len(other)))
    rated = np.flatnonzero(~np.isnan(other))
    frame = pd.DataFrame({"segment": rated + 1, "sentence BLEU": bleu_scores[rated],
                          "external": other[rated]})
    frame["BLEU percentile"] = frame["sentence BLEU"].rank(pct=True)
    frame["external percentile"] = frame["external"].rank(pct=True)
    frame["gap"] = frame["external percentile"] - frame["BLEU percentile"]
    ordered = frame.sort_values(["gap", "segment"], ascending=[False, True], kind="stable")
    liked = ordered.head(k).assign(direction=tr("the other score likes it, BLEU does not"))
    ordered = frame.sort_values(["gap", "segment"], ascending=[True, True], kind="stable")
    disliked = ordered.head(k).assign(direction=tr("BLEU likes it, the other score does not"))
    return pd.concat([liked, disliked], ignore_index=True)

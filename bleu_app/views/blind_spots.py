"""Blind spots: what BLEU cannot see (meaning, synonyms, paraphrase, order, CJK segmentation),
on real cases and on your own pair, beside chrF, TER, ROUGE-L, METEOR and human scores; where
BLEU and an uploaded score disagree most on the loaded corpus; how to read a corpus score.
Every metric is computed as the rest of the app computes it, each shown with its signature;
which BLEU (SacreBLEU's sentence BLEU; corpus BLEU with the sidebar's options) is said in words
beside its scores. The own pair, its language and the chosen case live in the page's link."""

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from bleu.charts import blind_spots as charts
from bleu.display.escaping import escape_markdown, show_controls
from bleu.display.formatting import SCORE, Column
from bleu.errors import InputError
from bleu.evaluation.systems import Matching
from bleu.explore.segments import sentence_options, sentence_scores
from bleu.i18n import DEFAULT, N_, tr
from bleu.i18n import language as interface_language
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.metrics.bleu.score import BLEUOptions, score_from_stats
from bleu.metrics.meteor import DEBIAN_WORDNET, wordnet
from bleu.teaching import blind_spots, interpretation
from bleu.teaching.blind_spots import (
    LANGUAGES,
    METRIC_COLUMNS,
    Case,
    language_names,
    metric_help,
    signature_frame,
)
from bleu.teaching.breakdown import SENTENCE_DEFAULTS
from bleu.teaching.examples import example
from bleu.teaching.formula import in_force
from bleu_app.runtime import _cache
from bleu_app.scoring import _learned, _metrics, _segment_scores
from bleu_app.session import _samples, _session, _state
from bleu_app.widgets import _charts, _classroom, _example_link
from bleu_app.widgets._example_link import Field

PAGE = "blind_spots"
CASES_FILE = _session.SAMPLE_DIR / "blind_spots" / "cases.json"
#: what the page waits for while a case is scored (the first time: every metric loads, TER
#: compiles its search)
FIRST_SCORING = N_("Scoring the case with BLEU, chrF, TER, ROUGE-L and METEOR; the first time "
                   "after the server starts, each metric loads first: up to half a minute…")
LANGUAGE_CODES = list(LANGUAGES)


#: METEOR's matching stages, named in the interface language
STAGES = {"exact": N_("exact"), "stem": N_("stem"), "synonym": N_("synonym")}


def score_columns() -> dict[str, Column]:
    """How the score tables show numbers: by the app's rule (2 decimals, a dash where
    missing), each column explained."""
    helps = metric_help()
    mqm = tr("Published MQM score of the real output (negated: 0 = the raters found no "
             "error); a dash for an edited or written text, which no human rated.")
    return {**{column: Column(SCORE, help=helps[column])
               for column in (*METRIC_COLUMNS, "ROUGE-L recall")},
            "MQM (human)": Column(SCORE, help=mqm)}


@st.cache_resource(show_spinner=False)
def _loaded_wordnet():
    return wordnet()


def _wordnet():
    """WordNet for METEOR's synonyms, loaded once per server (saying so the first time)."""
    with st.spinner(tr("Loading WordNet 3.0 for METEOR's synonym stage: once after the server "
                       "starts, up to half a minute…")):
        return _loaded_wordnet()


@st.cache_resource(show_spinner=False)
def _cases(code: str = DEFAULT) -> tuple[Case, ...]:
    """The ready cases, their texts in the interface language ``code``."""
    return blind_spots.load_cases(CASES_FILE, code)


@_cache.data(max_entries=64)
def _case_frame(key: str, tokenize: str, lowercase: bool, synonyms: bool,
                code: str) -> pd.DataFrame:
    case = next(c for c in _cases(code) if c.key == key)
    return blind_spots.case_frame(case, tokenize=tokenize, lowercase=lowercase,
                                  synonyms=_wordnet() if synonyms else None)


@_cache.data(max_entries=64)
def _case_signatures(key: str, tokenize: str, lowercase: bool,
                     synonyms: bool) -> tuple[tuple[str, str], ...]:
    case = next(c for c in _cases() if c.key == key)
    return blind_spots.case_signatures(case, tokenize=tokenize, lowercase=lowercase,
                                       synonyms=_wordnet() if synonyms else None)


def show_signatures(signatures) -> None:
    """The signatures the scores above were computed with, in a closed expander."""
    with st.expander(tr("Signatures: the settings of every score (SacreBLEU's for BLEU, chrF "
                        "and TER)"), icon=":material/fingerprint:"):
        _classroom.grid(signature_frame(signatures), {"signature": Column()},
                     widths={"signature": "large"}, key=f"blind_signatures_{len(signatures)}",
                     labels={"metric": tr("metric"), "signature": tr("signature")})


@_cache.data(max_entries=16)
def _comparability(system: TextFile, references: tuple[TextFile, ...],
                   options: BLEUOptions, lang: str) -> pd.DataFrame:
    """The output's BLEU under the other settings (the settings named in ``lang``)."""
    return interpretation.comparability(
        system.segments, [ref.segments for ref in references], options,
        reference_names=[tr("ref {k}").format(k=name) for name in
                         interpretation.short_names([ref.name for ref in references])])


def score_table(frame: pd.DataFrame, key: str, *scores: str) -> None:
    """A frame of scores written by the app's rule, the MQM column explained; ``scores``:
    other score columns (an uploaded metric's)."""
    _classroom.grid(frame, {**score_columns(), **{name: Column(SCORE) for name in scores}},
                 key=key, labels={"candidate": tr("candidate"), "tokenizer": tr("tokenizer")})


def metric_table(frame: pd.DataFrame, key: str) -> None:
    """A case's (or the own pair's) scores turned round, one row per metric, one column per
    candidate: narrow enough for a phone; what each metric measures in the closed expander
    below it."""
    turned = blind_spots.by_metric(frame)
    columns = {"metric": Column(help=tr("Each metric's meaning: open “What the metrics "
                                        "measure” below, or the glossary."), translated=True),
               **{name: Column(SCORE) for name in turned.columns if name != "metric"}}
    _classroom.grid(turned, columns, key=key, labels={"metric": tr("metric")}, width="content")


def metric_meanings() -> None:
    """What each metric of the score tables measures, one line each."""
    with st.expander(tr("What the metrics measure"), icon=":material/help:"):
        meanings = {**metric_help(), "MQM (human)": score_columns()["MQM (human)"].help}
        st.markdown("\n".join(f"- **{escape_markdown(name)}**: {escape_markdown(text)}"
                               for name, text in meanings.items()))


def sentence_bleu_caption(opts: BLEUOptions, tokenizers: list[str] | None = None) -> None:
    """Which BLEU the scores above are, in words: SacreBLEU's sentence BLEU with the
    sidebar's tokenizer and case (or the case's own tokenizers)."""
    options = replace(SENTENCE_DEFAULTS, tokenize=opts.tokenize, lowercase=opts.lowercase)
    said = in_force(options)
    if tokenizers and len(tokenizers) > 1:
        said += " " + tr("This case's candidates each have their own tokenizer: {names}.").format(
            names=", ".join(tokenizers))
    st.caption(escape_markdown(said))


def show_case(case: Case, opts: BLEUOptions, synonyms: bool) -> None:
    """One ready-made case: what it teaches, its texts, every metric."""
    st.info(escape_markdown(case.lesson), icon=":material/lightbulb:")
    st.caption(escape_markdown(tr("{data}. Source: {source}").format(data=case.data,
                                                                    source=case.source_text)))
    lines = [f"- **{escape_markdown(c.label)}**: {escape_markdown(c.hypothesis)} "
             f"*({escape_markdown(c.origin)})*" for c in case.candidates]
    lines += [f"- *{escape_markdown(name)}*: {escape_markdown(ref)}"
              for name, ref in case.named_references()]
    st.markdown("\n".join(lines))
    with st.spinner(tr(FIRST_SCORING)):
        frame = _case_frame(case.key, opts.tokenize, opts.lowercase, synonyms,
                           interface_language())
    metric_table(frame, "blind_scores")
    tokenizers = [f"{label}: {tok}" for label, tok in zip(frame.candidate, frame.tokenizer,
                                                           strict=True)]
    sentence_bleu_caption(opts, tokenizers if len(set(frame.tokenizer)) > 1 else None)
    metric_meanings()
    _charts.show(_classroom.charts(st), charts.case_chart, frame, width="stretch",
                 key="blind_case_chart")
    show_signatures(_case_signatures(case.key, opts.tokenize, opts.lowercase, synonyms))


def own_pair(opts: BLEUOptions, synonyms: bool) -> None:
    """A box for the user's own candidate and references, every metric at once."""
    with st.container(border=True):
        left, right, lang = st.columns([2, 2, 1])
        hypothesis = left.text_area(tr("Candidate translation"), key="blind_hyp", height=90)
        references = [line for line in right.text_area(
            tr("Reference translation(s), one per line"), key="blind_refs",
            height=90).splitlines() if line.strip()]
        language = lang.selectbox(tr("Language"), LANGUAGE_CODES,
                                  format_func=language_names().get, key="blind_language",
                                  help=tr("METEOR's stemmer (English: Porter, German and "
                                          "Dutch: Snowball) and synonyms (English WordNet); "
                                          "ROUGE's tokenizer."))
        try:
            scores = blind_spots.score_pair(
                hypothesis, references, language=language, tokenize=opts.tokenize,
                lowercase=opts.lowercase, synonyms=_wordnet() if synonyms else None)
        except InputError as error:
            st.error(escape_markdown(str(error)))
            return
        frame = pd.DataFrame([{"candidate": tr("your candidate translation"), **scores.row(),
                               "ROUGE-L recall": scores.rouge_l_recall}])
        metric_table(frame, "blind_own_scores")
        sentence_bleu_caption(opts)
        st.caption(escape_markdown(tr("METEOR stages: {stages}; tokenizer {tokenize} (the "
                                      "sidebar's).").format(
            stages=", ".join(tr(STAGES.get(stage, stage)) for stage in scores.meteor_stages),
            tokenize=scores.tokenize)))
        show_signatures(scores.signatures)
        if not _classroom.presenting():
            _learned.pair_score(hypothesis, references)


def corpus_disagreements(data: Dataset, opts: BLEUOptions, synonyms: bool) -> None:
    """Where sentence BLEU and uploaded segment scores (human, COMET...) disagree most; in
    presentation mode nothing until such scores are loaded (the note points to another
    page)."""
    labels = list(_segment_scores.loaded())
    matched = _segment_scores.matching(data, labels[-1]) if labels else None
    if not isinstance(matched, Matching) and _classroom.presenting():
        return
    st.header(tr("On the loaded corpus: where BLEU and another score differ most"))
    if not isinstance(matched, Matching):
        if isinstance(matched, str):
            st.warning(escape_markdown(matched))
        st.info(tr("Learned metrics (COMET, BLEURT) and human scores are not computed here: "
                   "upload their segment scores on the Metrics & human scores page, and this "
                   "section finds the segments where they and BLEU differ most."))
        st.button(tr("Load the WMT21 example (en-de) with MQM scores"), key="blind_load_mqm",
                  on_click=_samples.load_mqm_sample)
        return
    external = matched.scores.by_system()
    names = [name for name in data.systems if name in external]
    label = matched.scores.label
    c1, c2 = st.columns(2)
    system = c1.selectbox(tr("System"), names, format_func=show_controls, key="blind_system")
    guessed = data.target_language if data.target_language in LANGUAGES else "other"
    language = c2.selectbox(tr("Target language"), LANGUAGE_CODES,
                            format_func=language_names().get,
                            index=LANGUAGE_CODES.index(guessed), key="blind_corpus_language",
                            help=tr("Guessed from the file names or the script; it picks "
                                    "METEOR's stemmer and synonyms and ROUGE's tokens."))
    stats = _metrics.bleu_stats(data)[system]
    bleu_scores = np.asarray(sentence_scores(stats, sentence_options(opts)))
    picked = blind_spots.disagreements(bleu_scores, external[system], k=5)
    st.caption(escape_markdown(tr(
        "{label} and sentence BLEU ranked over the {count} rated segments of {system}; the 5 "
        "with the largest rank gap each way, with every other metric on the same "
        "pair.").format(label=label, count=int((~np.isnan(external[system])).sum()),
                        system=system)))
    sentence_bleu_caption(opts)
    _charts.show(_classroom.charts(st), charts.disagreement_chart, bleu_scores,
                 external[system], picked, label, width="stretch",
                 key="blind_disagreement_chart")
    rows, texts = [], []
    reference = tr("reference")  # outside the f-string below: Babel reads no tr() in one
    for item in picked.itertuples(index=False):
        index = int(item.segment) - 1
        refs = [ref.segments[index] for ref in data.references
                if ref.segments[index] is not None]
        hypothesis = data.systems[system].segments[index]
        scores = blind_spots.score_pair(hypothesis, refs, language=language,
                                        tokenize=opts.tokenize, lowercase=opts.lowercase,
                                        synonyms=_wordnet() if synonyms else None)
        rows.append({"segment": int(item.segment), "direction": item.direction,
                     label: float(item.external) + 0.0, **scores.row()})
        texts.append(f"- **{int(item.segment)}** {escape_markdown(hypothesis)}  \n"
                     f"  *{escape_markdown(reference)}*: "
                     f"{escape_markdown(refs[0] if refs else '')}")
    score_table(pd.DataFrame(rows), "blind_disagreements", label)
    with st.expander(tr("The texts of these segments"), expanded=False):
        st.markdown("\n".join(texts))


def guide(data: Dataset, opts: BLEUOptions) -> None:
    """The quoted BLEU bands beside the loaded systems' scores, and the caveat shown live."""
    stats = _metrics.bleu_stats(data)
    left, right = st.columns([1, 1])
    with left:
        _classroom.grid(interpretation.bands_frame(), {
            "BLEU": Column(), "interpretation": Column(label=N_("interpretation"))},
            key="blind_bands")
        st.caption(escape_markdown(tr("Bands: {source}, a rough guide only.").format(
            source=tr(interpretation.SOURCE))))
    with right:
        rows = []
        for name, matrix in stats.items():
            score = score_from_stats(np.asarray(matrix).sum(axis=0), opts).score
            found = interpretation.band(score)
            rows.append({"system": name, "BLEU": score, "band": found.label})
        _classroom.grid(pd.DataFrame(rows), score_columns(), key="blind_system_bands",
                     labels={"system": tr("system"), "band": tr("band")})
        st.caption(escape_markdown(in_force(opts, corpus=True, sidebar=True)))
    quote, credit = tr(interpretation.CAVEAT), tr(interpretation.CAVEAT_SOURCE)
    st.warning(escape_markdown(f"“{quote}” ({credit}). " + tr(
        "SacreBLEU's signature records the settings a number was computed with (references, "
        "case, tokenizer, smoothing); below, one output under other settings, each with its "
        "signature.")), icon=":material/warning:")
    system = st.selectbox(tr("Output"), list(data.systems),
                          format_func=show_controls, key="blind_guide_system")
    frame = _comparability(data.systems[system], data.references, opts,
                           interface_language())
    _charts.show(_classroom.charts(st), charts.comparability_chart, frame, width="stretch",
                 key="blind_comparability_chart")
    _classroom.grid(frame.drop(columns=["interpretation"]),
                 {**score_columns(), "signature": Column()}, widths={"signature": "large"},
                 key="blind_comparability")


FIELDS = (
    Field("bs_hyp", "blind_hyp", _example_link.text_value, text=True),
    Field("bs_refs", "blind_refs", _example_link.text_value, text=True),
    Field("bs_lang", "blind_language", _example_link.choice(LANGUAGE_CODES)),
    Field("bs_case", "blind_case", _example_link.choice([case.key for case in _cases()])),
    _example_link.PRESENT,
)

data, opts = _session.dataset(), _state.options()
start = example("paraphrase")
st.session_state.setdefault("blind_hyp", start.candidate)
st.session_state.setdefault("blind_refs", "\n".join(start.references))
st.session_state.setdefault("blind_language", start.language)
_example_link.restore(PAGE, FIELDS)
_classroom.header(tr("Blind spots"), PAGE)
st.caption(escape_markdown(tr(
    "BLEU counts the n-grams a candidate translation has in common with the references. It "
    "sees no difference between a dropped negation or a wrong number and a harmless change, "
    "punishes a correct paraphrase, and sees word order only inside 4-grams. The cases below "
    "are real WMT segments (and, for Dutch, cases written for this app), scored by BLEU, "
    "chrF, TER, ROUGE-L (rouge-score) and METEOR (NLTK) on the same pair, with the sidebar's "
    "tokenizer ({tokenize}) for the word-based ones and each metric's signature.").format(
    tokenize=opts.tokenize)))
synonyms = _wordnet() is not None
if synonyms:
    st.caption(tr("METEOR runs all three matching stages: exact, stem, and WordNet 3.0 "
                  "synonyms (English)."))
else:
    st.info(tr(  # no user text: the path is the app's own
        "METEOR runs its exact and stem stages here; its synonym stage needs WordNet 3.0, which "
        "this server does not have ({path} is missing; on Debian or Ubuntu, `sudo apt-get "
        "install wordnet-base` adds it). So synonyms are not matched: METEOR's scores may be "
        "lower than with them, and its signature says so. Every other metric is "
        "complete.").format(path=DEBIAN_WORDNET), icon=":material/info:")

st.header(tr("Ready-made cases"))
cases = {case.key: case for case in _cases(interface_language())}
chosen = st.selectbox(tr("Ready-made case"), list(cases), format_func=lambda key: cases[key].title,
                      key="blind_case")
show_case(cases[chosen], opts, synonyms)

st.header(tr("Your own pair"))
own_pair(opts, synonyms)

corpus_disagreements(data, opts, synonyms)

st.header(tr("Reading a corpus score"))
guide(data, opts)
if not _classroom.presenting():
    _example_link.share_box(FIELDS)
_example_link.save(FIELDS)

"""Blind spots: what BLEU cannot see (meaning, synonyms, paraphrase, order, CJK segmentation),
on real cases and on your own pair, beside chrF, TER, ROUGE-L, METEOR and human scores; where
BLEU and an uploaded score disagree most on the loaded corpus; how to read a corpus score."""

import numpy as np
import pandas as pd
import streamlit as st

from bleu.analysis import blind_spots, interpretation
from bleu.analysis.blind_spots import LANGUAGES, METRIC_COLUMNS, METRIC_HELP, Case
from bleu.analysis.escaping import escape_markdown, show_controls
from bleu.analysis.formatting import SCORE, Column
from bleu.analysis.meteor import DEBIAN_WORDNET, wordnet
from bleu.analysis.segments import sentence_options, sentence_scores
from bleu.charts import blind_spots as charts
from bleu.errors import InputError
from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.io.scores.read import Matching
from bleu.metrics.bleu.score import BLEUOptions, score_from_stats
from bleu_app.views import _cache, _charts, _metrics, _segment_scores, _session, _state, _tables

CASES_FILE = _session.SAMPLE_DIR / "blind_spots" / "cases.json"
LANGUAGE_NAMES = list(LANGUAGES)
MQM_HELP = ("Published MQM score of the real output (negated: 0 = the raters found no error); "
            "a dash for an edited text, which no human rated.")
#: how the score tables show numbers: by the app's rule (2 decimals, a dash where missing)
SCORE_COLUMNS = {**{column: Column(SCORE, help=METRIC_HELP[column])
                    for column in (*METRIC_COLUMNS, "ROUGE-L recall")},
                 "MQM (human)": Column(SCORE, help=MQM_HELP)}


@st.cache_resource(show_spinner="Loading WordNet 3.0 for METEOR's synonym stage (once)…")
def _wordnet():
    return wordnet()


@st.cache_resource(show_spinner=False)
def _cases() -> tuple[Case, ...]:
    return blind_spots.load_cases(CASES_FILE)


@st.cache_data(max_entries=64, show_spinner=False)
def _case_frame(key: str, tokenize: str, lowercase: bool, synonyms: bool) -> pd.DataFrame:
    case = next(c for c in _cases() if c.key == key)
    return blind_spots.case_frame(case, tokenize=tokenize, lowercase=lowercase,
                                  synonyms=_wordnet() if synonyms else None)


@st.cache_data(max_entries=16, show_spinner="Scoring the output under other settings…",
               hash_funcs=_cache.HASH_FUNCS)
def _comparability(system: TextFile, references: tuple[TextFile, ...],
                   options: BLEUOptions) -> pd.DataFrame:
    return interpretation.comparability(
        system.segments, [ref.segments for ref in references], options,
        reference_names=[f"ref {name}" for name in
                         interpretation.short_names([ref.name for ref in references])])


def score_table(frame: pd.DataFrame, key: str, *scores: str) -> None:
    """A frame of scores written by the app's rule, the MQM column explained; ``scores``:
    other score columns (an uploaded metric's)."""
    _tables.show(frame, {**SCORE_COLUMNS, **{name: Column(SCORE) for name in scores}}, key=key)


def show_case(case: Case, opts: BLEUOptions, synonyms: bool) -> None:
    """One ready-made case: what it teaches, its texts, every metric."""
    st.info(escape_markdown(case.lesson), icon=":material/lightbulb:")
    st.caption(escape_markdown(f"{case.data}. Source: {case.source_text}"))
    lines = [f"- **{escape_markdown(c.label)}**: {escape_markdown(c.hypothesis)} "
             f"*({escape_markdown(c.origin)})*" for c in case.candidates]
    lines += [f"- *{escape_markdown(name)}*: {escape_markdown(ref)}"
              for name, ref in case.named_references()]
    st.markdown("\n".join(lines))
    frame = _case_frame(case.key, opts.tokenize, opts.lowercase, synonyms)
    score_table(frame.drop(columns=["origin"]), "blind_scores")
    _charts.show(st, charts.case_chart(frame), width="stretch", key="blind_case_chart")


def own_pair(opts: BLEUOptions, synonyms: bool) -> None:
    """A box for the user's own hypothesis and references, every metric at once."""
    with st.container(border=True):
        left, right, lang = st.columns([2, 2, 1])
        hypothesis = left.text_area("Hypothesis", key="blind_hyp", height=90)
        references = [line for line in right.text_area(
            "References, one per line", key="blind_refs", height=90).splitlines()
            if line.strip()]
        language = lang.selectbox("Language", LANGUAGE_NAMES, format_func=LANGUAGES.get,
                                  key="blind_language",
                                  help="METEOR's stemmer (English: Porter, German: Snowball) "
                                       "and synonyms (English WordNet); ROUGE's tokenizer.")
        try:
            scores = blind_spots.score_pair(
                hypothesis, references, language=language, tokenize=opts.tokenize,
                lowercase=opts.lowercase, synonyms=_wordnet() if synonyms else None)
        except InputError as error:
            st.error(escape_markdown(str(error)))
            return
        frame = pd.DataFrame([{"candidate": "your hypothesis", **scores.row(),
                               "ROUGE-L recall": scores.rouge_l_recall}])
        score_table(frame, "blind_own_scores")
        st.caption(f"METEOR stages: {', '.join(scores.meteor_stages)}; tokenizer "
                   f"{scores.tokenize} (the sidebar's).")


def corpus_disagreements(data: Dataset, opts: BLEUOptions, synonyms: bool) -> None:
    """Where sentence BLEU and uploaded segment scores (human, COMET...) disagree most."""
    labels = list(_segment_scores.loaded())
    matched = _segment_scores.matching(data, labels[-1]) if labels else None
    if not isinstance(matched, Matching):
        if isinstance(matched, str):
            st.warning(escape_markdown(matched))
        st.info("Learned metrics (COMET, BLEURT) and human scores are not computed here: "
                "upload their segment scores on the Metrics & human scores page, and this "
                "section finds the segments where they and BLEU disagree most.")
        st.button("Load the WMT21 en-de sample with its MQM scores", key="blind_load_mqm",
                  on_click=_segment_scores.load_mqm_sample)
        return
    external = matched.scores.by_system()
    names = [name for name in data.systems if name in external]
    label = matched.scores.label
    c1, c2 = st.columns(2)
    system = c1.selectbox("System", names, format_func=show_controls, key="blind_system")
    guessed = data.target_language if data.target_language in LANGUAGES else "other"
    language = c2.selectbox("Target language", LANGUAGE_NAMES, format_func=LANGUAGES.get,
                            index=LANGUAGE_NAMES.index(guessed), key="blind_corpus_language",
                            help="Guessed from the file names or the script; it picks METEOR's "
                                 "stemmer and synonyms and ROUGE's tokens.")
    stats = _metrics.bleu_stats(data)[system]
    bleu_scores = np.asarray(sentence_scores(stats, sentence_options(opts)))
    picked = blind_spots.disagreements(bleu_scores, external[system], k=5)
    st.caption(escape_markdown(
        f"{label} and sentence BLEU ranked over the {int((~np.isnan(external[system])).sum())} "
        f"rated segments of {system}; the 5 with the largest rank gap each way, with every "
        "other metric on the same pair."))
    _charts.show(st, charts.disagreement_chart(bleu_scores, external[system], picked, label),
                    width="stretch", key="blind_disagreement_chart")
    rows, texts = [], []
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
                     f"  *reference*: {escape_markdown(refs[0] if refs else '')}")
    score_table(pd.DataFrame(rows), "blind_disagreements", label)
    with st.expander("The texts of these segments", expanded=False):
        st.markdown("\n".join(texts))


def guide(data: Dataset, opts: BLEUOptions) -> None:
    """The quoted BLEU bands beside the loaded systems' scores, and the caveat shown live."""
    stats = _metrics.bleu_stats(data)
    left, right = st.columns([1, 1])
    with left:
        _tables.dataframe(interpretation.bands_frame(), hide_index=True, key="blind_bands")
        st.caption(escape_markdown(f"Bands: {interpretation.SOURCE}, a rough guide only."))
    with right:
        rows = []
        for name, matrix in stats.items():
            score = score_from_stats(np.asarray(matrix).sum(axis=0), opts).score
            found = interpretation.band(score)
            rows.append({"system": name, "BLEU": score, "band": found.label})
        _tables.show(pd.DataFrame(rows), SCORE_COLUMNS, key="blind_system_bands")
    st.warning(escape_markdown(f"“{interpretation.CAVEAT}” ({interpretation.CAVEAT_SOURCE}). "
                               "The signature records the settings a number was computed with "
                               "(references, case, tokenizer, smoothing); below, one output "
                               "under other settings."),
               icon=":material/warning:")
    system = st.selectbox("Output", list(data.systems),
                          format_func=show_controls, key="blind_guide_system")
    frame = _comparability(data.systems[system], data.references, opts)
    _charts.show(st, charts.comparability_chart(frame), width="stretch",
                    key="blind_comparability_chart")
    _tables.show(frame.drop(columns=["interpretation"]),
                 {**SCORE_COLUMNS, "signature": Column()}, widths={"signature": "large"},
                 key="blind_comparability")


data, opts = _session.dataset(), _state.options()
st.session_state.setdefault("blind_hyp", "The building is strong and the foundation is solid.")
st.session_state.setdefault("blind_refs", "The foundation is solid and the building is firm.")
st.title("Blind spots")
st.caption("BLEU counts the n-grams a hypothesis shares with its references. It cannot tell "
           "a negation or a wrong number from a harmless change, punishes a correct paraphrase, "
           "and sees word order only inside 4-grams. Each case below is a real WMT segment, "
           "scored by BLEU, chrF, TER, ROUGE-L (rouge-score) and METEOR (NLTK) on the same "
           f"pair, with the sidebar's tokenizer ({opts.tokenize}) for the word-based ones.")
synonyms = _wordnet() is not None
if synonyms:
    st.caption("METEOR runs all three matching stages: exact, stem, and WordNet 3.0 synonyms.")
else:
    st.warning(f"WordNet's database is not installed ({DEBIAN_WORDNET} is missing: Debian's "
               "`wordnet-base` package provides it). METEOR runs its exact and stem stages "
               "only, so synonyms are not matched.", icon=":material/warning:")

st.header("Ready-made cases")
cases = {case.key: case for case in _cases()}
chosen = st.selectbox("Case", list(cases), format_func=lambda key: cases[key].title,
                      key="blind_case")
show_case(cases[chosen], opts, synonyms)

st.header("Your own pair")
own_pair(opts, synonyms)

st.header("On the loaded corpus: where BLEU and another score disagree")
corpus_disagreements(data, opts, synonyms)

st.header("Reading a corpus score")
guide(data, opts)

"""Background: where BLEU comes from, why it spread, what WMT uses it for today and what took
its place, in the app's own words, for a first-year student. Text only."""

import streamlit as st

from bleu.i18n import tr
from bleu_app.widgets import _classroom, _example_link

PAGE = "background"
FIELDS = (_example_link.PRESENT,)

_example_link.restore(PAGE, FIELDS)
_classroom.header(tr("Background"), PAGE)
st.caption(tr("A short history of BLEU, to read before or after the other teaching pages."))

st.header(tr("Who proposed BLEU, and when"))
st.markdown(tr(
    "BLEU (*Bilingual Evaluation Understudy*) was proposed by Kishore Papineni, Salim Roukos, "
    "Todd Ward and Wei-Jing Zhu of IBM's T. J. Watson Research Center, first in an IBM "
    "research report (2001) and then at the ACL conference in Philadelphia in 2002: "
    "“BLEU: a Method for Automatic Evaluation of Machine Translation”. The name says what it "
    "was meant to be: an *understudy* that stands in for human judges when they are not "
    "available, and that is quick, cheap and the same every time it is run."))
st.markdown(tr(
    "The idea is the one How BLEU works takes apart: a good machine translation shares many "
    "words and word sequences (n-grams) with translations made by people. BLEU counts those "
    "shared n-grams, clips the counts so that repeating a word does not help, averages the "
    "precisions of n = 1 to 4 geometrically and multiplies by a brevity penalty, because "
    "precision alone would reward a translation that says very little."))

st.header(tr("Why it spread"))
st.markdown(tr(
    "- **It was fast and automatic.** Before BLEU, judging a system meant paying translators "
    "to read its output, which took weeks. BLEU scores a test set in seconds, so researchers "
    "could compare versions of a system every day.\n"
    "- **It agreed with people, on average.** The original paper showed that on a whole test "
    "set (not on single sentences) BLEU ranked systems much as human judges did.\n"
    "- **It is the same for every language pair**, as long as the text can be split into "
    "words, and needs nothing but reference translations.\n"
    "- **It could be optimised.** Statistical systems of the 2000s tuned their parameters to "
    "maximise BLEU on a development set (minimum error rate training, Och 2003), which tied "
    "the field to the metric. A variant was adopted for the NIST machine translation "
    "evaluations (the NIST score, Doddington 2002)."))
st.markdown(tr(
    "Its weaknesses were known early: Callison-Burch, Osborne and Koehn (2006) showed that a "
    "higher BLEU does not always mean a better translation, and Reiter (2018), reviewing 34 "
    "validation studies, found BLEU fit for the diagnostic evaluation of MT systems it was made "
    "for, but not for judging single texts, for tasks other than MT, or for testing scientific "
    "hypotheses. The Blind spots page shows why on real cases: meaning, "
    "synonyms, paraphrase and word order are invisible to it. Scores also changed with "
    "tokenization and settings until Post (2018) introduced sacreBLEU and its signatures, "
    "which this app follows."))

st.header(tr("What WMT uses it for today"))
st.markdown(tr(
    "WMT, the yearly Conference on Machine Translation, runs shared tasks in which teams "
    "translate the same test sets. The official ranking of its general translation task comes "
    "from human evaluation, not from BLEU. BLEU (computed with sacreBLEU) is still reported "
    "next to chrF and learned metrics, because it is easy to reproduce and comparable with "
    "twenty years of papers, and in the metrics shared task it is a baseline: a new metric "
    "is judged by how much better than BLEU it agrees with expert human scores. The bundled "
    "sample of this app, WMT22 English→German, comes with such published BLEU scores."))

st.header(tr("What replaced it"))
st.markdown(tr(
    "- **chrF** (Popović 2015) counts character n-grams instead of words. It gives partial "
    "credit to another form of a word or a compound, and is used beside BLEU at WMT.\n"
    "- **Learned metrics** such as **COMET** (Rei et al. 2020), BLEURT (Sellam et al. 2020) "
    "and MetricX are neural networks trained on human judgments; they compare meaning, not "
    "only surface words. Kocmi et al. (2021) found COMET far more reliable than BLEU for "
    "deciding which of two systems is better, and the WMT22 metrics task summed up its "
    "results in its title: “Stop Using BLEU – Neural Metrics Are Better and More Robust” "
    "(Freitag et al. 2022).\n"
    "- **MQM** (Multidimensional Quality Metrics) is the human standard these metrics are "
    "measured against: professional translators mark every error with its type and severity "
    "(Freitag et al. 2021). The Metrics & human scores page of this app reads such scores."))
st.markdown(tr(
    "BLEU remains worth learning: it is simple enough to compute by hand, it is the baseline "
    "every newer metric is compared with, and its blind spots explain why those metrics were "
    "needed."))

st.header(tr("Further reading"))
st.markdown(tr(
    "- Papineni, Roukos, Ward, Zhu (2002). BLEU: a Method for Automatic Evaluation of Machine "
    "Translation. ACL.\n"
    "- Callison-Burch, Osborne, Koehn (2006). Re-evaluating the Role of BLEU in Machine "
    "Translation Research. EACL.\n"
    "- Popović (2015). chrF: character n-gram F-score for automatic MT evaluation. WMT.\n"
    "- Post (2018). A Call for Clarity in Reporting BLEU Scores. WMT.\n"
    "- Reiter (2018). A Structured Review of the Validity of BLEU. Computational Linguistics.\n"
    "- Rei, Stewart, Farinha, Lavie (2020). COMET: A Neural Framework for MT Evaluation. "
    "EMNLP.\n"
    "- Freitag et al. (2021). Experts, Errors, and Context: A Large-Scale Study of Human "
    "Evaluation for Machine Translation. TACL.\n"
    "- Kocmi et al. (2021). To Ship or Not to Ship: An Extensive Evaluation of Automatic "
    "Metrics for Machine Translation. WMT.\n"
    "- Freitag et al. (2022). Results of WMT22 Metrics Shared Task: Stop Using BLEU – Neural "
    "Metrics Are Better and More Robust. WMT."))
_example_link.save(FIELDS)

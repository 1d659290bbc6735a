"""The terms the teaching pages' captions use, each explained in a sentence or two for a
first-year student: the glossary panel lists them, and widgets show one as their hover help
(``tip``). Texts are built when asked, in the interface's language."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import tr


@dataclass(frozen=True)
class Term:
    """A term, its short symbol or abbreviation where it has one, and what it means."""

    key: str
    name: str
    symbol: str
    meaning: str


def glossary() -> tuple[Term, ...]:
    """Every term, in the order a lesson meets them."""
    return (
        Term("candidate", tr("candidate translation"), tr("hypothesis, system output"),
             tr("The machine translation that is scored.")),
        Term("reference", tr("reference translation"), "",
             tr("A translation made by a person; BLEU compares the candidate with one or more "
                "of them.")),
        Term("token", tr("token"), "",
             tr("A unit BLEU counts: a word, or a punctuation mark split off by the "
                "tokenizer (13a: sacrebleu's default; zh: one token per Chinese character).")),
        Term("ngram", tr("n-gram"), "",
             tr("A run of n tokens in a row: “the cat” is a 2-gram (bigram). A sentence of c "
                "tokens has c − n + 1 n-grams.")),
        Term("clipping", tr("clipping (modified precision)"), "",
             tr("A candidate n-gram is credited at most as often as ONE reference has it, so "
                "“the the the the” cannot score by repeating a common word.")),
        Term("precision", tr("n-gram precision"), "p_n",
             tr("The candidate's credited n-grams divided by all its n-grams: m_n/t_n. "
                "BLEU uses n = 1 to N, usually N = 4.")),
        Term("weights", tr("weights"), "w_n",
             tr("How much each p_n counts in the mean; the article's formula takes w_n = 1/N.")),
        Term("geometric", tr("geometric mean"), "exp(Σ w_n log p_n)",
             tr("The N-th root of the product of the p_n (with w_n = 1/N). One p_n of 0 makes "
                "it 0.")),
        Term("bp", tr("brevity penalty"), "BP",
             tr("Precision alone rewards short output; BP = e^(1 − r/c) when the candidate is "
                "shorter than the reference (c < r), else 1.")),
        Term("lengths", tr("candidate and reference length"), "c, r",
             tr("c: the candidate's tokens; r: the length of the reference closest to c (the "
                "shorter on a tie). For a corpus both are summed over the sentences.")),
        Term("scale", tr("the 0–1 scale and × 100"), "",
             tr("The article defines BLEU between 0 and 1; sacrebleu and most papers print it "
                "multiplied by 100 (0.4483 = 44.83).")),
        Term("smoothing", tr("smoothing"), "",
             tr("A way to replace a p_n of 0 by a small number so one sentence does not score "
                "0: sacrebleu's sentence BLEU uses exp smoothing (1/2, 1/4, ... of the "
                "n-grams). The article's formula has none.")),
        Term("effective", tr("effective order"), "",
             tr("For a sentence shorter than N tokens: leave out the orders it has no n-grams "
                "of (0/0), instead of counting them as 0.")),
        Term("corpus", tr("corpus BLEU and sentence BLEU"), "",
             tr("Corpus BLEU adds up the counts and lengths of all sentences, then applies the "
                "formula once; it is not the mean of the sentences' scores.")),
        Term("signature", tr("signature"), "",
             tr("sacrebleu's one-line record of the settings a score was computed with "
                "(references, case, tokenizer, smoothing, version): scores are comparable only "
                "when their signatures match.")),
        Term("chrf", "chrF", "",
             tr("Character n-gram F-score (Popović 2015): matches letters, so it gives partial "
                "credit to another form of a word or a compound.")),
        Term("ter", "TER", "",
             tr("Translation edit rate: the edits (insert, delete, substitute, shift) that "
                "turn the candidate into the reference, per reference word. Lower is better.")),
        Term("meteor", "METEOR", "",
             tr("Matches words exactly, by stem and (for English) by WordNet synonym, and "
                "penalises scattered matches: word order counts.")),
        Term("rouge", "ROUGE-L", "",
             tr("The longest common subsequence of words; made for summaries and read for "
                "its recall: how much of the reference the output covers.")),
        Term("mqm", "MQM", "",
             tr("Multidimensional Quality Metrics: trained translators mark every error with "
                "its type and severity; the penalties sum to a human score.")),
        Term("learned", tr("learned metrics"), "COMET, BLEURT",
             tr("Neural networks trained on human judgments to score a translation; they see "
                "meaning that n-gram overlap misses.")),
    )


def term(key: str) -> Term:
    """The term with this key (a KeyError names a key the glossary lacks)."""
    return {t.key: t for t in glossary()}[key]


def tip(*keys: str) -> str:
    """Hover help explaining the terms ``keys``: "**name** (symbol): meaning", one a line."""
    lines = []
    for key in keys:
        found = term(key)
        symbol = f" ({found.symbol})" if found.symbol else ""
        lines.append(f"**{found.name}**{symbol}: {found.meaning}")
    return "\n\n".join(lines)

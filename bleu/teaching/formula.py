"""Which BLEU a number is, said in words beside it: the article's formula, SacreBLEU's sentence
BLEU (exp smoothing, effective order), or the settings of a page or of the sidebar; and the
reminder that log is the natural logarithm."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import tr
from ..metrics.bleu.score import BLEUOptions
from .breakdown import ARTICLE_FORMULA, SENTENCE_DEFAULTS, preset_of
from .option_names import on_off, smoothing_label


def natural_log() -> str:
    """The reminder every formula needs: log is the natural logarithm."""
    return tr("log is the natural logarithm ln (base e).")


def settings_text(options: BLEUOptions) -> str:
    """N, smoothing and effective order in a few words."""
    return tr("N = {order}, smoothing {smoothing}, effective order {effective}").format(
        order=options.max_ngram_order, smoothing=smoothing_label(options),
        effective=on_off(options.effective_order))


def in_force(options: BLEUOptions, *, corpus: bool = False, sidebar: bool = False,
             weights: Sequence[float] | None = None, tokenizers: str | None = None) -> str:
    """One sentence saying which BLEU a number shown with ``options`` is: ``corpus`` for corpus
    BLEU, ``sidebar`` when the options are the sidebar's (else the page's own);
    ``tokenizers``: what to say of the tokenizer where it is not ``options.tokenize`` (a
    comparison of tokenizers)."""
    preset = preset_of(options, weights)
    if preset is not None and preset.options == ARTICLE_FORMULA:
        what = tr("the article's formula, BLEU = BP × exp(Σ w_n log p_n) with N = 4, "
                  "w_n = 1/4, no smoothing: a p_n of 0 makes BLEU 0")
    elif preset is not None and preset.options == SENTENCE_DEFAULTS:
        what = tr("SacreBLEU's sentence BLEU: the article's formula with exp smoothing (a p_n "
                  "of 0 becomes 1/(2·t_n), the next one 1/(4·t_n), …) and effective order")
    elif sidebar:
        what = tr("the sidebar's options: {settings}").format(settings=settings_text(options))
    else:
        what = tr("this page's settings: {settings}").format(settings=settings_text(options))
    level = tr("Corpus BLEU") if corpus else tr("Sentence BLEU")
    if tokenizers is None:
        tokenizers = tr("tokenizer {tokenize}").format(tokenize=options.tokenize)
        if options.lowercase:
            tokenizers += ", " + tr("lowercased")
    return tr("{level} here: {what}; {tokenizers}. {log}").format(
        level=level, what=what, tokenizers=tokenizers, log=natural_log())

"""Reading a corpus BLEU score: the commonly quoted quality bands, and why they only hold on
like-for-like comparisons.

The bands are the rough guide of Google Cloud's AutoML Translation documentation ("Evaluating
models"), quoted widely, for instance next to Microsoft's Custom Translator documentation, whose
own note is the caveat: "A comparison between BLEU scores is only justifiable when BLEU results
are compared with the same Test set, the same language pair, and the same MT engine."
``comparability`` shows the caveat live: the same output's BLEU under the other tokenizers,
case, and reference sets, each with its signature and band: only the signature tells the
numbers apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from ..display.formatting import PLAIN
from ..i18n import N_, tr
from ..metrics.bleu import BLEU, signature
from ..metrics.bleu.score import BLEUOptions
from ..metrics.checks import References

SOURCE = "Google Cloud AutoML Translation documentation, \"Evaluating models\" (BLEU)"
CAVEAT = ("A comparison between BLEU scores is only justifiable when BLEU results are compared "
          "with the same Test set, the same language pair, and the same MT engine.")
CAVEAT_SOURCE = ("Microsoft Azure AI Translator, Custom Translator documentation, "
                 "\"What is a BLEU score?\"")


@dataclass(frozen=True)
class Band:
    """A BLEU range [low, high) and its quoted interpretation (English: ``tr`` shows it)."""

    low: float
    high: float
    meaning: str

    @property
    def label(self) -> str:
        low, high = PLAIN.text(self.low), PLAIN.text(self.high)
        if self.low == 0:
            return f"< {high}"
        return f"> {low}" if math.isinf(self.high) else f"{low}–{high}"


BANDS = (
    Band(0, 10, N_("Almost useless")),
    Band(10, 20, N_("Hard to get the gist")),
    Band(20, 30, N_("The gist is clear, but has significant grammatical errors")),
    Band(30, 40, N_("Understandable to good translations")),
    Band(40, 50, N_("High quality translations")),
    Band(50, 60, N_("Very high quality, adequate, and fluent translations")),
    Band(60, math.inf, N_("Quality often better than human")),
)


def band(score: float) -> Band:
    """The band a corpus BLEU score falls in (each band holds its lower bound)."""
    return next(b for b in BANDS if score < b.high)


def bands_frame() -> pd.DataFrame:
    """The bands as a table (BLEU range, interpretation in the interface language)."""
    return pd.DataFrame({"BLEU": [b.label for b in BANDS],
                         "interpretation": [tr(b.meaning) for b in BANDS]})


def _common_start(texts: Sequence[str]) -> str:
    """The longest string every text starts with (character by character)."""
    first, last = min(texts), max(texts)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def short_names(names: Sequence[str]) -> list[str]:
    """File names without the prefix and suffix they all share (``ref.A.de``, ``ref.B.de`` ->
    ``A``, ``B``); the names as given when that would leave one empty or two equal."""
    if len(names) < 2:
        return list(names)
    prefix = _common_start(names)
    suffix = _common_start([n[len(prefix):][::-1] for n in names])[::-1]
    short = [n[len(prefix): len(n) - len(suffix)] for n in names]
    return short if all(short) and len(set(short)) == len(short) else list(names)


def comparability(hypotheses: Sequence[str], references: References, options: BLEUOptions, *,
                  reference_names: Sequence[str] | None = None,
                  tokenizers: Sequence[str] = ("13a", "intl", "char", "none"),
                  ) -> pd.DataFrame:
    """The same output's corpus BLEU under each tokenizer, the other case setting, and each
    single reference (when there are several), beside ``options`` as given: score, band and
    signature per row (settings and interpretations in the interface language). Nothing about
    the output changes between rows."""
    names = list(reference_names or [tr("ref {k}").format(k=k + 1)
                                     for k in range(len(references))])
    variants: list[tuple[str, BLEUOptions, References]] = [
        (tr("as chosen"), options, references)]
    variants += [(tr("tokenize {name}").format(name=name), replace(options, tokenize=name),
                  references) for name in tokenizers if name != options.tokenize]
    variants.append((tr("mixed case") if options.lowercase else tr("lowercased"),
                     replace(options, lowercase=not options.lowercase), references))
    if len(references) > 1:
        variants += [(tr("{name} only").format(name=name), options, [stream])
                     for name, stream in zip(names, references, strict=True)]
    rows = []
    for what, opts, refs in variants:
        metric = BLEU(tokenize=opts.tokenize, lowercase=opts.lowercase,
                      smooth_method=opts.smooth_method, smooth_value=opts.smooth_value,
                      max_ngram_order=opts.max_ngram_order,
                      effective_order=opts.effective_order, force=True)
        score = metric.corpus_score(list(hypotheses), refs).score
        found = band(score)
        rows.append({"setting": what, "BLEU": score, "band": found.label,
                     "interpretation": tr(found.meaning),
                     "signature": signature(opts, len(refs))})
    return pd.DataFrame(rows)

"""A printable handout of one worked example: the pair, the settings, every step with its
numbers, the score on both scales and the glossary, as one self-contained HTML file (inline
CSS for screen and print, no script, no image, no font or link to fetch: it opens and prints
offline). ``worksheet=True`` leaves the computed cells empty for students to fill in by hand.

Numbers are the walkthrough's own texts (``bleu.teaching.breakdown``); every piece of text is
HTML-escaped with its control and bidi characters made visible (``escape``: this is a file of
its own, not Markdown, so ``escaping.escape_html``'s Markdown guards are not needed).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..display.escaping import show_controls
from ..i18n import language, tr
from .breakdown import Walkthrough, fmt_factor, fmt_score, fmt_unit, preset_of
from .glossary import glossary

_STYLE = """
  body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
         padding: 0 1em; line-height: 1.4; color: #111; }
  h1 { font-size: 1.5em; margin-bottom: 0.2em; }
  h2 { font-size: 1.15em; margin: 1.4em 0 0.4em; border-bottom: 1px solid #999; }
  table { border-collapse: collapse; margin: 0.4em 0 0.8em; }
  th, td { border: 1px solid #888; padding: 0.15em 0.5em; text-align: left; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  td.blank { min-width: 4em; }
  .formula { font-family: 'DejaVu Sans Mono', monospace; background: #f4f4f4;
             padding: 0.3em 0.5em; white-space: pre-wrap; }
  .tokens span { border: 1px solid #aaa; padding: 0 0.25em; margin: 0 0.1em;
                 display: inline-block; }
  .small { font-size: 0.85em; color: #444; }
  dl.glossary dt { font-weight: bold; margin-top: 0.3em; }
  dl.glossary dd { margin-left: 1.2em; }
  section { break-inside: avoid; page-break-inside: avoid; }
  @media print {
    body { margin: 0; max-width: none; font-size: 11pt; }
    .formula { background: none; border: 1px solid #bbb; }
    h2 { break-after: avoid; page-break-after: avoid; }
  }
  @page { margin: 1.8cm; }
"""


def escape_html(text: object) -> str:
    """Text for the handout's HTML: escaped (quotes too), controls and bidi made visible."""
    return html.escape(show_controls(str(text)), quote=True)


def _cell(text: object, blank: bool = False, number: bool = False) -> str:
    if blank:
        return '<td class="blank"></td>'
    css = ' class="num"' if number else ""
    return f"<td{css}>{escape_html(str(text))}</td>"


def _row(cells: Sequence[str]) -> str:
    return "<tr>" + "".join(cells) + "</tr>"


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{escape_html(name)}</th>" for name in names) + "</tr>"


def _settings(walk: Walkthrough) -> str:
    options = walk.options
    preset = preset_of(options, walk.weights)
    rows = [
        (tr("tokenizer"), options.tokenize),
        (tr("case"), tr("lowercased") if options.lowercase else tr("case-sensitive")),
        (tr("N (max n-gram order)"), str(options.max_ngram_order)),
        (tr("weights w_n"), ", ".join(fmt_factor(w) for w in walk.weights)),
        (tr("smoothing"), options.smooth_method),
        (tr("effective order"), tr("on") if options.effective_order else tr("off")),
    ]
    body = "".join(_row([_cell(name), _cell(value)]) for name, value in rows)
    said = (tr("Preset: {name}. {description}").format(
        name=preset.name, description=preset.description) if preset is not None
        else tr("Custom settings: neither the article's formula nor sacrebleu's sentence-BLEU "
                "defaults."))
    return f"<table>{body}</table><p class=\"small\">{escape_html(said)}</p>"


def _orders(walk: Walkthrough, worksheet: bool) -> str:
    parts = []
    for step in walk.orders:
        n = step.order
        rows = [_row([_cell(r.ngram), _cell(r.count, number=True),
                      _cell(r.max_ref_count, worksheet, True),
                      _cell(r.clipped, worksheet, True)]) for r in walk.tables[n - 1]]
        header = _head(tr("n-gram"), tr("count"), tr("max ref count"), tr("credited"))
        none = escape_html(tr("The candidate has no {n}-grams.").format(n=n))
        table = (f"<table>{header}" + "".join(rows) + "</table>") if rows else f"<p>{none}</p>"
        result = (f"p_{n} = ____ / ____ = ______" if worksheet
                  else f"p_{n} = {step.raw_text}" + (
                      "" if step.used_text == step.raw_text else
                      " → " + tr("used: {used} ({note})").format(used=step.used_text,
                                                                 note=step.note)))
        title = tr("{n}-gram precision p_{n}").format(n=n)
        parts.append(f"<section><h2>{escape_html(title)}</h2>{table}"
                     f'<p class="formula">{escape_html(result)}</p></section>')
    return "".join(parts)


def _final(walk: Walkthrough, worksheet: bool) -> str:
    brevity = walk.brevity
    bp_text = ("BP = ______" if worksheet else brevity.reason)
    lengths = ", ".join("–" if n is None else str(n) for n in brevity.ref_lengths)
    score = ("BLEU = BP × exp(Σ w_n·log p_n) = ______ (0–1) = ______ (× 100)" if worksheet
             else walk.formula + "\n" + tr("On the article's 0–1 scale: {unit}; × 100: "
                                           "{score}.").format(unit=fmt_unit(walk.score),
                                                              score=fmt_score(walk.score)))
    head = tr("c = {c} candidate tokens; reference lengths: {lengths}").format(
        c=brevity.c, lengths=lengths)
    # the headings outside the f-string: Babel reads no tr() inside one (Python < 3.12)
    bp_title, score_title = escape_html(tr("Brevity penalty")), escape_html(tr("The score"))
    return (f"<section><h2>{bp_title}</h2>"
            f"<p>{escape_html(head)}</p>"
            f'<p class="formula">BP = 1 if c &gt; r, else e^(1 − r/c)\n'
            f"{escape_html(bp_text)}</p></section>"
            f"<section><h2>{score_title}</h2>"
            f'<p class="formula">{escape_html(score)}</p>'
            + ("" if worksheet or not walk.collapse else
               f"<p>{escape_html(walk.collapse)}</p>") + "</section>")


def _glossary() -> str:
    items = "".join(f"<dt>{escape_html(t.name)}"
                    + (f" ({escape_html(t.symbol)})" if t.symbol else "")
                    + f"</dt><dd>{escape_html(t.meaning)}</dd>" for t in glossary()[:14])
    title = escape_html(tr("Glossary"))
    return (f"<section><h2>{title}</h2>"
            f'<dl class="glossary">{items}</dl></section>')


def handout_html(walk: Walkthrough, candidate: str, references: Sequence[str], *,
                 worksheet: bool = False, title: str | None = None) -> str:
    """The worked example of ``walk`` (for ``candidate`` and ``references``) as a printable,
    self-contained HTML page; ``worksheet``: the computed cells left empty."""
    heading = title or (tr("BLEU by hand: a worksheet") if worksheet
                        else tr("BLEU worked out, step by step"))
    refs = "".join(f"<li>{escape_html(ref)}</li>" for ref in references)
    tokens = "".join(f"<span>{escape_html(token)}</span>" for token in walk.tokens) or \
        escape_html(tr("(none)"))
    c_line = "c = ______" if worksheet else f"c = {len(walk.tokens)}"
    intro = tr("BLEU (Papineni et al. 2002) scores a candidate translation by the n-grams it "
               "shares with human reference translations: clipped n-gram precisions p_n, "
               "their geometric mean, and a brevity penalty for output that is too short.")
    # the words outside the f-string: Babel reads no tr() inside one (Python < 3.12)
    words = {key: escape_html(text) for key, text in (
        ("pair", tr("The pair")), ("candidate", tr("Candidate")),
        ("references", tr("References")), ("settings", tr("Settings")),
        ("tokens", tr("Tokens")), ("made", tr("Made with BLEU Explorer.")))}
    body = (
        f"<h1>{escape_html(heading)}</h1><p class=\"small\">{escape_html(intro)}</p>"
        f"<section><h2>{words['pair']}</h2>"
        f"<p><b>{words['candidate']}</b>: {escape_html(candidate)}</p>"
        f"<p><b>{words['references']}</b></p><ol>{refs}</ol></section>"
        f"<section><h2>{words['settings']}</h2>{_settings(walk)}</section>"
        f"<section><h2>{words['tokens']}</h2>"
        f'<p class="tokens">{tokens}</p><p class="formula">{c_line}</p></section>'
        + _orders(walk, worksheet) + _final(walk, worksheet) + _glossary()
        + f'<p class="small">{words["made"]}</p>'
    )
    return (f'<!DOCTYPE html>\n<html lang="{language()}"><head><meta charset="utf-8">'
            f"<title>{escape_html(heading)}</title><style>{_STYLE}</style></head>"
            f"<body>{body}</body></html>\n")

"""HTML for a segment's n-gram matches, one layer per order, from ``bleu.explain()``.

Every n-gram occurrence is one element, ``<span class="ngram STATUS nK">``, STATUS being
``match`` (credited), ``clip`` (in a reference, but past the max count there) or ``miss`` (in no
reference); its ``title`` says the counts. The output is one line of HTML in which every piece of
user text is escaped and ``$ * _ ` \\ ~ |`` are written as character references: Streamlit's
markdown (``unsafe_allow_html``) passes an HTML block through untouched as long as it holds no
blank line, and a character reference is never markdown or LaTeX syntax.

Right-to-left text (Hebrew, Arabic: ``bleu.io.languages.text_direction``) gets its chips laid
out right to left (``dir="rtl"`` on each layer's chips), so the chips run as the words do; the
chips stay in the text's order in the markup, for copying and screen readers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..display.escaping import escape_html
from ..display.formatting import BP, COUNT, SCORE
from ..i18n import tr
from ..io.languages import text_direction
from ..metrics.bleu.explain import Explanation, NgramMatch

_CSS = (
    "<style>"
    ".bleu-hl .ngram{display:inline-block;margin:1px 2px;padding:0 3px;border-radius:3px}"
    ".bleu-hl .ngram.match{background:#c8e6c9;color:#1b1b1b;border:1px solid #2e7d32}"
    ".bleu-hl .ngram.clip{background:#ffe0b2;color:#1b1b1b;border:1px dashed #e65100}"
    ".bleu-hl .ngram.miss{border:1px dotted #9e9e9e;opacity:0.75}"
    ".bleu-hl .ngram.differs{box-shadow:inset 0 -3px 0 #1565c0}"
    ".bleu-hl .bleu-layer{display:flex;align-items:baseline;margin:2px 0;line-height:1.9}"
    ".bleu-hl .layer-label{flex:none;min-width:7.5em;font-size:0.8em;opacity:0.8}"
    ".bleu-hl .ngrams{flex:1 1 auto;min-width:0}"
    ".bleu-hl .segment-head{font-size:0.85em;opacity:0.85}"
    ".bleu-hl .bp-ref{margin-left:6px;padding:0 4px;border-radius:3px;font-size:0.8em;"
    "border:1px solid #6a1b9a;color:#6a1b9a}"
    ".bleu-hl .hyp,.bleu-hl .ref{margin:4px 0 10px 0}"
    "</style>"
)


def _orders(explanation: Explanation, orders: Sequence[int] | None) -> list[int]:
    available = range(1, explanation.options.max_ngram_order + 1)
    return [n for n in available if orders is None or n in orders]


def _span(words: str, status: str, order: int, position: int, title: str,
          extra: Sequence[str] = ()) -> str:
    classes = " ".join(["ngram", status, f"n{order}", *extra])
    return (f'<span class="{classes}" data-order="{order}" data-pos="{position}" dir="auto" '
            f'title="{escape_html(title)}">{escape_html(words)}</span>')


def _reference_phrase(gram: NgramMatch) -> str:
    if not gram.max_ref_count:
        return tr("in no reference")
    return tr("at most {count}× in one reference (reference {k})").format(
        count=gram.max_ref_count, k=gram.best_reference + 1)


def _hypothesis_title(gram: NgramMatch, status: str) -> str:
    head = tr("“{ngram}” ({n}-gram): {count}× in the hypothesis, {where}").format(
        ngram=gram.text, n=gram.order, count=gram.count, where=_reference_phrase(gram))
    if status == "match":
        return tr("{head}; credited {credited} of {count}").format(
            head=head, credited=gram.credited, count=gram.count)
    if status == "clip":
        return tr("{head}; clipped: only {credited} of {count} credited").format(
            head=head, credited=gram.credited, count=gram.count)
    return tr("{head}; not credited").format(head=head)


def _layer(label: str, spans: list[str], order: int, direction: str) -> str:
    """One order's chips after its label, in the text's direction (``rtl``: the first n-gram
    at the right, as the words of Hebrew or Arabic run), each chip isolated (``dir="auto"``)."""
    return (f'<div class="bleu-layer n{order}" data-order="{order}">'
            f'<span class="layer-label">{escape_html(label)}</span>'
            f'<div class="ngrams" dir="{direction}">{" ".join(spans)}</div></div>')


def _wrap(inner: str, role: str) -> str:
    """A self-contained block: the scoped style, then the content, on one line."""
    return f'<div class="bleu-hl {role}">{_CSS}{inner}</div>'


def _hypothesis_block(explanation: Explanation, orders: Sequence[int] | None,
                      contrast: Explanation | None, label: str) -> str:
    layers = []
    direction = text_direction(explanation.hypothesis)
    for n in _orders(explanation, orders):
        other = ({g.ngram for g in contrast.ngrams[n - 1]}
                 if contrast is not None and n <= len(contrast.ngrams) else None)
        occurrences = []
        for gram in explanation.ngrams[n - 1]:
            for k, position in enumerate(gram.positions):
                status = ("match" if k < gram.credited
                          else "clip" if gram.max_ref_count else "miss")
                extra = ("differs",) if other is not None and gram.ngram not in other else ()
                occurrences.append((position, _span(gram.text, status, n, position,
                                                    _hypothesis_title(gram, status), extra)))
        summary = explanation.orders[n - 1]
        spans = [span for _, span in sorted(occurrences)]
        layers.append(_layer(tr("{n}-grams {matches}/{total}").format(
            n=n, matches=summary.matches, total=summary.total), spans, n, direction))
    head = '<div class="segment-head">{}</div>'.format(escape_html(tr(
        "{label}: {tokens} tokens, sentence BLEU {score}, BP {bp}").format(
        label=label, tokens=COUNT.text(explanation.hyp_len),
        score=SCORE.text(explanation.score.score), bp=BP.text(explanation.bp))))
    return f'<div class="hyp">{head}{"".join(layers)}</div>'


def _reference_block(explanation: Explanation, index: int, orders: Sequence[int] | None) -> str:
    reference = explanation.references[index]
    if reference is None:
        return ""
    layers = []
    tokens = reference.tokens
    direction = text_direction(reference.text)
    for n in _orders(explanation, orders):
        in_hypothesis = {g.ngram: g for g in explanation.ngrams[n - 1]}
        grams = [tuple(tokens[start : start + n]) for start in range(len(tokens) - n + 1)]
        total = Counter(grams)
        seen: Counter[tuple[str, ...]] = Counter()
        spans = []
        for start, words in enumerate(grams):
            seen[words] += 1
            gram = in_hypothesis.get(words)
            status = ("miss" if gram is None
                      else "match" if seen[words] <= gram.count else "clip")
            extra = ("best",) if gram is not None and gram.best_reference == index else ()
            title = tr("“{ngram}” ({n}-gram): {count}× in this reference, {there}").format(
                ngram=" ".join(words), n=n, count=total[words],
                there=tr("{count}× in the hypothesis").format(count=gram.count)
                if gram is not None else tr("not in the hypothesis"))
            if extra:
                title += tr("; this reference supplies the max count")
            spans.append(_span(" ".join(words), status, n, start, title, extra))
        layers.append(_layer(tr("{n}-grams").format(n=n), spans, n, direction))
    is_bp = index == explanation.ref_len_reference
    badge = ""
    if is_bp:
        badge = (f'<span class="bp-ref" title="{escape_html(_bp_title(explanation))}">'
                 + escape_html(tr("BP reference length {length}").format(
                     length=COUNT.text(explanation.ref_len))) + "</span>")
    head = ('<div class="segment-head">' + escape_html(tr(
        "reference {k}: {tokens} tokens").format(k=index + 1,
                                                 tokens=COUNT.text(reference.length)))
            + f"{badge}</div>")
    classes = "ref bp" if is_bp else "ref"
    return f'<div class="{classes}" data-ref="{index + 1}">{head}{"".join(layers)}</div>'


def reference_html(explanation: Explanation, index: int,
                   orders: Sequence[int] | None = None) -> str:
    """Reference ``index`` highlighted the same way, the BP's reference marked (class ``bp``).

    An occurrence is ``match`` when the hypothesis has the n-gram at least this many times,
    ``clip`` when it has it fewer times, ``miss`` when it lacks it; ``best`` marks the n-grams
    for which this reference supplied the max count. Empty for a missing (None) reference.
    """
    inner = _reference_block(explanation, index, orders)
    return _wrap(inner, "reference") if inner else ""


def _bp_title(explanation: Explanation) -> str:
    return tr("The brevity penalty uses the reference length closest to the hypothesis length "
              "{hyp_len} (the shorter one on a tie): {ref_len}; BP = {bp}").format(
        hyp_len=COUNT.text(explanation.hyp_len), ref_len=COUNT.text(explanation.ref_len),
        bp=BP.text(explanation.bp))


def segment_html(explanation: Explanation, orders: Sequence[int] | None = None, *,
                 contrast: Explanation | None = None, label: str | None = None) -> str:
    """The hypothesis (``label``, default "hypothesis") and every reference of a segment,
    highlighted, in one HTML block."""
    label = tr("hypothesis") if label is None else label
    parts = [_hypothesis_block(explanation, orders, contrast, label)]
    parts += [_reference_block(explanation, k, orders)
              for k in range(len(explanation.references))]
    return _wrap("".join(parts), "segment")


def legend_html() -> str:
    """A one-line legend of the three statuses and the ``differs`` mark; each status says what
    it means on the output's side and on a reference's."""
    samples = [
        ("match", tr("matched (credited)")),
        ("clip", tr("clipped: in the output, a copy past the most any one reference has; in a "
                    "reference, a copy past the output's count")),
        ("miss", tr("unmatched: in no reference / not in the output")),
        ("miss differs", tr("not in the other system's output")),
    ]
    spans = [f'<span class="ngram {status} legend">{escape_html(text)}</span>'
             for status, text in samples]
    return _wrap(" ".join(spans), "legend")

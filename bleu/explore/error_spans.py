"""HTML for the error spans a model marks on a translation (xCOMET): the segment's text with each
span wrapped in ``<span class="err-span SEVERITY">``, its severity and the model's confidence in
its ``title``, and a legend.

Kept apart from ``highlight`` (BLEU's n-gram layers): the spans are character offsets into the
raw segment, not tokens. Every piece of text is escaped (``escaping.escape_html``, character by
character, so slices escape as the whole would); the block has ``dir="auto"``, so a right-to-left
segment is laid out as the browser lays out its plain text. Spans that overlap an earlier one
are cut to what is left of them, spans outside the text are clipped to it, empty ones dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..display.escaping import escape_html
from ..display.formatting import COUNT, RATIO
from ..i18n import tr
from ..metrics.learned.results import ErrorSpan

#: xCOMET's severities, mildest first; a span of another name is marked as ``other``
SEVERITIES = ("minor", "major", "critical")

#: colours with a distinct underline each, so that severity does not rest on colour alone
_CSS = (
    "<style>"
    ".bleu-spans .err-span{padding:0 1px;border-radius:2px;color:#1b1b1b}"
    ".bleu-spans .err-span.minor{background:#fff59d;border-bottom:2px dotted #f9a825}"
    ".bleu-spans .err-span.major{background:#ffcc80;border-bottom:2px solid #e65100}"
    ".bleu-spans .err-span.critical{background:#ef9a9a;border-bottom:3px double #b71c1c}"
    ".bleu-spans .err-span.other{background:#e0e0e0;border-bottom:2px dashed #616161}"
    ".bleu-spans .err-sev{font-size:0.7em;vertical-align:super;margin-left:1px;opacity:0.85}"
    ".bleu-spans.legend .err-span{margin-right:6px}"
    "</style>"
)


def severity_class(severity: str) -> str:
    """The CSS class of a severity: one of SEVERITIES (case aside), else ``other``."""
    name = severity.strip().lower()
    return name if name in SEVERITIES else "other"


def _title(span: ErrorSpan) -> str:
    return tr("{severity} error (confidence {confidence})").format(
        severity=span.severity, confidence=RATIO.text(span.confidence))


def placed(text: str, spans: Sequence[ErrorSpan]) -> list[tuple[int, int, ErrorSpan]]:
    """The spans as (start, end) stretches of ``text`` in order, clipped to the text, each cut
    to what no earlier span covers; empty stretches dropped."""
    found = []
    covered = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        start = max(0, min(span.start, len(text)), covered)
        end = max(0, min(span.end, len(text)))
        if start < end:
            found.append((start, end, span))
            covered = end
    return found


def _marked(text: str, span: ErrorSpan) -> str:
    kind = severity_class(span.severity)
    return (f'<span class="err-span {kind}" data-severity="{escape_html(span.severity)}" '
            f'title="{escape_html(_title(span))}">{escape_html(text)}'
            f'<span class="err-sev">{escape_html(span.severity)}</span></span>')


def spans_html(text: str, spans: Sequence[ErrorSpan]) -> str:
    """``text`` with its error spans marked, as one line of HTML (``dir="auto"``)."""
    parts = []
    position = 0
    for start, end, span in placed(text, spans):
        parts.append(escape_html(text[position:start]))
        parts.append(_marked(text[start:end], span))
        position = end
    parts.append(escape_html(text[position:]))
    return f'<div class="bleu-spans segment" dir="auto">{_CSS}{"".join(parts)}</div>'


def summary(spans: Sequence[ErrorSpan]) -> str:
    """How many spans of each severity, mildest first (``2 minor, 1 major``), or that there are
    none."""
    if not spans:
        return tr("no error spans")
    counts = Counter(span.severity for span in spans)
    known = [name for name in SEVERITIES if name in counts]
    ordered = known + sorted(name for name in counts if name not in SEVERITIES)
    return ", ".join(tr("{count} {severity}").format(count=COUNT.text(counts[name]),
                                                     severity=name) for name in ordered)


def legend_html() -> str:
    """The three severities as they are marked."""
    samples = (("minor", tr("minor error")), ("major", tr("major error")),
               ("critical", tr("critical error")))
    marks = [f'<span class="err-span {name}">{escape_html(text)}</span>' for name, text in samples]
    return f'<div class="bleu-spans legend">{_CSS}{" ".join(marks)}</div>'

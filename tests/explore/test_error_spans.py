"""Error spans marked on a segment's text (bleu.explore.error_spans): the HTML, read back with
Python's own HTML parser, shows the segment's text unchanged and in order, every character a span
covers marked with that span's severity, nothing else marked; user text and severities are
escaped; right-to-left text keeps its logical order under ``dir="auto"``. No torch needed."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from conftest import segment_text
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.display.escaping import show_controls
from bleu.explore.error_spans import SEVERITIES, legend_html, placed, spans_html, summary
from bleu.metrics.learned import ErrorSpan


@dataclass
class _Read(HTMLParser):
    """The visible characters of a spans block, each with the severity class marking it (None:
    unmarked); the severity labels and the style sheet are left out."""

    chars: list[tuple[str, str | None]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    directions: list[str | None] = field(default_factory=list)
    _stack: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "div":
            self.directions.append(found.get("dir"))
        if "title" in found:
            self.titles.append(found["title"] or "")
        self._stack.append(f"{tag}.{found.get('class') or ''}")

    def handle_endtag(self, tag: str) -> None:
        self._stack.pop()

    def handle_data(self, data: str) -> None:
        if any(item.startswith("style") or item.endswith("err-sev") for item in self._stack):
            return
        marks = [item.split(" ", 1)[1] for item in self._stack if "err-span " in item]
        for char in data:
            self.chars.append((char, marks[-1] if marks else None))


def _read(html: str) -> _Read:
    reader = _Read()
    reader.feed(html)
    reader.close()
    return reader


def _shown(text: str) -> str:
    """What the page shows of ``text``: controls made visible, a line break as a space."""
    return show_controls(text.replace("\n", " "))


def test_spans_are_marked_with_their_severity_and_the_text_is_unchanged() -> None:
    text = "Die Katze saß auf der Matte, oder nicht."
    spans = [ErrorSpan(4, 9, "minor", "Katze", 0.41), ErrorSpan(14, 17, "major", "auf", 0.9),
             ErrorSpan(29, 39, "critical", "oder nicht", 0.77)]
    read = _read(spans_html(text, spans))
    assert "".join(char for char, _ in read.chars) == text
    marked = {}
    for position, (_, mark) in enumerate(read.chars):
        if mark is not None:
            marked.setdefault(mark, []).append(position)
    assert "".join(text[i] for i in marked["minor"]) == "Katze"
    assert "".join(text[i] for i in marked["major"]) == "auf"
    assert "".join(text[i] for i in marked["critical"]) == "oder nicht"
    assert read.titles == ["minor error (confidence 0.410)", "major error (confidence 0.900)",
                           "critical error (confidence 0.770)"]


def test_user_text_and_severities_are_escaped() -> None:
    text = '<script>alert("x")</script> $x^2$ *bold* [link](http://a.b)'
    spans = [ErrorSpan(0, 8, 'major" onmouseover="alert(1)', "<script>", 0.5)]
    html = spans_html(text, spans)
    assert "<script>" not in html and "onmouseover=\"" not in html
    for special in "$*[]`":
        assert special not in html.split("</style>", 1)[1]  # Markdown/LaTeX never reads them
    read = _read(html)
    assert "".join(char for char, _ in read.chars) == text
    assert read.chars[0][1] == "other"  # an unknown severity gets the neutral mark


def test_right_to_left_text_keeps_its_order_under_dir_auto() -> None:
    text = "القطة جلست على الحصيرة"
    spans = [ErrorSpan(6, 10, "major", "جلست", 0.8)]
    read = _read(spans_html(text, spans))
    assert read.directions[0] == "auto"
    assert "".join(char for char, _ in read.chars) == text  # logical order, as typed
    assert "".join(char for char, mark in read.chars if mark) == "جلست"


def test_spans_outside_the_text_are_clipped_and_overlaps_cut() -> None:
    text = "abcdefghij"
    spans = [ErrorSpan(2, 6, "minor", "cdef", 0.5), ErrorSpan(4, 8, "critical", "efgh", 0.5),
             ErrorSpan(8, 50, "major", "ij", 0.5), ErrorSpan(-3, 1, "minor", "a", 0.5),
             ErrorSpan(5, 5, "major", "", 0.5)]
    read = _read(spans_html(text, spans))
    assert "".join(char for char, _ in read.chars) == text
    assert [mark for _, mark in read.chars] == [
        "minor", None, "minor", "minor", "minor", "minor", "critical", "critical", "major",
        "major"]


_severity = st.sampled_from([*SEVERITIES, "Major", "weird <b>"])


@settings(deadline=None)  # a property, not a timing: the shared machine's load varies
@given(st.data(), segment_text)
def test_every_covered_character_is_marked_by_a_span_covering_it(data: st.DataObject,
                                                                  text: str) -> None:
    n = len(text)
    spans = data.draw(st.lists(st.builds(
        ErrorSpan, st.integers(-2, n + 2), st.integers(-2, n + 2), _severity, st.just(""),
        st.floats(0, 1)), max_size=6))
    read = _read(spans_html(text, spans))
    shown = _shown(text)
    assert "".join(char for char, _ in read.chars) == shown
    if shown != text.replace("\n", " "):
        return  # controls are shown as ⟨U+…⟩: positions no longer line up one to one
    stretches = placed(text, spans)
    for position, (_, mark) in enumerate(read.chars):
        covering = [span for span in spans if max(span.start, 0) <= position < span.end]
        assert (mark is None) == (not covering)
        if covering:
            owner = next(span for start, end, span in stretches if start <= position < end)
            assert owner in covering
            expected = owner.severity.strip().lower()
            assert mark == (expected if expected in SEVERITIES else "other")


def test_summary_counts_each_severity_mildest_first() -> None:
    spans = [ErrorSpan(0, 1, "critical", "", 1.0), ErrorSpan(1, 2, "minor", "", 1.0),
             ErrorSpan(2, 3, "minor", "", 1.0)]
    assert summary(spans) == "2 minor, 1 critical"
    assert summary([]) == "no error spans"


def test_the_legend_shows_the_three_severities() -> None:
    read = _read(legend_html())
    assert [mark for _, mark in read.chars if mark] and \
        {mark for _, mark in read.chars if mark} == set(SEVERITIES)

"""widgets/_charts.py: a chart drawn from its builder sends what ``st.altair_chart`` sends for the
same chart (the spec, and each table as the same Arrow bytes; only the tables' names differ),
once per server for arguments of the same content, and the spec it shares is never changed by
a run that draws it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bleu_app.widgets import _charts  # noqa: E402 -- after the path


@pytest.fixture(autouse=True)
def fresh_caches():
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def both_ways() -> None:
    """Every chart twice: by ``st.altair_chart``, then by ``_charts.show``."""
    from functools import partial

    import streamlit as st

    import bleu
    from bleu import charts
    from bleu.charts.text import visible_text
    from bleu.metrics.bleu.score import BLEUOptions
    from bleu.teaching.breakdown import order_sweep, smoothing_comparison, walkthrough
    from bleu.teaching.brevity import positions_from_stats
    from bleu_app.widgets import _charts

    candidate = "the the the the the the \u202eeht"
    references = ["the cat is on the mat", "there is a cat on the mat"]
    walk = walkthrough(candidate, references)
    rows = smoothing_comparison(candidate, references, tokenize="13a", lowercase=False,
                                max_ngram_order=4)
    sweep = order_sweep(candidate, references, max_order=4, smooth_method="none",
                        smooth_value=None, effective_order=False, tokenize="13a",
                        lowercase=False)
    hyps = {"A\u202e": ["the cat sat on the mat", "a dog"], "B": ["the cat", "the dog ran"]}
    refs = [["the cat sat on the mat", "the dog ran"]]
    scores = {name: bleu.corpus_bleu(lines, refs) for name, lines in hyps.items()}
    metric = bleu.BLEU()
    stats = {name: metric.segment_stats(lines, refs) for name, lines in hyps.items()}
    positions = positions_from_stats(stats, BLEUOptions())
    made = [(charts.walkthrough_precisions_chart, walk), (charts.log_terms_chart, walk),
            (charts.smoothing_chart, rows), (charts.order_sweep_chart, sweep),
            (charts.length_chart, scores, list(hyps)), (charts.precisions_chart, scores),
            (charts.decomposition_chart, scores, BLEUOptions()),
            (partial(charts.bp_curve_chart, window=(0.4, 1.2)), positions)]
    for builder, *args in made:
        st.altair_chart(visible_text(builder(*args)))
        _charts.show(st, builder, *args)


def sent(element) -> tuple[dict, list[bytes]]:
    """A chart element's spec with each table's name replaced by its place in the list of
    tables, and the tables' Arrow bytes in that order."""
    text = element.proto.spec
    tables = []
    for index, dataset in enumerate(element.proto.datasets):
        text = text.replace(json.dumps(dataset.name), json.dumps(f"table {index}"))
        tables.append(dataset.data.data)
    return json.loads(text), tables


def test_every_chart_is_sent_as_st_altair_chart_sends_it():
    at = AppTest.from_function(both_ways, default_timeout=60).run()
    assert not at.exception
    elements = at.get("vega_lite_chart")
    assert len(elements) == 16
    shown = b""
    for theirs, ours in zip(elements[::2], elements[1::2], strict=True):
        assert sent(ours) == sent(theirs)
        shown += ours.proto.spec.encode() + b"".join(sent(ours)[1])
    assert "⟨U+202E⟩".encode() in shown and "\u202e".encode() not in shown


def test_a_spec_is_built_once_for_arguments_of_the_same_content_and_stays_as_built():
    calls = []

    def builder(values: list[int], title: str):
        import altair as alt
        import pandas as pd

        calls.append(title)
        return alt.Chart(pd.DataFrame({"x": values})).mark_bar().encode(
            x="x:Q", color=alt.Color("x:N", title=None)).properties(title=title)

    first = _charts._spec("b", ([1, 2], "t"), {}, "en", _builder=builder)
    kept = json.dumps(first, default=str)
    again = _charts._spec("b", ([1, 2], "t"), {}, "en", _builder=builder)
    other = _charts._spec("b", ([1, 3], "t"), {}, "en", _builder=builder)
    assert again is first and other is not first
    assert calls == ["t", "t"]
    assert first["encoding"]["color"]["title"] == " "  # as Streamlit would write it

    def page() -> None:
        import streamlit as st

        from bleu_app.widgets import _charts

        st.vega_lite_chart(spec=_charts._spec("b", ([1, 2], "t"), {}, "en", _builder=None))

    at = AppTest.from_function(page, default_timeout=60).run()
    assert not at.exception and len(at.get("vega_lite_chart")) == 1
    assert json.dumps(first, default=str) == kept


def test_a_spec_is_kept_per_interface_language():
    """Builders translate their titles and Dutch numbers take a decimal comma: a spec built in
    one language is never sent in another."""
    from bleu.i18n import in_language

    def builder(values: list[int]):
        import altair as alt
        import pandas as pd

        from bleu.i18n import language

        return alt.Chart(pd.DataFrame({"x": values})).mark_bar().encode(x="x:Q").properties(
            title=language())

    english = _charts._spec("b", ([1, 2],), {}, "en", _builder=builder)
    with in_language("nl"):
        dutch = _charts._spec("b", ([1, 2],), {}, "nl", _builder=builder)
    assert dutch is not english
    assert english["title"] == "en" and "locale" not in english.get("config", {})
    assert dutch["title"] == "nl" and dutch["config"]["locale"]["number"]["decimal"] == ","
    assert _charts._spec("b", ([1, 2],), {}, "en", _builder=None) is english


def dutch_both_ways() -> None:
    """A chart in Dutch by ``st.altair_chart`` of the localized chart, then by ``_charts.show``."""
    import streamlit as st

    from bleu import charts
    from bleu.charts.locale import localized
    from bleu.charts.text import visible_text
    from bleu.i18n import set_language
    from bleu.teaching.breakdown import walkthrough
    from bleu_app.widgets import _charts

    set_language("nl")
    walk = walkthrough("the cat sat on the mat", ["the cat is on the mat"])
    st.altair_chart(localized(visible_text(charts.log_terms_chart(walk))))
    _charts.show(st, charts.log_terms_chart, walk)


def test_a_dutch_chart_is_sent_as_st_altair_chart_sends_it():
    at = AppTest.from_function(dutch_both_ways, default_timeout=60).run()
    assert not at.exception
    theirs, ours = at.get("vega_lite_chart")
    assert sent(ours) == sent(theirs)
    assert json.loads(ours.proto.spec)["config"]["locale"]["number"]["decimal"] == ","


def layouts_both_ways() -> None:
    """How BLEU works' charts for several candidates (an empty one, one with an undefined
    p_n, one with a control character): by their builder, then by their layout and parts."""
    import streamlit as st

    from bleu.charts import teaching as charts
    from bleu.teaching.breakdown import order_sweep, smoothing_comparison, walkthrough
    from bleu_app.widgets import _charts

    references = ["the cat is on the mat", "there is a cat on the mat"]
    for candidate in ("the cat is on the mat", "", "cat", "the cat \u202e sat on the mat",
                      "a cat is on the mat today"):
        walk = walkthrough(candidate, references)
        rows = smoothing_comparison(candidate, references, tokenize="13a", lowercase=False,
                                    max_ngram_order=4)
        sweep = order_sweep(candidate, references, max_order=4, smooth_method="none",
                            smooth_value=None, effective_order=False, tokenize="13a",
                            lowercase=False)
        for name, shown in (("precisions", walk), ("log_terms", walk), ("smoothing", rows),
                            ("order_sweep", sweep)):
            _charts.show(st, getattr(charts, f"{name}_chart"), shown)
            _charts.show_table(st, getattr(charts, f"{name}_layout"),
                               *getattr(charts, f"{name}_parts")(shown))


def test_a_layout_sends_what_its_builder_sends_and_is_built_once():
    from bleu.charts import teaching

    built = []
    layout = teaching.precisions_layout

    def counted(*args):
        built.append(1)
        return layout(*args)

    teaching.precisions_layout = counted
    try:
        at = AppTest.from_function(layouts_both_ways, default_timeout=60).run()
    finally:
        teaching.precisions_layout = layout
    assert not at.exception
    elements = at.get("vega_lite_chart")
    assert len(elements) == 2 * 4 * 5
    for theirs, ours in zip(elements[::2], elements[1::2], strict=True):
        assert sent(ours) == sent(theirs)
    # five candidates' precisions charts: the builder's own layout call each time, the
    # layout's spec once (the other four only filled in)
    assert len(built) == 5 + 1

"""The teaching pages in a room: a presentation mode that a back row reads on a 1280x720
projector (type of at least 18 px, dark; the sidebar, the options and everything a lecturer
does not show hidden; links to the other teaching pages that look like links; charts with
large, dark text), a layout that works on a 390-pixel phone (tabs wrap, formulas and tables
scroll inside themselves, table toolbars clear of the headings), and the glossary panel.

Presentation mode is one session value (``PRESENTING``, not a widget's: it holds across the
teaching pages, each of which draws its own toggle). Options a page hides in presentation mode
go in ``options_box``: a container whose CSS class the presentation style hides, so the
widgets stay rendered and keep their values; what a lecturer never shows (downloads, links to
share, notes about other pages) is not drawn at all (``presenting()``). Charts go through
``charts(where)``, which gives them presentation mode's fonts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.display.formatting import Column, text_frame
from bleu.i18n import tr
from bleu.teaching.glossary import glossary
from bleu_app import page_script
from bleu_app.widgets import _tables

#: the session value of presentation mode (True / False)
PRESENTING = "teach_presenting"
#: the key prefix of the containers hidden in presentation mode
HIDDEN = "present_hide"
#: the teaching pages, linked from each other in presentation mode (the sidebar is hidden)
TEACHING_PAGES = ("how_bleu_works", "brevity_penalty", "sensitivity", "blind_spots",
                  "background")
#: the smallest type presentation mode shows, and its colour (dark on white)
PRESENT_PX, DARK = 19, "#1a1a1a"

#: on a phone: tabs wrap instead of running off the screen, formulas scroll inside
#: themselves, the page's side padding is small, a table's toolbar (which a touch screen
#: always shows, above the table's top edge) has room of its own instead of covering the
#: heading above the table; on every screen a metric's label wraps instead of being cut
#: ("c (tokens in de kandidaat-ver…")
PHONE_STYLE = """
@media (max-width: 640px) {
  [data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; overflow: visible;
                                            row-gap: 0.25rem; }
  [data-testid="stTab"] { white-space: normal; }
  [data-testid="stMainBlockContainer"] { padding-left: 0.75rem; padding-right: 0.75rem; }
  .katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 0.25rem; }
  [data-testid="stMetricValue"] { font-size: 1.6rem; }
  [data-testid="stElementContainer"]:has(> [data-testid="stDataFrame"]),
  [data-testid="stElementContainer"]:has(> div > [data-testid="stDataFrame"]) {
    padding-top: 2.25rem; }
}
.katex-display { overflow-x: auto; overflow-y: hidden; }
[data-testid="stMetricLabel"] p { white-space: normal !important; overflow: visible !important;
                                  text-overflow: clip !important; }
[data-testid="stMetricLabel"] { height: auto !important; }
"""
#: presentation mode: no sidebar (nor its open button) and no header bar over the title, the
#: page's options hidden, type of at least 19 px everywhere (captions, labels and help text
#: included), all of it dark; links underlined in link colour; less space between blocks, so
#: that a step's numbers and an exercise's form fit on a 1280x720 projector
PRESENT_STYLE = f"""
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"],
[data-testid="stHeader"] {{ display: none !important; }}
[class*="st-key-{HIDDEN}"] {{ display: none !important; }}
html {{ font-size: {PRESENT_PX}px; }}
[data-testid="stMainBlockContainer"] {{ max-width: 100%; padding: 0.75rem 2rem 3rem; }}
[data-testid="stMain"] [data-testid="stVerticalBlock"] {{ gap: 0.55rem; }}
[data-testid="stMain"] h1 {{ font-size: 2.1rem; padding: 0.25rem 0; }}
[data-testid="stMain"] h2 {{ font-size: 1.6rem; padding: 0.5rem 0 0.25rem; }}
[data-testid="stMain"] h3 {{ font-size: 1.3rem; padding: 0.25rem 0; }}
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] *,
[data-testid="stWidgetLabel"], [data-testid="stWidgetLabel"] *,
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] *,
[data-testid="stTab"] p, [data-testid="stExpander"] summary *,
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li,
[data-testid="stProgress"] p, [data-testid="stRadio"] label p,
[data-testid="stCheckbox"] p, [data-testid="stPageLink"] span {{
  font-size: 1rem !important; color: {DARK} !important; opacity: 1 !important; }}
[data-testid="stPageLink"] a span, [data-testid="stPageLink"] a p {{
  color: #0b57d0 !important; text-decoration: underline; text-underline-offset: 0.18em; }}
[data-testid="stPageLink"] a {{ padding-left: 0; padding-right: 0; }}
[data-testid="stMain"] [data-baseweb="select"] *, [data-testid="stMain"] input,
[data-testid="stMain"] textarea, [data-testid="stMain"] button p {{
  font-size: 1rem !important; }}
[data-testid="stMain"] [data-tag], [data-testid="stMain"] [data-tag] * {{
  font-size: 1rem !important; }}
[data-testid="stTable"] th, [data-testid="stTable"] td {{
  font-size: 1rem !important; color: {DARK} !important; }}
"""
#: presentation mode's chart text: every axis, legend, title and text mark at least 18 px,
#: dark (merged into each chart's Vega-Lite config; builders set no font sizes of their own)
PRESENT_CHART = {
    "axis": {"labelFontSize": 18, "titleFontSize": 18, "labelColor": DARK,
             "titleColor": DARK, "labelLimit": 300},
    "legend": {"labelFontSize": 18, "titleFontSize": 18, "labelColor": DARK,
               "titleColor": DARK, "labelLimit": 400, "symbolSize": 180},
    "header": {"labelFontSize": 18, "titleFontSize": 18, "labelColor": DARK,
               "titleColor": DARK},
    "title": {"fontSize": 22, "subtitleFontSize": 18, "color": DARK, "subtitleColor": DARK},
    "text": {"fontSize": 18, "color": DARK},
}


#: how much taller a chart of fixed height is drawn in presentation mode
PRESENT_HEIGHT = 1.5


def presenting() -> bool:
    """Whether presentation mode is on in this session."""
    return bool(st.session_state.get(PRESENTING, False))


def presented_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with presentation mode's chart text merged into its config, and a fixed
    height ``PRESENT_HEIGHT`` times taller (the larger text takes room from the plot); a new
    dict: the spec given may be shared between sessions."""
    config = dict(spec.get("config") or {})
    for part, settings in PRESENT_CHART.items():
        config[part] = {**(config.get(part) or {}), **settings}
    taller = {}
    if isinstance(spec.get("height"), int | float):
        taller["height"] = round(spec["height"] * PRESENT_HEIGHT)
    return {**spec, **taller, "config": config}


class _Presented:
    """A place to draw charts (``st``, a column, a container) that gives every chart drawn in
    it presentation mode's chart text; anything else is drawn as the place draws it."""

    def __init__(self, where: Any) -> None:
        self._where = where

    def vega_lite_chart(self, data: Any = None, spec: dict | None = None, **options: Any) -> Any:
        if spec is None and isinstance(data, dict):  # a spec given as the first argument
            data, spec = None, data
        return self._where.vega_lite_chart(data, presented_spec(spec or {}), **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._where, name)


def charts(where: Any) -> Any:
    """``where`` to draw charts in (give it to ``_charts.show``): in presentation mode, one that
    enlarges and darkens every chart's text."""
    return _Presented(where) if presenting() else where


def _toggle(page: str) -> None:
    st.session_state[PRESENTING] = bool(st.session_state[f"present_toggle_{page}"])


def _titles() -> dict[str, str]:
    return {"how_bleu_works": tr("How BLEU works"), "brevity_penalty": tr("Brevity penalty"),
            "sensitivity": tr("Sensitivity"), "blind_spots": tr("Blind spots"),
            "background": tr("Background")}


def header(title: str, page: str) -> None:
    """The page's title row: the title, the presentation-mode toggle and the glossary panel;
    the phone style always, the presentation style when presenting (with links to the other
    teaching pages, as the sidebar is hidden)."""
    style = PHONE_STYLE + (PRESENT_STYLE if presenting() else "")
    st.html(f"<style>{style}</style>")
    left, middle, right = st.columns([5, 2.4, 2.2], vertical_alignment="bottom")
    left.title(title)
    key = f"present_toggle_{page}"
    st.session_state[key] = presenting()
    middle.toggle(tr("Presentation"), key=key, on_change=_toggle, args=(page,),
                  help=tr("Presentation mode: larger, darker type, the sidebar and the options "
                          "hidden, for a projector (1280×720). The link to this page remembers "
                          "the mode (present=1)."))
    with right.popover(tr("Glossary"), icon=":material/menu_book:", use_container_width=True):
        glossary_panel()
    if presenting():
        others = [name for name in TEACHING_PAGES if name != page]
        for column, name in zip(st.columns(len(others)), others, strict=True):
            column.page_link(page_script(name), label=_titles()[name])


def glossary_panel() -> None:
    """Every term of the glossary, one line each."""
    st.markdown("\n".join(
        f"- **{t.name}**" + (f" ({t.symbol})" if t.symbol else "") + f": {t.meaning}"
        for t in glossary()))


def table(frame: Any, key: str, **options: Any) -> None:
    """A table of the teaching pages: in presentation mode a plain HTML table (its text takes
    the presentation type, where a data grid draws 14-pixel text on a canvas), indexed by its
    first column; otherwise the app's data grid (``options``: its column settings)."""
    if presenting():
        static_table(frame)
    else:
        _tables.dataframe(frame, hide_index=True, key=key, **options)


def grid(frame: pd.DataFrame, columns: Mapping[str, Column], *, key: str,
         labels: Mapping[str, str] | None = None, **options: Any) -> None:
    """A table of scores (``_tables.show``'s arguments): in presentation mode a plain HTML table
    in the presentation type, each number written by its column's rule in the interface
    language and each header as the data grid names it (a data grid draws 14-pixel text on a
    canvas that no style reaches); otherwise the app's data grid."""
    if not presenting():
        _tables.show(frame, columns, key=key, labels=labels, **options)
        return
    shown = text_frame(frame, columns)
    static_table(shown.rename(columns={name: _tables.header(name, columns, labels)
                                       for name in shown.columns}))


def static_table(frame: pd.DataFrame) -> None:
    """``st.table`` of ``frame``, indexed by its first column, every text (cells, headers)
    written literally: ``st.table`` reads each as Markdown ("> 60" would be a quote, an
    n-gram's ``*`` emphasis, a system's name a link), so each is Markdown-escaped."""
    def literal(value: object) -> object:
        return escape_markdown(value) if isinstance(value, str) else value

    shown = frame.map(literal).rename(columns=literal)
    st.table(shown.set_index(shown.columns[0]))


def options_box(name: str, **options: Any) -> Any:
    """A container for options that presentation mode hides (``st.container`` arguments)."""
    return st.container(key=f"{HIDDEN}_{name}", **options)

"""The teaching pages in a room: a presentation mode (larger type, sidebar hidden, options
hidden, links to the other teaching pages), a layout that works on a 390-pixel phone (tabs
wrap, formulas and tables scroll inside themselves), and the glossary panel.

Presentation mode is one session value (``PRESENTING``, not a widget's: it holds across the
teaching pages, each of which draws its own toggle). Options a page hides in presentation mode
go in ``options_box``: a container whose CSS class the presentation style hides, so the
widgets stay rendered and keep their values.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu.i18n import tr
from bleu.teaching.glossary import glossary
from bleu_app import page_script

#: the session value of presentation mode (True / False)
PRESENTING = "teach_presenting"
#: the key prefix of the containers hidden in presentation mode
HIDDEN = "present_hide"
#: the teaching pages, linked from each other in presentation mode (the sidebar is hidden)
TEACHING_PAGES = ("how_bleu_works", "brevity_penalty", "blind_spots", "background")

#: on a phone: tabs wrap instead of running off the screen, formulas scroll inside
#: themselves, the page's side padding is small
PHONE_STYLE = """
@media (max-width: 640px) {
  [data-testid="stTabs"] [role="tablist"] { flex-wrap: wrap; overflow: visible;
                                            row-gap: 0.25rem; }
  [data-testid="stTab"] { white-space: normal; }
  [data-testid="stMainBlockContainer"] { padding-left: 0.75rem; padding-right: 0.75rem; }
  .katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 0.25rem; }
  [data-testid="stMetricValue"] { font-size: 1.6rem; }
}
.katex-display { overflow-x: auto; overflow-y: hidden; }
"""
#: presentation mode: no sidebar (nor its open button) and no header bar over the title, the
#: page's options hidden, larger type (every size is in rem), the full width of a 1280x720
#: projector
PRESENT_STYLE = f"""
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"],
[data-testid="stHeader"] {{ display: none !important; }}
[class*="st-key-{HIDDEN}"] {{ display: none !important; }}
html {{ font-size: 19px; }}
[data-testid="stMainBlockContainer"] {{ max-width: 100%; padding: 1.5rem 2rem 3rem; }}
"""


def presenting() -> bool:
    """Whether presentation mode is on in this session."""
    return bool(st.session_state.get(PRESENTING, False))


def _toggle(page: str) -> None:
    st.session_state[PRESENTING] = bool(st.session_state[f"present_toggle_{page}"])


def _titles() -> dict[str, str]:
    return {"how_bleu_works": tr("How BLEU works"), "brevity_penalty": tr("Brevity penalty"),
            "blind_spots": tr("Blind spots"), "background": tr("Background")}


def header(title: str, page: str) -> None:
    """The page's title row: the title, the presentation-mode toggle and the glossary panel;
    the phone style always, the presentation style when presenting (with links to the other
    teaching pages, as the sidebar is hidden)."""
    style = PHONE_STYLE + (PRESENT_STYLE if presenting() else "")
    st.html(f"<style>{style}</style>")
    left, middle, right = st.columns([6, 2, 1.4], vertical_alignment="bottom")
    left.title(title)
    key = f"present_toggle_{page}"
    st.session_state[key] = presenting()
    middle.toggle(tr("Presentation mode"), key=key, on_change=_toggle, args=(page,),
                  help=tr("Larger type, the sidebar and the options hidden: for a projector "
                          "(1280×720). The link of the page keeps it (present=1)."))
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


def options_box(name: str, **options: Any) -> Any:
    """A container for options that presentation mode hides (``st.container`` arguments)."""
    return st.container(key=f"{HIDDEN}_{name}", **options)

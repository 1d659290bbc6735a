"""BLEU Explorer: the Streamlit entry point (page config, shared sidebar, page navigation).

``bleu-explorer app`` runs this file; ``streamlit run app.py`` in the repository runs it through
the repository's ``app.py``. To add a page, write ``views/<name>.py`` (thin: widgets in, a call
to the core, charts out; shared glue in ``session/``, ``scoring/``, ``widgets/``) and add ONE
line to ``PAGES`` below, e.g. ``("sentences", "Sentences", "notes"),``.
"""

import logging
import os

import streamlit as st

from bleu.i18n import N_, set_language, tr
from bleu.metrics.threads import set_threads
from bleu_app import HERE, page_script
from bleu_app.runtime import _streamlit_fixes
from bleu_app.scoring import _learned, _metrics
from bleu_app.session import _session, _url
from bleu_app.widgets import _sidebar

# A local icon: a Material icon here would be fetched from Google's font server (no network).
ICON = HERE / "assets" / "page_icon.png"
#: what a visitor reads where a page fails (Streamlit's own error box, used for what fails
#: outside a page, shows no details either: client.showErrorDetails = "none")
PAGE_FAILED = N_("Something went wrong on this page, and the rest of it could not be drawn. "
                 "Reload the page, or load your data again; if it happens again, tell whoever "
                 "runs this server (the details are in its log). Your loaded data is kept.")
LOG = logging.getLogger("bleu_app")
#: set to 1, a failing page raises (the tests set it, so that every bug shows as itself)
RAISE_VARIABLE = "BLEU_EXPLORER_RAISE_ERRORS"


#: every page in the sidebar's order (the first is the default): script, title (English; shown
#: in the interface language), Material icon
PAGES = (
    ("dashboard", N_("Corpus dashboard"), "leaderboard"),
    ("data", N_("Data"), "table_view"),
    ("sentences", N_("Sentences"), "notes"),
    ("compare", N_("Compare A vs B"), "compare_arrows"),
    ("how_bleu_works", N_("How BLEU works"), "school"),
    ("brevity_penalty", N_("Brevity penalty"), "straighten"),
    ("sensitivity", N_("Sensitivity"), "tune"),
    ("blind_spots", N_("Blind spots"), "visibility_off"),
    ("background", N_("Background"), "history_edu"),
    ("scores", N_("Metrics & human scores"), "insights"),
)


def pages() -> list:
    """The ``st.Page`` of every page of ``PAGES``, titled in the interface language (the URL
    path is the script's name in every language)."""
    return [st.Page(page_script(script), title=tr(title), icon=f":material/{icon}:",
                    default=index == 0)
            for index, (script, title, icon) in enumerate(PAGES)]


def main() -> None:
    """One run of the app: the shared parts, then the page the URL names."""
    # Before any uploader exists: a file given while a rerun starts is otherwise lost (see
    # there).
    _streamlit_fixes.keep_file_url_answers()
    # The compiled pages outlive the last visitor's session (see there).
    _streamlit_fixes.keep_compiled_pages()
    # The language first: every string of this run is drawn in it (the sidebar's switch, else
    # the link's ?lang=, else the browser's).
    set_language(_url.language())
    # One scoring thread per session: the server already runs sessions side by side, and extra
    # chunk threads took the GIL from its event loop. Set here, read when work starts, so the
    # tests run the app as the server does.
    set_threads(1)
    st.set_page_config(page_title="BLEU Explorer", page_icon=str(ICON), layout="wide")
    listed = pages()
    navigation = st.navigation(listed)
    _url.restore(listed, navigation)
    _learned.collect()  # a learned metric whose run has ended joins the session's scores
    _sidebar.sidebar()
    _metrics.sidebar()
    if navigation.url_path in ("", "dashboard"):
        _session.first_steps()
    _session.show_messages()
    _url.save(navigation)  # before the page too: a page that ends early (st.stop) keeps its link
    try:
        navigation.run()
    except Exception:  # a bug: one sentence for the visitor, the details for the server's log
        if os.environ.get(RAISE_VARIABLE) == "1":  # the tests: every bug shows as itself
            raise
        LOG.exception("The page %s failed", navigation.url_path or "dashboard")
        st.error(tr(PAGE_FAILED))
    _url.save(navigation)


if __name__ == "__main__":  # Streamlit runs this file as the main script on every rerun
    main()

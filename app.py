"""BLEU Explorer: the Streamlit entry point (page config, shared sidebar, page navigation).

Run with ``streamlit run app.py``. To add a page, write ``views/<name>.py`` (thin: widgets in, a
call to the core, charts out; shared glue in ``views/_*.py``) and add ONE line to ``PAGES``
below, e.g. ``st.Page("views/sentences.py", title="Sentences", icon=":material/notes:"),``.
"""

from pathlib import Path

import streamlit as st

from bleu.metrics.threads import set_threads
from views import _metrics, _session, _sidebar, _streamlit_fixes, _url

# Before any uploader exists: a file given while a rerun starts is otherwise lost (see there).
_streamlit_fixes.keep_file_url_answers()

# One scoring thread per session: the server already runs sessions side by side, and extra chunk
# threads took the GIL from its event loop. Set here, read when work starts, so the tests run
# the app as the server does.
set_threads(1)

# A local icon: a Material icon here would be fetched from Google's font server (no network).
ICON = Path(__file__).resolve().parent / "assets" / "page_icon.png"
st.set_page_config(page_title="BLEU Explorer", page_icon=str(ICON), layout="wide")

PAGES = [
    st.Page("views/dashboard.py", title="Corpus dashboard", icon=":material/leaderboard:",
            default=True),
    st.Page("views/data.py", title="Data", icon=":material/table_view:"),
    st.Page("views/sentences.py", title="Sentences", icon=":material/notes:"),
    st.Page("views/compare.py", title="Compare A vs B", icon=":material/compare_arrows:"),
    st.Page("views/how_bleu_works.py", title="How BLEU works", icon=":material/school:"),
    st.Page("views/brevity_penalty.py", title="Brevity penalty", icon=":material/straighten:"),
    st.Page("views/sensitivity.py", title="Sensitivity", icon=":material/tune:"),
    st.Page("views/blind_spots.py", title="Blind spots", icon=":material/visibility_off:"),
    st.Page("views/scores.py", title="Metrics & human scores", icon=":material/insights:"),
]

navigation = st.navigation(PAGES)
_url.restore(PAGES, navigation)
_sidebar.sidebar()
_metrics.sidebar()
if navigation.url_path in ("", "dashboard"):
    _session.first_steps()
_session.show_messages()
_url.save(navigation)  # before the page too: a page that ends early (st.stop) keeps its link
navigation.run()
_url.save(navigation)

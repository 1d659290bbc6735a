"""The app's server: Streamlit's, with the route that sets the edit secrets' HttpOnly cookies
(``bleu_app/session/cookies.py``). ``bleu-explorer app`` runs ``streamlit run`` on this file,
which finds ``app`` here and serves ``bleu_app/app.py`` with it; importing this file loads no
page."""

import streamlit as st

from bleu_app import HERE
from bleu_app.session import cookies

app = st.App(str(HERE / "app.py"), routes=cookies.routes())

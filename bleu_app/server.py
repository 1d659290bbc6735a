"""The app's server: Streamlit's, with the route that sets the edit secrets' HttpOnly cookies
(``bleu_app/session/cookies.py``) and Streamlit's front-end files answered from memory
(``bleu_app/runtime/_static.py``); it starts the warm-up of the slow first visits
(``bleu_app/warmup.py``). ``bleu-explorer app`` runs ``streamlit run`` on this file,
which finds ``app`` here and serves ``bleu_app/app.py`` with it; importing this file loads no
page."""

import streamlit as st

from bleu_app import HERE, warmup
from bleu_app.runtime import _static
from bleu_app.session import cookies

app = st.App(str(HERE / "app.py"), routes=cookies.routes(), middleware=_static.middleware())
warmup.start()

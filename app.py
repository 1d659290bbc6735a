"""``streamlit run app.py`` in the repository: the app the package ships (``bleu_app/app.py``,
which ``bleu-explorer app`` runs through ``bleu_app/server.py``), one run of it per rerun.

``streamlit run`` imports this file to find its server (no script is running then): the app's,
with the route that sets the edit secrets' HttpOnly cookies (bleu_app/session/cookies.py) and
Streamlit's front-end files answered from memory (bleu_app/runtime/_static.py); it starts the
warm-up of the slow first visits (bleu_app/warmup.py).
AppTest runs this file as the script itself.
"""

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bleu_app import HERE, warmup
from bleu_app.runtime import _static
from bleu_app.session import cookies

if get_script_run_ctx() is None:
    app = st.App(str(HERE / "app.py"), routes=cookies.routes(), middleware=_static.middleware())
    warmup.start()
else:
    from bleu_app.app import main

    main()

"""The app's pages (one script each, run by ``st.navigation``) and their shared glue
(``_*.py``, one job each)."""

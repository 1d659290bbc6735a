"""``streamlit run app.py`` in the repository: the app the package ships (``bleu_app/app.py``,
which ``bleu-explorer app`` runs), one run of it per Streamlit rerun."""

from bleu_app.app import main

main()

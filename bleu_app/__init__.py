"""BLEU Explorer's web app (Streamlit): the pages in ``views/``, started by ``bleu-explorer app``
(``bleu_app.launch``) or, in the repository, ``streamlit run app.py``. The core it calls is the
``bleu`` package, which never imports Streamlit."""

from pathlib import Path

#: the folder of this package: page scripts, assets, and (in a wheel) the bundled samples
HERE = Path(__file__).resolve().parent
#: the page scripts (``views/``, not ``pages/``: that name switches Streamlit into its old
#: multipage mode)
VIEWS = HERE / "views"
#: the bundled sample data: ``sample_data/`` of the repository (a link to it here, so that a
#: wheel carries the files and an editable install finds them)
SAMPLE_DATA = HERE / "sample_data"


def page_script(name: str) -> str:
    """The path of page ``name`` (``"data"`` for ``views/data.py``), as ``st.page_link`` and
    ``st.switch_page`` take it from any main script."""
    return str(VIEWS / f"{name}.py")

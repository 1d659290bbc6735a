"""The browser side of the Data page's drop zone (``bleu_app/assets/drop_guard.js``): many files
given at once are packed into tar archives before Streamlit's uploader sees them (its work
grows with the square of the files it lists), and more than the limit are refused at once with
the server's own message, before anything is sent.
"""

from __future__ import annotations

import json
from functools import cache
from html import escape

import streamlit as st

from bleu.display.formatting import COUNT
from bleu.i18n import tr
from bleu_app import HERE

SCRIPT = HERE / "assets" / "drop_guard.js"
#: from this many files at once, they go as one archive (fewer keep a chip each, removable)
BUNDLE_FROM = 20
#: the refusal's look: st.error's colours
_BOX = ("padding:1rem;border-radius:0.5rem;background:rgba(255,43,43,0.09);"
        "color:rgb(125,53,59);")


@cache
def _script() -> str:
    return SCRIPT.read_text(encoding="utf-8")


def too_many_files(count: int | str, limit: int) -> str:
    """The refusal of ``count`` files at once, as the page and the browser side write it."""
    return tr("{n} files were dropped; at most {limit} are read at once. Drop fewer, or put "
              "many systems in one TSV or CSV file with a column per system.").format(
        n=COUNT.text(count) if isinstance(count, int) else count, limit=COUNT.text(limit))


def config(key: str, limit: int, max_bytes: int) -> dict[str, object]:
    """What the script is told: the uploader's key, the limits, the wording (``{n}`` filled in
    the browser with the number rule's thousands separator)."""
    return {"key": key, "limit": limit, "bundleFrom": BUNDLE_FROM, "maxBytes": max_bytes,
            "message": too_many_files("{n}", limit), "group": COUNT.text(1000)[1:-3],
            "bundleName": tr("dropped files"), "messageId": f"bleu-drop-refusal-{key}"}


def page_html(key: str, limit: int, max_bytes: int) -> str:
    """The guard's element: the refusal's (empty, hidden) box and the script with its settings
    (JSON, with ``</`` escaped so no text can close the script element)."""
    settings = config(key, limit, max_bytes)
    data = json.dumps(settings).replace("</", "<\\/")
    box = (f'<div id="{escape(str(settings["messageId"]))}" role="alert" hidden '
           f'data-testid="bleuDropRefusal" style="{_BOX}"></div>')
    return f"{box}<script>{_script().replace('__CONFIG__', data)}</script>"


def install(key: str, limit: int) -> None:
    """The guard for uploader ``key``, placed where its refusal should appear."""
    max_bytes = int(st.get_option("server.maxUploadSize")) * 1024 * 1024
    st.html(page_html(key, limit, max_bytes), unsafe_allow_javascript=True)

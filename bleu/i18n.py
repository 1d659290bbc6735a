"""The interface language: ``tr`` marks and translates every string a user reads.

Every message, label, caption, table header and chart title is written as ``tr("...")`` (with
``{name}`` placeholders filled by ``.format`` after translation, never an f-string inside), so
that Babel extracts it into the catalogs. The language is per thread of work (a ``ContextVar``:
each Streamlit session's script run sets its own with ``set_language``), English by default.
"""

from __future__ import annotations

from contextvars import ContextVar

#: the interface languages, by code
LANGUAGES = {"en": "English", "nl": "Nederlands"}
_LANGUAGE: ContextVar[str] = ContextVar("bleu_language", default="en")


def language() -> str:
    """The code of the language in effect (``en``, ``nl``)."""
    return _LANGUAGE.get()


def set_language(code: str) -> None:
    """Use ``code`` from now on in this thread of work (unknown codes mean English)."""
    _LANGUAGE.set(code if code in LANGUAGES else "en")


def tr(message: str) -> str:
    """``message`` in the language in effect (the catalogs come with the Dutch interface)."""
    return message


def ntr(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message for ``count``, in the language in effect."""
    return singular if count == 1 else plural

"""The interface language: ``tr`` marks and translates every string a user reads.

Every message, label, caption, table header and chart title is written as ``tr("...")`` (with
``{name}`` placeholders filled by ``.format`` after translation, never an f-string inside), so
that Babel extracts it into the catalogs (``bleu/locale``, kept by ``scripts/i18n.py``). A
string defined before any language is known (a module's constant) is marked with ``N_`` and
translated with ``tr`` where it is shown. The language is per thread of work (a ``ContextVar``:
each Streamlit session's script run sets its own with ``set_language``), English by default;
the command line never sets it, so it stays English, as sacrebleu's output is.

The catalogs are the ``.po`` files themselves: the first ``tr`` in a language reads its ``.po``
with Babel and compiles it in memory (no ``.mo`` to keep in step); English needs no catalog.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

#: the interface languages, by code
LANGUAGES = {"en": "English", "nl": "Nederlands"}
DEFAULT = "en"
#: where the catalogs live: ``<code>/LC_MESSAGES/<DOMAIN>.po``
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
_LANGUAGE: ContextVar[str] = ContextVar("bleu_language", default=DEFAULT)


def language() -> str:
    """The code of the language in effect (``en``, ``nl``)."""
    return _LANGUAGE.get()


def set_language(code: str) -> None:
    """Use ``code`` from now on in this thread of work (unknown codes mean English)."""
    _LANGUAGE.set(code if code in LANGUAGES else DEFAULT)


@contextmanager
def in_language(code: str) -> Iterator[None]:
    """Use ``code`` inside the ``with`` block, then the language in effect before: files made
    in the interface (CSV, LaTeX, JSON) are written in English, whatever the interface's."""
    token = _LANGUAGE.set(code if code in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def from_locale(tag: str | None) -> str | None:
    """The interface language of a browser's locale (``nl-BE`` -> ``nl``), None for one the
    interface does not speak."""
    if not tag:
        return None
    code = tag.replace("_", "-").split("-")[0].strip().lower()
    return code if code in LANGUAGES else None


def catalog_path(code: str) -> Path:
    """The ``.po`` file of language ``code``."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str) -> gettext.NullTranslations:
    """Language ``code``'s catalog, compiled once per process from its ``.po`` (Babel's reader
    and ``.mo`` writer, loaded by the standard library's gettext); English: no translation.
    Fuzzy entries are left out, as msgfmt leaves them out."""
    if code == DEFAULT or not catalog_path(code).exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # only where a translation is needed
    from babel.messages.pofile import read_po

    with catalog_path(code).open("rb") as handle:
        catalog = read_po(handle, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def tr(message: str) -> str:
    """``message`` in the language in effect (itself where the catalog lacks it)."""
    if not message:
        return message
    return translations(language()).gettext(message)


def ntr(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message for ``count``, in the language in effect."""
    return translations(language()).ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (a constant defined before a
    language is known); ``tr`` translates it where it is shown."""
    return message


def labels(texts: Mapping[str, str] | Iterable[str]) -> Callable[[str], str]:
    """A widget's ``format_func`` whose labels are translated now, in the language in effect:
    a widget may format its options later on another thread (a test's, a callback's), where
    ``tr`` would answer in the default language. ``texts`` maps options to their English
    labels, or lists options that are their own labels."""
    pairs = texts.items() if isinstance(texts, Mapping) else ((text, text) for text in texts)
    translated = {option: tr(label) for option, label in pairs}
    return lambda option: translated.get(option, option)

"""The teacher's link: a teaching page's example (candidate, references, settings, view,
presentation mode) in the URL's query string, so the address opens the same example in any
browser.

Each page names its ``Field``s (a query parameter, the session key it fills, how to read and
write it). ``restore`` applies the URL's values once per session and page, before the page
draws its widgets; ``save`` writes the current values back after every run. These parameters
are this module's own (prefixes ``ex_``, ``bp_``, ``bs_`` and ``present``): session/_url.py
rewrites the query string but keeps parameters it does not own, so both live side by side.
A link is built on the page's own path (``st.context.url``), so opening it needs no page
switch (which would clear the query string before the page reads it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from bleu.display.escaping import escape_markdown
from bleu.i18n import tr
from bleu_app.widgets import _classroom

#: the most characters the texts of one link may hold (browsers and servers take ~8000)
TEXT_LIMIT = 4000
_BOOLEAN = {"1": True, "true": True, "0": False, "false": False}


@dataclass(frozen=True)
class Field:
    """One query parameter and the session value it fills: ``key`` (or a function giving it,
    for a key that depends on values restored before it), ``parse`` (text -> value, or None
    when the text is not valid) and ``write`` (value -> text)."""

    param: str
    key: str | Callable[[], str]
    parse: Callable[[str], Any]
    write: Callable[[Any], str] = str
    text: bool = False  # user text: counts against TEXT_LIMIT

    @property
    def state_key(self) -> str:
        return self.key() if callable(self.key) else self.key


def text_value(text: str) -> str | None:
    """Any text up to ``TEXT_LIMIT`` characters."""
    return text if len(text) <= TEXT_LIMIT else None


def choice(options: Sequence[Any]) -> Callable[[str], Any]:
    """One of ``options`` (compared as text)."""
    by_text = {str(option): option for option in options}
    return by_text.get


def integer(low: int, high: int) -> Callable[[str], int | None]:
    """An integer in [low, high]."""
    def parse(text: str) -> int | None:
        try:
            value = int(text)
        except ValueError:
            return None
        return value if low <= value <= high else None
    return parse


def number(low: float, high: float) -> Callable[[str], float | None]:
    """A finite number in [low, high]."""
    def parse(text: str) -> float | None:
        try:
            value = float(text)
        except ValueError:
            return None
        return value if math.isfinite(value) and low <= value <= high else None
    return parse


def numbers(low: float, high: float, count: int) -> Callable[[str], list[float] | None]:
    """``count`` comma-separated numbers in [low, high]."""
    one = number(low, high)

    def parse(text: str) -> list[float] | None:
        values = [one(part) for part in text.split(",")]
        if len(values) != count or any(v is None for v in values):
            return None
        return [float(v) for v in values if v is not None]
    return parse


def boolean(text: str) -> bool | None:
    """``1``/``true`` or ``0``/``false``."""
    return _BOOLEAN.get(text.lower())


def write_boolean(value: Any) -> str:
    return "1" if value else "0"


def write_number(value: Any) -> str:
    """A number as a link writes it: a decimal point in every interface language (``number``
    reads it back), never the number rule's text."""
    return f"{float(value):g}"


def write_numbers(values: Any) -> str:
    return ",".join(write_number(v) for v in values)


#: presentation mode, on every teaching page
PRESENT = Field("present", _classroom.PRESENTING, boolean, write_boolean)


def restore(page: str, fields: Sequence[Field]) -> None:
    """The URL's values of ``fields`` into the session, once per session and page (the first
    time the page runs); invalid or missing values are left alone."""
    done = f"example_link_restored_{page}"
    if st.session_state.get(done):
        return
    st.session_state[done] = True
    params = st.query_params.to_dict()
    for field in fields:  # in order: a key may depend on a value restored before it
        if field.param in params and (value := field.parse(params[field.param])) is not None:
            st.session_state[field.state_key] = value


def _values(fields: Sequence[Field]) -> dict[str, str]:
    values = {}
    for field in fields:
        key = field.state_key
        if key in st.session_state and st.session_state[key] is not None:
            values[field.param] = field.write(st.session_state[key])
    if sum(len(values.get(f.param, "")) for f in fields if f.text) > TEXT_LIMIT:
        for field in fields:
            if field.text:
                values.pop(field.param, None)
    return values


def save(fields: Sequence[Field]) -> None:
    """Write the current values of ``fields`` to the URL (other parameters are kept); a text
    field that is gone from the session is removed from the URL."""
    wanted = _values(fields)
    current = st.query_params.to_dict()
    for field in fields:
        if field.param in wanted and current.get(field.param) != wanted[field.param]:
            st.query_params[field.param] = wanted[field.param]
        elif field.param not in wanted and field.param in current:
            del st.query_params[field.param]


def link(fields: Sequence[Field]) -> str | None:
    """The full address of this page with its example, or None where the browser's address is
    not known (a test run)."""
    base = st.context.url
    if not base:
        return None
    params = {**st.query_params.to_dict(), **_values(fields)}
    return f"{base}?{urlencode(params)}"


def share_box(fields: Sequence[Field]) -> None:
    """The link to this example, with a copy button, and what it holds."""
    with st.expander(tr("Link to this example"), icon=":material/link:"):
        texts = [f for f in fields if f.text]
        if texts and not all(f.param in _values(fields) for f in texts):
            st.warning(tr("The texts are longer than {limit} characters: the link keeps the "
                          "settings only.").format(limit=TEXT_LIMIT))
        st.caption(tr("This address opens this example (candidate, references, settings, the "
                      "view and presentation mode) in any browser: send it to your students. "
                      "The browser's address bar holds it too."))
        address = link(fields)
        if address is None:
            st.caption(escape_markdown(tr("(The address is shown in a browser.)")))
        else:
            st.code(address, language=None, wrap_lines=True)

"""Database locations in messages: the one place that hides their secrets.

A PostgreSQL URL may carry a password in its userinfo (``postgresql://user:p@ss@host/db``, where
the last ``@`` ends it) or in a query or conninfo parameter (``?password=...``, ``passfile=``,
``sslpassword=``); an SQLite path tells where the server keeps its files. Every message the app or
the command line shows about the database, driver errors included, goes through
``redact_location``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote

HIDDEN = "***"
#: what a file path echoed by a driver becomes
FILE = "the workspace database"
#: a parameter whose name holds one of these is a secret (password, passfile, sslkey, ...)
_SECRET_KEYS = ("pass", "pwd", "secret", "token", "key")
#: ``scheme://user:PASSWORD@``: the password runs to the last ``@`` of the word (greedy)
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s:@/\"'<>]*:)"
                       r"[^\s\"'<>]*@")
#: ``key=value`` after the start, ``?``, ``&``, ``;`` or a space (URL query or libpq conninfo);
#: a value is quoted, or runs to the next space, ``&`` or quote
_PARAMETER = re.compile(r"(?P<head>(?:^|(?<=[?&;\s]))(?P<key>[^\s=&?#;\"']+)\s*=\s*)"
                        r"(?P<value>'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|[^\s&\"']*)")
#: where a driver may cut a password it misparsed, echoing the pieces
_CUTS = re.compile(r"[@:/?#&]")
#: shorter pieces of a cut password are left alone (they would garble every message)
_MIN_PIECE = 4


def redact_location(text: str, location: str | os.PathLike[str] | None = None) -> str:
    """``text`` with every database password hidden (URL userinfo, password-like query or
    conninfo parameters); given the ``location`` it came from, also every literal echo of that
    location's secrets and of its file path, which drivers put in their errors."""
    if location is not None:
        for secret, shown in _literal_secrets(location):
            text = text.replace(secret, shown)
    text = _PARAMETER.sub(_hide_parameter, text)  # first: a value may hold an "@"
    return _USERINFO.sub(lambda match: f"{match['head']}{HIDDEN}@", text)


def _hide_parameter(match: re.Match[str]) -> str:
    key = unquote(match["key"]).lower()
    if not any(marker in key for marker in _SECRET_KEYS) or not match["value"]:
        return match[0]
    return f"{match['head']}{HIDDEN}"


def _literal_secrets(location: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """(text, what it becomes) for each secret of a location, the longest first."""
    text = os.fspath(location)
    if "://" in text:
        found = {text: redact_location(text)}
        for secret in _url_secrets(text):
            for variant in (secret, unquote(secret)):
                found.setdefault(variant, HIDDEN)
                found.update((piece, HIDDEN) for piece in _CUTS.split(variant)
                             if len(piece) >= _MIN_PIECE)
    else:
        path = Path(text).expanduser()
        found = {str(variant): FILE for variant in {text, path, path.absolute()} if str(variant)}
        found.update((str(folder), "its folder") for folder in {path.parent,
                                                                path.absolute().parent}
                     if len(str(folder)) > 1)
    return sorted(found.items(), key=lambda item: -len(item[0]))


def _url_secrets(url: str) -> list[str]:
    """The password of a URL's userinfo (up to its last ``@``, and up to each ``@`` before it:
    a parser may end it at any of them) and the values of its secret parameters, as written."""
    secrets = []
    for match in _USERINFO.finditer(url):
        password = url[match.end("head"):match.end() - 1]
        secrets.append(password)
        secrets += [password[:cut] for cut, char in enumerate(password)
                    if char == "@" and cut >= _MIN_PIECE - 1]
    secrets += [match["value"].strip("'\"") for match in _PARAMETER.finditer(url)
                if any(marker in unquote(match["key"]).lower() for marker in _SECRET_KEYS)]
    return [secret for secret in secrets if secret]

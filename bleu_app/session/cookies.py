"""Edit secrets kept by the owner's browser as cookies the server sets: HttpOnly (no script, ours
or another page's, can read them), SameSite=Strict, sent only to Streamlit's own paths
(``/_stcore/``, where the session's websocket starts: ``st.context.cookies`` reads them there),
``Secure`` on https, kept ``MAX_AGE`` (90 days, renewed on every visit that verifies them).

A session cannot answer an HTTP request, so it hands the cookies over in two steps: ``offer``
keeps them in this process under a one-time nonce (128 random bits, for ``OFFER_SECONDS``) and
gives the sidebar a script that POSTs the nonce to ``ROUTE``; ``endpoint`` (a Starlette route
of the app's server, ``bleu_app/app.py``) redeems it and answers with the ``Set-Cookie``
headers. Neither secret nor nonce goes into a URL. Without the route (AppTest, a server started
another way) the request fails and the secrets stay in the session only.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: where the sidebar's script posts its nonce (outside Streamlit's reserved prefixes)
ROUTE = "/bleu-explorer/cookies"
#: a browser's edit secret for workspace <id> is its cookie ``bleu_ws_<id>``
PREFIX = "bleu_ws_"
#: how long a browser keeps an edit secret: 90 days, renewed on every visit that verifies it
MAX_AGE = 90 * 24 * 3600
#: how long an offer waits for its request (the script runs as soon as the sidebar is drawn)
OFFER_SECONDS = 120.0
#: what an id, a secret or a nonce looks like (``secrets.token_urlsafe``): nothing else goes
#: into a header or the script
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{16,64}")

_OFFERS: dict[str, tuple[float, tuple[Cookie, ...]]] = {}
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Cookie:
    """One workspace's edit secret to keep (``secret``), or to forget (None)."""

    workspace_id: str
    secret: str | None


def browser_secrets(cookies: Mapping[str, str]) -> dict[str, str]:
    """The edit secrets among a request's cookies (id -> secret); anything not id- and
    secret-shaped is left out."""
    return {name[len(PREFIX):]: value for name, value in cookies.items()
            if name.startswith(PREFIX) and TOKEN_LIKE.fullmatch(name[len(PREFIX):])
            and TOKEN_LIKE.fullmatch(value)}


def offer(cookies: Iterable[Cookie], now: float | None = None) -> str | None:
    """Keep ``cookies`` for one request; the nonce that redeems them (None when there is
    nothing well-formed to set). Offers older than ``OFFER_SECONDS`` are dropped."""
    kept = tuple(cookie for cookie in cookies if TOKEN_LIKE.fullmatch(cookie.workspace_id)
                 and (cookie.secret is None or TOKEN_LIKE.fullmatch(cookie.secret)))
    if not kept:
        return None
    now = time.monotonic() if now is None else now
    nonce = secrets.token_urlsafe(16)
    with _LOCK:
        for stale in [key for key, (when, _) in _OFFERS.items()
                      if now - when > OFFER_SECONDS]:
            del _OFFERS[stale]
        _OFFERS[nonce] = (now, kept)
    return nonce


def redeem(nonce: str, now: float | None = None) -> tuple[Cookie, ...]:
    """The cookies offered under ``nonce``, once (nothing for an unknown, used or expired
    nonce)."""
    now = time.monotonic() if now is None else now
    with _LOCK:
        when, cookies = _OFFERS.pop(nonce, (0.0, ()))
    return cookies if now - when <= OFFER_SECONDS else ()


def cookie_path(base_url_path: str = "") -> str:
    """The path the cookies are sent to: Streamlit's own, under the server's base URL path."""
    base = base_url_path.strip("/")
    return f"/{base}/_stcore/" if base else "/_stcore/"


def set_cookie_headers(cookies: Iterable[Cookie], *, path: str, secure: bool) -> list[str]:
    """The ``Set-Cookie`` values for ``cookies``: each secret kept ``MAX_AGE`` seconds (or
    forgotten), and any copy an older version set with a script (Path=/, readable by scripts)
    removed."""
    flags = "; HttpOnly; SameSite=Strict" + ("; Secure" if secure else "")
    headers = []
    for cookie in cookies:
        name = f"{PREFIX}{cookie.workspace_id}"
        if cookie.secret is None:
            headers.append(f"{name}=; Max-Age=0; Path={path}{flags}")
        else:
            headers.append(f"{name}={cookie.secret}; Max-Age={MAX_AGE}; Path={path}{flags}")
        headers.append(f"{name}=; Max-Age=0; Path=/; SameSite=Strict")
    return headers


def script(nonce: str) -> str:
    """The script that asks the server to set the cookies offered under ``nonce`` (same origin,
    the nonce in the body)."""
    if not TOKEN_LIKE.fullmatch(nonce):
        raise ValueError("not a nonce")
    return (f"<script>fetch({ROUTE!r}, {{method: 'POST', body: {nonce!r}, "
            "credentials: 'same-origin', cache: 'no-store'}).catch(() => {});</script>")


async def endpoint(request: Any) -> Any:
    """The route: redeem the posted nonce; 204 with the cookies' headers (404 for a nonce that
    is not, or no longer, offered)."""
    from starlette.responses import Response
    from streamlit import config

    nonce = (await request.body())[:64].decode("ascii", "replace")
    cookies = redeem(nonce) if TOKEN_LIKE.fullmatch(nonce) else ()
    if not cookies:
        return Response(status_code=404, headers={"Cache-Control": "no-store"})
    path = cookie_path(config.get_option("server.baseUrlPath") or "")
    response = Response(status_code=204, headers={"Cache-Control": "no-store"})
    for header in set_cookie_headers(cookies, path=path, secure=request.url.scheme == "https"):
        response.headers.append("Set-Cookie", header)
    return response


def routes() -> list[Any]:
    """The app server's extra routes (``st.App(..., routes=routes())``)."""
    from starlette.routing import Route

    return [Route(ROUTE, endpoint, methods=["POST"])]

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

The route is a door every page on the same host can knock on (cookies do not tell ports
apart, and SameSite counts another port as the same site), so it (1) reads at most what a nonce
takes (``MAX_BODY`` bytes; a bigger or unannounced body is refused unread), (2) answers only
requests from the app's own pages (``Sec-Fetch-Site: same-origin``, else an ``Origin`` equal to
the app's own), and (3) redeems a nonce only for the browser whose session asked for it (the
offer is bound to that browser's XSRF token, the one Streamlit checks on its websocket), so a
page elsewhere cannot make a visitor's browser store the edit secret of another's workspace
(login CSRF).
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import cycle
from typing import Any
from urllib.parse import urlsplit

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
#: the most of a request's body the route reads: a nonce, and no more
MAX_BODY = 64
#: the cookie whose token ties an offer to a browser: Streamlit's XSRF cookie, set on the
#: app's page and checked on its websocket (``st.context.cookies`` has it there)
BINDING_COOKIE = "_streamlit_xsrf"

_OFFERS: dict[str, tuple[float, tuple[Cookie, ...], str | None]] = {}
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


def browser_binding(cookies: Mapping[str, str]) -> str | None:
    """What ties an offer to the browser that sent ``cookies``: a digest of the token in its
    Streamlit XSRF cookie (whose text changes on every page load, its token does not); None
    without one (XSRF protection off, or AppTest)."""
    value = cookies.get(BINDING_COOKIE, "").strip("\"'")
    try:
        if value.startswith("2|"):  # version 2: "2|mask|masked token|timestamp", hex
            _, mask, masked, _ = value.split("|")
            token = bytes(a ^ b for a, b in zip(binascii.a2b_hex(masked),
                                                cycle(binascii.a2b_hex(mask))))
        else:  # version 1: the token in hex
            token = binascii.a2b_hex(value)
    except (ValueError, binascii.Error):
        return None
    return hashlib.sha256(token).hexdigest() if token else None


def offer(cookies: Iterable[Cookie], now: float | None = None,
          binding: str | None = None) -> str | None:
    """Keep ``cookies`` for one request from the browser ``binding`` names
    (``browser_binding`` of the session's cookies); the nonce that redeems them (None when
    there is nothing well-formed to set). Offers older than ``OFFER_SECONDS`` are dropped."""
    kept = tuple(cookie for cookie in cookies if TOKEN_LIKE.fullmatch(cookie.workspace_id)
                 and (cookie.secret is None or TOKEN_LIKE.fullmatch(cookie.secret)))
    if not kept:
        return None
    now = time.monotonic() if now is None else now
    nonce = secrets.token_urlsafe(16)
    with _LOCK:
        for stale in [key for key, (when, _, _) in _OFFERS.items()
                      if now - when > OFFER_SECONDS]:
            del _OFFERS[stale]
        _OFFERS[nonce] = (now, kept, binding)
    return nonce


def redeem(nonce: str, now: float | None = None,
           binding: str | None = None) -> tuple[Cookie, ...]:
    """The cookies offered under ``nonce``, once, to the browser the offer is bound to
    (nothing for an unknown, used or expired nonce, or another browser, whose attempt leaves
    the offer for its own)."""
    now = time.monotonic() if now is None else now
    with _LOCK:
        when, cookies, bound = _OFFERS.get(nonce, (0.0, (), None))
        if bound is not None and (binding is None or not hmac.compare_digest(bound, binding)):
            return ()
        _OFFERS.pop(nonce, None)
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


def same_origin(headers: Mapping[str, str], scheme: str) -> bool:
    """Whether a request comes from the app's own pages: the browser says so
    (``Sec-Fetch-Site: same-origin``), or, where it does not send that header, its ``Origin``
    is the app's own (scheme and host, port included). A request with neither is not
    answered: the sidebar's script always sends one."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin, host = headers.get("origin"), headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme == scheme and parts.netloc.lower() == host.lower()


async def _nonce(request: Any) -> str | None:
    """The posted nonce, read no further than ``MAX_BODY`` bytes; None for a body that is
    announced bigger, not announced at all, or longer than announced."""
    length = request.headers.get("content-length", "")
    if not length.isdigit() or int(length) > MAX_BODY:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body.decode("ascii", "replace")


def _refused(status: int) -> Any:
    from starlette.responses import Response

    return Response(status_code=status, headers={"Cache-Control": "no-store"})


async def endpoint(request: Any) -> Any:
    """The route: redeem the posted nonce; 204 with the cookies' headers (403 for a request
    that is not the app's own page's, 413 for a body bigger than a nonce, 404 for a nonce that
    is not, or no longer, offered to this browser)."""
    from starlette.responses import Response
    from streamlit import config

    if not same_origin(request.headers, request.url.scheme):
        return _refused(403)
    nonce = await _nonce(request)
    if nonce is None:
        return _refused(413)
    cookies = redeem(nonce, binding=browser_binding(request.cookies)) \
        if TOKEN_LIKE.fullmatch(nonce) else ()
    if not cookies:
        return _refused(404)
    path = cookie_path(config.get_option("server.baseUrlPath") or "")
    response = Response(status_code=204, headers={"Cache-Control": "no-store"})
    for header in set_cookie_headers(cookies, path=path, secure=request.url.scheme == "https"):
        response.headers.append("Set-Cookie", header)
    return response


def routes() -> list[Any]:
    """The app server's extra routes (``st.App(..., routes=routes())``)."""
    from starlette.routing import Route

    return [Route(ROUTE, endpoint, methods=["POST"])]

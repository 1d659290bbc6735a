"""The edit secrets' cookies (``bleu_app.session.cookies``): a session's offer is redeemed once,
by its
nonce, within its time; the route answers with HttpOnly, SameSite=Strict cookies for Streamlit's
paths only (Secure on https) and removes the script-readable copies older versions set; nothing
but id- and secret-shaped text gets into a header or the script."""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request

from bleu_app.session import cookies
from bleu_app.session.cookies import Cookie

ID, SECRET = "AbCdEfGhIjKlMnOpQrStUv", "secret-0123456789abcdef"


def test_an_offer_is_redeemed_once_and_only_in_time() -> None:
    nonce = cookies.offer([Cookie(ID, SECRET)], now=100.0)
    assert nonce is not None and cookies.TOKEN_LIKE.fullmatch(nonce)
    assert cookies.redeem("not-the-nonce-000000", now=101.0) == ()
    assert cookies.redeem(nonce, now=101.0) == (Cookie(ID, SECRET),)
    assert cookies.redeem(nonce, now=101.0) == ()  # used
    late = cookies.offer([Cookie(ID, None)], now=200.0)
    assert cookies.redeem(late, now=200.0 + cookies.OFFER_SECONDS + 1) == ()  # expired


def test_only_well_formed_cookies_are_offered() -> None:
    assert cookies.offer([Cookie("x", SECRET), Cookie(ID, "<script>"),
                          Cookie("a b; Path=/evil0000", SECRET)]) is None
    nonce = cookies.offer([Cookie(ID, "x;y"), Cookie(ID, SECRET)])
    assert cookies.redeem(nonce) == (Cookie(ID, SECRET),)
    assert cookies.browser_secrets({f"bleu_ws_{ID}": SECRET, "bleu_ws_x": SECRET,
                                    f"bleu_ws_{ID}x": "<b>", "_streamlit_xsrf": SECRET}) == {
        ID: SECRET}


def test_the_headers() -> None:
    kept, old_copy = cookies.set_cookie_headers([Cookie(ID, SECRET)], path="/_stcore/",
                                                secure=False)
    assert kept == (f"bleu_ws_{ID}={SECRET}; Max-Age=7776000; Path=/_stcore/; HttpOnly; "
                    "SameSite=Strict")
    assert old_copy == f"bleu_ws_{ID}=; Max-Age=0; Path=/; SameSite=Strict"
    (gone, _) = cookies.set_cookie_headers([Cookie(ID, None)], path="/lab/_stcore/",
                                           secure=True)
    assert gone == (f"bleu_ws_{ID}=; Max-Age=0; Path=/lab/_stcore/; HttpOnly; "
                    "SameSite=Strict; Secure")
    assert cookies.MAX_AGE == 90 * 24 * 3600
    assert cookies.cookie_path("") == "/_stcore/"
    assert cookies.cookie_path("/lab/") == "/lab/_stcore/"


def test_the_script_posts_only_a_nonce() -> None:
    nonce = cookies.offer([Cookie(ID, SECRET)])
    script = cookies.script(nonce)
    assert SECRET not in script and ID not in script and nonce in script
    assert f"fetch('{cookies.ROUTE}'" in script and "method: 'POST'" in script
    for bad in ("'); alert(1); ('", "short"):
        try:
            cookies.script(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was put into a script")


def masked(token: bytes, mask: bytes) -> str:
    """An XSRF cookie as Streamlit writes it: version 2, the token masked (a new mask on every
    page load)."""
    return "|".join(("2", mask.hex(), bytes(b ^ m for b, m in zip(
        token, mask * (len(token) // len(mask)), strict=True)).hex(), "1700000000"))


TOKEN = b"token-of-this-browser-0123456789"
XSRF = masked(TOKEN, b"\x0a\x0b\x0c\x0d")
SAME = {"sec-fetch-site": "same-origin", "origin": "http://127.0.0.1:8501"}


def _post(body: bytes, scheme: str = "http", headers: dict[str, str] | None = None,
          chunks: list[bytes] | None = None, length: int | None = None,
          cookie: str | None = None):
    """The route's answer to a POST of ``body`` (an ASGI request built by hand), from the app's
    own page unless ``headers`` say otherwise; ``chunks`` count what the route reads."""
    given = dict(SAME if headers is None else headers)
    given["host"] = "127.0.0.1:8501"
    if length is not None or chunks is None:
        given["content-length"] = str(len(body) if length is None else length)
    if cookie is not None:
        given["cookie"] = f"_streamlit_xsrf={cookie}"
    parts = chunks if chunks is not None else [body]
    read = []

    async def receive() -> dict:
        read.append(parts[len(read)])
        return {"type": "http.request", "body": read[-1], "more_body": len(read) < len(parts)}

    scope = {"type": "http", "method": "POST", "path": cookies.ROUTE,
             "headers": [(k.encode(), v.encode()) for k, v in given.items()],
             "query_string": b"", "scheme": scheme, "server": ("127.0.0.1", 8501)}
    answer = asyncio.run(cookies.endpoint(Request(scope, receive)))
    answer.read_bytes = sum(map(len, read))
    return answer


def test_the_route_sets_the_cookies_once() -> None:
    nonce = cookies.offer([Cookie(ID, SECRET)])
    answer = _post(nonce.encode())
    assert answer.status_code == 204 and answer.headers["cache-control"] == "no-store"
    set_cookies = [value.decode() for key, value in answer.raw_headers if key == b"set-cookie"]
    assert set_cookies == cookies.set_cookie_headers([Cookie(ID, SECRET)], path="/_stcore/",
                                                     secure=False)
    assert _post(nonce.encode()).status_code == 404  # a nonce works once
    secure = _post(cookies.offer([Cookie(ID, SECRET)]).encode(), scheme="https",
                   headers={"sec-fetch-site": "same-origin"})
    assert next(value for key, value in secure.raw_headers if key == b"set-cookie").endswith(
        b"; Secure")


# --- issue 36: a bounded body, same-origin requests only, a nonce for its own browser --------

def test_a_big_body_is_refused_unread() -> None:
    """Before: a 1 GB POST was read whole (2 GB of server memory; two at once, 2.9 GB)."""
    gigabyte = [b"x" * 2**20] * 1024  # what the client would send, a MiB at a time
    announced = _post(b"", chunks=gigabyte, length=2**30)
    assert announced.status_code == 413 and announced.read_bytes == 0
    unannounced = _post(b"", chunks=gigabyte)  # chunked: no Content-Length
    assert unannounced.status_code == 413 and unannounced.read_bytes == 0
    lying = _post(b"", chunks=gigabyte, length=40)  # says 40 bytes, sends more
    assert lying.status_code == 413 and lying.read_bytes <= 2**20
    assert _post(b"x" * 5000).status_code == 413


@pytest.mark.parametrize("headers", [
    {"sec-fetch-site": "same-site", "origin": "http://127.0.0.1:9000"},  # another port
    {"sec-fetch-site": "cross-site", "origin": "https://evil.example"},
    {"sec-fetch-site": "none"},
    {"origin": "http://127.0.0.1:9000"},  # an older browser: Origin alone
    {"origin": "null"},
    {},  # neither header: no page of the app's sends that
], ids=["same-site", "cross-site", "typed", "other-port", "opaque", "none"])
def test_only_the_apps_own_pages_are_answered(headers: dict[str, str]) -> None:
    nonce = cookies.offer([Cookie(ID, SECRET)])
    assert _post(nonce.encode(), headers=headers).status_code == 403
    assert _post(nonce.encode()).status_code == 204  # the refusal left the offer in place
    assert _post(nonce.encode(), headers={"origin": "http://127.0.0.1:8501"}).status_code == 404


def test_a_nonce_is_redeemed_only_by_the_browser_whose_session_asked_for_it() -> None:
    """Login CSRF: a page on another port of the host made a visitor's browser redeem the
    attacker's nonce, and the visitor's sidebar then listed the attacker's workspace as its
    own. The offer is bound to the asking browser's XSRF token."""
    mine = cookies.browser_binding({"_streamlit_xsrf": XSRF})
    assert mine is not None
    remasked = masked(TOKEN, b"\x01\x02\x03\x04")
    assert cookies.browser_binding({"_streamlit_xsrf": remasked}) == mine  # same token
    other = masked(b"another-browsers-token-000000000", b"\x01\x02\x03\x04")
    nonce = cookies.offer([Cookie(ID, SECRET)], binding=mine)
    assert _post(nonce.encode(), cookie=other).status_code == 404
    assert _post(nonce.encode()).status_code == 404  # no XSRF cookie at all
    assert _post(nonce.encode(), cookie=remasked).status_code == 204
    assert cookies.browser_binding({"_streamlit_xsrf": "2|zz|zz|1"}) is None
    assert cookies.browser_binding({}) is None

"""The edit secrets' cookies (``bleu_app.session.cookies``): a session's offer is redeemed once,
by its
nonce, within its time; the route answers with HttpOnly, SameSite=Strict cookies for Streamlit's
paths only (Secure on https) and removes the script-readable copies older versions set; nothing
but id- and secret-shaped text gets into a header or the script."""

from __future__ import annotations

import asyncio

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


def _post(body: bytes, scheme: str = "http"):
    """The route's answer to a POST of ``body`` (an ASGI request built by hand)."""
    sent = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return sent.pop(0)

    scope = {"type": "http", "method": "POST", "path": cookies.ROUTE, "headers": [],
             "query_string": b"", "scheme": scheme, "server": ("127.0.0.1", 8501)}
    return asyncio.run(cookies.endpoint(Request(scope, receive)))


def test_the_route_sets_the_cookies_once() -> None:
    nonce = cookies.offer([Cookie(ID, SECRET)])
    answer = _post(nonce.encode())
    assert answer.status_code == 204 and answer.headers["cache-control"] == "no-store"
    set_cookies = [value.decode() for key, value in answer.raw_headers if key == b"set-cookie"]
    assert set_cookies == cookies.set_cookie_headers([Cookie(ID, SECRET)], path="/_stcore/",
                                                     secure=False)
    assert _post(nonce.encode()).status_code == 404  # a nonce works once
    assert _post(b"x" * 5000).status_code == 404
    secure = _post(cookies.offer([Cookie(ID, SECRET)]).encode(), scheme="https")
    assert next(value for key, value in secure.raw_headers if key == b"set-cookie").endswith(
        b"; Secure")

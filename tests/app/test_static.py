"""Streamlit's front-end files answered from memory (``bleu_app/runtime/_static.py``): the same
bytes and headers Streamlit's own handler gives them, HEAD without a body, and every other
request (another path, a path that climbs out, a POST) passed on untouched."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from streamlit import file_util

from bleu_app.runtime._static import CACHE_CONTROL, StaticFromMemory

STATIC = Path(file_util.get_static_dir())


def call(app, path: str, method: str = "GET") -> tuple[int, dict[bytes, bytes], bytes]:
    """One request through ``app``: status, headers, body."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": [],
             "query_string": b""}
    # on a thread of its own: a test run before this one on the same worker (a browser's sync
    # API) may have left an event loop running on this thread
    worker = threading.Thread(target=lambda: asyncio.run(app(scope, receive, send)))
    worker.start()
    worker.join()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


async def passed_on(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 418, "headers": []})
    await send({"type": "http.response.body", "body": scope["path"].encode()})


@pytest.fixture(scope="module")
def static() -> StaticFromMemory:
    return StaticFromMemory(passed_on)


def a_file(suffix: str) -> Path:
    return next(path for path in sorted((STATIC / "static").rglob(f"*{suffix}")))


@pytest.mark.parametrize("suffix", [".js", ".css", ".woff2"])
def test_a_front_end_file_is_its_bytes_with_streamlits_headers(static, suffix) -> None:
    path = a_file(suffix)
    url = "/" + path.relative_to(STATIC).as_posix()
    status, headers, body = call(static, url)
    assert status == 200 and body == path.read_bytes()
    assert headers[b"content-length"] == str(len(body)).encode()
    assert headers[b"cache-control"] == CACHE_CONTROL
    kind = headers[b"content-type"].decode()
    assert kind.split(";")[0] in {"text/javascript", "application/javascript", "text/css",
                                  "font/woff2", "application/font-woff2"}
    again = call(static, url)
    assert again == (status, headers, body)
    status, headers, body = call(static, url, method="HEAD")
    assert status == 200 and body == b"" and headers[b"content-length"] == str(
        len(path.read_bytes())).encode()


@pytest.mark.parametrize(("path", "method"), [
    ("/", "GET"), ("/index.html", "GET"), ("/_stcore/health", "GET"), ("/static/nothing.js", "GET"),
    ("/static/../index.html", "GET"), ("/static//js", "GET"), ("/sensitivity", "GET")])
def test_anything_else_goes_on_to_streamlit(static, path, method) -> None:
    assert call(static, path, method)[0] == 418


def test_a_post_to_a_front_end_file_goes_on(static) -> None:
    path = a_file(".js")
    assert call(static, "/" + path.relative_to(STATIC).as_posix(), "POST")[0] == 418


def test_the_server_parses_http_in_c() -> None:
    # uvicorn (http="auto", which Streamlit leaves as it is) takes httptools when it is
    # installed, else h11 in Python: the ~160 requests of a new browser cost about twice as
    # much server CPU with h11 (benchmarks/RESULTS.md)
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    assert AutoHTTPProtocol is HttpToolsProtocol

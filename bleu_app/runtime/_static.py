"""Streamlit's own front-end files (``/static/...``: its JavaScript, CSS and fonts) answered from
memory, before Streamlit's middleware and routes see the request.

A new browser asks for about 160 of them; Streamlit 1.67 answers each through its path checks,
session and gzip middleware, its router and Starlette's ``FileResponse`` (a ``stat`` and the
file read in a worker thread), which cost a new session more server CPU than drawing the page
(benchmarks/bench_browser.py). Their names carry a hash of their content and they never change
while the server runs, so each is read once, on first request, and then sent as it is with the
headers Streamlit gives them (the type, and ``immutable`` for a year). Only the exact paths of
the files in Streamlit's static folder are answered here; anything else goes on to Streamlit.
"""

from __future__ import annotations

import mimetypes
import threading
from pathlib import Path
from typing import Any

from streamlit import config, file_util

#: Streamlit's cache header for its hashed front-end files (``starlette_static_routes``)
CACHE_CONTROL = b"public, immutable, max-age=31536000"


class StaticFromMemory:
    """ASGI middleware: GET and HEAD of a file under Streamlit's ``static/`` folder, answered
    from memory (read on first use); every other request passed on to ``app``."""

    def __init__(self, app: Any, directory: str | Path | None = None) -> None:
        self.app = app
        root = Path(directory or file_util.get_static_dir())
        folder = root / "static"
        self._files = {"/" + path.relative_to(root).as_posix(): path
                       for path in folder.rglob("*") if path.is_file()} \
            if folder.is_dir() else {}
        self._answers: dict[str, tuple[list[tuple[bytes, bytes]], bytes]] = {}
        self._lock = threading.Lock()
        base = (config.get_option("server.baseUrlPath") or "").strip("/")
        self._prefix = f"/{base}" if base else ""

    def _answer(self, path: str) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        """The headers and body for ``path`` (a key of ``_files``), read once."""
        found = self._answers.get(path)
        if found is not None:
            return found
        body = self._files[path].read_bytes()
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if kind.startswith("text/"):  # as Starlette's FileResponse
            kind += "; charset=utf-8"
        headers = [(b"content-type", kind.encode("latin-1")),
                   (b"content-length", str(len(body)).encode("latin-1")),
                   (b"cache-control", CACHE_CONTROL)]
        with self._lock:
            return self._answers.setdefault(path, (headers, body))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            path: str = scope.get("path", "")
            if self._prefix and path.startswith(self._prefix + "/"):
                path = path[len(self._prefix):]
            if path in self._files:
                headers, body = self._answer(path)
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body",
                            "body": b"" if scope["method"] == "HEAD" else body})
                return
        await self.app(scope, receive, send)


def middleware() -> list[Any]:
    """The app server's middleware (``st.App(..., middleware=middleware())``): runs before
    Streamlit's own."""
    from starlette.middleware import Middleware

    return [Middleware(StaticFromMemory)]

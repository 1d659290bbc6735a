"""Streamlit's server with a probe that says where its CPU goes; the app itself is untouched.

Run as ``python benchmarks/server_probe.py REPORT -- <streamlit run arguments>`` (the browser
benchmark does): it patches Streamlit in this process only, then starts ``streamlit run``.
Each ``SIGUSR1`` writes a snapshot of cumulative counters to REPORT (JSON, replaced
atomically), so a benchmark takes one before and one after what it measures and subtracts:

- ``http``: per kind of request (``static``, ``index`` (a page's HTML), ``host-config``,
  ``health``, ``component``, ``media``, ``upload``, ``app-route`` (the app's own routes, the
  cookie request), ``other``) the count and the event-loop CPU seconds spent in its task;
- ``websocket``: event-loop CPU spent in the websocket tasks (reading BackMsgs, sending
  ForwardMsgs), and the BackMsgs by type;
- ``runs``: every script run: session, page, cause (``first`` run of a session, the widgets
  whose value changed, ``page`` for another page, ``widgets first sent`` when the request is
  the first to carry the page's widgets (one of them is the user's change), ``none`` when
  nothing changed, ``script`` for a run the script asked for itself: ``st.rerun``,
  ``st.switch_page``), its thread's CPU seconds and wall seconds; ``run_loop``: event-loop
  CPU scheduled by script threads (messages on their way out); ``script_thread_other``:
  script-thread CPU outside runs;
- ``loop_other``: event-loop CPU in nothing above (accepting connections, parsing requests);
- ``threads``: CPU seconds of each live thread by name (the event loop's is ``MainThread``:
  what it spent outside callbacks is its total minus the ``loop`` counters).

CPU is ``time.thread_time`` around each event-loop callback (``asyncio.Handle._run``),
attributed through a context variable that the probe's outermost ASGI middleware sets per
request and the script thread sets per run. What is not in any category (other threads, the
interpreter between callbacks) is the process total (``/proc``) minus their sum.
"""

from __future__ import annotations

import asyncio.events
import contextvars
import json
import os
import signal
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

CATEGORY: contextvars.ContextVar[str | None] = contextvars.ContextVar("probe_category",
                                                                      default=None)
_LOCK = threading.Lock()
_LOOP_CPU: defaultdict[str, float] = defaultdict(float)
_HTTP_COUNT: Counter[str] = Counter()
_BACKMSGS: Counter[str] = Counter()
_RUNS: list[dict[str, Any]] = []
_SCRIPT_OTHER = [0.0]
#: per session: the widget values of its last rerun request, and the request not yet run
_WIDGETS: dict[str, dict[str, bytes]] = {}
_PENDING: dict[str, list[str]] = {}
_STARTED: dict[str, bool] = {}
#: per session: the page of its last rerun request
_PAGES: dict[str, str] = {}


def _kind(scope: dict[str, Any]) -> str:
    """The category of an HTTP or websocket request, from its path."""
    path = scope.get("path", "")
    if scope["type"] == "websocket":
        return "websocket"
    if path.startswith("/static/"):
        return "static"
    if path.startswith("/_stcore/host-config"):
        return "host-config"
    if path.startswith("/_stcore/health") or path.endswith("/_stcore/health"):
        return "health"
    if path.startswith("/_stcore/upload_file"):
        return "upload"
    if path.startswith("/component/") or "/_stcore/component" in path:
        return "component"
    if path.startswith("/media/"):
        return "media"
    if path.startswith("/_stcore/"):
        return "stcore-other"
    if path.startswith("/bleu-explorer/"):
        return "app-route"
    if "." not in path.rsplit("/", 1)[-1]:
        return "index"
    return "other"


class ProbeMiddleware:
    """The outermost ASGI middleware: marks the request's task with its category."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        kind = _kind(scope)
        label = kind if kind == "websocket" else f"http:{kind}"
        with _LOCK:
            _HTTP_COUNT[label] += 1
        CATEGORY.set(label)
        await self.app(scope, receive, send)


def _patch_event_loop() -> None:
    original = asyncio.events.Handle._run

    def timed_run(self: asyncio.events.Handle) -> None:
        start = time.thread_time()
        try:
            original(self)
        finally:
            context = self._context
            label = context.get(CATEGORY) if context is not None else None
            _LOOP_CPU[label or "loop_other"] += time.thread_time() - start

    asyncio.events.Handle._run = timed_run


def _patch_middleware() -> None:
    """Our middleware first in every Starlette app the server builds (the app's own
    middleware, given to ``st.App``, included): it sees every request."""
    from starlette import applications
    from starlette.middleware import Middleware

    original = applications.Starlette.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["middleware"] = [Middleware(ProbeMiddleware), *(kwargs.get("middleware") or ())]
        original(self, *args, **kwargs)

    applications.Starlette.__init__ = init


def _widget_values(states: Any) -> dict[str, bytes]:
    values = {}
    for state in states.widgets:
        kind = state.WhichOneof("value")
        if kind is None or kind.endswith("trigger_value"):
            values[state.id] = b"trigger" if kind else b""
            continue
        values[state.id] = state.SerializeToString()
    return values


def _key(widget_id: str) -> str:
    """A widget's user key where it has one (``$$ID-<hash>-<key>``), else its id."""
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] not in ("", "None") else widget_id[:24]


def _patch_session() -> None:
    from streamlit.runtime.app_session import AppSession

    original = AppSession.handle_backmsg

    def handle_backmsg(self: AppSession, msg: Any) -> None:
        kind = msg.WhichOneof("type")
        with _LOCK:
            _BACKMSGS[kind] += 1
            if kind == "rerun_script":
                request = msg.rerun_script
                now = _widget_values(request.widget_states)
                before = _WIDGETS.get(self.id)
                page = request.page_script_hash or request.page_name
                if before is None:
                    cause = "first"
                else:
                    # a widget drawn for the first time is not a change
                    changed = sorted(_key(w) for w in set(now) & set(before)
                                     if now[w] != before[w] and now[w] != b"")
                    triggers = sorted(_key(w) for w, v in now.items() if v == b"trigger")
                    changed = sorted(set(changed) | set(triggers))
                    cause = ("widgets: " + ", ".join(changed)) if changed else "none"
                    if cause == "none" and page and page != _PAGES.get(self.id):
                        cause = f"page: {request.page_name or page[:8]}"
                    elif cause == "none" and set(now) - set(before):
                        # the page's widgets reach the server with the first request after
                        # they were drawn: one of them is what the user changed
                        cause = f"widgets first sent: {len(set(now) - set(before))}"
                _WIDGETS[self.id] = {w: v for w, v in now.items() if v != b"trigger"}
                if page:
                    _PAGES[self.id] = page
                _PENDING.setdefault(self.id, []).append(
                    f"{cause} (query {request.query_string!r})")
        original(self, msg)

    AppSession.handle_backmsg = handle_backmsg


def _page_of(ctx: Any) -> str:
    try:
        pages = ctx.pages_manager.get_pages()
        info = pages.get(ctx.page_script_hash) or {}
        return info.get("url_pathname") or info.get("page_name") or "?"
    except Exception:  # a Streamlit whose pages look otherwise: the run is still counted
        return "?"


def _patch_script_runner() -> None:
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    Event = script_runner.ScriptRunnerEvent
    stops = {Event.SCRIPT_STOPPED_WITH_SUCCESS, Event.SCRIPT_STOPPED_FOR_RERUN,
             Event.SCRIPT_STOPPED_WITH_COMPILE_ERROR, Event.FRAGMENT_STOPPED_WITH_SUCCESS}
    runner_class = script_runner.ScriptRunner
    original_init, original_run = runner_class.__init__, runner_class._run_script
    marks: dict[int, tuple[float, float, str, str]] = {}

    def on_event(sender: Any, event: Any = None, **_: Any) -> None:
        if event == Event.SCRIPT_STARTED:
            ctx = get_script_run_ctx()
            session = ctx.session_id if ctx else "?"
            with _LOCK:
                causes = _PENDING.pop(session, [])
            cause = " + ".join(causes) if causes else "script"
            marks[threading.get_ident()] = (time.thread_time(), time.perf_counter(), session,
                                            cause)
        elif event in stops:
            mark = marks.pop(threading.get_ident(), None)
            if mark is None:
                return
            ctx = get_script_run_ctx()
            with _LOCK:
                _RUNS.append({"session": mark[2][:8], "page": _page_of(ctx) if ctx else "?",
                              "cause": mark[3], "status": str(event).rsplit(".", 1)[-1],
                              "cpu": time.thread_time() - mark[0],
                              "wall": time.perf_counter() - mark[1]})

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self.on_event.connect(on_event, weak=False)

    def run_script(self: Any, rerun_data: Any) -> None:
        CATEGORY.set("run_loop")  # what this thread schedules on the event loop
        start = time.thread_time()
        counted = len(_RUNS)
        try:
            original_run(self, rerun_data)
        finally:
            with _LOCK:
                in_runs = sum(run["cpu"] for run in _RUNS[counted:])
                _SCRIPT_OTHER[0] += time.thread_time() - start - in_runs

    runner_class.__init__ = init
    runner_class._run_script = run_script


def _thread_cpu() -> dict[str, float]:
    """CPU seconds of every live thread by name (``/proc/self/task/<id>/stat``); the main
    thread (the event loop's) as ``MainThread``."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[str, float] = {}
    for thread in threading.enumerate():
        try:
            fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text()
        except OSError:
            continue
        values = fields.rsplit(")", 1)[1].split()
        name = thread.name.split("-")[0].rstrip("0123456789_ ")
        found[name] = found.get(name, 0.0) + (int(values[11]) + int(values[12])) / tick
    return found


def snapshot() -> dict[str, Any]:
    with _LOCK:
        return {"time": time.time(), "loop": dict(_LOOP_CPU), "requests": dict(_HTTP_COUNT),
                "backmsgs": dict(_BACKMSGS), "runs": list(_RUNS),
                "script_thread_other": _SCRIPT_OTHER[0], "threads": _thread_cpu()}


def _force_http_parser(name: str) -> None:
    """Make uvicorn parse HTTP with ``name`` (``h11`` or ``httptools``) rather than the
    fastest one installed: to measure what a parser changes with the same packages."""
    import uvicorn

    original = uvicorn.Config.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["http"] = name
        original(self, *args, **kwargs)

    uvicorn.Config.__init__ = init


def install(report: Path) -> None:
    """Patch Streamlit in this process; SIGUSR1 writes a snapshot to ``report``;
    ``BENCH_HTTP_PARSER`` (h11, httptools) forces uvicorn's HTTP parser."""
    if os.environ.get("BENCH_HTTP_PARSER"):
        _force_http_parser(os.environ["BENCH_HTTP_PARSER"])
    _patch_event_loop()
    _patch_middleware()
    _patch_session()
    _patch_script_runner()

    def write(*_: Any) -> None:
        partial = report.with_suffix(".part")
        partial.write_text(json.dumps(snapshot()))
        os.replace(partial, report)

    signal.signal(signal.SIGUSR1, write)


def main() -> None:
    report, separator, *streamlit_args = sys.argv[1:]
    if separator != "--":
        raise SystemExit(__doc__)
    install(Path(report))
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [entry for entry in sys.path if entry != here]  # the app's modules only
    from streamlit.web import cli

    sys.argv = ["streamlit", *streamlit_args]
    cli.main()


if __name__ == "__main__":
    main()

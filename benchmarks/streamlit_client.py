"""A scripted Streamlit browser session: the app's own websocket protocol (``BackMsg`` up,
``ForwardMsg`` down, Streamlit's protobufs), no browser.

It asks for a run as the browser does (page name, query string, the widget values it changed,
the hashes of the large messages it already holds, so the server sends those as references),
waits for the run's ``script_finished`` and keeps what the run drew: elements by their widget
key, metric values by label, the bytes received. What a server does for it is what it does for
a browser tab; drawing the page is the part a browser adds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

#: ``ForwardMsg.script_finished`` values: a run that ended, and one cut short by a rerun
FINISHED, FINISHED_FOR_RERUN = (ForwardMsg.ScriptFinishedStatus.Value(name) for name in (
    "FINISHED_SUCCESSFULLY", "FINISHED_EARLY_FOR_RERUN"))


@dataclass
class Run:
    """What one script run sent: seconds from the request to its end, bytes, elements."""

    seconds: float = 0.0
    received: int = 0
    messages: int = 0
    references: int = 0  # large elements sent as a hash of one this session already holds
    elements: list[Any] = field(default_factory=list)
    exception: str | None = None

    def metric(self, label: str) -> str | None:
        """The value shown by the ``st.metric`` labelled ``label`` (the last one)."""
        found = None
        for element in self.elements:
            if element.WhichOneof("type") == "metric" and element.metric.label == label:
                found = element.metric.body
        return found

    def tables(self) -> list[pa.Table]:
        """Every ``st.dataframe`` of the run, decoded from its Arrow bytes."""
        return [pa.ipc.open_stream(element.dataframe.arrow_data.data).read_all()
                for element in self.elements
                if element.WhichOneof("type") == "dataframe" and element.dataframe.arrow_data.data]


class Session:
    """One browser session of the app at ``url`` (``http://127.0.0.1:PORT``)."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://", 1).rstrip("/") + "/_stcore/stream"
        self.origin = url
        self.socket: Any = None
        self.widget_ids: dict[str, str] = {}  # user key -> widget id, from the runs so far
        self.held: dict[str, ForwardMsg] = {}  # large messages by hash, as the browser keeps
        self.page = ""
        self.query = ""

    async def open(self) -> None:
        self.socket = await websockets.connect(
            self.url, subprotocols=["streamlit"], origin=self.origin, max_size=None,
            open_timeout=600, ping_interval=None)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None

    async def run(self, page: str | None = None, query: str | None = None,
                  widgets: dict[str, Any] | None = None) -> Run:
        """One run: of ``page`` (URL path, "" the default page) with ``query``, the widgets by
        user key set to the given values (str, bool, float or int); the rest as they were."""
        self.page = self.page if page is None else page
        self.query = self.query if query is None else query
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query
        state.page_name = self.page
        state.cached_message_hashes.extend(self.held)
        for key, value in (widgets or {}).items():
            state.widget_states.widgets.append(self._widget(key, value))
        started = time.perf_counter()
        await self.socket.send(back.SerializeToString())
        return await self._until_finished(started)

    def _widget(self, key: str, value: Any) -> WidgetState:
        found = WidgetState(id=self.widget_ids[key])
        if isinstance(value, bool):
            found.bool_value = value
        elif isinstance(value, str):
            found.string_value = value
        elif isinstance(value, int):
            found.int_value = value
        else:
            found.double_value = float(value)
        return found

    async def _until_finished(self, started: float) -> Run:
        run = Run()
        while True:
            data = await self.socket.recv()
            msg = ForwardMsg()
            msg.ParseFromString(data)
            run.received += len(data)
            run.messages += 1
            kind = msg.WhichOneof("type")
            if kind == "ref_hash":
                run.references += 1
                msg = self.held[msg.ref_hash]
                kind = msg.WhichOneof("type")
            elif msg.metadata.cacheable:
                self.held[msg.hash] = msg
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._keep(run, msg.delta.new_element)
            elif kind == "script_finished":
                if msg.script_finished == FINISHED:
                    run.seconds = time.perf_counter() - started
                    return run
                if msg.script_finished != FINISHED_FOR_RERUN:
                    raise RuntimeError(f"script ended with status {msg.script_finished}")
                run = Run()  # a rerun follows (a link that switches page): count that one

    def _keep(self, run: Run, element: Any) -> None:
        run.elements.append(element)
        kind = element.WhichOneof("type")
        if kind == "exception":
            run.exception = f"{element.exception.type}: {element.exception.message}"
        widget_id = getattr(getattr(element, kind), "id", "") if kind else ""
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            key = widget_id.split("-", 2)[2]
            if key and key != "None":
                self.widget_ids[key] = widget_id

"""Two fixes to Streamlit itself, installed by app.py in the server process it runs in.

Uploads lost under load (Streamlit 1.67): ``st.file_uploader`` first asks the server for upload
URLs over the websocket (a FileURLsRequest), and PUTs the file only when the answer (a
``file_urls_response`` ForwardMsg) arrives; the browser waits for it with no timeout and never
asks again. The server puts that answer in the session's outgoing queue, and every script run
that starts clears the queue (``AppSession`` calls ``ForwardMsgQueue.clear(
retain_lifecycle_msgs=True)`` on SCRIPT_STARTED), keeping lifecycle messages only. An answer
still waiting there is dropped: the file is never sent, the uploader stays empty, nothing says
why. A file given just after another (the first upload's rerun starts while the second's answer
waits) hits this; under load, with several sessions rerunning at once, the queue is flushed
late and the window grows from milliseconds to seconds.

``keep_file_url_answers`` makes a clear that keeps lifecycle messages keep these answers too (a
flush, which sends them, still empties the queue). It changes nothing else, installs once per
process, and leaves Streamlit as it is if its queue no longer looks as this code expects
(tests/app/test_streamlit_fixes.py says so then).

Pages compiled again for every visitor: Streamlit keeps the compiled app and page scripts in
one ``ScriptCache`` for all sessions, and empties it whenever the last open session closes (so
that a server without a file watcher picks up edited scripts). On a server that one visitor at
a time uses (a lecturer's, a class arriving one by one), every new session then parses, rewrites
(``magic``) and compiles app.py and its page again: 15-20 ms of server CPU, about a tenth of
a new session's (benchmarks/RESULTS.md). ``keep_compiled_pages`` keeps them where no file
watcher runs (``server.fileWatcherType = "none"``, this app's setting): such a server runs the
pages it started with; after editing one, restart it.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from streamlit import config
from streamlit.runtime import forward_msg_queue
from streamlit.runtime.scriptrunner import script_cache

#: the ForwardMsg type that answers a browser's FileURLsRequest
ANSWER = "file_urls_response"
_MARK = "_bleu_keeps_file_url_answers"
_PAGES_MARK = "_bleu_keeps_compiled_pages"


def _answers(queue: Any) -> list[Any]:
    return [msg for msg in queue._queue if msg.WhichOneof("type") == ANSWER]


def keep_file_url_answers() -> bool:
    """Patch ``ForwardMsgQueue.clear`` (once per process) so that a queue cleared when a script
    run starts keeps the upload-URL answers it holds; True when the patch is in place."""
    queue_class = forward_msg_queue.ForwardMsgQueue
    original = queue_class.clear
    if getattr(original, _MARK, False):
        return True
    parameters = inspect.signature(original).parameters
    if "retain_lifecycle_msgs" not in parameters or not hasattr(queue_class(), "_queue"):
        return False  # a Streamlit this fix does not know: leave it alone

    @functools.wraps(original)
    def clear(self: Any, retain_lifecycle_msgs: bool = False, *args: Any, **kwargs: Any) -> None:
        waiting = _answers(self) if retain_lifecycle_msgs else []
        original(self, retain_lifecycle_msgs, *args, **kwargs)
        if waiting:
            kept = {msg.file_urls_response.response_id for msg in _answers(self)}
            self._queue[:0] = [msg for msg in waiting
                               if msg.file_urls_response.response_id not in kept]

    setattr(clear, _MARK, True)
    queue_class.clear = clear
    return True


def keep_compiled_pages() -> bool:
    """Patch ``ScriptCache.clear`` (once per process) so that, where no file watcher runs, the
    compiled app and pages outlive the last session; True when the patch is in place."""
    cache_class = script_cache.ScriptCache
    original = cache_class.clear
    if getattr(original, _PAGES_MARK, False):
        return True
    if inspect.signature(original).parameters.keys() != {"self"} \
            or not hasattr(cache_class(), "_cache"):
        return False  # a Streamlit this fix does not know: leave it alone

    @functools.wraps(original)
    def clear(self: Any) -> None:
        if config.get_option("server.fileWatcherType") != "none":
            original(self)

    setattr(clear, _PAGES_MARK, True)
    cache_class.clear = clear
    return True

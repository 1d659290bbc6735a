"""runtime/_streamlit_fixes.py: a script run that starts keeps the upload-URL answers waiting in
the session's outgoing queue (Streamlit drops them, and the browser then never uploads the
file: tests/browser/test_upload_load.py shows it with eight sessions); the rest of the queue is
cleared as Streamlit clears it, and a flush still sends and empties everything. And where no file
watcher runs, the compiled pages outlive the last session (Streamlit's own session manager
closing it), and are dropped as before where one runs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.runtime.memory_session_storage import MemorySessionStorage
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.runtime.websocket_session_manager import WebsocketSessionManager
from streamlit.testing.v1.util import patch_config_options

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bleu_app.runtime import _streamlit_fixes  # noqa: E402 -- after the path


def _answer(request_id: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.file_urls_response.response_id = request_id
    url = msg.file_urls_response.file_urls.add()
    url.file_id, url.upload_url = f"file-{request_id}", f"/_stcore/upload_file/s/{request_id}"
    return msg


def _delta(text: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.delta.new_element.markdown.body = text
    msg.metadata.delta_path[:] = [0, 0]
    return msg


def _types(queue: ForwardMsgQueue) -> list[str]:
    return [msg.WhichOneof("type") for msg in queue._queue]


@pytest.mark.parametrize(("install", "patched_class", "what_changed"), [
    (_streamlit_fixes.keep_file_url_answers, ForwardMsgQueue,
     "ForwardMsgQueue changed: check whether it still drops file_urls_response when a run "
     "starts"),
    (_streamlit_fixes.keep_compiled_pages, ScriptCache,
     "ScriptCache changed: check whether it is still emptied when the last session closes"),
])
def test_each_fix_installs_on_this_streamlit_once(install: Callable[[], bool], patched_class: type,
                                                  what_changed: str) -> None:
    assert install(), (f"Streamlit's {what_changed}, and update or remove that fix in "
                       "runtime/_streamlit_fixes.py")
    patched = patched_class.clear
    assert install()
    assert patched_class.clear is patched


def test_a_run_that_starts_keeps_the_waiting_answers_and_clears_the_rest() -> None:
    _streamlit_fixes.keep_file_url_answers()
    queue = ForwardMsgQueue()
    queue.enqueue(_delta("old run"))
    queue.enqueue(_answer("r1"))
    queue.enqueue(_answer("r2"))
    queue.clear(retain_lifecycle_msgs=True)  # what AppSession does on SCRIPT_STARTED
    assert _types(queue) == ["file_urls_response", "file_urls_response"]
    assert [m.file_urls_response.response_id for m in queue._queue] == ["r1", "r2"]
    queue.clear(retain_lifecycle_msgs=True)  # a second start keeps them, once each
    assert len(queue) == 2
    sent = queue.flush()
    assert [m.file_urls_response.file_urls[0].file_id for m in sent] == ["file-r1", "file-r2"]
    assert len(queue) == 0


def test_a_fragment_run_and_a_full_clear_behave_as_before() -> None:
    _streamlit_fixes.keep_file_url_answers()
    queue = ForwardMsgQueue()
    queue.enqueue(_answer("r1"))
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=["frag"])
    assert _types(queue) == ["file_urls_response"]
    queue.clear()
    assert len(queue) == 0


@pytest.mark.parametrize(("watcher", "kept"), [("none", True), ("auto", False)])
def test_the_last_session_closing_keeps_the_compiled_pages_where_no_watcher_runs(
        tmp_path: Path, watcher: str, kept: bool) -> None:
    _streamlit_fixes.keep_compiled_pages()
    page = tmp_path / "page.py"
    page.write_text("value = 1\n", encoding="utf-8")
    cache = ScriptCache()
    compiled = cache.get_bytecode(str(page))
    manager = WebsocketSessionManager(MemorySessionStorage(), MemoryUploadedFileManager("/up"),
                                      cache, None)
    with patch_config_options({"server.fileWatcherType": watcher}):
        manager.disconnect_session("the last one")  # no session is left open
    page.write_text("value = 2\n", encoding="utf-8")  # an edit: what the clear is there for
    again = cache.get_bytecode(str(page))
    assert (again is compiled) == kept
    namespace: dict = {}
    exec(again, namespace)  # the test's own two-line script
    assert namespace["value"] == (1 if kept else 2)

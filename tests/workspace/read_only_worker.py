"""Run in a process that cannot write the database's folder (``read_only.run_read_only``):

    python read_only_worker.py store DATABASE WORKSPACE_ID [SECRET]
        proves the folder refuses writes, then loads and lists the workspace, and tries to
        change the database (and, given its edit secret, to rename the workspace)
    python read_only_worker.py app DATABASE WORKSPACE_ID
        opens ``?ws=WORKSPACE_ID`` in the app (AppTest) with BLEU_EXPLORER_DB=DATABASE

and prints what it saw as one JSON object (shown texts with Markdown's escapes removed).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from bleu.workspace import StorageError, WorkspaceStore

REPO = Path(__file__).resolve().parents[2]


def _refused(action: Any) -> dict[str, Any]:
    try:
        action()
    except StorageError as error:
        return {"refused": True, "read_only": error.read_only, "plain": error.plain,
                "message": str(error)}
    return {"refused": False}


def _folder_refuses_writes(database: Path) -> bool:
    try:
        (database.parent / "probe").write_text("x")
    except PermissionError:
        return True
    return False


def store(database: Path, workspace_id: str, secret: str | None = None) -> dict[str, Any]:
    found = WorkspaceStore(database)
    loaded = found.load(workspace_id)
    renamed = {} if secret is None else {
        "rename": _refused(lambda: found.rename(workspace_id, "x", token=secret))}
    return {"folder_refuses_writes": _folder_refuses_writes(database),
            "name": loaded.name, "systems": list(loaded.dataset.systems),
            "segments": loaded.dataset.n_segments,
            "scores": [scores.label for scores in loaded.segment_scores],
            "listed": [info.id for info in found.list()],
            "check_writable": _refused(found.check_writable),
            **renamed,
            "files": sorted(path.name for path in database.parent.iterdir())}


def app(database: Path, workspace_id: str, secret: str | None = None) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    os.environ["BLEU_EXPLORER_DB"] = str(database)
    sys.path.insert(0, str(REPO))
    test = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    test.session_state["n_bootstrap"] = 100
    test.query_params["ws"] = workspace_id
    test.run()
    frame = test.dataframe[0].value if len(test.dataframe) else None
    shown = {kind: [re.sub(r"\\(.)", r"\1", element.value) for element in getattr(test, kind)]
             for kind in ("success", "info", "warning", "error", "caption")}
    return {"folder_refuses_writes": _folder_refuses_writes(database),
            "exception": [str(e.value) for e in test.exception],
            "scores": None if frame is None else dict(zip(frame["system"], frame["BLEU"],
                                                          strict=True)),
            "workspace_id": test.session_state.get("workspace_id"),
            "widgets": sorted({node.key for node in test._tree if getattr(node, "key", None)}),
            **shown}


if __name__ == "__main__":
    mode, path, wanted, *secret = sys.argv[1:]
    print(json.dumps({"store": store, "app": app}[mode](Path(path), wanted, *secret)))

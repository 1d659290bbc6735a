"""A process of its own that saves workspaces, for the kill-during-save and concurrency tests.

    python save_worker.py big LOCATION WORKSPACE_ID HOLD_AFTER
        saves a big workspace (60 systems made from WMT17) under WORKSPACE_ID, printing the
        number of streams written; after HOLD_AFTER streams (0: never) it prints "holding" and
        waits inside the open transaction to be killed.
    python save_worker.py many LOCATION PREFIX COUNT SYSTEM START_FILE
        prints "ready", waits for START_FILE, saves COUNT workspaces PREFIX-0.. (the WMT17
        reference, C-3MA, FBK and SYSTEM), deletes PREFIX-0, prints "done".
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace import Workspace, WorkspaceStore

#: the edit secret every workspace of the worker is saved with (the tests pass it on)
SECRET = "worker-edit-secret-0123"

WMT17 = Path(__file__).resolve().parents[1] / "data" / "wmt17_newstest2017_en-de"  # tests/data


def lines(name: str) -> tuple[str, ...]:
    text = (WMT17 / f"newstest2017.{name}").read_text(encoding="utf-8")
    return tuple(text.split("\n")[:-1])


def reference() -> TextFile:
    return TextFile("newstest2017.en-de.ref.de", lines("en-de.ref.de"))


def big_dataset(n_systems: int = 60) -> Dataset:
    """60 distinct systems aligned with the reference (each segment numbered): ~18 MB of text."""
    ref = reference()
    systems = {f"numbered-{k}": TextFile(f"numbered-{k}.de", tuple(
        f"{k}.{i} {line}" for i, line in enumerate(ref.segments))) for k in range(n_systems)}
    return Dataset(systems, (ref,), label="big")


def small_dataset(*systems: str) -> Dataset:
    files = {name: TextFile(name, lines(f"{name}.en-de.de")) for name in systems}
    return Dataset(files, (reference(),), label="WMT17")


def save_big(location: str, workspace_id: str, hold_after: int) -> None:
    def progress(done: int, total: int) -> None:
        print(done, flush=True)
        if done == hold_after:
            print("holding", flush=True)
            time.sleep(600)

    WorkspaceStore(location).save(Workspace(workspace_id, "big", big_dataset()), progress,
                                  token=SECRET)
    print("saved", flush=True)


def save_many(location: str, prefix: str, count: int, system: str, start_file: str) -> None:
    store = WorkspaceStore(location)
    data = small_dataset("C-3MA.4959", "FBK.4870", system)
    print("ready", flush=True)
    while not Path(start_file).exists():
        time.sleep(0.005)
    for k in range(count):
        store.save(Workspace(f"{prefix}-{k}", f"{prefix} {k}", data), token=SECRET)
    store.delete(f"{prefix}-0", token=SECRET)
    print("done", flush=True)


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    if mode == "big":
        save_big(rest[0], rest[1], int(rest[2]))
    else:
        save_many(rest[0], rest[1], int(rest[2]), rest[3], rest[4])

"""Reliability on both backends: a writer killed with SIGKILL in the middle of a save leaves the
previous state whole, and two processes saving at once both succeed without corruption."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from save_worker import SECRET, big_dataset, small_dataset
from workspace_backends import location_fixture  # noqa: F401 -- `location`: both backends

from bleu.workspace import Workspace, WorkspaceStore

WORKER = Path(__file__).resolve().parent / "save_worker.py"
TIMEOUT = 120


def integrity_ok(location: str) -> None:
    """SQLite's own check of every page and index (PostgreSQL checks itself on every read)."""
    if location.startswith("postgresql://"):
        return
    with sqlite3.connect(location) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def start_worker(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)


def read_until(process: subprocess.Popen, wanted: str) -> list[str]:
    """The worker's lines up to ``wanted`` (fails if it ends first)."""
    seen = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            process.wait(timeout=10)
            pytest.fail(f"the worker ended ({process.returncode}) before {wanted!r}: "
                        f"{seen} {process.stderr.read()}")
        seen.append(line.strip())
        if seen[-1] == wanted:
            return seen
    pytest.fail(f"no {wanted!r} from the worker in {TIMEOUT} s")


@pytest.mark.parametrize("moment", ["holding the transaction", "while writing"])
def test_a_save_killed_midway_leaves_the_previous_state(location: str, moment: str) -> None:
    store = WorkspaceStore(location)
    before = store.save(Workspace.new(small_dataset("C-3MA.4959", "FBK.4870"), "before"),
                        token=SECRET)
    usage = store.usage()
    hold = 40 if moment == "holding the transaction" else 0
    worker = start_worker("big", location, before.id, str(hold))
    try:
        seen = read_until(worker, "holding" if hold else "3")
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
        seen += [line.strip() for line in worker.stdout]
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.stdout.close()
        worker.stderr.close()
    assert worker.returncode == -signal.SIGKILL
    integrity_ok(location)
    after = WorkspaceStore(location)
    loaded = after.load(before.id)
    if hold or ("saved" not in seen and loaded.name == "before"):
        # the kill came before the commit: nothing of the big save is there
        assert loaded.dataset == before.dataset and loaded.name == "before"
        assert after.usage() == usage
    else:  # the commit came first: the big save is there whole
        assert loaded.dataset == big_dataset() and loaded.name == "big"
    assert [info.id for info in after.list()] == [before.id]
    # the database takes new writes after the crash
    again = after.save(Workspace.new(small_dataset("KIT.4950"), "after the crash"),
                       token=SECRET)
    assert after.load(again.id).dataset == small_dataset("KIT.4950")
    integrity_ok(location)


def test_two_processes_saving_at_once_both_succeed(location: str, tmp_path: Path) -> None:
    start = tmp_path / "start"
    workers = [start_worker("many", location, prefix, "4", system, str(start))
               for prefix, system in (("a", "KIT.4950"), ("b", "xmu.4910"))]
    try:
        for worker in workers:
            read_until(worker, "ready")
        start.touch()  # both go at once
        results = [worker.communicate(timeout=TIMEOUT) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err
        assert out.strip() == "done"
    integrity_ok(location)
    store = WorkspaceStore(location)
    infos = store.list()
    assert sorted(info.id for info in infos) == ["a-1", "a-2", "a-3", "b-1", "b-2", "b-3"]
    for info in infos:
        own = "KIT.4950" if info.id.startswith("a") else "xmu.4910"
        assert store.load(info.id).dataset == small_dataset("C-3MA.4959", "FBK.4870", own)
    # reference, C-3MA and FBK stored once for both writers; one own system each
    assert store.usage().texts == 5

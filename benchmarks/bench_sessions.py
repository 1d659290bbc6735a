"""A class on one server: what a new session, a rerun and a typed candidate cost the server.

Run: ``python benchmarks/bench_sessions.py [--before REV] [--rounds 3] [--sessions 30] [--big]``.
Each run starts a fresh Streamlit server of the app (a free port, a throwaway workspace
database), opens one session on every page so the server's caches are warm, then, with
scripted sessions that speak Streamlit's own websocket protocol (``streamlit_client.py``; no
browser, so the CPU measured is the server's alone):

- **new session**: one at a time, a session opening How BLEU works, and one opening the
  dashboard: the server's CPU seconds for it (``/proc/<pid>/stat``, all its threads, read
  once the server is idle again);
- **edit**: a session types a candidate on How BLEU works: the server's CPU for that rerun;
  the BLEU shown is checked against sacrebleu's sentence BLEU of the same text;
- **warm rerun of every page**: a rerun with nothing changed (what a click that changes no
  result costs): server CPU and seconds to the run's end;
- **30 at once**: ``--sessions`` sessions connect at the same moment on How BLEU works (time
  to the first page, p50 and p95), then each types its own candidate at the same moment
  (time to its BLEU; every session must see its own text's score); server CPU per session;
- ``--big``: the warm rerun of every page again on a workspace of 20,000 segments x 5 systems
  x 2 references (the sample's WMT22 en-de lines replicated, each replica made unique).

``--before REV`` runs the app of git revision REV (``git archive``, into a temporary folder)
in the same benchmark, alternating with this tree (before, after, after, before, ...), and
prints both sides' medians over ``--rounds``. Both sides run under this environment's Python.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import sacrebleu

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests" / "browser"))
from corpora import read_lines, replicate  # noqa: E402
from harness import free_port  # noqa: E402
from streamlit_client import Session  # noqa: E402
from timing import percentile  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
#: the app's pages by URL path ("" is the default page, the dashboard)
PAGES = ("", "data", "sentences", "compare", "how_bleu_works", "brevity_penalty",
         "sensitivity", "blind_spots", "background", "scores")
TEACH = "how_bleu_works"
CANDIDATE_KEY = "teach_candidate"
#: the page's example references (``bleu.teaching.breakdown.CLASSIC_REFERENCES``)
REFERENCES = ["the cat is on the mat", "there is a cat on the mat"]
SAMPLE = REPO / "sample_data"
BIG = (20_000, 5)  # segments, systems (x the sample's 2 references)


def candidate(student: int) -> str:
    """A candidate of student ``student``'s own: its last word names the student."""
    return f"the cat is on the mat today s{student}" if student % 2 else \
        f"the cat is on the mat s{student}"


def expected_bleu(text: str) -> str:
    """sacrebleu's BLEU of ``text`` under the page's default (the article's formula: N = 4, no
    smoothing, no effective order), printed with 2 decimals as the page prints it."""
    metric = sacrebleu.BLEU(smooth_method="none", effective_order=False)
    return f"{metric.sentence_score(text, REFERENCES).score:.2f}"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def settled(pid: int, quiet: float = 0.15, limit: float = 10.0) -> float:
    """The server's CPU seconds once it has been idle for ``quiet`` seconds (a run's end is
    sent before Streamlit's clean-up after it)."""
    deadline = time.monotonic() + limit
    last = cpu_seconds(pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(quiet)
        now = cpu_seconds(pid)
        if now == last:
            return now
        last = now
    return last


@dataclass
class Server:
    url: str
    pid: int


@contextlib.contextmanager
def serve(tree: Path, database: Path) -> Iterator[Server]:
    """The app of ``tree`` on a free port, its workspaces in ``database``."""
    port = free_port()
    env = {**os.environ, "BLEU_EXPLORER_DB": str(database)}
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
               "--server.address", "127.0.0.1", "--server.headless", "true"]
    process = subprocess.Popen(command, cwd=tree, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(
                    f"{url}/_stcore/health", timeout=2) as answer:
                if answer.read().strip() == b"ok":
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the app of {tree} did not start on {url}")
            time.sleep(0.2)
        yield Server(url, process.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def opened(server: Server, page: str, query: str = "") -> tuple[Session, float]:
    """A new session showing ``page``, and the server's CPU seconds for it."""
    before = await settled(server.pid)
    session = Session(server.url)
    await session.open()
    run = await session.run(page, query)
    if run.exception:
        raise RuntimeError(f"{page or 'dashboard'}: {run.exception}")
    return session, await settled(server.pid) - before


async def new_sessions(server: Server, page: str, n: int) -> list[float]:
    """The server's CPU for each of ``n`` sessions opening ``page``, one after another."""
    found = []
    for _ in range(n):
        session, cpu = await opened(server, page)
        found.append(cpu)
        await session.close()
    return found


async def edits(server: Server, n: int) -> list[float]:
    """The server's CPU for each of ``n`` typed candidates on How BLEU works (checked)."""
    session, _ = await opened(server, TEACH)
    found = []
    for student in range(n):
        text = candidate(student)
        before = await settled(server.pid)
        run = await session.run(widgets={CANDIDATE_KEY: text})
        found.append(await settled(server.pid) - before)
        if run.metric("BLEU") != expected_bleu(text):
            raise RuntimeError(f"{text!r}: BLEU {run.metric('BLEU')}, sacrebleu "
                               f"{expected_bleu(text)}")
    await session.close()
    return found


async def reruns(server: Server, page: str, query: str = "", n: int = 3,
                 ) -> tuple[float, float]:
    """A page's rerun with nothing changed: median server CPU and seconds to the run's end."""
    session, _ = await opened(server, page, query)
    cpu, wall = [], []
    for _ in range(n):
        before = await settled(server.pid)
        run = await session.run()
        cpu.append(await settled(server.pid) - before)
        wall.append(run.seconds)
    await session.close()
    return statistics.median(cpu), statistics.median(wall)


async def crowd(server: Server, n: int) -> dict[str, float]:
    """``n`` sessions open How BLEU works at once, then each types its own candidate at once."""
    before = await settled(server.pid)
    sessions = [Session(server.url) for _ in range(n)]
    started = time.perf_counter()

    async def first(session: Session) -> float:
        await session.open()
        run = await session.run(TEACH)
        if run.exception:
            raise RuntimeError(run.exception)
        return time.perf_counter() - started

    first_page = await asyncio.gather(*(first(s) for s in sessions))
    opened_cpu = await settled(server.pid)
    started = time.perf_counter()

    async def typed(student: int, session: Session) -> float:
        run = await session.run(widgets={CANDIDATE_KEY: candidate(student)})
        seconds = time.perf_counter() - started
        shown, wanted = run.metric("BLEU"), expected_bleu(candidate(student))
        tokens = {row["n-gram"] for row in run.tables()[0].to_pylist()}
        if shown != wanted or f"s{student}" not in tokens:
            raise RuntimeError(f"session {student}: BLEU {shown} (sacrebleu {wanted}), "
                               f"unigrams {sorted(tokens)}")
        return seconds

    results = await asyncio.gather(*(typed(i, s) for i, s in enumerate(sessions)))
    typed_cpu = await settled(server.pid)
    for session in sessions:
        await session.close()
    return {"first p50": percentile(first_page, 0.5), "first p95": percentile(first_page, 0.95),
            "result p50": percentile(results, 0.5), "result p95": percentile(results, 0.95),
            "open cpu/session": (opened_cpu - before) / n,
            "edit cpu/session": (typed_cpu - opened_cpu) / n}



def big_workspace(database: Path) -> str:
    """A saved workspace of ``BIG`` segments x systems x the sample's 2 references; its id."""
    sys.path.insert(0, str(REPO))
    from bleu.io.dataset import assemble
    from bleu.io.model import TextFile
    from bleu.workspace import Workspace, WorkspaceStore, new_edit_token

    n, k = BIG
    hyps = sorted(SAMPLE.glob("*.hyp.*"))[:k]
    refs = sorted(SAMPLE.glob("*.ref.*"))
    systems = [TextFile(p.name, tuple(replicate(read_lines(p), n, 0))) for p in hyps]
    references = [TextFile(p.name, tuple(replicate(read_lines(p), n, 0))) for p in refs]
    dataset = assemble(systems, references, label=f"{n} segments x {k} systems x 2 refs")
    workspace = Workspace.new(dataset, "bench-sessions big")
    WorkspaceStore(str(database)).save(workspace, token=new_edit_token())
    return workspace.id


@dataclass
class Side:
    """One app under test and what its runs measured (a list of values per measure)."""

    name: str
    tree: Path
    found: dict[str, list[float]] = field(default_factory=dict)

    def add(self, measure: str, value: float) -> None:
        self.found.setdefault(measure, []).append(value)


async def measure(side: Side, server: Server, args: argparse.Namespace,
                  big_id: str | None) -> None:
    say = print
    for page in PAGES:  # warm: every page once, so every server-wide cache is filled
        session, cpu = await opened(server, page)
        await session.close()
        say(f"  [{side.name}] first visit {page or 'dashboard'}: {cpu:.2f} s CPU", flush=True)
    for page, label in ((TEACH, "new session: How BLEU works"), ("", "new session: dashboard")):
        side.add(label, statistics.median(await new_sessions(server, page, args.repeat)))
    side.add("edit: How BLEU works", statistics.median(await edits(server, args.repeat)))
    for page in PAGES:
        cpu, wall = await reruns(server, page)
        side.add(f"rerun cpu: {page or 'dashboard'}", cpu)
        side.add(f"rerun s: {page or 'dashboard'}", wall)
    for key, value in (await crowd(server, args.sessions)).items():
        side.add(f"{args.sessions} at once: {key}", value)
    if big_id is not None:
        query = f"ws={big_id}"
        for page in PAGES:  # warm
            session, cpu = await opened(server, page, query)
            await session.close()
            say(f"  [{side.name}] big, first visit {page or 'dashboard'}: {cpu:.1f} s CPU",
                flush=True)
        for page in PAGES:
            cpu, wall = await reruns(server, page, query)
            side.add(f"big rerun cpu: {page or 'dashboard'}", cpu)
            side.add(f"big rerun s: {page or 'dashboard'}", wall)


def report(sides: list[Side]) -> None:
    names = [side.name for side in sides]
    print()
    print("| measure (medians) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(sides))
    for measure_name in sides[-1].found:
        cells = []
        for side in sides:
            values = side.found.get(measure_name)
            cells.append("" if not values else f"{statistics.median(values):.3f}")
        print(f"| {measure_name} | " + " | ".join(cells) + " |")


def extract(revision: str, into: Path) -> Path:
    """The files of git ``revision`` of this repository, in ``into``."""
    archive = into / "before.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), revision],
                   check=True)
    tree = into / "before"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="tar")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a git revision to measure against, alternating")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=6, help="sessions/edits one at a time")
    parser.add_argument("--big", action="store_true", help="also 20,000 x 5 systems x 2 refs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as scratch:
        folder = Path(scratch)
        sides = [Side("after", REPO)]
        if args.before:
            sides.insert(0, Side(f"before ({args.before})", extract(args.before, folder)))
        database = folder / "workspaces.sqlite"
        big_id = big_workspace(database) if args.big else None
        for round_ in range(args.rounds):
            order: Callable[[list[Side]], list[Side]] = (lambda s: s) if round_ % 2 == 0 \
                else (lambda s: s[::-1])
            for side in order(sides):
                print(f"round {round_ + 1}: {side.name}", flush=True)
                with serve(side.tree, database) as server:
                    asyncio.run(measure(side, server, args, big_id))
        report(sides)


if __name__ == "__main__":
    main()

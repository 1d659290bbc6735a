"""Where a person clicks, in a real browser: the server's CPU and the click-to-idle time of a new
session and of the common clicks, and where the server's time went, beside another commit.

Run: ``python benchmarks/bench_browser.py [--before REV | --before-tree DIR
[--before-python PY]] [--rounds 5] [--users 2] [--steps NAME,...] [--json FILE]``
(``benchmarks/measure_issue37.sh`` runs it for issue 37's numbers).

Each round starts a fresh server per side (``server_probe.py``: Streamlit's own server, the app
untouched, with a probe that records where its CPU goes) and drives headless Debian Chromium
through one user's journey, ``--users`` times, each user in a fresh browser context (no cache,
no cookies: a class arriving). The first user of a round meets a server that has drawn nothing
yet (its first visits are cold); later users find what the server keeps. Every step reports:

- **CPU**: the server process's CPU seconds (``/proc/<pid>/stat``, all threads), from just
  before the step to when the server is idle again;
- **idle**: seconds from the click (the browser's own pointer or key event; for a new session,
  the navigation's start) to the page being idle: the script has ended, no element is stale,
  nothing is running, and no element of the page has changed for 0.5 s (charts drawn);
- **where**: the probe's account of that CPU: static files, the page's HTML, media, the
  websocket, each script run (page and cause), what the event loop did besides, and what
  no category holds (other threads).

``--before REV`` serves git revision REV from a worktree of its own (``git worktree add
--detach``, removed afterwards) in the same way (the same probe, this environment's Python),
alternating with this tree (before, after, after, before, ...); ``--before-tree DIR`` serves a
checkout that is already there instead, with ``--before-python`` (default: this Python; give
that checkout's own environment where its dependencies differ). Each server is first left to
become idle (its warm-up, where it has one, done: a class server starts before the class
arrives; its CPU until then is printed). The bundled sample is the data (what a new session
shows). Medians over rounds; on a machine shared with other work, compare
the two sides only with each other and give the load average (printed) beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
from harness import VIEWPORT, free_port, launch_chromium  # noqa: E402

PROBE = Path(__file__).resolve().parent / "server_probe.py"
TICK = os.sysconf("SC_CLK_TCK")

#: installed in every page before its own scripts: when the user's last pointer or key event
#: came, when the app's script state last changed, when the page's DOM last changed
RECORDER = """(() => {
    window.__bench = {input: 0, state: 0, mutation: 0};
    const mark = () => { window.__bench.mutation = performance.now(); };
    for (const kind of ['pointerdown', 'keydown'])
        window.addEventListener(kind, () => { window.__bench.input = performance.now(); }, true);
    new MutationObserver(records => {
        for (const r of records)
            if (r.type === 'attributes' && r.attributeName === 'data-test-script-state')
                window.__bench.state = performance.now();
        mark();
    }).observe(document, {subtree: true, childList: true, attributes: true,
                          characterData: true});
})();"""

#: the app is idle: its script has ended, nothing is stale or running, the main area has
#: content, every chart has drawn
IDLE = """() => document.querySelector('[data-testid="stApp"]')
        ?.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]')
    && !document.querySelector('[data-stale="true"]')
    && !document.querySelector('[data-testid="stSpinner"]')
    && !!document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]')
    && [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .every(c => c.querySelector('svg.marks, canvas.marks'))"""
QUIET_MS = 500
#: the page has changed since the user's last pointer or key event (a click's answer began)
ANSWERED = """() => Math.max(window.__bench.mutation, window.__bench.state)
    > window.__bench.input"""
#: how long a click's answer may take to begin (a click that changes nothing is then timed
#: as idle at once)
ANSWER_MS = 10_000


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def load_average() -> float:
    return os.getloadavg()[0]


@dataclass
class Server:
    """A served tree: its URL, process and probe report."""

    url: str
    pid: int
    report: Path

    def probe(self) -> dict[str, Any]:
        """The probe's counters now (it writes them on SIGUSR1)."""
        before = self.report.stat().st_mtime_ns if self.report.exists() else 0
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.report.exists() and self.report.stat().st_mtime_ns != before:
                with contextlib.suppress(json.JSONDecodeError):
                    return json.loads(self.report.read_text())
            time.sleep(0.01)
        raise RuntimeError("the server's probe did not answer")

    def settled(self, quiet: float = 0.3, limit: float = 30.0) -> float:
        """The server's CPU seconds once they have not grown for ``quiet`` seconds."""
        deadline = time.monotonic() + limit
        last = cpu_seconds(self.pid)
        while time.monotonic() < deadline:
            time.sleep(quiet)
            now = cpu_seconds(self.pid)
            if now - last <= 1 / TICK:
                return now
            last = now
        return last


@contextlib.contextmanager
def serve(tree: Path, scratch: Path, name: str, extra_env: dict[str, str] | None = None,
          python: str = sys.executable) -> Iterator[Server]:
    """The app of ``tree`` as ``streamlit run app.py`` under the probe, run by ``python``,
    on a free port."""
    port = free_port()
    report = scratch / f"probe-{name}-{port}.json"
    env = {**os.environ, "BLEU_EXPLORER_DB": str(scratch / f"workspaces-{name}.sqlite"),
           "PYTHONPATH": str(tree), **(extra_env or {})}
    command = [python, str(PROBE), str(report), "--", "run", "app.py",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--server.headless", "true"]
    log = (scratch / f"server-{name}-{port}.log").open("wb")
    process = subprocess.Popen(command, cwd=tree, env=env, stdin=subprocess.DEVNULL,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(
                    f"{url}/_stcore/health", timeout=2) as answer:
                if answer.read().strip() == b"ok":
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the app of {tree} did not start on {url} (log: {log.name})")
            time.sleep(0.2)
        server = Server(url, process.pid, report)
        # the warm-up, where there is one: it sleeps 2 s before it starts (bleu_app.warmup.DELAY),
        # so a shorter quiet spell could end before it began (its CPU then fell on user 1)
        start_cpu = server.settled(quiet=3.0, limit=300)
        print(f"  server of {tree.name} ready and idle: {start_cpu:.2f} s CPU since its start "
              f"(load {load_average():.1f})", flush=True)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


# --- the browser's side ------------------------------------------------------------------------

def idle_after(page: Page, since: str, timeout: float = 120.0) -> float:
    """Wait until the page is idle and has been quiet for ``QUIET_MS``; seconds from the
    moment ``since`` names (``input``: the last pointer or key event; ``navigation``: the
    page's start) to the last change before that quiet."""
    deadline = time.monotonic() + timeout
    if since == "input":  # the page was idle before the click: wait for its answer to begin
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(ANSWERED, timeout=ANSWER_MS, polling=20)
    while True:
        left = max(deadline - time.monotonic(), 0.001) * 1000
        page.wait_for_function(IDLE, timeout=left, polling=50)
        quiet = page.evaluate("() => performance.now() - window.__bench.mutation")
        if quiet < QUIET_MS:
            page.wait_for_timeout(QUIET_MS - quiet + 20)
            continue
        if not page.evaluate(IDLE):
            continue
        marks = page.evaluate("() => window.__bench")
        start = 0.0 if since == "navigation" else marks["input"]
        return max(marks["mutation"], marks["state"]) / 1000 - start / 1000


def select(page: Page, key: str, option: str) -> None:
    """Pick ``option`` in the selectbox with widget key ``key``, as a user does."""
    box = page.locator(f".st-key-{key}").get_by_role("combobox")
    box.click()
    choice = page.get_by_role("option", name=option, exact=True)
    with contextlib.suppress(PlaywrightTimeout):
        choice.wait_for(timeout=5000)
    if not choice.is_visible():  # the list did not open on the click: the keyboard opens it
        box.press("ArrowDown")
    choice.click()


def toggle(page: Page, key: str) -> None:
    page.locator(f".st-key-{key} label").first.click()


def nav(page: Page, script: str) -> None:
    """Follow the sidebar's link to page ``script`` (its URL path)."""
    links = page.get_by_test_id("stSidebarNavLink")
    for link in links.all():
        if urlparse(link.get_attribute("href") or "").path.strip("/") == script:
            link.click()
            return
    raise RuntimeError(f"no link to page {script!r} in the sidebar")


def shown(page: Page, key: str) -> str:
    """The option selectbox ``key`` shows."""
    return page.locator(f".st-key-{key}").get_by_role("combobox").input_value().strip()


def options(page: Page, key: str) -> list[str]:
    """Every option of selectbox ``key`` (its list opened and closed again)."""
    box = page.locator(f".st-key-{key}").get_by_role("combobox")
    box.click()
    listed = page.get_by_role("option")
    with contextlib.suppress(PlaywrightTimeout):
        listed.first.wait_for(timeout=5000)
    if not listed.first.is_visible():
        box.press("ArrowDown")
    found = [o.strip() for o in listed.all_inner_texts()]
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    return found


@dataclass
class Step:
    """One thing a user does: ``act`` on the page, timed from ``since``."""

    name: str
    act: Callable[[Page, str], None]
    since: str = "input"


def _goto(path: str) -> Callable[[Page, str], None]:
    return lambda page, url: page.goto(f"{url}/{path}")


def _select(key: str, fixed: str | None = None, *, besides: tuple[str, ...] = (),
            ) -> Callable[[Page, str], None]:
    """Pick ``fixed`` in selectbox ``key``, or the option after the one shown that no
    selectbox of ``besides`` shows either."""
    def act(page: Page, url: str) -> None:
        if fixed is None:
            taken = {shown(page, key), *(shown(page, other) for other in besides)}
            listed = options(page, key)
            start = listed.index(shown(page, key)) + 1
            choice = next(o for o in listed[start:] + listed[:start] if o not in taken)
        else:
            choice = fixed
        select(page, key, choice)
    return act


#: one user's journey; every step that the issue names, in an order a user would take
JOURNEY = (
    Step("new session: How BLEU works", _goto("how_bleu_works"), "navigation"),
    Step("new session: dashboard", _goto(""), "navigation"),
    Step("tokenizer change (intl)", _select("tokenize", "intl")),
    Step("tokenizer change (back to 13a)", _select("tokenize", "13a")),
    Step("Compare: page", lambda page, url: nav(page, "compare")),
    Step("Compare: system A", _select("compare_a", besides=("compare_b",))),
    Step("Compare: system B", _select("compare_b", besides=("compare_a",))),
    Step("Sensitivity: page", lambda page, url: nav(page, "sensitivity")),
    Step("Sensitivity: every tokenizer x case", lambda page, url: toggle(page, "sens_grid_on")),
    Step("Sensitivity: NLTK cross-check", lambda page, url: toggle(page, "sens_nltk_on")),
    Step("Blind spots: page", lambda page, url: nav(page, "blind_spots")),
    Step("Brevity penalty: page", lambda page, url: nav(page, "brevity_penalty")),
    Step("dashboard: page", lambda page, url: nav(page, "")),
)


def _diff(after: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """What the probe counted between two snapshots."""
    loop = {k: v - before["loop"].get(k, 0.0) for k, v in after["loop"].items()}
    requests = {k: v - before["requests"].get(k, 0) for k, v in after["requests"].items()}
    threads = {k: v - before["threads"].get(k, 0.0) for k, v in after["threads"].items()}
    return {"loop": {k: v for k, v in loop.items() if v > 0},
            "requests": {k: v for k, v in requests.items() if v},
            "runs": after["runs"][len(before["runs"]):],
            "script_other": after["script_thread_other"] - before["script_thread_other"],
            "threads": {k: v for k, v in threads.items() if v > 0}}


def where(found: dict[str, Any], total: float) -> dict[str, float]:
    """The step's server CPU by category; ``unattributed`` is the rest of the process."""
    parts: dict[str, float] = {}
    for label, cpu in found["loop"].items():
        name = label.removeprefix("http:")
        parts[name] = parts.get(name, 0.0) + cpu
    for run in found["runs"]:
        parts["runs"] = parts.get("runs", 0.0) + run["cpu"]
    parts["script thread, outside runs"] = found["script_other"]
    loop_total = sum(found["loop"].values())
    parts["event loop, between callbacks"] = max(
        found["threads"].get("MainThread", loop_total) - loop_total, 0.0)
    for name, cpu in found["threads"].items():
        if name not in ("MainThread", "ScriptRunner.scriptThread", "ScriptRunner"):
            parts[f"thread {name}"] = cpu
    parts["unattributed"] = total - sum(parts.values())
    return parts


@dataclass
class Measured:
    """What one step measured, once."""

    cpu: float
    idle: float
    load: float
    parts: dict[str, float]
    requests: dict[str, int]
    runs: list[dict[str, Any]]


def fresh_page(browser: Any) -> Page:
    """A page in a browser context of its own: no cache, no cookies, as a new visitor."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(120_000)
    context.add_init_script(RECORDER)
    return context.new_page()


def measure(server: Server, page: Page, step: Step) -> Measured:
    """Do ``step`` on ``page`` and measure it (the server is idle: it has started and settled,
    or the step before ended settled)."""
    start_probe = server.probe()
    start_cpu = cpu_seconds(server.pid)
    step.act(page, server.url)
    idle = idle_after(page, step.since)
    end_cpu = server.settled()
    found = _diff(server.probe(), start_probe)
    total = end_cpu - start_cpu
    for run in found["runs"]:
        if run["status"] not in ("SCRIPT_STOPPED_WITH_SUCCESS", "FRAGMENT_STOPPED_WITH_SUCCESS",
                                 "SCRIPT_STOPPED_FOR_RERUN"):
            raise RuntimeError(f"{step.name}: a run ended with {run['status']}")
    exceptions = page.get_by_test_id("stException").count()
    if exceptions:
        raise RuntimeError(f"{step.name}: the page shows {exceptions} exception box(es)")
    return Measured(total, idle, load_average(), where(found, total), found["requests"],
                    found["runs"])


# --- sides, rounds, report -----------------------------------------------------------------------

@dataclass
class Side:
    name: str
    tree: Path
    env: dict[str, str] = field(default_factory=dict)
    python: str = sys.executable
    found: dict[tuple[str, int], list[Measured]] = field(default_factory=dict)


def journey(side: Side, server: Server, browser: Any, users: int, steps: tuple[Step, ...],
            say: Callable[[str], None], later: tuple[Step, ...] | None = None) -> None:
    """``users`` users one after another, each in a fresh context: the first takes ``steps``,
    the later ones ``later`` (default: the same)."""
    for user in range(users):
        page = None
        try:
            for step in steps if user == 0 or later is None else later:
                if page is None or step.since == "navigation":
                    if page is not None:
                        page.context.close()
                    page = fresh_page(browser)
                measured = measure(server, page, step)
                side.found.setdefault((step.name, user), []).append(measured)
                runs = "; ".join(f"{r['page']} [{r['cause'][:80]}] {r['cpu']:.3f}"
                                 for r in measured.runs)
                parts = ", ".join(f"{k} {v:.3f}" for k, v in measured.parts.items()
                                  if abs(v) >= 0.005)
                say(f"  [{side.name}] user {user + 1} {step.name}: CPU {measured.cpu:.3f} s, "
                    f"idle {measured.idle:.2f} s (load {measured.load:.1f})\n"
                    f"      runs: {runs}\n      where: {parts}")
        finally:
            if page is not None:
                page.context.close()


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def report(sides: list[Side], users: int, steps: tuple[Step, ...]) -> str:
    lines = ["| step | user | " + " | ".join(
        f"{s.name}: CPU s | {s.name}: idle s" for s in sides) + " | load |",
        "|---|---|" + "---:|---:|" * len(sides) + "---:|"]
    for step in steps:
        for user in range(users):
            cells, loads = [], []
            for side in sides:
                found = side.found.get((step.name, user), [])
                cells += [f"{_median([m.cpu for m in found]):.3f}",
                          f"{_median([m.idle for m in found]):.2f}"]
                loads += [m.load for m in found]
            who = "first" if user == 0 else f"{user + 1}."
            lines.append(f"| {step.name} | {who} | " + " | ".join(cells)
                         + f" | {min(loads, default=0):.1f}-{max(loads, default=0):.1f} |")
    for side in sides:
        seen = {part for found in side.found.values() for m in found for part in m.parts}
        columns = [p for p in _PART_ORDER if p in seen] + sorted(seen - set(_PART_ORDER))
        lines += ["", f"Where the server's CPU went, {side.name} (medians of the later users "
                      "where they took the step, else of the first):",
                  "", "| step | " + " | ".join(columns) + " | requests |",
                  "|---|" + "---:|" * len(columns) + "---|"]
        for step in steps:
            found = [m for user in range(1, users) for m in side.found.get((step.name, user), [])]
            found = found or side.found.get((step.name, 0), [])
            if not found:
                continue
            cells = [f"{_median([m.parts.get(part, 0.0) for m in found]):.3f}"
                     for part in columns]
            requests = ", ".join(f"{k} {v}" for k, v in sorted(found[-1].requests.items()))
            lines.append(f"| {step.name} | " + " | ".join(cells) + f" | {requests} |")
    return "\n".join(lines)


#: issue 37's targets: a new session's server CPU seconds, every other step's click-to-idle
NEW_SESSION_CPU = 0.15
CLICK_IDLE = 1.0


def targets(sides: list[Side], users: int, steps: tuple[Step, ...]) -> str:
    """Issue 37's measures against its targets, per side: medians over rounds of the first
    user (the server's first visits after its start) and of the later users; the load
    average's range beside them."""
    groups = [("first", range(1))] + ([("later", range(1, users))] if users > 1 else [])
    header = [f"{side.name.split(' (')[0]}, {who}" for side in sides for who, _ in groups]
    lines = ["| measure (medians) | target | " + " | ".join(header) + " |",
             "|---|---:|" + "---:|" * len(header)]
    for step in steps:
        new = step.since == "navigation"
        measure, target = ("server CPU s", NEW_SESSION_CPU) if new else ("idle s", CLICK_IDLE)
        cells = []
        for side in sides:
            for _, who in groups:
                found = [m for user in who for m in side.found.get((step.name, user), [])]
                value = _median([m.cpu if new else m.idle for m in found])
                if value != value:  # no user of this group took the step
                    cells.append("-")
                    continue
                mark = " ok" if value <= target else " OVER"
                cells.append(f"{value:.3f}{mark}" if new else f"{value:.2f}{mark}")
        lines.append(f"| {step.name}: {measure} | <= {target:g} | " + " | ".join(cells) + " |")
    for side in sides:  # a click is one run; more is a rerun the user did not cause
        extra = {f"{name} (user {user + 1})": max(len(m.runs) for m in found)
                 for (name, user), found in side.found.items()
                 if found and max(len(m.runs) for m in found) > 1}
        lines.append(f"\n{side.name.split(' (')[0]}: " + (
            "one script run per step" if not extra else "more than one script run: " + ", ".join(
                f"{name} {n}" for name, n in extra.items())))
    loads = [m.load for side in sides for found in side.found.values() for m in found]
    runs = {len(found) for side in sides for found in side.found.values()}
    lines.append(f"\nruns per side and step: {min(runs, default=0)}; load average (1 min) "
                 f"during the steps: {min(loads, default=0):.2f}-{max(loads, default=0):.2f}, "
                 f"median {_median(loads):.2f}")
    return "\n".join(lines)


_PART_ORDER = ("runs", "static", "index", "media", "component", "app-route", "websocket",
               "run_loop", "loop_other", "event loop, between callbacks", "host-config",
               "health", "script thread, outside runs", "unattributed")


@contextlib.contextmanager
def worktree(revision: str, scratch: Path) -> Iterator[Path]:
    """A detached worktree of ``revision``, removed afterwards."""
    path = scratch / "before"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(path),
                    revision], check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)],
                       check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a git revision to measure against, alternating")
    parser.add_argument("--before-tree", type=Path,
                        help="a checkout to measure against (instead of --before REV)")
    parser.add_argument("--before-python", default=sys.executable,
                        help="the Python that serves the before side (its own environment)")
    parser.add_argument("--before-env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for the before side's server (e.g. "
                             "BENCH_HTTP_PARSER=h11 with --before HEAD: what a parser changes)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--users", type=int, default=2,
                        help="users per round, one after another (the first meets a cold "
                             "server)")
    parser.add_argument("--steps", help="comma-separated step names (prefixes) to run; "
                                        "default: all")
    parser.add_argument("--later-steps", help="the steps of the users after the first "
                                              "(prefixes, as --steps; default: the same)")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="start no round that would end after this (by the longest round "
                             "so far)")
    args = parser.parse_args()
    def chosen(names: str | None) -> tuple[Step, ...]:
        return JOURNEY if not names else tuple(
            s for s in JOURNEY if any(s.name.startswith(p.strip()) for p in names.split(",")))

    steps = chosen(args.steps)
    later = None if args.later_steps is None else chosen(args.later_steps)
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as scratch_name, \
            contextlib.ExitStack() as stack, sync_playwright() as playwright:
        scratch = Path(scratch_name)
        sides = [Side("after", REPO)]
        if args.before or args.before_tree:
            extra = dict(item.split("=", 1) for item in args.before_env)
            if args.before_tree:
                tree = args.before_tree.resolve()
                revision = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short",
                                           "HEAD"], capture_output=True, text=True).stdout
                label = ", ".join([f"{tree} at {revision.strip() or '?'}", *args.before_env])
            else:
                tree = stack.enter_context(worktree(args.before, scratch))
                label = ", ".join([args.before, *args.before_env])
            sides.insert(0, Side(f"before ({label})", tree, extra, args.before_python))
        started, longest = time.monotonic(), 0.0
        try:
            for round_ in range(args.rounds):
                elapsed = time.monotonic() - started
                if args.time_limit and round_ and elapsed + longest > args.time_limit:
                    print(f"stopped after {round_} rounds: another would end after "
                          f"--time-limit {args.time_limit:.0f} s", flush=True)
                    break
                for side in sides if round_ % 2 == 0 else sides[::-1]:
                    print(f"round {round_ + 1}: {side.name} (load {load_average():.1f})",
                          flush=True)
                    browser = launch_chromium(playwright)
                    try:
                        with serve(side.tree, scratch, side.name.split()[0], side.env,
                                   side.python) as server:
                            journey(side, server, browser, args.users, steps,
                                    lambda text: print(text, flush=True), later)
                    finally:
                        browser.close()
                longest = max(longest, time.monotonic() - started - elapsed)
        except KeyboardInterrupt:  # what was measured so far is still reported
            print("interrupted: the report holds the rounds measured so far", flush=True)
        print()
        print(report(sides, args.users, steps))
        print()
        print(targets(sides, args.users, steps))
        if args.json:
            args.json.write_text(json.dumps({
                side.name: {f"{name} | user {user + 1}": [m.__dict__ for m in found]
                            for (name, user), found in side.found.items()}
                for side in sides}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

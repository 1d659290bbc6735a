"""More than one server: two replicas of the app behind nginx (deploy/nginx/bleu-explorer.conf
as it is, on the test's ports), both on one throwaway PostgreSQL, on 127.0.0.1 only.

The browser opens the proxy as ``http://bleu.test:PORT`` (Chromium maps the name to 127.0.0.1),
not as localhost, so Streamlit's same-origin check of its websocket sees what a real host name
gets. A browser is pinned to a replica by the proxy's own route cookie, and the proxy's access
log says which replica served each request. Each replica runs as deploy/systemd's unit starts
it (its ExecStart, Environment and environment.example, with the test's database and secret).
"""

from __future__ import annotations

import secrets
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from deploy_servers import PROXY_HOST, Nginx, Process, Served, health, unit_replica
from harness import (
    VIEWPORT,
    WMT17,
    free_port,
    goto_page,
    open_uploaders,
    results_grid,
    upload,
    wait_charts_drawn,
    wait_idle,
)
from playwright.sync_api import Browser, BrowserContext, Page
from workspace_backends import postgres_server

from bleu.workspace import WorkspaceStore

pytestmark = [pytest.mark.deploy, pytest.mark.browser]

SYSTEMS = [WMT17 / "newstest2017.KIT.4950.en-de.de", WMT17 / "newstest2017.xmu.4910.en-de.de",
           WMT17 / "newstest2017.C-3MA.4959.en-de.de"]
REFERENCE = WMT17 / "newstest2017.en-de.ref.de"
SIDEBAR = '[data-testid="stSidebar"]'
#: copies of the 100-segment cut per big file: 12,000 segments, about 1.7 MB a file, above
#: nginx's default request body limit (1 MB) that the site file lifts
COPIES = 120


@dataclass
class Cluster:
    """The proxy, the replicas by name ("A", "B"), the route cookie that pins a browser to each,
    and the database they share."""

    url: str
    nginx: Nginx
    replicas: dict[str, Process]
    ports: dict[str, int]
    routes: dict[str, str]
    database: str

    def name_of(self, upstream: str) -> str:
        """The replica at ``host:port``."""
        return next(name for name, port in self.ports.items()
                    if upstream == f"127.0.0.1:{port}")

    def ensure_running(self) -> None:
        """Both replicas up (a test before may have stopped one)."""
        for name, replica in self.replicas.items():
            if not replica.running:
                replica.start()
            replica.wait_healthy(f"http://127.0.0.1:{self.ports[name]}")

    def context(self, browser: Browser, replica: str) -> BrowserContext:
        """A browser whose proxy route leads to ``replica``."""
        context = browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(90_000)
        context.add_cookies([{"name": "bleu_route", "value": self.routes[replica],
                              "domain": PROXY_HOST, "path": "/"}])
        return context

    def served(self, replica: str) -> list[Served]:
        """The requests of the browsers pinned to ``replica``, in the order they ended."""
        return [line for line in self.nginx.served() if line.route == self.routes[replica]]


def routes_to(nginx: Nginx, ports: dict[str, int]) -> dict[str, str]:
    """A route cookie value for each replica, found by asking the proxy with probe values and
    reading which replica its log says answered."""
    found: dict[str, str] = {}
    names = {f"127.0.0.1:{port}": name for name, port in ports.items()}
    for batch in range(8):
        probes = [f"probe-{batch}-{k}" for k in range(8)]
        for probe in probes:
            assert health(f"http://127.0.0.1:{nginx.port}", cookie=f"bleu_route={probe}")
        for line in nginx.served():
            if line.route in probes:
                found.setdefault(names[line.upstream], line.route)
        if len(found) == len(ports):
            return found
    raise AssertionError(f"64 routes all led to {set(found)}: is the upstream hashed?")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    database = postgres_server().new_database()
    folder = Path(tempfile.mkdtemp(prefix="bleu-replicas-"))
    ports = {"A": free_port(), "B": free_port()}
    secret = secrets.token_hex(32)  # Streamlit signs cookies with it: the replicas share it
    replicas = {name: unit_replica(port, folder / f"state-{name}", folder / f"{name}.log",
                                   str(Path(sys.executable).with_name("bleu-explorer")),
                                   BLEU_EXPLORER_DB=database,
                                   STREAMLIT_SERVER_COOKIE_SECRET=secret)
                for name, port in ports.items()}
    nginx = Nginx(free_port(), [ports["A"], ports["B"]])
    try:
        for replica in replicas.values():
            replica.start()
        for name, replica in replicas.items():
            replica.wait_healthy(f"http://127.0.0.1:{ports[name]}")
        nginx.start()
        yield Cluster(f"http://{PROXY_HOST}:{nginx.port}", nginx, replicas, ports,
                      routes_to(nginx, ports), database)
    finally:
        nginx.stop()
        for replica in replicas.values():
            replica.stop()


@pytest.fixture(scope="module")
def big_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    """Three systems and their reference, each the cut repeated ``COPIES`` times (same names)."""
    folder = tmp_path_factory.mktemp("big")
    made = []
    for path in [*SYSTEMS, REFERENCE]:
        copy = folder / path.name
        copy.write_text(path.read_text(encoding="utf-8") * COPIES, encoding="utf-8")
        assert copy.stat().st_size > 1024 * 1024
        made.append(copy)
    return made[:3], made[3]


def upload_sessions(lines: list[Served]) -> list[str]:
    """The Streamlit session of each upload (PUT /_stcore/upload_file/<session>/<file>)."""
    puts = [line for line in lines if line.method == "PUT"
            and line.path.startswith("/_stcore/upload_file/")]
    assert all(line.status in (200, 204) for line in puts), puts
    return [line.path.split("/")[3] for line in puts]


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not after {timeout:.0f} s"
        time.sleep(0.2)


def load_files(page: Page, systems: list[Path], reference: Path) -> dict[str, float]:
    open_uploaders(page)
    upload(page, "systems_upload", systems)
    upload(page, "references_upload", [reference])
    page.get_by_text(f"Loaded {len(systems)} system(s) and 1 reference(s)").wait_for()
    wait_idle(page)
    return results_grid(page)


def test_a_session_keeps_to_its_replica_through_the_proxy(
        cluster: Cluster, chromium, big_files: tuple[list[Path], Path]) -> None:
    """Uploads (1.7 MB each) reach the replica that holds the session; after a proxy reload
    closes the websocket, the browser reconnects to the same session on the same replica."""
    cluster.ensure_running()
    systems, reference = big_files

    def session(browser: Browser) -> tuple[dict[str, float], int, dict[str, float]]:
        context = cluster.context(browser, "A")
        try:
            page = context.new_page()
            page.goto(cluster.url)
            wait_idle(page)
            wait_charts_drawn(page)
            before = load_files(page, systems[:2], reference)
            uploads = len(upload_sessions(cluster.served("A")))
            cluster.nginx.reload()  # its old worker closes the websocket within a second
            wait_for(lambda: any(line.path.startswith("/_stcore/stream")
                                 for line in cluster.served("A")), "the websocket closed")
            wait_idle(page)
            # the uploader still holds the two files given before (the session's widget state)
            # and adds a third
            upload(page, "systems_upload", systems[2:])
            page.get_by_text("Loaded 3 system(s) and 1 reference(s)").wait_for()
            wait_idle(page)
            assert page.get_by_test_id("stException").count() == 0
            return before, uploads, results_grid(page)
        finally:
            context.close()

    before, uploads_before, after = chromium.run(session)
    assert set(before) == {path.stem for path in systems[:2]}
    assert set(after) == {path.stem for path in systems}
    assert {name: after[name] for name in before} == before
    served = cluster.served("A")
    assert {cluster.name_of(line.upstream) for line in served} == {"A"}
    streams = [line for line in served if line.path.startswith("/_stcore/stream")]
    # the websocket through the proxy: the one the reload closed, and the reconnected one once
    # nginx has logged its end (it logs a connection when it closes, which may come after this)
    assert streams and {line.status for line in streams} == {101}
    assert len(streams) <= 2
    sessions = upload_sessions(served)
    assert len(sessions) > uploads_before >= 3  # uploads before and after the reconnect
    assert len(set(sessions)) == 1, f"the session changed on reconnecting: {sessions}"


def test_a_workspace_made_on_one_replica_opens_on_the_other_and_outlives_it(
        cluster: Cluster, chromium) -> None:
    cluster.ensure_running()
    store = WorkspaceStore(cluster.database)

    def owner_and_visitor(browser: Browser) -> dict:
        owner = cluster.context(browser, "A")
        visitor = cluster.context(browser, "B")
        try:
            page = owner.new_page()
            page.goto(cluster.url)
            wait_idle(page)
            wait_charts_drawn(page)
            scores = load_files(page, SYSTEMS[:2], REFERENCE)
            page.wait_for_url(lambda url: "ws=" in url)
            workspace = page.url.split("ws=")[1].split("&")[0]
            saved = store.load(workspace)

            seen = visitor.new_page()
            seen.goto(f"{cluster.url}/?ws={workspace}")
            wait_idle(seen)
            seen.get_by_text("Reopened workspace").wait_for()
            assert results_grid(seen) == scores
            seen.locator(SIDEBAR).get_by_text("read-only").first.wait_for()
            assert seen.locator(f"{SIDEBAR} .st-key-workspace_name").count() == 0

            stopped_at = len(cluster.nginx.served())
            assert cluster.replicas["A"].stop() is not None
            assert not cluster.replicas["A"].running
            # the owner's open page reconnects by itself, to B: a new session there, which
            # runs on the next rerun; a reload reopens the link's workspace from PostgreSQL,
            # with the owner's rights (the edit secret in its cookie is checked there)
            wait_for(lambda: any(line.route == cluster.routes["A"]
                                 and cluster.name_of(line.upstream) == "B"
                                 for line in cluster.nginx.served()[stopped_at:]),
                     "the owner's page reconnected to B")
            page.reload()
            wait_idle(page)
            page.get_by_text("Reopened workspace").wait_for()
            page.locator(f"{SIDEBAR} .st-key-workspace_name").wait_for()  # still the owner's
            reloaded = results_grid(page)
            goto_page(page, "Sentences")  # and the session on B keeps it from page to page
            goto_page(page, "Corpus dashboard")
            assert page.get_by_test_id("stException").count() == 0
            return {"workspace": workspace, "saved": saved, "scores": scores,
                    "reloaded": reloaded, "after_pages": results_grid(page),
                    "stopped_at": stopped_at}
        finally:
            owner.close()
            visitor.close()

    seen = chromium.run(owner_and_visitor)
    assert seen["reloaded"] == seen["after_pages"] == seen["scores"]
    assert set(seen["scores"]) == {path.stem for path in SYSTEMS[:2]}
    before_stop = cluster.nginx.served()[:seen["stopped_at"]]
    after_stop = cluster.nginx.served()[seen["stopped_at"]:]
    routes = cluster.routes
    assert {cluster.name_of(line.upstream) for line in before_stop
            if line.route == routes["A"]} == {"A"}
    assert {cluster.name_of(line.upstream) for line in before_stop
            if line.route == routes["B"]} == {"B"}
    old_socket = (f"127.0.0.1:{cluster.ports['A']}",)  # open when A stopped, logged on closing
    moved = [line for line in after_stop if line.route == routes["A"]
             and not (line.path.startswith("/_stcore/stream") and line.upstreams == old_socket)]
    assert {cluster.name_of(line.upstream) for line in moved} == {"B"}
    assert any(line.path.startswith("/_stcore/stream") and line.status == 101 for line in moved)
    # the proxy keeps serving every route from the replica left
    for route in routes.values():
        assert health(cluster.url.replace(PROXY_HOST, "127.0.0.1"), cookie=f"bleu_route={route}")
    assert store.load(seen["workspace"]) == seen["saved"]  # intact in PostgreSQL
    assert list(seen["saved"].dataset.systems) == [path.stem for path in SYSTEMS[:2]]
    with urllib.request.urlopen(f"http://127.0.0.1:{cluster.nginx.port}/_stcore/health",
                                timeout=5) as response:
        assert response.read() == b"ok"

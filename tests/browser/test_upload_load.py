"""Uploads under load: eight sessions at once, each giving its uploader the system outputs and then
the reference, as a quick user does; every upload must arrive and every session must score its
own files.

The reference is given either a few milliseconds after the systems' upload has gone through (the
moment their rerun starts: the reference's upload-URL request then waits on the server while
that run begins, which dropped it before runtime/_streamlit_fixes.py) or a few seconds after the
systems. Half the sessions use the sidebar's uploaders by role (``systems_upload`` then
``references_upload``), half the Data page's drop zone (``files_upload`` twice, then
``files_commit``). Each session's files carry a marker word of their own, in their names and in
their lines, so a session showing another's data or scores fails.

The reference is set in the page (a DataTransfer on the uploader's file input) from a hook on the
page's upload requests, so the timing does not depend on Playwright's round trips on a loaded
machine; the same hook records the upload (PUT) requests the page sent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness import REPO, VIEWPORT, goto_page, results_grid, wait_idle
from playwright.sync_api import Browser, Page

import bleu

pytestmark = pytest.mark.browser

SESSIONS = 8
LINES = 300
SAMPLE = REPO / "sample_data"
HYPS = ("Online-A", "PROMT")
#: after the systems' upload: the reference a few ms after it ends, or seconds after it began
PATTERNS = {"ms": ("afterUpload", [3 * (k % 4) for k in range(SESSIONS)]),
            "s": ("afterGiven", [2500 + 100 * (k % 4) for k in range(SESSIONS)])}
#: how long one session may wait for its reference's chip, and for its scores
CHIP_WAIT_S = 45
SCORES_WAIT_S = 45

#: installed in a page before the systems are given; ``a.anchor`` says when the reference goes
HOOK = """(a) => {
  const state = window.__uploads = {puts: [], givenAt: null, referenceAt: null};
  const giveReference = () => {
    if (state.referenceAt !== null) return;
    state.referenceAt = performance.now();
    const input = document.querySelector(a.selector);
    const files = new DataTransfer();
    files.items.add(new File([a.text], a.name, {type: 'text/plain'}));
    input.files = files.files;
    input.dispatchEvent(new Event('change', {bubbles: true}));
  };
  document.addEventListener('change', () => {
    if (state.givenAt !== null) return;
    state.givenAt = performance.now();
    if (a.anchor === 'afterGiven') setTimeout(giveReference, a.delay);
  }, true);
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__upload = method === 'PUT' && String(url).includes('/_stcore/upload_file/');
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    if (this.__upload) this.addEventListener('loadend', () => {
      state.puts.push(this.status);
      if (a.anchor === 'afterUpload' && state.puts.length === a.systems)
        setTimeout(giveReference, a.delay);
    });
    return send.call(this, body);
  };
}"""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@dataclass
class Session:
    index: int
    where: str  # "sidebar" (uploaders by role) or "drop" (the Data page's drop zone)
    marker: str
    systems: dict[str, Path]
    expected: dict[str, float]  # system -> BLEU, from bleu.corpus_bleu on the same lines
    reference: Path
    page: Page | None = None

    @property
    def uploader(self) -> tuple[str, str]:
        """The widget keys of the uploaders given the systems and the reference."""
        if self.where == "sidebar":
            return "systems_upload", "references_upload"
        return "files_upload", "files_upload"


def _session(index: int, pattern: str, folder: Path) -> Session:
    """Session ``index``'s files: 300 lines of two WMT22 systems and reference A (a window of
    its own), each line of the reference and of most system lines ending in its marker word."""
    marker = f"zq{pattern}{index}marker"
    start = 101 * index + (0 if pattern == "ms" else 900)
    reference = [f"{line} {marker}" for line in
                 _lines(SAMPLE / "generaltest2022.en-de.ref.A.de")[start:start + LINES]]
    systems, expected = {}, {}
    for k, hyp in enumerate(HYPS):
        lines = _lines(SAMPLE / f"generaltest2022.en-de.hyp.{hyp}.de")[start:start + LINES]
        lines = [f"{line} {marker}" if i % (k + 2) else line for i, line in enumerate(lines)]
        name = f"{hyp.replace('-', '')}{marker}"
        path = folder / f"{marker}.en-de.hyp.{name}.de"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        systems[name] = path
        expected[name] = bleu.corpus_bleu(lines, [reference]).score
    path = folder / f"{marker}.en-de.ref.A.de"
    path.write_text("\n".join(reference) + "\n", encoding="utf-8")
    return Session(index, "sidebar" if index % 2 == 0 else "drop", marker, systems, expected,
                   path)


def _input(page: Page, key: str) -> str:
    return f".st-key-{key} [data-testid=stFileUploaderDropzoneInput]"


def _chips(page: Page, key: str) -> list[str]:
    chips = page.locator(f".st-key-{key} [data-testid=stFileChipName]")
    return [chips.nth(i).get_attribute("title") or "" for i in range(chips.count())]


def _open(session: Session, browser: Browser, app_url: str) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    session.page = context.new_page()
    session.page.goto(app_url, wait_until="commit")


def _ready(session: Session) -> None:
    """First run done, the uploaders shown (the sidebar's expander open, or the Data page)."""
    page = session.page
    wait_idle(page, 120_000)
    if session.where == "sidebar":
        page.get_by_test_id("stSidebar").get_by_text("Upload by role", exact=True).click()
    else:
        goto_page(page, "Data", 120_000)
    page.locator(_input(page, session.uploader[1])).wait_for(state="attached")


def _give(session: Session, anchor: str, delay: float) -> None:
    """Hook the page, then give the systems; the hook gives the reference."""
    page = session.page
    systems_key, reference_key = session.uploader
    page.evaluate(HOOK, {"anchor": anchor, "delay": delay, "systems": len(session.systems),
                         "selector": _input(page, reference_key), "name": session.reference.name,
                         "text": session.reference.read_text(encoding="utf-8")})
    page.locator(_input(page, systems_key)).set_input_files(list(session.systems.values()))


def _left(deadline: float, at_least: float = 5) -> float:
    """Milliseconds to the deadline (at least ``at_least`` seconds: a last look is allowed)."""
    return max(deadline - time.monotonic(), at_least) * 1000


def _wait_for_references(sessions: list[Session], deadline: float) -> None:
    """Until every session's reference chip shows, or CHIP_WAIT_S after the last reference was
    given (all sessions at once: a lost upload costs the wait once, not once per session)."""
    for session in sessions:
        session.page.wait_for_function("() => window.__uploads.referenceAt !== null",
                                       timeout=_left(deadline))
    until = min(time.monotonic() + CHIP_WAIT_S, deadline)
    waiting = list(sessions)
    while waiting and time.monotonic() < until:
        waiting = [s for s in waiting if s.reference.name not in _chips(s.page, s.uploader[1])]
        time.sleep(0.5)


def _uploads_arrived(session: Session, deadline: float) -> list[str]:
    """The session's reference shows in its uploader and the page sent every file."""
    page = session.page
    wait_idle(page, _left(deadline))
    puts = page.evaluate("() => window.__uploads.puts")
    chips = _chips(page, session.uploader[1])
    name = f"session {session.index} ({session.where})"
    if session.reference.name not in chips:
        return [f"{name}: the reference upload was lost (its uploader shows {chips}; the page "
                f"sent {len(puts)} upload request(s) for {len(session.systems)} systems and "
                "1 reference)"]
    if len(puts) != len(session.systems) + 1 or any(not 200 <= s < 300 for s in puts):
        return [f"{name}: the upload requests were answered {puts}"]
    return []


def _scores_shown(session: Session, deadline: float) -> list[str]:
    """The dashboard shows this session's systems with the BLEU of its own files."""
    page = session.page
    if session.where == "drop":
        wait_idle(page, _left(deadline))
        goto_page(page, "Corpus dashboard", _left(deadline))
    expected = {system: round(score, 2) for system, score in session.expected.items()}
    shown: dict[str, float] = {}
    until = min(time.monotonic() + SCORES_WAIT_S, deadline)
    table = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first
    while True:
        table.scroll_into_view_if_needed()  # out of view, the grid's accessible table is empty
        shown = {system: round(score, 2) for system, score in results_grid(page).items()}
        if shown == expected or time.monotonic() > until:
            break
        page.wait_for_timeout(500)
    if shown != expected:
        return [f"session {session.index} ({session.where}): the dashboard shows {shown}, "
                f"expected {expected}"]
    return []


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_eight_sessions_upload_systems_then_reference(
        pattern: str, browser: Browser, app_url: str, tmp_path: Path) -> None:
    """``ms``: the reference a few ms after the systems' upload; ``s``: seconds after them."""
    anchor, delays = PATTERNS[pattern]
    sessions = [_session(k, pattern, tmp_path) for k in range(SESSIONS)]
    deadline = time.monotonic() + 150
    try:
        for session in sessions:
            _open(session, browser, app_url)
        for session in sessions:
            _ready(session)
        for session, delay in zip(sessions, delays, strict=True):
            _give(session, anchor, delay)
        _wait_for_references(sessions, deadline)
        problems = [p for session in sessions for p in _uploads_arrived(session, deadline)]
        arrived = [s for s in sessions
                   if not any(p.startswith(f"session {s.index} ") for p in problems)]
        for session in arrived:  # the drop zone loads on request: every click first, then look
            if session.where == "drop":
                session.page.locator(".st-key-files_commit button").click()
        problems += [p for session in arrived for p in _scores_shown(session, deadline)]
    finally:
        for session in sessions:
            if session.page is not None:
                session.page.context.close()
    assert not problems, "\n".join(problems)

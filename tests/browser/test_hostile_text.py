"""In a real browser, every page with hostile user text loaded: system names, segment text, the
source and an external-score column carrying Markdown images and links, HTML, ``javascript:``
URLs, a bidi override, and CSV and LaTeX specials. Every request is recorded; the test fails on
any request off 127.0.0.1, any link or image made from user text, any script run, or any page
that raises. The bidi override is shown as ``⟨U+202E⟩`` where names appear in text."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from harness import PAGES, goto_page, open_uploaders, upload, wait_all_charts, wait_idle
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

#: a documentation address (TEST-NET-2): never this machine, never reachable
OUTSIDE = "198.51.100.7"
IMAGE = f"![p](http://{OUTSIDE}/col.png)"
LINK = f"[click](http://{OUTSIDE}/go)"
SCRIPT_LINK = "[run](javascript:window.__pwned=1)"
HTML = "<img src=x onerror=window.__pwned=1>"
BIDI = "gnp\u202eexe"
CSV = f'=HYPERLINK("http://{OUTSIDE}/","hyp")'
LATEX = r"$\frac{1}{2}$ & % # \textbf{x}"
#: TSV headers can hold anything but a tab; each is a system's name (each holds "hyp", so the
#: uploader reads every column as a system by default)
NAMES = [f"hyp {IMAGE}", f"hyp {LINK} {SCRIPT_LINK}", f"hyp {BIDI} {HTML}", f"{CSV} {LATEX}"]
SEGMENTS = 8
PAYLOAD = f"{IMAGE} {LINK} {SCRIPT_LINK} {HTML} {BIDI} {LATEX}"
REFERENCE = [f"Der Satz {i} sagt {PAYLOAD} ." for i in range(SEGMENTS)]
SOURCE = [f"Sentence {i} says {PAYLOAD} ." for i in range(SEGMENTS)]

#: links or images whose address came from user text, a script that ran, an injected handler
INJECTED = f"""() => ({{
    pwned: typeof window.__pwned,
    links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
        .filter(h => h.includes('{OUTSIDE}') || h.trim().toLowerCase().startsWith('javascript'))
        .length,
    images: [...document.querySelectorAll('img')].map(i => i.getAttribute('src') || '')
        .filter(s => s.includes('{OUTSIDE}') || s === 'x').length,
    onerror: document.querySelectorAll('[onerror]').length,
}})"""


def _tsv(rows: list[list[str]]) -> bytes:
    return "".join("\t".join(row) + "\n" for row in rows).encode("utf-8")


def _files() -> tuple[list[dict], list[dict], list[dict]]:
    hyps = [[f"Satz {i} {k} {PAYLOAD} ." for k in range(len(NAMES))] for i in range(SEGMENTS)]
    systems = [{"name": "systems.tsv", "mimeType": "text/tab-separated-values",
                "buffer": _tsv([NAMES, *hyps])}]
    text = {"mimeType": "text/plain"}
    references = [{**text, "name": "ref.de", "buffer": "\n".join(REFERENCE).encode() + b"\n"}]
    source = [{**text, "name": "src.en", "buffer": "\n".join(SOURCE).encode() + b"\n"}]
    return systems, references, source


def _scores() -> dict:
    """External scores whose metric label (the score column's name) is hostile too."""
    rows = [["system", "seg_id", f"COMET {IMAGE}"]]
    rows += [[name, str(i + 1), f"{0.5 + i / 100:.2f}"] for name in NAMES for i in range(SEGMENTS)]
    return {"name": "comet.tsv", "mimeType": "text/tab-separated-values", "buffer": _tsv(rows)}


def test_every_page_shows_hostile_text_literally_and_fetches_nothing(page: Page,
                                                                     app_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("websocket", lambda socket: requested.append(socket.url))
    page.goto(app_url)
    wait_idle(page)
    open_uploaders(page)
    systems, references, source = _files()
    upload(page, "systems_upload", systems)
    upload(page, "references_upload", references)
    upload(page, "source_upload", source)
    page.get_by_text(f"Loaded {len(NAMES)} system(s)").first.wait_for()
    wait_idle(page)

    goto_page(page, "Metrics & human scores")
    upload(page, "scores_upload", [_scores()])
    page.get_by_text("COMET", exact=False).first.wait_for()
    wait_idle(page)

    seen_bidi = False
    for title in PAGES:
        goto_page(page, title)
        wait_all_charts(page)
        assert page.get_by_test_id("stException").count() == 0, title
        found = page.evaluate(INJECTED)
        assert found == {"pwned": "undefined", "links": 0, "images": 0, "onerror": 0}, (
            title, found)
        main_text = page.get_by_test_id("stMain").inner_text()
        assert "\u202e" not in main_text, title  # never raw, where text shows it
        seen_bidi = seen_bidi or "⟨U+202E⟩" in main_text
    assert seen_bidi, "a page names the system with the bidi override visibly"

    outside = sorted({url for url in requested if urlparse(url).hostname not in
                      (None, "", "127.0.0.1") and urlparse(url).scheme not in ("data", "blob")})
    assert outside == []

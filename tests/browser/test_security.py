"""In a real browser: names and text holding HTML, Markdown and LaTeX are shown as typed and
never run, and two users uploading at the same time each see only their own data.

The names come from a file name (no "/" is possible there) and from TSV column headers (where
``</script>`` is); the text of every segment, of the source and of the reference holds the same
payloads. Checked in the DOM: no injected ``<script>``, no element with ``onerror``, no
``<img src=x>``, no ``<strong>``/``<em>``/KaTeX made from the text, ``window.__pwned`` unset,
and the literal text in the results grid, the chart's marks and tooltip, the sidebar, the
highlighted segment and its source line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import (
    CHART_DRAWN,
    WMT17,
    goto_page,
    open_uploaders,
    results_grid,
    upload,
    wait_charts_drawn,
    wait_idle,
)
from playwright.sync_api import Browser, Page

import bleu
from bleu.io import MAX_UPLOAD_MB

DOC = Path(__file__).resolve().parents[2] / "docs" / "bad_inputs.md"

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
MARKUP = "**bold** _it_ $x^2$"
#: a file name cannot hold the "/" of </script>; Chromium sends a '"' in it as %22
FILE_SYSTEM = f"<img src=x onerror=window.__pwned=1> {MARKUP}"
COLUMNS = [f"hyp {SCRIPT}", f"hyp {MARKUP}"]  # TSV headers: any text, "/" included
NAMES = [*COLUMNS, FILE_SYSTEM]

SEGMENTS = 6
REFERENCE = [f"Der Satz {i} sagt {SCRIPT} und {IMG} mit {MARKUP}." for i in range(SEGMENTS)]
SOURCE = [f"Sentence {i} says {SCRIPT} and {IMG} with {MARKUP}." for i in range(SEGMENTS)]
HYPS = {
    COLUMNS[0]: [f"Der Satz {i} sagt {SCRIPT} und {IMG}." for i in range(SEGMENTS)],
    COLUMNS[1]: [f"Satz {i} {MARKUP} {IMG}." for i in range(SEGMENTS)],
    FILE_SYSTEM: [f"Der Satz {i} sagt {SCRIPT} mit {MARKUP}." for i in range(SEGMENTS)],
}

INJECTED = """() => ({
    pwned: typeof window.__pwned,
    scripts: [...document.querySelectorAll('script')]
        .filter(s => (s.textContent || '').includes('__pwned')).length,
    onerror: document.querySelectorAll('[onerror]').length,
    img_x: document.querySelectorAll('img[src="x"]').length,
    strong: [...document.querySelectorAll('strong, b')]
        .filter(e => e.textContent.trim() === 'bold').length,
    em: [...document.querySelectorAll('em, i')].filter(e => e.textContent.trim() === 'it').length,
    katex: document.querySelectorAll('.katex, .katex-mathml, math').length,
})"""


def _text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _files() -> tuple[list[dict], list[dict], list[dict]]:
    tsv = "\t".join(COLUMNS) + "\n" + "".join(
        f"{a}\t{b}\n" for a, b in zip(HYPS[COLUMNS[0]], HYPS[COLUMNS[1]], strict=True))
    systems = [{"name": "systems.tsv", "mimeType": "text/tab-separated-values",
                "buffer": tsv.encode("utf-8")},
               {"name": f"{FILE_SYSTEM}.txt", "mimeType": "text/plain",
                "buffer": _text(HYPS[FILE_SYSTEM])}]
    references = [{"name": "ref.de", "mimeType": "text/plain", "buffer": _text(REFERENCE)}]
    source = [{"name": "src.en", "mimeType": "text/plain", "buffer": _text(SOURCE)}]
    return systems, references, source


def assert_nothing_injected(page: Page) -> None:
    found = page.evaluate(INJECTED)
    assert found == {"pwned": "undefined", "scripts": 0, "onerror": 0, "img_x": 0, "strong": 0,
                     "em": 0, "katex": 0}, found


def load(page: Page, url: str, systems: list, references: list, source: list | None = None,
         expect: str = "Loaded") -> None:
    page.goto(url)
    wait_idle(page)
    wait_charts_drawn(page)  # first run done: see test_url_state for uploads during it
    open_uploaders(page)
    upload(page, "systems_upload", systems)
    upload(page, "references_upload", references)
    if source:
        upload(page, "source_upload", source)
    page.get_by_text(expect).first.wait_for()
    wait_idle(page)


@pytest.mark.browser
def test_markup_in_names_and_text_is_shown_literally(page: Page, app_url: str,
                                                     artifacts: Path) -> None:
    systems, references, source = _files()
    load(page, app_url, systems, references, source, expect="Loaded 3 system(s)")
    wait_charts_drawn(page)
    assert page.get_by_test_id("stException").count() == 0
    assert_nothing_injected(page)

    expected = {name: bleu.corpus_bleu(hyps, [REFERENCE]).score for name, hyps in HYPS.items()}
    shown = results_grid(page)
    assert set(shown) == set(NAMES)  # the grid's cells hold the names exactly as typed
    for name, value in expected.items():
        assert round(shown[name], 2) == round(value, 2), name

    bars = page.locator('[data-testid="stVegaLiteChart"]').filter(
        has_text="BLEU per system").first.locator(
        f"{CHART_DRAWN.split(' ', 1)[1]} g.mark-symbol path")  # its dots
    labels = [bars.nth(i).get_attribute("aria-label") or "" for i in range(bars.count())]
    for name in NAMES:
        assert any(f"; system: {name}; " in label for label in labels), labels
    bars.first.hover()
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    tip = tooltip.inner_text()
    assert any(name in tip for name in NAMES), tip
    assert tooltip.locator("img, script, strong, em").count() == 0

    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("System names", exact=True).click()
    label = sidebar.get_by_text(f"{FILE_SYSTEM}.txt", exact=True)
    label.wait_for()
    assert label.is_visible()
    assert_nothing_injected(page)
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.screenshot(path=str(artifacts / "security_dashboard.png"))

    goto_page(page, "Sentences")
    highlight = page.locator(".bleu-hl.segment .hyp").first
    highlight.wait_for()
    assert page.get_by_test_id("stException").count() == 0
    assert_nothing_injected(page)
    source_line = page.get_by_text(re.compile(r"^Source: Sentence \d+ says")).first
    source_line.wait_for()
    index = int(source_line.inner_text().split()[2])  # line i of the source says "Sentence i"
    assert source_line.inner_text() == f"Source: {SOURCE[index]}"  # the rest exactly as typed
    heads = page.locator(".bleu-hl.segment .segment-head").all_inner_texts()
    assert any(head.startswith(f"{COLUMNS[0]}: ") for head in heads), heads
    system = next(name for name in NAMES if heads[0].startswith(f"{name}: "))
    unigrams = highlight.locator(".bleu-layer.n1 .ngram").all_inner_texts()
    tokens = bleu.explain(HYPS[system][index], [REFERENCE[index]]).hypothesis_tokens
    assert unigrams == list(tokens)  # each token as typed, "<", "script", "__pwned=1" ...
    titles = highlight.locator(".bleu-layer.n1 .ngram").evaluate_all(
        "spans => spans.map(s => s.getAttribute('title'))")
    assert any("“script” (1-gram)" in (title or "") for title in titles), titles
    page.screenshot(path=str(artifacts / "security_sentences.png"))


@pytest.mark.browser
def test_two_users_at_once_each_see_only_their_own_data(browser: Browser, app_url: str) -> None:
    """Two contexts upload at the same time. Bob uploads Alice's very system and reference
    under his own name (the content-keyed caches serve him her statistics) plus a system of
    his own: each must see only their own names, and the shared content gives equal BLEU."""
    def lines(path: Path, n: int = 400) -> list[str]:
        return path.read_text(encoding="utf-8").split("\n")[:n]

    def files(systems: dict[str, list[str]]) -> list[dict]:
        return [{"name": f"{name}.txt", "mimeType": "text/plain", "buffer": _text(hyps)}
                for name, hyps in systems.items()]

    ref = lines(WMT17 / "newstest2017.en-de.ref.de")
    shared = lines(WMT17 / "newstest2017.uedin-nmt.4722.en-de.de")
    own = lines(WMT17 / "newstest2017.PROMT-Rule-based.4735.en-de.de")
    users = {"alice": {"alice": shared}, "bob": {"bob": shared, "bob-promt": own}}
    # Playwright's sync API belongs to one thread: the two users are two contexts driven in
    # turn, so their uploads and reruns overlap on the server.
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in users]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.set_default_timeout(90_000)
            page.goto(app_url)
        for page in pages:
            wait_idle(page)
            wait_charts_drawn(page)
            open_uploaders(page)
        for page, systems in zip(pages, users.values(), strict=True):
            upload(page, "systems_upload", files(systems))
            upload(page, "references_upload", [{"name": "ref.de", "mimeType": "text/plain",
                                                "buffer": _text(ref)}])
        seen = {}
        for page, (user, systems) in zip(pages, users.items(), strict=True):
            page.get_by_text(f"Loaded {len(systems)} system(s)").wait_for()
            wait_idle(page)
            wait_charts_drawn(page)
            seen[user] = results_grid(page)
            assert_nothing_injected(page)
    finally:
        for context in contexts:
            context.close()
    for user, systems in users.items():
        assert list(seen[user]) == list(systems)
        for name, hyps in systems.items():
            assert round(seen[user][name], 2) == round(bleu.corpus_bleu(hyps, [ref]).score, 2)
    assert seen["alice"]["alice"] == seen["bob"]["bob"] != seen["bob"]["bob-promt"]


@pytest.mark.browser
def test_a_file_over_the_upload_limit_is_refused_by_the_uploader(page: Page, app_url: str,
                                                                 tmp_path: Path) -> None:
    """Streamlit's uploader refuses it in the browser, before sending it; the sample stays.
    The message is the one docs/bad_inputs.md quotes."""
    big = tmp_path / "huge.de"
    with big.open("wb") as handle:
        handle.write(b"a\n" * (MAX_UPLOAD_MB * 2**19) + b"a")  # the limit plus one byte
    page.goto(app_url)
    wait_idle(page)
    wait_charts_drawn(page)
    before = results_grid(page)
    open_uploaders(page)
    upload(page, "systems_upload", [big])
    message = f"File must be {MAX_UPLOAD_MB:.1f}MB or smaller."
    uploader = page.locator(".st-key-systems_upload")
    uploader.get_by_text(message).wait_for()  # shown as "Error: " + message under the chip
    wait_idle(page)
    assert f'"{message}"' in DOC.read_text(encoding="utf-8")
    assert page.get_by_text("Loaded 1 system(s)").count() == 0
    assert page.get_by_test_id("stException").count() == 0
    assert results_grid(page) == before  # still the sample, unchanged

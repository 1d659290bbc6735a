"""Screenshot every page of the app on the bundled sample into docs/screenshots/<page>.png.

Usage: python scripts/screenshots.py [--max-height 2500] [--teaching-nl]. Starts the app on a
free port, opens each page through the sidebar in headless Debian Chromium (/usr/bin/chromium),
makes the window as tall as the page's content (Streamlit scrolls inside a div, so
full_page=True would not), and saves a 256-colour PNG 1400 px wide, cut at --max-height. Prints
what it found wrong per page. ``--teaching-nl`` shoots the teaching pages in Dutch instead (How
BLEU works also one step at a time and with its exercises): in presentation mode at 1280x720
(``nl_<page>_present.png``) and on a 390x844 phone (``nl_<page>_phone.png``), each as tall as
its content. The Chinese and Japanese cases need a CJK font for their glyphs (Debian's
fonts-wqy-zenhei); without one Chromium draws boxes.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
from harness import (  # noqa: E402 -- the browser-test harness lives with the tests
    PAGES,
    VIEWPORT,
    full_page_height,
    goto_page,
    launch_chromium,
    running_app,
    wait_all_charts,
    wait_idle,
)

OUT = REPO / "docs" / "screenshots"
#: a second, scrolled shot of a part that lies below the cut: page title -> (name, top element)
DETAILS = {"Sentences": ("sentences_segment", ".st-key-open_segment")}
DETAIL_HEIGHT = 1300


def problems(page: Page, marks: list[int]) -> list[str]:
    """What a person would see as broken: exception boxes, error boxes, charts without marks."""
    found = [f"exception: {text[:200]}"
             for text in page.get_by_test_id("stException").all_text_contents()]
    found += [f"error box: {text[:200]}"
              for text in page.get_by_test_id("stAlertContentError").all_text_contents()]
    found += [f"chart {index + 1} draws no marks" for index, count in enumerate(marks)
              if count == 0]
    return found


def save_png(data: bytes, path: Path) -> None:
    """The screenshot as a 256-colour PNG (a fraction of the size; text stays sharp)."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def shoot(page: Page, title: str, path: Path, max_height: int) -> tuple[int, list[str]]:
    """Open page ``title``, size the window to its content (at most ``max_height``), save it."""
    page.set_viewport_size(VIEWPORT)
    goto_page(page, title)
    marks = wait_all_charts(page)
    height = full_page_height(page)
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(height, max_height)})
    wait_idle(page)
    wait_all_charts(page)
    height = full_page_height(page)  # charts may re-lay out in the taller window
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(height, max_height)})
    page.wait_for_timeout(500)
    save_png(page.screenshot(), path)
    return height, problems(page, marks)


def shoot_detail(page: Page, selector: str, path: Path) -> None:
    """The window scrolled so that ``selector`` is at its top (the page is already open)."""
    page.set_viewport_size({"width": VIEWPORT["width"], "height": DETAIL_HEIGHT})
    wait_idle(page)
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    save_png(page.screenshot(), path)


#: the teaching pages shot in Dutch (screenshot name -> page and the view's query), and the
#: windows: presentation mode on a projector, a phone
TEACHING = {
    "how_bleu_works": ("how_bleu_works", ""),
    "how_bleu_works_steps": ("how_bleu_works", "&ex_view=steps&ex_step=1"),
    "how_bleu_works_exercises": ("how_bleu_works", "&ex_view=exercises"),
    "brevity_penalty": ("brevity_penalty", ""),
    "sensitivity": ("sensitivity", ""),
    "blind_spots": ("blind_spots", ""),
    "background": ("background", ""),
}
WINDOWS = {"present": ({"width": 1280, "height": 720}, "&present=1"),
           "phone": ({"width": 390, "height": 844}, "")}


def shoot_teaching_nl(url: str, browser, max_height: int) -> int:
    """Each teaching page in Dutch in each of ``WINDOWS``, as tall as its content; the number
    of pages with a problem."""
    broken = 0
    for mode, (window, query) in WINDOWS.items():
        page = browser.new_page(viewport=window)
        for name, (script, view) in TEACHING.items():
            page.set_viewport_size(window)
            page.goto(f"{url}/{script}?lang=nl{query}{view}")
            wait_idle(page)
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)
            charted = page.locator('[data-testid="stVegaLiteChart"]').count() > 0
            marks = wait_all_charts(page) if charted else []
            height = min(full_page_height(page), max_height)
            page.set_viewport_size({"width": window["width"], "height": height})
            wait_idle(page)
            if charted:
                wait_all_charts(page)
            page.wait_for_timeout(500)
            path = OUT / f"nl_{name}_{mode}.png"
            save_png(page.screenshot(), path)
            found = problems(page, marks)
            broken += bool(found)
            print(f"{name} ({mode}, Dutch): {path.relative_to(REPO)} ({height} px)"
                  + "".join(f"\n  PROBLEM {p}" for p in found))
        page.close()
    return broken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-height", type=int, default=2500,
                        help="cut each screenshot at this height in pixels (default 2500)")
    parser.add_argument("--teaching-nl", action="store_true",
                        help="the teaching pages in Dutch, presented (1280x720) and on a phone")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.teaching_nl:
        with running_app() as url, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            broken = shoot_teaching_nl(url, browser, max(args.max_height, 6000))
            browser.close()
        return 1 if broken else 0
    broken = 0
    with running_app() as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport=VIEWPORT)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        wait_idle(page)
        for title, name in PAGES.items():
            path = OUT / f"{name}.png"
            height, found = shoot(page, title, path, args.max_height)
            found += [f"script error: {error}" for error in errors]
            errors.clear()
            broken += bool(found)
            cut = f", cut at {args.max_height}" if height > args.max_height else ""
            print(f"{title}: {path.relative_to(REPO)} ({path.stat().st_size // 1024} kB, "
                  f"page {height} px{cut})" + "".join(f"\n  PROBLEM {p}" for p in found))
            if title in DETAILS:
                name, selector = DETAILS[title]
                shoot_detail(page, selector, OUT / f"{name}.png")
                print(f"  and {name}.png: the part from {selector} down")
        browser.close()
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

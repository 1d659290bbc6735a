"""In the browser: time from uploading 3 systems x 3004 segments and a reference (WMT17 en-de)
to the corpus dashboard drawn with their numbers (target: a median under 3 s).

Run: ``python benchmarks/bench_upload_browser.py [--repeats 3]``. One Streamlit server of our
own on a free port, headless Debian Chromium. Each repetition is a fresh browser session that
first shows the bundled sample; the clock starts as the system files are given to the uploader
and stops when every chart is drawn, the BLEU chart shows the three new systems and nothing is
stale. Every line of every file ends in the run's own word, so no cache is ever hit. The BLEU
values drawn are checked against sacrebleu on the same text; for scale, sacrebleu's time to
compute the dashboard's numbers (corpus BLEU and a 1000-resample paired bootstrap) is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import sacrebleu
from playwright.sync_api import Page, sync_playwright
from sacrebleu.significance import PairedTest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
from harness import (  # noqa: E402 -- the browser-test harness lives with the tests
    VIEWPORT,
    WMT17,
    launch_chromium,
    open_uploaders,
    running_app,
    upload,
    wait_idle,
)

SYSTEMS = {"uedin-nmt": "newstest2017.uedin-nmt.4722.en-de.de",
           "C-3MA": "newstest2017.C-3MA.4959.en-de.de",
           "FBK": "newstest2017.FBK.4870.en-de.de"}
REFERENCE = "newstest2017.en-de.ref.de"
TARGET_SECONDS = 3.0
#: the dashboard shows these systems: all charts drawn, nothing stale, the BLEU bars named
DRAWN = """names => {
    if (document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"]'))
        return false;
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
    if (charts.length < 4 || !charts.every(c => c.querySelector('svg.marks'))) return false;
    const bars = [...charts[0].querySelectorAll('svg.marks g.mark-rect path')]
        .map(p => p.getAttribute('aria-label') || '');
    return bars.length === names.length
        && names.every(n => bars.some(label => label.startsWith(`system: ${n};`)));
}"""


def read_lines(name: str) -> list[str]:
    lines = (WMT17 / name).read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def unique(lines: list[str], run: int) -> list[str]:
    """The lines with the run's own word at the end: new content for every repetition."""
    return [f"{line} run{run}" for line in lines]


def payload(name: str, lines: list[str]) -> dict:
    return {"name": name, "mimeType": "text/plain",
            "buffer": ("\n".join(lines) + "\n").encode("utf-8")}


def drawn_bleu(page: Page) -> dict[str, float]:
    """System -> BLEU from the BLEU chart's bars (aria-label ``system: X; BLEU: Y; ...``)."""
    labels = page.locator('[data-testid="stVegaLiteChart"]').first.locator(
        "svg.marks g.mark-rect path")
    found = {}
    for index in range(labels.count()):
        fields = dict(part.split(": ", 1) for part in
                      (labels.nth(index).get_attribute("aria-label") or "").split("; "))
        found[fields["system"]] = float(fields["BLEU"])
    return found


def one_run(page: Page, url: str, run: int, systems: dict[str, list[str]],
            reference: list[str]) -> tuple[float, dict[str, float], dict[str, list[str]]]:
    """Upload this run's files; seconds to the drawn dashboard, the BLEU drawn, the text sent."""
    texts = {f"{name}-run{run}": unique(lines, run) for name, lines in systems.items()}
    ref = unique(reference, run)
    page.goto(url)
    wait_idle(page)
    open_uploaders(page)
    files = [payload(f"{name}.txt", lines) for name, lines in texts.items()]
    start = time.perf_counter()
    upload(page, "systems_upload", files)
    upload(page, "references_upload", [payload(f"reference-run{run}.txt", ref)])
    page.wait_for_function(DRAWN, arg=list(texts), timeout=120_000, polling=50)
    seconds = time.perf_counter() - start
    texts["__reference__"] = ref
    return seconds, drawn_bleu(page), texts


def sacrebleu_dashboard_seconds(systems: dict[str, list[str]], reference: list[str]) -> float:
    """sacrebleu computing what the dashboard shows: corpus BLEU and a paired bootstrap (1000)."""
    start = time.perf_counter()
    named = list(systems.items())
    for _, lines in named:
        sacrebleu.corpus_bleu(lines, [reference])
    PairedTest(named, {"BLEU": sacrebleu.BLEU(references=[reference])}, None, test_type="bs",
               n_samples=1000)()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    systems = {name: read_lines(file) for name, file in SYSTEMS.items()}
    reference = read_lines(REFERENCE)
    seconds = []
    with running_app() as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for run in range(1, args.repeats + 1):
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            took, drawn, texts = one_run(page, url, run, systems, reference)
            context.close()
            ref = texts.pop("__reference__")
            for name, lines in texts.items():  # parity: what is drawn is sacrebleu's number
                expected = sacrebleu.corpus_bleu(lines, [ref]).score
                if round(drawn[name], 2) != round(expected, 2):
                    print(f"MISMATCH run {run} {name}: drawn {drawn[name]:.4f}, "
                          f"sacrebleu {expected:.4f}")
                    return 1
            seconds.append(took)
            print(f"run {run}: {took:6.2f} s upload -> dashboard drawn "
                  f"(3 systems x {len(reference)} segments; BLEU equal to sacrebleu's)")
        browser.close()
    median = statistics.median(seconds)
    peer = sacrebleu_dashboard_seconds(
        {f"{name}-run0": unique(lines, 0) for name, lines in systems.items()}, unique(reference, 0))
    verdict = "under" if median < TARGET_SECONDS else "OVER"
    print(f"median {median:.2f} s ({verdict} the {TARGET_SECONDS:.0f} s target); for scale, "
          f"sacrebleu alone computes the same numbers in {peer:.2f} s "
          f"(x{peer / median:.1f} the whole browser round trip)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

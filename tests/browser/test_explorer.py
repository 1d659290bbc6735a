"""In a real browser: click a point of the Sentences scatter, and the segment it stands for opens
with its n-gram matches highlighted; the highlighted spans agree with sacrebleu's counts."""

from __future__ import annotations

import re

import pytest
from harness import REPO, goto_page, wait_idle
from playwright.sync_api import Locator, Page
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

SAMPLE = REPO / "sample_data"
SEGMENT_TIP = re.compile(r"^segment\s+(\d+)\s*$", re.MULTILINE)
#: pixels of the scatter's points: blue (#4c78a8) drawn faint over the white plot when there are
#: thousands (opacity 0.15 on the sample's 2037 points), so bluer than grey: blue above red
POINT_PIXELS = """c => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
    for (let y = 0; y < c.height; y += 2) for (let x = 0; x < c.width; x += 2) {
        const i = (y * c.width + x) * 4;
        if (d[i + 3] > 200 && d[i + 2] - d[i] > 8 && d[i + 2] >= d[i + 1])
            out.push([x * c.clientWidth / c.width, y * c.clientHeight / c.height]);
    }
    return out;
}"""


def _lines(path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _click_a_point(page: Page, scatter: Locator) -> int:
    """Hover the scatter's points until the tooltip names a segment, click there; its id."""
    scatter.scroll_into_view_if_needed()
    box = scatter.bounding_box()
    assert box is not None
    pixels = scatter.evaluate(POINT_PIXELS)
    assert len(pixels) > 100, "the scatter draws its points"
    tooltip = page.locator("#vg-tooltip-element")
    for x, y in pixels[:: max(1, len(pixels) // 40)]:
        page.mouse.move(box["x"] + x, box["y"] + y)
        page.wait_for_timeout(150)
        found = SEGMENT_TIP.search(tooltip.inner_text()) if tooltip.is_visible() else None
        if found:
            page.mouse.click(box["x"] + x, box["y"] + y)
            return int(found.group(1))
    raise AssertionError("no scatter point showed a segment tooltip")


@pytest.mark.browser
def test_scatter_click_opens_segment_with_highlighted_ngrams(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_idle(page)
    goto_page(page, "Sentences")
    system_a = page.locator(".st-key-sentences_a").get_by_role("combobox").input_value()
    # The scatter is the chart with a point selection (drawn on a canvas by Streamlit).
    scatter = page.locator('[data-testid="stVegaLiteChart"] canvas.marks').first
    scatter.wait_for()

    segment = _click_a_point(page, scatter)
    page.get_by_text("1 segment(s) selected on the scatter").wait_for()
    wait_idle(page)
    assert page.get_by_text(f"Segment {segment}", exact=True).is_visible()

    hypothesis = _lines(SAMPLE / f"generaltest2022.en-de.hyp.{system_a}.de")[segment - 1]
    references = [_lines(path)[segment - 1]
                  for path in sorted(SAMPLE.glob("generaltest2022.en-de.ref.*.de"))]
    expected = BLEU(effective_order=True).sentence_score(hypothesis, references)

    block = page.locator("div.bleu-hl div.hyp").filter(
        has=page.locator(".segment-head", has_text=f"{system_a}:")).first
    unigrams = block.locator("span.ngram.n1")
    positions = [int(unigrams.nth(i).get_attribute("data-pos") or -1)
                 for i in range(unigrams.count())]
    texts = [text for _, text in sorted(zip(positions, unigrams.all_text_contents(),
                                            strict=True))]
    assert texts == Tokenizer13a()(hypothesis).split()
    matched = block.locator("span.ngram.match.n1")
    assert matched.count() > 0
    assert matched.count() == expected.counts[0]
    assert block.locator("span.ngram.match.n2").count() == expected.counts[1]
    reference_tokens = {token for ref in references for token in Tokenizer13a()(ref).split()}
    assert set(matched.all_text_contents()) <= reference_tokens

"""The Sentences and Compare pages through AppTest on the bundled sample (WMT22 en-de)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
SAMPLE = REPO / "sample_data"

if str(REPO) not in sys.path:  # the app imports its page glue from ``views``
    sys.path.insert(0, str(REPO))


def lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").split("\n")[:-1]



def open_page(page: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_of(at: AppTest, key: str = "segments_table"):
    return next(frame.value for frame in at.dataframe if frame.key == key)


def test_sentences_page_table_note_and_filters():
    at = open_page("views/sentences.py")
    a, b = at.selectbox(key="sentences_a").value, at.selectbox(key="sentences_b").value
    table = table_of(at)
    assert len(table) == 2037
    hyp = lines(f"generaltest2022.en-de.hyp.{a}.de")
    refs = [lines("generaltest2022.en-de.ref.A.de"), lines("generaltest2022.en-de.ref.B.de")]
    expected = sacrebleu.sentence_bleu(hyp[4], [r[4] for r in refs]).score
    assert table[f"BLEU {a}"].iloc[4] == pytest.approx(expected, abs=1e-9)
    # the note gives this data's numbers
    corpus = sacrebleu.corpus_bleu(hyp, refs).score
    note = next(re.sub(r"\\(.)", r"\1", info.value) for info in at.info if a in info.value)
    assert f"{corpus:.2f}" in note and "mean of sentence BLEU" in note
    # plain search, then a regex, then a broken regex (an error, an empty table, no crash)
    at.text_input(key="search").set_value("Hund").run()
    found = table_of(at)
    assert 0 < len(found) < 2037
    assert found.apply(lambda row: row.astype(str).str.contains("hund", case=False).any(),
                       axis=1).all()
    at.checkbox(key="search_regex").set_value(True)
    at.text_input(key="search").set_value("Hund(e|es)\\b").run()
    assert 0 < len(table_of(at)) <= len(found)
    at.text_input(key="search").set_value("(").run()
    assert not at.exception
    assert any("not a valid regular expression" in e.value for e in at.error)
    assert len(table_of(at)) == 0
    assert b in table_of(at).columns


def test_sentences_page_score_filter_and_segment_detail():
    at = open_page("views/sentences.py")
    a = at.selectbox(key="sentences_a").value
    at.slider(key="filter_score_range_False").set_value((90.0, 100.0)).run()
    shown = table_of(at)
    assert len(shown) > 0 and (shown[f"BLEU {a}"] >= 90).all()
    at.number_input(key="open_segment").set_value(5).run()
    html = [m.value for m in at.markdown if 'class="bleu-hl segment"' in m.value]
    assert len(html) == 2  # A and B side by side
    assert 'class="ngram match n1"' in html[0]
    assert 'data-ref="2"' in html[0]  # both references of the sample are highlighted
    # order toggles: turning 1-grams off removes that layer
    at.checkbox(key="sentences_order_1").set_value(False).run()
    html = [m.value for m in at.markdown if 'class="bleu-hl segment"' in m.value]
    assert " n1" not in html[0] and " n2" in html[0]


def test_sentences_page_charts():
    at = open_page("views/sentences.py")
    specs = [chart.proto.spec for chart in at.get("arrow_vega_lite_chart")] or \
        [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert any('"segment"' in spec and '"point"' in spec for spec in specs)
    assert any('"binned"' in spec for spec in specs)


def test_compare_page_runs_every_analysis():
    at = open_page("views/compare.py")
    deciding = at.dataframe[0].value  # the first table: the deciding segments
    assert len(deciding) == 20
    assert deciding["swap"].abs().is_monotonic_decreasing
    for analysis in ("length difference", "sentence BLEU", "word frequency"):
        at.selectbox(key="bucket_analysis").set_value(analysis).run()
        assert not at.exception, analysis
    assert table_of(at, "ngrams_a")["diff"].gt(0).all()
    assert table_of(at, "ngrams_b")["diff"].lt(0).all()

"""The Sentences and Compare pages through AppTest on the bundled sample (WMT22 en-de)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

import bleu
from bleu.display.formatting import DELTA, SCORE
from bleu.explore.compare import ngram_differences
from bleu.metrics.bleu.score import BLEUOptions

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
    at = open_page("bleu_app/views/sentences.py")
    a, b = at.selectbox(key="sentences_a").value, at.selectbox(key="sentences_b").value
    table = table_of(at)
    assert len(table) == 2037
    hyp = lines(f"generaltest2022.en-de.hyp.{a}.de")
    refs = [lines("generaltest2022.en-de.ref.A.de"), lines("generaltest2022.en-de.ref.B.de")]
    expected = sacrebleu.sentence_bleu(hyp[4], [r[4] for r in refs]).score
    assert table[f"BLEU {a}"].iloc[4] == pytest.approx(expected, abs=1e-9)
    # the note gives this data's numbers
    corpus = sacrebleu.corpus_bleu(hyp, refs).score
    [summary] = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption
                 if "mean of sentence BLEU" in c.value]
    assert f"corpus BLEU {corpus:.2f}" in summary  # one line; the why in an expander
    note = next(re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown
                if "The mean of sentence BLEU for" in m.value and a in m.value)
    assert f"{corpus:.2f}" in note
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
    at = open_page("bleu_app/views/sentences.py")
    a = at.selectbox(key="sentences_a").value
    at.select_slider(key=f"filter_score_range_BLEU {a}").set_value((90.0, 100.0)).run()
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
    at = open_page("bleu_app/views/sentences.py")
    specs = [chart.proto.spec for chart in at.get("arrow_vega_lite_chart")] or \
        [chart.proto.spec for chart in at.get("vega_lite_chart")]
    assert any('"segment"' in spec and '"point"' in spec for spec in specs)
    assert any('"binned"' in spec for spec in specs)


def test_compare_page_runs_every_analysis():
    at = open_page("bleu_app/views/compare.py")
    deciding = next(d.value for d in at.dataframe if "swap to B" in d.value.columns)
    assert len(deciding) == 20
    assert deciding["swap to B"].abs().is_monotonic_decreasing
    for analysis in ("length difference", "sentence BLEU", "word frequency"):
        at.selectbox(key="bucket_analysis").set_value(analysis).run()
        assert not at.exception, analysis
    assert table_of(at, "ngrams_a")["difference"].gt(0).all()
    assert table_of(at, "ngrams_b")["difference"].lt(0).all()


def test_compare_page_tests_every_metric_as_the_core_does():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["other_metrics"] = "chrF"
    at.run()
    at.switch_page("bleu_app/views/compare.py").run()
    assert not at.exception
    a, b = at.selectbox(key="compare_a").value, at.selectbox(key="compare_b").value
    tests = next(d.value for d in at.dataframe if "p (AR)" in d.value.columns)
    assert list(tests["metric"]) == ["BLEU", "chrF"]  # the sidebar's names
    caption = " ".join(c.value for c in at.caption).replace("\\", "")  # Markdown escapes
    assert "Add chrF++ or TER under Also compute" in caption and "Add chrF," not in caption
    refs = [lines("generaltest2022.en-de.ref.A.de"), lines("generaltest2022.en-de.ref.B.de")]
    systems = {a: lines(f"generaltest2022.en-de.hyp.{a}.de"),
               b: lines(f"generaltest2022.en-de.hyp.{b}.de")}
    expected = {"BLEU": bleu.paired_bootstrap(systems, refs, baseline=a, n_samples=1000),
                "chrF": bleu.paired_bootstrap(systems, refs, baseline=a, n_samples=1000,
                                               metric=bleu.CHRF())}
    for _, row in tests.iterrows():
        found = expected[row["metric"]]
        assert row["p (bootstrap)"] == found[b].p_value
        assert row[a] == SCORE.text(found[a].score)  # written by the rule, each metric's own
        assert row["A − B"] == DELTA.text(found[a].score - found[b].score)
    ar = bleu.paired_approximate_randomization(systems, refs, baseline=a, n_samples=10000)
    assert tests["p (AR)"].iloc[0] == ar[b].p_value


def test_compare_page_ngram_opens_its_segments_marked():
    at = open_page("bleu_app/views/compare.py")
    a, b = at.selectbox(key="compare_a").value, at.selectbox(key="compare_b").value
    ngram = table_of(at, "ngrams_b")["ngram"].iloc[0]
    at.session_state["ngrams_b"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    refs = [lines("generaltest2022.en-de.ref.A.de"), lines("generaltest2022.en-de.ref.B.de")]
    diffs = ngram_differences(lines(f"generaltest2022.en-de.hyp.{a}.de"),
                              lines(f"generaltest2022.en-de.hyp.{b}.de"), refs, BLEUOptions())
    listing = table_of(at, "ngram_segments_b_0")
    assert list(listing["segment"]) == list(
        diffs.b_better.set_index("ngram").loc[ngram, "segments"])
    marked = [m.value for m in at.markdown if 'class="ngram-marks"' in m.value]
    assert len(marked) == 1  # the n-gram's opened segment; the page's own one is unmarked
    assert f'<mark class="ngram-mark">{ngram}</mark>' in marked[0]
    heads = [m.value for m in at.markdown if re.fullmatch(r"\*\*Segment \d+\*\*", m.value)]
    assert heads[0] == f"**Segment {listing['segment'].iloc[0]}**"


def test_compare_page_word_buckets_with_a_frequency_file():
    at = open_page("bleu_app/views/compare.py")
    at.selectbox(key="bucket_analysis").set_value("word frequency").run()
    reference_only = [c for c in at.get("vega_lite_chart") if "frequency in" in c.proto.spec]
    assert "the first reference" in reference_only[0].proto.spec
    counts = b"der\t1000000\ndie\t900000\nHund\t3\n"
    at.file_uploader(key="frequency_upload").set_value(("train.freq", counts, "text/plain"))
    at.run()
    assert not at.exception
    chart = next(c for c in at.get("vega_lite_chart") if "frequency in" in c.proto.spec)
    assert "the training data" in chart.proto.spec
    at.file_uploader(key="frequency_upload").set_value(("bad.freq", b"no counts", "text/plain"))
    at.run()
    assert any("expected a word, a tab and a count" in e.value for e in at.error)

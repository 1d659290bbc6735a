"""The teaching pages under AppTest: How BLEU works, Brevity penalty, Sensitivity."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
import sacrebleu
from conftest import read_lines
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleu.analysis.mqm import read_mqm
from bleu.analysis.sensitivity import mqm_correlation

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
SAMPLE = REPO / "sample_data"
CLASSIC_HYP = "the the the the the the the"
CLASSIC_REFS = ["the cat is on the mat", "there is a cat on the mat"]

if str(REPO) not in sys.path:  # the app imports its page glue from ``views``
    sys.path.insert(0, str(REPO))



def open_page(page: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def frame(at: AppTest, column: str, nth: int = 0):
    """The nth dataframe on the page that has ``column`` (AppTest keeps no dataframe keys)."""
    return [d.value for d in at.dataframe if column in d.value.columns][nth]


def sample_refs() -> list[list[str]]:
    return [read_lines(SAMPLE / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]


def test_how_bleu_works_classic_example_by_hand():
    at = open_page("views/how_bleu_works.py")
    shown = metrics(at)
    # c = 7; refs have 6 and 7 tokens, so r = 7 and BP = 1
    assert (shown["c (candidate length)"], shown["r (reference length)"], shown["BP"]) == (
        "7", "7", "1.0000")
    # exp smoothing: p = 2/7, 1/(2*6), 1/(4*5), 1/(8*4)
    by_hand = 100 * (2 / 7 / 12 / 20 / 32) ** 0.25
    assert shown["BLEU"] == f"{by_hand:.2f}" == \
        f"{sacrebleu.sentence_bleu(CLASSIC_HYP, CLASSIC_REFS).score:.2f}"
    unigrams = frame(at, "n-gram")
    assert unigrams.to_dict("records") == [{"n-gram": "the", "count": 7, "max ref count": 2,
                                             "in reference": 1, "clipped": 2}]
    orders = frame(at, "credited/total")
    assert list(orders["credited/total"]) == ["2/7", "0/6", "0/5", "0/4"]
    assert any("exp(-2.5498)" in latex.value for latex in at.latex)


def test_smoothing_side_by_side_equals_sacrebleu():
    at = open_page("views/how_bleu_works.py")
    table = frame(at, "why 0")
    for _, row in table.iterrows():
        expected = sacrebleu.metrics.BLEU(smooth_method=row["smoothing"],
                                          effective_order=bool(row["effective order"]))
        score = expected.sentence_score(CLASSIC_HYP, CLASSIC_REFS).score
        assert row["BLEU"] == pytest.approx(round(score, 4))
    none_rows = table[table.smoothing == "none"]
    assert (none_rows.BLEU == 0).all() and none_rows["why 0"].str.contains("p_2 = 0").all()


def test_typed_example_and_custom_weights_by_hand():
    at = open_page("views/how_bleu_works.py")
    at.text_area(key="teach_candidate").set_value("the cat sat on the mat")
    at.text_area(key="teach_references").set_value("the cat is on the mat")
    at.run()
    # p = 5/6, 3/5, 1/4, and 0/3 -> exp smoothing 1/(2*3); c = r = 6
    by_hand = 100 * (5 / 6 * 3 / 5 * 1 / 4 * 1 / 6) ** 0.25
    expected = sacrebleu.sentence_bleu("the cat sat on the mat", ["the cat is on the mat"])
    assert metrics(at)["BLEU"] == f"{by_hand:.2f}" == f"{expected.score:.2f}"
    at.checkbox(key="teach_custom_weights").check().run()
    for n, weight in enumerate([1.0, 0.0, 0.0, 0.0], start=1):
        at.number_input(key=f"teach_w_{n}").set_value(weight)
    at.run()
    assert metrics(at)["BLEU with your weights"] == f"{100 * 5 / 6:.2f}"
    at.number_input(key="teach_order").set_value(2).run()
    assert not at.exception
    assert len(frame(at, "credited/total")) == 2


def test_pick_a_segment_of_the_loaded_data():
    at = open_page("views/how_bleu_works.py")
    at.selectbox(key="teach_system").set_value("Online-B")
    at.number_input(key="teach_segment").set_value(12)
    at.button(key="teach_pick").click().run()
    hyp = read_lines(SAMPLE / "generaltest2022.en-de.hyp.Online-B.de")[11]
    refs = [ref[11] for ref in sample_refs()]
    assert at.text_area(key="teach_candidate").value == hyp
    assert at.text_area(key="teach_references").value == "\n".join(refs)
    assert metrics(at)["BLEU"] == f"{sacrebleu.sentence_bleu(hyp, refs).score:.2f}"


def test_user_text_is_never_rendered_as_html_or_latex():
    at = open_page("views/how_bleu_works.py")
    evil = "<script>alert(1)</script> \\frac{1}{2} $x$"
    at.text_area(key="teach_candidate").set_value(evil)
    at.text_area(key="teach_references").set_value(evil)
    at.run()
    assert not at.exception
    for element in [*at.markdown, *at.latex, *at.caption]:
        assert "<script>" not in element.value and "\\frac{1}" not in element.value
    at.text_area(key="teach_references").set_value("").run()
    assert "needs at least one reference" in at.error[0].value


def test_brevity_page_numbers_equal_sacrebleu():
    at = open_page("views/brevity_penalty.py")
    refs = sample_refs()
    positions = frame(at, "c/r").set_index("system")
    hyps = read_lines(SAMPLE / "generaltest2022.en-de.hyp.PROMT.de")
    expected = sacrebleu.corpus_bleu(hyps, refs)
    assert positions.loc["PROMT", "BLEU"] == round(expected.score, 2)
    assert positions.loc["PROMT", "c"] == expected.sys_len
    assert positions.loc["PROMT", "BP"] == round(expected.bp, 4)

    at.selectbox(key="bp_system").set_value("PROMT")
    at.slider(key="bp_percent").set_value(-20).run()
    tok = Tokenizer13a()
    cut = []
    for line in hyps:
        tokens = tok(line.rstrip()).split()
        # drop k = round(20 % of the tokens), half up
        cut.append(" ".join(tokens[: len(tokens) - math.floor(len(tokens) * 0.2 + 0.5)]))
    tok_refs = [[" ".join(tok(r.rstrip()).split()) for r in stream] for stream in refs]
    shorter = sacrebleu.corpus_bleu(cut, tok_refs, tokenize="none")
    shown = metrics(at)
    assert shown["BLEU"] == f"{shorter.score:.2f}"
    assert shown["BP"] == f"{shorter.bp:.4f}"
    assert len(at.get("vega_lite_chart")) >= 4
    buckets = frame(at, "bucket")
    assert buckets[buckets.system == "PROMT"].sys_len.sum() == expected.sys_len


def test_sensitivity_page_sections():
    at = open_page("views/sensitivity.py")
    folder = SAMPLE / "wmt21_en-de_mqm"
    names = ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
             "VolcTrans-GLAT", "eTranslation")
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    systems = {n: read_lines(folder / f"newstest2021.en-de.hyp.{n}.de") for n in names}
    corr = mqm_correlation(systems, refs,
                           read_mqm(folder / "mqm_newstest2021_ende.avg_seg_scores.tsv"))
    shown = metrics(at)
    assert shown["Segment-level Kendall τ"] == f"{corr.segment_tau:.3f}"
    assert shown["System-level Kendall τ"] == f"{corr.system_tau:.3f}"
    assert shown["System-level Pearson r"] == f"{corr.system_pearson:.3f}"

    zh = frame(at, "one-token segments").set_index("tokenize")
    zh_dir = SAMPLE / "wmt22_en-zh_excerpt"
    hyps = read_lines(zh_dir / "generaltest2022.en-zh.hyp.LanguageX.zh")
    zh_refs = [read_lines(zh_dir / "generaltest2022.en-zh.ref.A.zh")]
    for tok in ("zh", "char", "none"):
        assert zh.loc[tok, "score"] == pytest.approx(
            sacrebleu.corpus_bleu(hyps, zh_refs, tokenize=tok).score, abs=1e-9)

    at.multiselect(key="sens_systems").set_value(["Online-B", "PROMT"])
    at.toggle(key="sens_grid_on").set_value(True)
    at.toggle(key="sens_nltk_on").set_value(True)
    at.run()
    assert not at.exception
    grid = frame(at, "intl+lc")
    promt = read_lines(SAMPLE / "generaltest2022.en-de.hyp.PROMT.de")
    assert grid.loc["PROMT", "intl+lc"] == round(
        sacrebleu.corpus_bleu(promt, sample_refs(), tokenize="intl", lowercase=True).score, 2)
    nltk_rows = frame(at, "implementation")
    first = read_lines(SAMPLE / "generaltest2022.en-de.hyp.JDExploreAcademy.de")
    assert nltk_rows.score.iloc[0] == pytest.approx(
        sacrebleu.corpus_bleu(first, sample_refs()).score, abs=1e-9)

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

from bleu.analysis.sensitivity import mqm_correlation
from bleu.io.scores.mqm import read_mqm

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
    at = open_page("bleu_app/views/how_bleu_works.py")
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
                                             "from ref": 1, "credited": 2}]
    orders = frame(at, "credited/total")
    assert list(orders["credited/total"]) == ["2/7 = 28.57%", "0/6 = 0.00%", "0/5 = 0.00%",
                                              "0/4 = 0.00%"]
    assert any("exp(-2.5498)" in latex.value for latex in at.latex)


def test_smoothing_side_by_side_equals_sacrebleu():
    at = open_page("bleu_app/views/how_bleu_works.py")
    table = frame(at, "note")
    for _, row in table.iterrows():
        expected = sacrebleu.metrics.BLEU(smooth_method=row["smoothing"],
                                          effective_order=row["effective order"] == "on")
        score = expected.sentence_score(CLASSIC_HYP, CLASSIC_REFS).score
        assert row["BLEU"] == f"{score:.2f}"  # the score's own rounding, as in step 4
    none_rows = table[table.smoothing == "none"]
    assert (none_rows.BLEU == "0.00").all() and none_rows.note.str.contains("p_2 = 0").all()


def test_typed_example_and_custom_weights_by_hand():
    at = open_page("bleu_app/views/how_bleu_works.py")
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
    at = open_page("bleu_app/views/how_bleu_works.py")
    at.selectbox(key="teach_system").set_value("Online-B")
    at.number_input(key="teach_segment").set_value(12)
    at.button(key="teach_pick").click().run()
    hyp = read_lines(SAMPLE / "generaltest2022.en-de.hyp.Online-B.de")[11]
    refs = [ref[11] for ref in sample_refs()]
    assert at.text_area(key="teach_candidate").value == hyp
    assert at.text_area(key="teach_references").value == "\n".join(refs)
    assert metrics(at)["BLEU"] == f"{sacrebleu.sentence_bleu(hyp, refs).score:.2f}"


def test_user_text_is_never_rendered_as_html_or_latex():
    at = open_page("bleu_app/views/how_bleu_works.py")
    evil = "<script>alert(1)</script> \\frac{1}{2} $x$"
    at.text_area(key="teach_candidate").set_value(evil)
    at.text_area(key="teach_references").set_value(evil)
    at.run()
    assert not at.exception
    for element in [*at.markdown, *at.latex, *at.caption]:
        assert "<script>" not in element.value and "\\frac{1}" not in element.value
    at.text_area(key="teach_references").set_value("").run()
    assert at.error[0].value.replace("\\", "") == "Give at least one reference (one per line)."


def test_brevity_page_numbers_equal_sacrebleu():
    at = open_page("bleu_app/views/brevity_penalty.py")
    refs = sample_refs()
    positions = frame(at, "c/r").set_index("system")
    hyps = read_lines(SAMPLE / "generaltest2022.en-de.hyp.PROMT.de")
    expected = sacrebleu.corpus_bleu(hyps, refs)
    assert positions.loc["PROMT", "BLEU"] == pytest.approx(expected.score, abs=1e-9)
    assert positions.loc["PROMT", "c"] == expected.sys_len
    assert positions.loc["PROMT", "BP"] == pytest.approx(expected.bp, abs=1e-12)

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
    at = open_page("bleu_app/views/sensitivity.py")
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
    grid = frame(at, "intl+lc").set_index("system")
    promt = read_lines(SAMPLE / "generaltest2022.en-de.hyp.PROMT.de")
    assert grid.loc["PROMT", "intl+lc"] == pytest.approx(sacrebleu.corpus_bleu(
        promt, sample_refs(), tokenize="intl", lowercase=True).score, abs=1e-9)
    nltk_rows = frame(at, "implementation")
    first = read_lines(SAMPLE / "generaltest2022.en-de.hyp.JDExploreAcademy.de")
    assert nltk_rows.score.iloc[0] == pytest.approx(
        sacrebleu.corpus_bleu(first, sample_refs()).score, abs=1e-9)


# --- How BLEU works: undefined terms, one rounding, the page's own settings ---------------------

def charts_data(at: AppTest) -> list[list]:
    """Per chart on the page: the rows of each of its datasets (Arrow IPC in the proto)."""
    import pyarrow as pa

    elements = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    out = []
    for element in elements:
        frames = [pa.ipc.open_stream(d.data.data).read_pandas() for d in element.proto.datasets]
        out.append([row for f in frames for row in f.to_dict("records")])
    return out


def test_three_token_candidate_shows_p4_undefined_and_no_empty_chart():
    at = open_page("bleu_app/views/how_bleu_works.py")
    at.text_area(key="teach_candidate").set_value("the cat sat")
    at.text_area(key="teach_references").set_value("the cat sat on the mat")
    at.run()
    assert not at.exception
    assert [tab.label for tab in at.tabs][3] == "n = 4: p = 0/0, undefined"
    assert any("p_4 = 0/0 is undefined; effective order drops it" in i.value for i in at.info)
    p4 = frame(at, "credited/total").iloc[3]
    assert (p4["credited/total"], p4["p_n used"], p4["log p_n"], p4["w_n·log p_n"]) == (
        "0/0: undefined", "undefined: dropped", "undefined", "dropped")
    # c = 3, r = 6: BP = exp(1 - 6/3); p1..p3 = 1 and p4 dropped: BLEU = 100 BP
    expected = sacrebleu.sentence_bleu("the cat sat", ["the cat sat on the mat"])
    assert metrics(at)["BLEU"] == f"{100 * math.exp(-1):.2f}" == f"{expected.score:.2f}"
    data = charts_data(at)
    assert data and all(rows for rows in data)
    log_terms = next(rows for rows in data if rows and "w_n·log p_n" in rows[0])
    assert [row["label"] for row in log_terms] == ["0.0000", "0.0000", "0.0000", "dropped"]
    # without effective order sacrebleu counts 0/0 as 0: BLEU 0, and the page says why
    at.checkbox(key="teach_effective").uncheck().run()
    assert metrics(at)["BLEU"] == "0.00"
    assert frame(at, "credited/total").iloc[3]["p_n used"] == "0 (0/0 counted as 0)"
    assert any("counted as 0" in w.value for w in at.warning)


def test_formula_table_and_score_agree_at_the_shown_precision():
    at = open_page("bleu_app/views/how_bleu_works.py")  # the clipping example
    orders = frame(at, "credited/total")
    formula = next(latex.value for latex in at.latex if r"\mathrm{BLEU}" in latex.value)
    for _, row in orders.iterrows():
        assert row["w_n·log p_n"] in formula and row["w_n"] in formula
        fraction = row["p_n used"].split(" = ")[0]  # "1/32"
        numerator, denominator = fraction.split("/")
        assert rf"\tfrac{{{numerator}}}{{{denominator}}}" in formula
    # by hand: (log 2/7 + log 1/12 + log 1/20 + log 1/32)/4 = -2.5498, exp = 0.0781
    assert "exp(-2.5498)" in formula and r"0.0781\cdot 100" in formula
    assert formula.strip("$\n").endswith(f"= {metrics(at)['BLEU']}" + r"\end{aligned}")
    assert metrics(at)["BLEU"] == "7.81"
    assert frame(at, "note").set_index(["smoothing", "effective order"]).loc[
        ("exp", "on"), "BLEU"] == "7.81"


def test_page_settings_are_its_own_with_a_button_for_the_sidebars():
    at = open_page("bleu_app/views/how_bleu_works.py")
    assert (at.number_input(key="teach_order").value, at.selectbox(key="teach_smooth").value,
            at.checkbox(key="teach_effective").value) == (4, "exp", True)
    at.number_input(key="max_ngram_order").set_value(3)
    at.selectbox(key="smooth_method").set_value("floor")
    at.run()
    at.button(key="teach_use_sidebar").click().run()
    assert (at.number_input(key="teach_order").value, at.selectbox(key="teach_smooth").value,
            at.checkbox(key="teach_effective").value) == (3, "floor", False)
    expected = sacrebleu.metrics.BLEU(max_ngram_order=3, smooth_method="floor",
                                      effective_order=False)
    assert metrics(at)["BLEU"] == f"{expected.sentence_score(CLASSIC_HYP, CLASSIC_REFS).score:.2f}"
    at.button(key="teach_use_defaults").click().run()
    assert at.checkbox(key="teach_effective").value is True


# --- Brevity penalty: the teacher's own sentence ---------------------------------------------

def test_brevity_page_own_sentence_gives_sacrebleus_bp():
    at = open_page("bleu_app/views/brevity_penalty.py")
    hyp, refs = "Der Hund bellt.", ["Der Hund bellt laut im Garten.", "Ein Hund bellt laut."]
    at.text_area(key="bp_candidate").set_value(hyp)
    at.text_area(key="bp_references").set_value("\n".join(refs))
    at.run()
    expected = sacrebleu.sentence_bleu(hyp, refs)  # c = 4, r = 5 (the closer reference)
    shown = metrics(at)
    assert (shown["Your c (candidate tokens)"], shown["Your r (closest reference)"]) == (
        str(expected.sys_len), str(expected.ref_len)) == ("4", "5")
    assert shown["Your BP"] == f"{expected.bp:.4f}" == f"{math.exp(1 - 5 / 4):.4f}"
    specs = [c.proto.spec for c in (at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart"))]
    assert any("diamond" in spec for spec in specs)  # the sentence marked on the curve


# --- Sentences: live what-if on one segment ----------------------------------------------------

def test_edited_hypothesis_changes_corpus_bleu_to_that_of_the_edited_corpus():
    import bleu

    at = open_page("bleu_app/views/sentences.py")
    a = at.selectbox(key="sentences_a").value
    at.number_input(key="open_segment").set_value(5).run()
    hyps = read_lines(SAMPLE / f"generaltest2022.en-de.hyp.{a}.de")
    refs = sample_refs()
    before = bleu.corpus_bleu(hyps, refs).score
    assert metrics(at)[f"Corpus BLEU of {a}"] == f"{before:.2f}"
    text = "Das ist ein ganz anderer Satz."
    at.text_area(key="sentences_edit_text").set_value(text).run()
    edited = [*hyps[:4], text, *hyps[5:]]
    after = bleu.corpus_bleu(edited, refs).score
    shown = next(m for m in at.metric if m.label == f"Corpus BLEU of {a}")
    assert shown.value == f"{after:.2f}"
    assert shown.delta == f"{after - before:+.4f}"
    sentence = next(m for m in at.metric if m.label == "Sentence BLEU")
    assert sentence.value == f"{sacrebleu.sentence_bleu(text, [r[4] for r in refs]).score:.2f}"
    assert any("(edited)" in m.value for m in at.markdown if "bleu-hl" in m.value)
    at.button(key="sentences_edit_reset").click().run()
    assert at.text_area(key="sentences_edit_text").value == hyps[4]
    assert metrics(at)[f"Corpus BLEU of {a}"] == f"{before:.2f}"


# --- Blind spots --------------------------------------------------------------------------------

def library_metrics(hyp: str, refs: list[str], language: str, tokenize: str) -> dict[str, float]:
    """Each metric from its own library (sacrebleu, rouge-score, NLTK) as the page should show
    it; METEOR with Debian's WordNet when installed (what the page uses too)."""
    from nltk.stem.porter import PorterStemmer
    from nltk.stem.snowball import SnowballStemmer
    from nltk.translate.meteor_score import meteor_score
    from rouge_score.rouge_scorer import RougeScorer
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    from bleu.analysis.meteor import NoSynonyms, wordnet

    tok = {"13a": Tokenizer13a(), "zh": TokenizerZh()}[tokenize]

    class Words:
        def tokenize(self, text: str) -> list[str]:
            return tok(text.lower()).split()

    asian = tokenize == "zh"
    if language == "en":
        rouge = RougeScorer(["rougeL"], use_stemmer=True).score_multi(refs, hyp)["rougeL"]
    else:
        rouge = RougeScorer(["rougeL"], tokenizer=Words()).score_multi(refs, hyp)["rougeL"]
    stemmer = {"en": PorterStemmer(), "de": SnowballStemmer("german")}.get(language)

    class Same:
        def stem(self, word: str) -> str:
            return word

    net = wordnet() if language == "en" and wordnet() is not None else NoSynonyms()
    meteor = meteor_score([tok(r).split() for r in refs], tok(hyp).split(),
                          stemmer=stemmer or Same(), wordnet=net)
    return {"BLEU": sacrebleu.sentence_bleu(hyp, refs, tokenize=tokenize).score,
            "chrF": sacrebleu.sentence_chrf(hyp, refs).score,
            "TER": sacrebleu.metrics.TER(normalized=asian, asian_support=asian,
                                         case_sensitive=True).sentence_score(hyp, refs).score,
            "ROUGE-L": 100 * rouge.fmeasure, "METEOR": 100 * meteor}


def test_every_blind_spot_case_shows_every_metric_as_its_library():
    import json

    cases = json.loads((SAMPLE / "blind_spots" / "cases.json").read_text("utf-8"))["cases"]
    at = open_page("bleu_app/views/blind_spots.py")
    assert at.selectbox(key="blind_case").options == [c["title"] for c in cases]
    for case in cases:
        at.selectbox(key="blind_case").set_value(case["key"]).run()
        assert not at.exception, case["key"]
        assert any(case["lesson"][:40] in i.value.replace("\\", "") for i in at.info)
        shown = frame(at, "METEOR")
        assert list(shown.candidate) == [c["label"] for c in case["candidates"]]
        for row, candidate in zip(shown.to_dict("records"), case["candidates"], strict=True):
            refs = candidate.get("references", case["references"])
            expected = library_metrics(candidate["hypothesis"], refs, case["language"],
                                       candidate.get("tokenize", "13a"))
            assert {k: row[k] for k in expected} == pytest.approx(expected, abs=1e-9), \
                (case["key"], candidate["label"])


def test_blind_spots_own_pair_corpus_disagreements_and_guide():
    at = open_page("bleu_app/views/blind_spots.py")
    hyp, ref = "The building is strong and the foundation is solid.", \
        "The foundation is solid and the building is firm."
    at.text_area(key="blind_hyp").set_value(hyp)
    at.text_area(key="blind_refs").set_value(ref)
    at.run()
    own = frame(at, "METEOR", 1).iloc[0]  # the second score table: the user's pair
    assert own.candidate == "your hypothesis"
    expected = library_metrics(hyp, [ref], "en", "13a")
    assert {k: own[k] for k in expected} == pytest.approx(expected, abs=1e-9)
    # no external scores yet: a button loads the MQM sample, then the disagreements appear
    at.button(key="blind_load_mqm").click().run()
    assert not at.exception
    found = frame(at, "direction")
    assert len(found) == 10 and set(found.direction.str[:4]) == {"the ", "BLEU"}
    assert at.selectbox(key="blind_corpus_language").value == "de"  # en-de: guessed German
    # the guide: the loaded systems' bands and one output under other settings
    bands = frame(at, "interpretation")
    assert bands.BLEU.iloc[0] == "< 10"
    settings = frame(at, "signature").set_index("setting")
    folder = SAMPLE / "wmt21_en-de_mqm"
    system = at.selectbox(key="blind_guide_system").value
    hyps = read_lines(folder / f"newstest2021.en-de.hyp.{system}.de")
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    assert settings.loc["tokenize char", "BLEU"] == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, tokenize="char").score, abs=1e-9)
    assert settings.loc["tokenize char", "signature"].startswith(
        "nrefs:3|case:mixed|eff:no|tok:char")


def test_blind_spots_without_wordnet_says_so_and_runs_exact_and_stem(monkeypatch):
    import streamlit as st

    import bleu.analysis.meteor as meteor

    monkeypatch.setattr(meteor, "wordnet", lambda: None)
    st.cache_resource.clear()
    try:
        at = open_page("bleu_app/views/blind_spots.py")
        assert any("wordnet-base" in w.value and "exact and stem stages only" in w.value
                   for w in at.warning)
        at.selectbox(key="blind_case").set_value("synonym").run()
        shown = frame(at, "METEOR")["METEOR"].iloc[0]
        # 10 tokens, 9 matched in 2 chunks without the synonym: (9/10)(1 - 0.5 (2/9)^3)
        assert shown == pytest.approx(100 * 9 / 10 * (1 - 0.5 * (2 / 9) ** 3))
    finally:
        st.cache_resource.clear()

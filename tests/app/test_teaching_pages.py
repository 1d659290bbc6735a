"""The teaching pages under AppTest: How BLEU works (all steps, step by step, exercises),
Brevity penalty, Blind spots, Background, Sensitivity; presentation mode and the teacher's
link."""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest
import sacrebleu
from conftest import read_lines
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleu.evaluation.systems import match_scores
from bleu.explore.sensitivity import mqm_correlation
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


def use_sacrebleu_defaults(at: AppTest) -> None:
    """Click the preset of sacrebleu's sentence-BLEU defaults (exp smoothing, effective order)."""
    at.button(key="teach_use_sacrebleu").click().run()
    assert (at.selectbox(key="teach_smooth").value, at.checkbox(key="teach_effective").value) \
        == ("exp", True)


def test_how_bleu_works_classic_example_by_hand():
    at = open_page("bleu_app/views/how_bleu_works.py")
    shown = metrics(at)
    # c = 7; refs have 6 and 7 tokens, so r = 7 and BP = 1
    assert (shown["c (candidate length)"], shown["r (reference length)"], shown["BP"]) == (
        "7", "7", "1.0000")
    # the page starts at the article's formula: p_2 = 0/6 and no smoothing, so BLEU = 0
    assert (shown["BLEU"], shown["BLEU on the article's 0–1 scale"]) == ("0.00", "0.0000")
    assert sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(
        CLASSIC_HYP, CLASSIC_REFS).score == 0.0
    # the formula in force, in words, beside the score (and at the top of the page)
    said = [c.value.replace("\\", "") for c in at.caption]
    assert sum("Sentence BLEU here: the article's formula" in c for c in said) == 2
    assert any("log is the natural logarithm ln" in c for c in said)
    assert any("The sidebar's N, smoothing and effective order are not used here" in c
               for c in said)
    use_sacrebleu_defaults(at)
    shown = metrics(at)
    said = [c.value.replace("\\", "") for c in at.caption]
    assert sum("Sentence BLEU here: SacreBLEU's sentence BLEU" in c for c in said) == 2
    # exp smoothing: p = 2/7, 1/(2*6), 1/(4*5), 1/(8*4)
    by_hand = 100 * (2 / 7 / 12 / 20 / 32) ** 0.25
    assert shown["BLEU"] == f"{by_hand:.2f}" == \
        f"{sacrebleu.sentence_bleu(CLASSIC_HYP, CLASSIC_REFS).score:.2f}"
    assert shown["BLEU on the article's 0–1 scale"] == f"{by_hand / 100:.4f}"
    unigrams = frame(at, "n-gram")
    assert unigrams.to_dict("records") == [{"n-gram": "the", "count": 7,
                                             "max. in one reference": 2,
                                             "in reference no.": 1, "credited": 2}]
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
    use_sacrebleu_defaults(at)
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
    article = sacrebleu.metrics.BLEU(smooth_method="none").sentence_score(hyp, refs)
    assert metrics(at)["BLEU"] == f"{article.score:.2f}"


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
    # WMT's MQM file calls NVIDIA-NeMo "Nemo": the one matching policy takes it as that system
    matched = match_scores(read_mqm(folder / "mqm_newstest2021_ende.avg_seg_scores.tsv"),
                           list(names))
    assert "NVIDIA-NeMo" in matched.scores.systems
    corr = mqm_correlation(systems, refs, matched.scores)
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
    use_sacrebleu_defaults(at)
    at.text_area(key="teach_candidate").set_value("the cat sat")
    at.text_area(key="teach_references").set_value("the cat sat on the mat")
    at.run()
    assert not at.exception
    assert [tab.label for tab in at.tabs][3] == "n = 4: p = 0/0, undefined"
    assert any("p_4 = 0/0 is undefined; effective order drops it" in plain(i.value)
               for i in at.info)
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
    use_sacrebleu_defaults(at)
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
            at.checkbox(key="teach_effective").value) == (4, "none", False)
    at.number_input(key="max_ngram_order").set_value(3)
    at.selectbox(key="smooth_method").set_value("floor")
    at.run()
    at.button(key="teach_use_sidebar").click().run()
    assert (at.number_input(key="teach_order").value, at.selectbox(key="teach_smooth").value,
            at.checkbox(key="teach_effective").value) == (3, "floor", False)
    expected = sacrebleu.metrics.BLEU(max_ngram_order=3, smooth_method="floor",
                                      effective_order=False)
    assert metrics(at)["BLEU"] == f"{expected.sentence_score(CLASSIC_HYP, CLASSIC_REFS).score:.2f}"
    assert any("Sentence BLEU here: this page's settings: N = 3, smoothing floor 0.1, "
               "effective order off" in c.value.replace("\\", "") for c in at.caption)
    at.button(key="teach_use_sacrebleu").click().run()
    assert at.checkbox(key="teach_effective").value is True
    at.button(key="teach_use_article").click().run()
    assert (at.selectbox(key="teach_smooth").value, at.checkbox(key="teach_effective").value) \
        == ("none", False)


# --- Brevity penalty: the teacher's own sentence ---------------------------------------------

def test_brevity_page_own_sentence_gives_sacrebleus_bp():
    at = open_page("bleu_app/views/brevity_penalty.py")
    hyp, refs = "Der Hund bellt.", ["Der Hund bellt laut im Garten.", "Ein Hund bellt laut."]
    at.text_area(key="bp_candidate").set_value(hyp)
    at.text_area(key="bp_references").set_value("\n".join(refs))
    at.run()
    expected = sacrebleu.sentence_bleu(hyp, refs)  # c = 4, r = 5 (the closer reference)
    shown = metrics(at)
    assert (shown["c (candidate tokens)"], shown["r (closest reference)"]) == (
        str(expected.sys_len), str(expected.ref_len)) == ("4", "5")
    assert shown["BP of your sentence"] == f"{expected.bp:.4f}" == f"{math.exp(1 - 5 / 4):.4f}"
    # every BLEU on the page is corpus BLEU with the sidebar's options, and the page says so
    said = " ".join(c.value.replace("\\", "") for c in at.caption)
    assert "Corpus BLEU here: the sidebar's options: N = 4, smoothing exp, effective order " \
        "off; tokenizer 13a." in said
    assert "Corpus BLEU with the sidebar's options: N = 4, smoothing exp" in said
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

def metric_tables(at: AppTest) -> list:
    """The score tables turned round (a row per metric, a column per candidate), in page order,
    indexed by metric."""
    return [d.value.set_index("metric") for d in at.dataframe
            if "metric" in d.value.columns and "signature" not in d.value.columns]


def written(column) -> dict[str, str]:
    """A candidate's column of scores as the page writes them (2 decimals; text or number)."""
    return {metric: f"{float(value):.2f}" for metric, value in column.items()
            if metric in ("BLEU", "chrF", "TER", "ROUGE-L", "METEOR")}


def library_metrics(hyp: str, refs: list[str], language: str, tokenize: str) -> dict[str, float]:
    """Each metric from its own library (sacrebleu, rouge-score, NLTK) as the page should show
    it; METEOR with Debian's WordNet when installed (what the page uses too)."""
    from nltk.stem.porter import PorterStemmer
    from nltk.stem.snowball import SnowballStemmer
    from nltk.translate.meteor_score import meteor_score
    from rouge_score.rouge_scorer import RougeScorer
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    from bleu.metrics.meteor import NoSynonyms, wordnet

    tok = {"13a": Tokenizer13a(), "zh": TokenizerZh(), "char": TokenizerChar()}[tokenize]

    class Words:
        def tokenize(self, text: str) -> list[str]:
            return tok(text.lower()).split()

    if language == "en":
        rouge = RougeScorer(["rougeL"], use_stemmer=True).score_multi(refs, hyp)["rougeL"]
    else:
        rouge = RougeScorer(["rougeL"], tokenizer=Words()).score_multi(refs, hyp)["rougeL"]
    stemmer = {"en": PorterStemmer(), "de": SnowballStemmer("german"),
               "nl": SnowballStemmer("dutch")}.get(language)

    class Same:
        def stem(self, word: str) -> str:
            return word

    net = wordnet() if language == "en" and wordnet() is not None else NoSynonyms()
    meteor = meteor_score([tok(r).split() for r in refs], tok(hyp).split(),
                          stemmer=stemmer or Same(), wordnet=net)
    return {"BLEU": sacrebleu.sentence_bleu(hyp, refs, tokenize=tokenize).score,
            "chrF": sacrebleu.sentence_chrf(hyp, refs).score,
            "TER": sacrebleu.metrics.TER().sentence_score(hyp, refs).score,
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
        shown = metric_tables(at)[0]
        assert list(shown.columns) == [c["label"] for c in case["candidates"]]
        for candidate in case["candidates"]:
            refs = candidate.get("references", case["references"])
            expected = library_metrics(candidate["hypothesis"], refs, case["language"],
                                       candidate.get("tokenize", "13a"))
            assert written(shown[candidate["label"]]) == {
                k: f"{v:.2f}" for k, v in expected.items()}, (case["key"], candidate["label"])


def test_blind_spots_own_pair_corpus_disagreements_and_guide():
    at = open_page("bleu_app/views/blind_spots.py")
    hyp, ref = "The building is strong and the foundation is solid.", \
        "The foundation is solid and the building is firm."
    at.text_area(key="blind_hyp").set_value(hyp)
    at.text_area(key="blind_refs").set_value(ref)
    at.run()
    own = metric_tables(at)[1]  # the second score table: the user's pair
    assert list(own.columns) == ["your candidate translation"]
    expected = library_metrics(hyp, [ref], "en", "13a")
    assert written(own["your candidate translation"]) == {
        k: f"{v:.2f}" for k, v in expected.items()}
    said = " ".join(c.value.replace("\\", "") for c in at.caption)
    assert "Sentence BLEU here: SacreBLEU's sentence BLEU" in said  # the formula, in words
    # no external scores yet: a button loads the MQM sample, then the disagreements appear
    at.button(key="blind_load_mqm").click().run()
    assert not at.exception
    found = frame(at, "direction")
    assert len(found) == 10 and set(found.direction.str[:4]) == {"the ", "BLEU"}
    assert at.selectbox(key="blind_corpus_language").value == "de"  # en-de: guessed German
    # the guide: the loaded systems' bands and one output under other settings
    bands = frame(at, "interpretation")
    assert bands.BLEU.iloc[0] == "< 10"
    settings = frame(at, "setting").set_index("setting")
    folder = SAMPLE / "wmt21_en-de_mqm"
    system = at.selectbox(key="blind_guide_system").value
    hyps = read_lines(folder / f"newstest2021.en-de.hyp.{system}.de")
    refs = [read_lines(folder / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    assert settings.loc["tokenizer char", "BLEU"] == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, tokenize="char").score, abs=1e-9)
    assert settings.loc["tokenizer char", "signature"].startswith(
        "nrefs:3|case:mixed|eff:no|tok:char")


def test_blind_spots_without_wordnet_says_so_and_runs_exact_and_stem(monkeypatch):
    import streamlit as st

    import bleu.metrics.meteor as meteor

    monkeypatch.setattr(meteor, "wordnet", lambda: None)
    st.cache_resource.clear()
    try:
        at = open_page("bleu_app/views/blind_spots.py")
        # an info, not a warning: the page is complete without it, and says what it leaves out
        assert any("wordnet-base" in note.value and "exact and stem stages" in note.value
                   and "synonyms are not matched" in note.value for note in at.info)
        assert not any("WordNet" in w.value for w in at.warning)
        at.selectbox(key="blind_case").set_value("synonym").run()
        shown = metric_tables(at)[0].iloc[:, 0]["METEOR"]
        # 10 tokens, 9 matched in 2 chunks without the synonym: (9/10)(1 - 0.5 (2/9)^3)
        assert f"{float(shown):.2f}" == f"{100 * 9 / 10 * (1 - 0.5 * (2 / 9) ** 3):.2f}"
    finally:
        st.cache_resource.clear()


# --- exercises, step by step, presentation, the teacher's link, background ------------------

def plain(text: str) -> str:
    """Rendered Markdown back to its text (escape_markdown's backslashes removed)."""
    return text.replace("\\", "")


def test_exercise_answered_wrong_then_right():
    at = open_page("bleu_app/views/how_bleu_works.py")
    at.radio(key="teach_view").set_value("exercises").run()
    assert at.selectbox(key="teach_ex_choice").value == "clipping"
    # "Tippen Sie oben auf dem Bildschirm auf das Menüsymbol ." against reference A: "auf"
    # twice, once in the reference; "dem" unmatched: 8 of 10 unigrams credited, not 9
    at.text_input(key="teach_ex_clipping_matches_1").set_value("9")
    at.text_input(key="teach_ex_clipping_total_1").set_value("10")
    at.button(key="teach_ex_check_clipping").click().run()
    assert not at.exception
    assert plain(at.error[0].value).startswith("1 of 12 right; the first step to fix: m_1")
    feedback = next(plain(m.value) for m in at.markdown if ":red-badge[wrong]" in m.value)
    assert "without clipping" in feedback and "“auf” is 2 times" in feedback
    assert not any(mark in m.value for m in at.markdown for mark in ("✅", "❌"))  # no emoji
    assert any(plain(e.label) == "Worked solution" for e in at.expander)
    at.text_input(key="teach_ex_clipping_matches_1").set_value("8")
    at.text_input(key="teach_ex_clipping_p_1").set_value("0,8")  # a decimal comma is read
    at.button(key="teach_ex_check_clipping").click().run()
    assert "3 of 12 right; the empty boxes are not checked." in [plain(i.value) for i in at.info]
    assert not at.error
    assert next(m.value for m in at.markdown if "green-badge" in m.value).count(
        ":green-badge[right]") == 3


def test_brevity_exercises_ask_c_r_and_bp():
    at = open_page("bleu_app/views/brevity_penalty.py")
    at.radio(key="bp_view").set_value("exercises").run()
    assert at.selectbox(key="bp_ex_choice").options == [
        "4. Brevity", "5. Several references", "6. One sentence against a corpus",
        "Your own pair"]
    # "Entschuldigung für die Unannehmlichkeiten ." (c = 5) against a 7-token reference:
    # BP = exp(1 − 7/5)
    for key, value in (("c", "5"), ("r", "7"), ("bp", f"{math.exp(1 - 7 / 5):.3f}")):
        at.text_input(key=f"bp_ex_brevity_{key}").set_value(value)
    at.button(key="bp_ex_check_brevity").click().run()
    assert plain(at.success[0].value) == "3 of 3 right."


def test_step_by_step_next_previous_and_prediction():
    at = open_page("bleu_app/views/how_bleu_works.py")
    at.radio(key="teach_view").set_value("steps").run()
    assert "c = 7" in [latex.value.strip("$\n") for latex in at.latex]
    at.button(key="teach_step_next").click().run()
    assert at.session_state["teach_step"] == 1
    assert r"p_1 = \frac{2}{7} = 0.2857" in [latex.value.strip("$\n") for latex in at.latex]
    at.toggle(key="teach_predict").set_value(True).run()
    assert not [x for x in at.latex if r"\frac{2}{7}" in x.value]  # hidden until predicted
    at.text_input(key="teach_prediction_p_1").set_value("2/7")
    at.button(key="teach_reveal").click().run()
    assert plain(at.success[0].value).startswith(
        "Your prediction: 2/7; the right answer is 0.2857. Right.")
    # a wrong prediction is explained: 7/7 is the count without clipping
    at.button(key="teach_step_next").click().run()  # p_2 = 0/6 under the article's formula
    at.text_input(key="teach_prediction_p_2").set_value("1/6")
    at.button(key="teach_reveal").click().run()
    wrong = plain(at.error[0].value)
    assert wrong.startswith("Your prediction: 1/6; the right answer is 0.0000.")
    assert "does not smooth: p_2 = 0/6 = 0" in wrong
    at.button(key="teach_step_previous").click().run()
    at.button(key="teach_step_previous").click().run()
    assert at.session_state["teach_step"] == 0
    assert not at.exception


def test_empty_candidate_says_undefined_once():
    at = open_page("bleu_app/views/how_bleu_works.py")
    at.text_area(key="teach_candidate").set_value("").run()
    said = [plain(x.value) for x in [*at.info, *at.warning]]
    assert len([text for text in said if "empty" in text]) == 1, said
    assert metrics(at)["BLEU"] == "0.00"


def test_the_link_opens_the_example():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"ex_cand": "the cat sat", "ex_refs": "the cat sat on the mat",
                            "ex_smooth": "exp", "ex_eff": "1", "ex_view": "explain",
                            "present": "1"})
    at.run()
    at.switch_page("bleu_app/views/how_bleu_works.py").run()
    assert not at.exception
    assert at.text_area(key="teach_candidate").value == "the cat sat"
    assert (at.selectbox(key="teach_smooth").value, at.checkbox(key="teach_effective").value) \
        == ("exp", True)
    expected = sacrebleu.sentence_bleu("the cat sat", ["the cat sat on the mat"])
    assert metrics(at)["BLEU"] == f"{expected.score:.2f}"
    assert at.session_state["teach_presenting"] is True
    at.text_area(key="teach_candidate").set_value("the cat").run()
    assert at.query_params["ex_cand"] in ("the cat", ["the cat"])
    assert at.query_params["ex_smooth"] in ("exp", ["exp"])


def test_presentation_mode_hides_sidebar_and_options():
    at = open_page("bleu_app/views/how_bleu_works.py")
    styles = [h.value for h in at.html]
    assert any("max-width: 640px" in s for s in styles)  # the phone layout, always
    assert not any('[data-testid="stSidebar"]' in s for s in styles)
    at.toggle(key="present_toggle_how_bleu_works").set_value(True).run()
    styles = [h.value for h in at.html]
    assert any('[data-testid="stSidebar"]' in s and "present_hide" in s for s in styles)
    assert at.session_state["teach_presenting"] is True
    # what a lecturer does not show: the downloads, the link box, the COMET note
    assert not at.download_button
    assert not any("Link to this example" in e.label for e in at.expander)
    assert not any("A learned metric (COMET" in c.value for c in at.caption)
    at.switch_page("bleu_app/views/blind_spots.py").run()  # it holds across the pages
    assert at.toggle(key="present_toggle_blind_spots").value is True
    assert not any("upload their segment scores" in i.value for i in at.info)
    assert not at.exception
    at.switch_page("bleu_app/views/sensitivity.py").run()  # Sensitivity is presentable too
    assert at.toggle(key="present_toggle_sensitivity").value is True
    assert not at.exception


@pytest.mark.parametrize("script", ["blind_spots", "brevity_penalty"])
def test_presented_tables_are_html_in_the_presentation_type_written_in_dutch(script):
    """A data grid draws 14-pixel text on a canvas: presented, each table of scores is an HTML
    table (the presentation style sets its type), its numbers written by the rule in Dutch and
    its headers named as the grid names them."""
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params.update({"lang": "nl", "present": "1"})
    at.run()
    at.switch_page(f"bleu_app/views/{script}.py").run()
    assert not at.exception
    assert not at.dataframe
    tables = [t.value for t in at.table]
    assert tables
    cells = [str(cell) for table in tables for cell in table.to_numpy().ravel()]
    assert any(re.fullmatch(r"\d{1,3},\d{2}", cell) for cell in cells), cells[:10]
    # a point only between thousands (39.525 tokens), never before decimals
    assert not any(re.fullmatch(r"\d{1,3}\.(?:\d{1,2}|\d{4,})", cell) for cell in cells), cells

    if script == "blind_spots":
        first = tables[0]
        assert first.index.name == "metriek" and "BLEU" in first.index
        assert "uitvoer van SMU" in first.columns
        # st.table reads Markdown: every text is escaped ("> 60" is no quote)
        assert any(label == "\\> 60" for table in tables for label in table.index)
    else:  # the positions table: c, r, c/r, BP, BLEU beside each system
        assert any({"c", "r", "BP", "BLEU"} <= set(table.columns) for table in tables)


def test_handout_and_glossary_are_offered():
    at = open_page("bleu_app/views/how_bleu_works.py")
    labels = [b.label for b in at.download_button]
    assert labels[:2] == ["Handout of this example (HTML, prints cleanly)",
                          "Blank worksheet for students (HTML)"]
    assert any("brevity penalty" in m.value and "clipping" in m.value for m in at.markdown)


def test_background_page():
    at = open_page("bleu_app/views/background.py")
    text = " ".join(m.value for m in at.markdown)
    for fact in ("Papineni", "IBM", "2002", "WMT", "chrF", "COMET", "MQM"):
        assert fact in text
    assert [h.value for h in at.header][:4] == [
        "Who proposed BLEU, and when", "Why BLEU caught on so quickly",
        "What WMT uses it for today", "What took its place"]
    for named in ("**METEOR** (Banerjee and Lavie 2005)", "**ROUGE** (Lin 2004)",
                  "introduced SacreBLEU"):  # the article names them; one spelling
        assert named in text


def test_blind_spots_dutch_pair_signatures_and_default_ter():
    at = open_page("bleu_app/views/blind_spots.py")
    assert "Dutch" in at.selectbox(key="blind_language").options
    hyp, ref = "Tijdens de vergadering werd over de nieuwe regel gesproken.", \
        "Tijdens de vergaderingen werd over de nieuwe regels gesproken."
    at.text_area(key="blind_hyp").set_value(hyp)
    at.text_area(key="blind_refs").set_value(ref)
    at.selectbox(key="blind_language").set_value("nl").run()
    own = metric_tables(at)[1]["your candidate translation"]
    assert written(own) == {k: f"{v:.2f}" for k, v in library_metrics(hyp, [ref], "nl",
                                                                       "13a").items()}
    signatures = [d.value for d in at.dataframe if "signature" in d.value.columns
                  and "metric" in d.value.columns]
    assert any("stem:Snowball (dutch)" in " ".join(t.signature) for t in signatures)
    # issue 24: TER as sacrebleu's default (case-insensitive) on the whole page
    at.text_area(key="blind_hyp").set_value("Yesterday, after the meeting, we went home.")
    at.text_area(key="blind_refs").set_value("We went home yesterday after the meeting.")
    at.selectbox(key="blind_language").set_value("en").run()
    assert written(metric_tables(at)[1]["your candidate translation"])["TER"] == "71.43"
    at.selectbox(key="blind_case").set_value("nl-compound").run()
    assert not at.exception
    assert list(metric_tables(at)[0].columns) == ["correct, compound written out",
                                                  "'ward' lost"]

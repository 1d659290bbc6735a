"""The app through Streamlit's AppTest: pages run, uploads score as bleu/sacrebleu do, bad input
says what is wrong and never discards what was loaded."""

from __future__ import annotations

import codecs
import csv
import json
import math
import re
import sys
from pathlib import Path

import pyarrow as pa
import pytest
import sacrebleu
from conftest import DATA_DIR, SHARED_DATA, read_lines
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest
from streamlit.testing.v1 import AppTest

import bleu

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
WMT22 = DATA_DIR / "wmt22_generaltest2022_en-de"
REF17 = WMT17 / "newstest2017.en-de.ref.de"
SYS17 = [WMT17 / "newstest2017.C-3MA.4959.en-de.de", WMT17 / "newstest2017.FBK.4870.en-de.de"]
SAMPLE_SYSTEMS = ["JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G",
                  "Online-W", "Online-Y", "OpenNMT", "PROMT"]

if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))




@pytest.fixture
def at() -> AppTest:
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    assert not app.exception
    return app


def upload(at: AppTest, systems=None, references=None, source=None) -> AppTest:
    """Set the uploaders (lists of (name, bytes)) and rerun."""
    for key, files in (("systems_upload", systems), ("references_upload", references)):
        if files is not None:
            at.file_uploader(key=key).set_value([(n, d, "text/plain") for n, d in files])
    if source is not None:
        at.file_uploader(key="source_upload").set_value((source[0], source[1], "text/plain"))
    at.run()
    assert not at.exception
    return at


def table(at: AppTest):
    """The dashboard's results table (the first dataframe on the page)."""
    return at.dataframe[0].value


def bleu_by_system(at: AppTest) -> dict[str, float]:
    """System -> BLEU from the dashboard's table (listed best first), in the loaded order."""
    frame = table(at)
    shown = dict(zip(frame["system"], frame["BLEU"], strict=True))
    return {name: shown[name] for name in at.session_state["dataset"].systems}


def plain(text: str) -> str:
    """A message without the Markdown escapes the app adds around user text."""
    return re.sub(r"\\(.)", r"\1", text)


def messages(at: AppTest, kind: str) -> list[str]:
    return [plain(element.value) for element in getattr(at, kind)]


def file(path: Path) -> tuple[str, bytes]:
    return path.name, path.read_bytes()


def charts(at: AppTest) -> dict[str, list]:
    """The charts on the page by title: the tables each one plots, decoded from Arrow."""
    found = {}
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        title = spec["title"] if isinstance(spec["title"], str) else spec["title"]["text"]
        found[title] = [pa.ipc.open_stream(dataset.data.data).read_pandas()
                        for dataset in element.proto.datasets]
    return found


def assert_sample_shown(at: AppTest) -> None:
    """The dashboard still shows the bundled sample, with its published BLEU-all values."""
    assert sorted(table(at)["system"]) == SAMPLE_SYSTEMS
    assert at.session_state["dataset"].label.startswith("Sample")


# ----------------------------------------------------------------------------------- pages

def test_dashboard_opens_on_the_sample_with_published_scores(at):
    assert_sample_shown(at)
    published = {}
    with (WMT22 / "automatic-scores.en-de.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["metric"] == "bleu-all":
                published[row["system"]] = float(row["score"])
    shown = bleu_by_system(at)
    assert set(published) == set(shown)
    for name, value in shown.items():
        assert round(value, 2) == round(published[name], 2), name
    frame = table(at)
    assert list(frame["BLEU"]) == sorted(frame["BLEU"], reverse=True)  # best first
    baseline = frame[frame["system"] == at.session_state["baseline"]].iloc[0]
    assert (baseline["p-value"], baseline["Δ vs baseline"], baseline["vs baseline"]) == (
        "–", "–", "baseline")  # the baseline has neither: a dash
    assert (frame["p-value"] == "–").sum() == 1
    for _, row in frame[frame["system"] != baseline["system"]].iterrows():
        assert row["Δ vs baseline"] == f"{row['BLEU'] - baseline['BLEU']:+.2f}"
    assert (frame["95% CI ±"] > 0).all()
    assert [c for c in frame.columns if re.fullmatch(r"p\d", c)] == ["p1", "p2", "p3", "p4"]
    # the signature beside tested scores carries the bootstrap's fields, as sacrebleu prints it
    assert "nrefs:2|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|" in at.get(
        "code")[0].proto.code_text


def test_dashboard_charts_plot_the_table(at):
    found = charts(at)
    assert len(found) == 5  # the all-pairs matrix and four charts
    frame = table(at).set_index("system")
    [bleu_rows] = found["BLEU per system (lines: 95% bootstrap interval)"]
    assert list(bleu_rows["system"]) == SAMPLE_SYSTEMS
    assert list(bleu_rows["BLEU"]) == pytest.approx(list(frame.loc[SAMPLE_SYSTEMS, "BLEU"]))
    assert list(bleu_rows["high"] - bleu_rows["low"]) == pytest.approx(
        list(2 * frame.loc[SAMPLE_SYSTEMS, "95% CI ±"]))
    [pair_rows] = found["BLEU: row − column"]
    assert len(pair_rows) == len(SAMPLE_SYSTEMS) ** 2
    [precision_rows] = found["n-gram precisions (%)"]
    assert len(precision_rows) == 4 * len(SAMPLE_SYSTEMS)
    [log_rows] = found["Where each system loses BLEU (log scale parts)"]
    sums = log_rows.groupby("system")["log"].sum()
    for name, value in frame["BLEU"].items():
        assert sums[name] == pytest.approx(math.log(value / 100))
    [length_rows] = [rows for rows in found["Length ratio and brevity penalty"]
                     if "system" in rows.columns]
    assert list(length_rows["ratio"]) == pytest.approx(list(frame.loc[SAMPLE_SYSTEMS, "ratio"]))
    assert len(at.get("download_button")) == 4 + 2 * 4  # CSV, LaTeX, JSON, HTML; PNG+SVG each


def test_dashboard_all_pairs_by_either_test(at):
    ranking = next(d.value for d in at.dataframe if list(d.value.columns) == [
        "rank", "system", "BLEU"])
    frame = table(at)
    assert dict(zip(ranking["system"], ranking["rank"], strict=True)) == dict(
        zip(frame["system"], frame["rank"], strict=True))
    at.radio(key="pairs_method").set_value("ar").run()
    assert not at.exception
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    [subtitle] = [spec["title"]["subtitle"] for spec in specs
                  if isinstance(spec.get("title"), dict) and spec["title"]["text"].endswith(
                      "row − column")]
    assert subtitle.startswith("approximate randomization, 10,000 samples")


def test_every_page_runs(at):
    at.switch_page("bleu_app/views/data.py").run()
    assert not at.exception
    files = at.dataframe[0].value
    assert len(files) == 1 + 2 + len(SAMPLE_SYSTEMS)
    assert set(files["Segments"]) == {2037}
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert not at.exception
    assert_sample_shown(at)


def test_options_change_the_scores_and_signature(at):
    at.selectbox(key="tokenize").set_value("intl")
    at.checkbox(key="lowercase").check()
    at.run()
    assert not at.exception
    sample = REPO / "sample_data"  # the bundled WMT22 en-de, whole
    refs = [read_lines(sample / f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]
    hyps = read_lines(sample / "generaltest2022.en-de.hyp.PROMT.de")
    expected = sacrebleu.corpus_bleu(hyps, refs, tokenize="intl", lowercase=True).score
    assert bleu_by_system(at)["PROMT"] == pytest.approx(expected, abs=1e-9)
    assert "case:lc" in at.get("code")[0].proto.code_text
    assert "tok:intl" in at.get("code")[0].proto.code_text


# --------------------------------------------------------------------------------- uploads

def test_upload_shows_the_same_bleu_as_corpus_bleu(at):
    upload(at, systems=[file(p) for p in SYS17], references=[file(REF17)])
    ref = read_lines(REF17)
    shown = bleu_by_system(at)
    names = ["newstest2017.C-3MA.4959.en-de", "newstest2017.FBK.4870.en-de"]
    assert list(shown) == names
    assert list(table(at)["system"]) == names[::-1]  # best first: FBK 26.33, C-3MA 22.67
    for path, value in zip(SYS17, shown.values(), strict=True):
        hyps = read_lines(path)
        assert value == pytest.approx(bleu.corpus_bleu(hyps, [ref]).score, abs=1e-12)
        assert value == pytest.approx(sacrebleu.corpus_bleu(hyps, [ref]).score, abs=1e-9)
    assert messages(at, "success")[0].startswith("Loaded 2 system(s) and 1 reference(s)")
    # p-value, bootstrap mean and CI: sacrebleu's paired bootstrap (same seed, 1000 resamples)
    named = [(name, read_lines(path)) for name, path in zip(names, SYS17, strict=True)]
    _, results = PairedTest(named, {"BLEU": BLEU(references=[ref])}, references=None,
                            test_type="bs", n_samples=1000)()
    frame = table(at).set_index("system")
    for name, expected in zip(names, results["BLEU"], strict=True):
        assert frame.loc[name, "bootstrap mean"] == pytest.approx(expected.mean, abs=1e-9)
        assert frame.loc[name, "95% CI ±"] == pytest.approx(expected.ci, abs=1e-9)
    # the p-value as shown (4 decimals), and which way it goes: FBK is better than C-3MA
    p_value = results["BLEU"][1].p_value
    assert frame.loc[names[1], "p-value"] == f"{p_value:.4f}"
    assert frame.loc[names[1], "vs baseline"] == ("better" if p_value < 0.05
                                                  else "not significant")


@pytest.mark.full_data
def test_uploads_of_whole_test_sets_show_published_scores(at):
    """The app on whole WMT test sets reproduces the published scores, tokenizer included."""
    wmt17 = SHARED_DATA / "wmt17_newstest2017_en-de"
    upload(at, systems=[file(wmt17 / p.name) for p in SYS17],
           references=[file(wmt17 / REF17.name)])
    # published (mteval-v13a, sacrebleu test.sh): C-3MA 22.67, FBK 26.33
    assert [round(v, 2) for v in bleu_by_system(at).values()] == [22.67, 26.33]
    folder = SHARED_DATA / "wmt22_generaltest2022_en-zh"
    upload(at, systems=[file(folder / "generaltest2022.en-zh.hyp.Online-B.zh")],
           references=[file(folder / "generaltest2022.en-zh.ref.A.zh")])
    assert round(bleu_by_system(at)["Online-B"], 2) == 49.10  # published BLEU-A, tokenizer zh
    folder = SHARED_DATA / "wmt22_generaltest2022_en-ja"
    upload(at, systems=[file(folder / "generaltest2022.en-ja.hyp.NT5.ja")],
           references=[file(folder / "generaltest2022.en-ja.ref.A.ja")])
    assert round(bleu_by_system(at)["NT5"], 2) == 42.54  # published BLEU-A, char tokenizer


def test_upload_survives_a_page_switch(at):
    upload(at, systems=[file(p) for p in SYS17], references=[file(REF17)])
    before = bleu_by_system(at)
    at.switch_page("bleu_app/views/data.py").run()
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert bleu_by_system(at) == before


def test_wmt_xml_upload_brings_source_references_and_systems(at, tmp_path):
    ref, hyps = ["Das ist gut.", "Noch ein Satz."], {"S1": ["Das ist gut.", "Ein Satz."]}
    body = "".join(
        f'<seg id="{i + 1}">{src}</seg>' for i, src in enumerate(["That is good.", "Another."]))
    refs = "".join(f'<seg id="{i + 1}">{r}</seg>' for i, r in enumerate(ref))
    hyp = "".join(f'<seg id="{i + 1}">{h}</seg>' for i, h in enumerate(hyps["S1"]))
    xml = (f'<?xml version="1.0" encoding="utf-8"?><dataset id="t"><collection id="c">'
           f'<doc id="d1" origlang="en"><src lang="en"><p>{body}</p></src>'
           f'<ref lang="de" translator="A"><p>{refs}</p></ref>'
           f'<hyp system="S1" language="de"><p>{hyp}</p></hyp></doc></collection></dataset>')
    upload(at, systems=[("test.en-de.xml", xml.encode())])
    assert bleu_by_system(at) == pytest.approx(
        {"S1": sacrebleu.corpus_bleu(hyps["S1"], [ref]).score})
    data = at.session_state["dataset"]
    assert data.source is not None and data.source.segments == ("That is good.", "Another.")
    assert data.systems["S1"].doc_ids == ("d1", "d1")


def test_tsv_upload_with_chosen_columns(at):
    ref = read_lines(REF17)[:300]
    sys_a, sys_b = (read_lines(p)[:300] for p in SYS17)
    rows = ["ref\thyp_a\thyp_b", *map("\t".join, zip(ref, sys_a, sys_b, strict=True))]
    data = ("\n".join(rows) + "\n").encode()
    upload(at, systems=[("both.tsv", data)], references=[("both_ref.tsv", data)])
    shown = bleu_by_system(at)
    assert shown == pytest.approx({"hyp_a": sacrebleu.corpus_bleu(sys_a, [ref]).score,
                                   "hyp_b": sacrebleu.corpus_bleu(sys_b, [ref]).score})
    # choose one column only: the system is then named after the file
    [columns] = [box for box in at.multiselect if box.key.startswith("systems_columns_")]
    assert columns.value == ["hyp_a", "hyp_b"]  # the columns named like hypotheses
    columns.set_value(["hyp_b"]).run()
    assert bleu_by_system(at) == pytest.approx({"both": sacrebleu.corpus_bleu(sys_b, [ref]).score})


def test_jsonl_upload_with_fields_and_document_ids(at):
    ref = read_lines(REF17)[:200]
    hyp = read_lines(SYS17[1])[:200]
    records = [json.dumps({"doc": f"d{i // 50}", "hyp": h, "ref": r}, ensure_ascii=False)
               for i, (h, r) in enumerate(zip(hyp, ref, strict=True))]
    data = ("\n".join(records) + "\n").encode()
    upload(at, systems=[("fbk.jsonl", data)], references=[("ref.jsonl", data)])
    assert bleu_by_system(at) == pytest.approx({"fbk": sacrebleu.corpus_bleu(hyp, [ref]).score})
    [doc_box] = [box for box in at.selectbox if box.key.startswith("systems_doc_")]
    doc_box.set_value("doc").run()
    assert at.session_state["dataset"].systems["fbk"].doc_ids[:51:50] == ("d0", "d1")


def test_default_tokenizer_follows_the_target_language(at):
    folder = DATA_DIR / "wmt22_generaltest2022_en-zh"
    hyp = folder / "generaltest2022.en-zh.hyp.Online-B.zh"
    ref = folder / "generaltest2022.en-zh.ref.A.zh"
    upload(at, systems=[file(hyp)], references=[file(ref)])
    assert at.session_state["tokenize"] == "zh"
    expected = sacrebleu.corpus_bleu(read_lines(hyp), [read_lines(ref)], tokenize="zh").score
    assert bleu_by_system(at)["Online-B"] == pytest.approx(expected, abs=1e-9)
    folder = DATA_DIR / "wmt22_generaltest2022_en-ja"
    hyp, ref = (folder / "generaltest2022.en-ja.hyp.NT5.ja",
                folder / "generaltest2022.en-ja.ref.A.ja")
    upload(at, systems=[file(hyp)], references=[file(ref)])
    assert at.session_state["tokenize"] == "char"
    expected = sacrebleu.corpus_bleu(read_lines(hyp), [read_lines(ref)], tokenize="char").score
    assert bleu_by_system(at)["NT5"] == pytest.approx(expected, abs=1e-9)


# ------------------------------------------------------------------------------- bad input

def load_two_wmt17(at: AppTest) -> dict[str, float]:
    """Load real data first, so each bad-input test can check that it is kept."""
    upload(at, systems=[file(p) for p in SYS17], references=[file(REF17)])
    return bleu_by_system(at)


def add_bad_system(at: AppTest, name: str, data: bytes) -> AppTest:
    return upload(at, systems=[*(file(p) for p in SYS17), (name, data)])


def test_line_count_mismatch_names_files_and_counts(at):
    before = load_two_wmt17(at)
    short = "\n".join(read_lines(SYS17[0])[:60]).encode() + b"\n"
    add_bad_system(at, "short.de", short)
    [error] = messages(at, "error")
    assert "short.de: 60 (differs)" in error
    assert "newstest2017.en-de.ref.de (100)" in error
    assert bleu_by_system(at) == before


def test_empty_file(at):
    before = load_two_wmt17(at)
    add_bad_system(at, "empty.de", b"")
    [error] = messages(at, "error")
    assert error.startswith("empty.de is empty (0 bytes)")
    assert bleu_by_system(at) == before


def test_non_utf8_names_the_line_and_offers_latin1_on_request(at):
    before = load_two_wmt17(at)
    lines = [line.encode("ascii", errors="replace").decode() for line in read_lines(REF17)]
    lines[2] = "Stra\u00dfe \u00fcber M\u00fcnchen"
    latin1 = "\n".join(lines).encode("latin-1") + b"\n"
    add_bad_system(at, "latin1.de", latin1)
    [error] = messages(at, "error")
    assert error.startswith("latin1.de is not valid UTF-8: line 3")
    assert "Latin-1" in error
    assert bleu_by_system(at) == before
    at.checkbox(key="latin1").check()
    at.run()
    assert not messages(at, "error")
    assert at.session_state["dataset"].systems["latin1"].segments[2] == lines[2]
    assert any("Latin-1" in warning for warning in messages(at, "warning"))


def test_binary_file(at):
    before = load_two_wmt17(at)
    add_bad_system(at, "picture.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    [error] = messages(at, "error")
    assert "picture.png looks like a binary file (PNG image)" in error
    assert bleu_by_system(at) == before


def test_bom_is_removed_and_reported(at):
    load_two_wmt17(at)
    add_bad_system(at, "bom.de", codecs.BOM_UTF8 + SYS17[0].read_bytes())
    assert any("bom.de" in w and "byte-order mark" in w for w in messages(at, "warning"))
    expected = bleu.corpus_bleu(read_lines(SYS17[0]), [read_lines(REF17)]).score
    assert bleu_by_system(at)["bom"] == pytest.approx(expected, abs=1e-12)
    assert bleu_by_system(at)["newstest2017.C-3MA.4959.en-de"] == pytest.approx(expected)


def test_crlf_is_normalized_and_reported(at):
    load_two_wmt17(at)
    data = SYS17[1].read_bytes().replace(b"\n", b"\r\n")
    add_bad_system(at, "crlf.de", data)
    assert any("crlf.de" in w and "CRLF" in w for w in messages(at, "warning"))
    expected = bleu.corpus_bleu(read_lines(SYS17[1]), [read_lines(REF17)]).score
    assert bleu_by_system(at)["crlf"] == pytest.approx(expected, abs=1e-12)


def test_duplicate_system_names_are_reported_and_renaming_to_a_taken_name_is_refused(at):
    a, b = (p.read_bytes() for p in SYS17)
    upload(at, systems=[("out.txt", a), ("out.txt", b)], references=[file(REF17)])
    assert list(bleu_by_system(at)) == ["out", "out (2)"]
    assert any("2 systems are named 'out'" in w for w in messages(at, "warning"))
    before = bleu_by_system(at)
    name_box = next(box for box in at.text_input if box.key.startswith("system_name_1_"))
    name_box.set_value("out").run()
    [error] = messages(at, "error")
    assert "There is already a system called 'out'" in error
    assert bleu_by_system(at) == before
    name_box = next(box for box in at.text_input if box.key.startswith("system_name_1_"))
    assert name_box.value == "out (2)"
    at.selectbox(key="baseline").set_value("out (2)").run()
    name_box = next(box for box in at.text_input if box.key.startswith("system_name_1_"))
    name_box.set_value("FBK").run()
    assert list(bleu_by_system(at)) == ["out", "FBK"]
    assert at.selectbox(key="baseline").value == "FBK"  # the baseline follows its new name
    assert list(bleu_by_system(at).values()) == pytest.approx(list(before.values()))


def test_reference_uploaded_as_a_system_is_flagged(at):
    upload(at, systems=[file(SYS17[0]), ("copy_of_ref.de", REF17.read_bytes())],
           references=[file(REF17)])
    warnings = messages(at, "warning")
    assert any("'copy_of_ref' (copy_of_ref.de) is identical to reference" in w
               and "100%" in w for w in warnings)
    assert bleu_by_system(at)["copy_of_ref"] == pytest.approx(100.0)


def test_tokenized_input_is_flagged(at):
    folder = DATA_DIR / "compare-mt_ted_sk-en"
    upload(at, systems=[file(folder / "ted.sys1.eng")], references=[file(folder / "ted.ref.eng")])
    warnings = messages(at, "warning")
    assert any(w.startswith("ted.sys1.eng looks tokenized") for w in warnings)
    assert any(w.startswith("ted.ref.eng looks tokenized") for w in warnings)


def test_systems_without_references_wait_and_keep_the_data(at):
    upload(at, systems=[file(SYS17[0])])
    [info] = messages(at, "info")
    assert "add the reference file(s)" in info
    assert_sample_shown(at)


def test_upload_limit_is_stated(at):
    uploader = at.file_uploader(key="systems_upload")
    assert "Up to 200 MB per file" in uploader.help
    assert bleu.io.MAX_UPLOAD_MB == 200  # the same as server.maxUploadSize


# ------------------------------------------------------------------------------------ paste

def test_paste_a_system_and_reference_then_add_one(at):
    at.text_input(key="paste_name").input("mine")
    at.text_area(key="paste_system").input("the cat sat on the mat\nhello world")
    at.text_area(key="paste_reference").input("the cat sat on a mat\nhello world")
    at.button(key="paste_add").click().run()
    assert not at.exception
    expected = sacrebleu.corpus_bleu(["the cat sat on the mat", "hello world"],
                                     [["the cat sat on a mat", "hello world"]]).score
    assert bleu_by_system(at) == pytest.approx({"mine": expected})
    # without a reference: the system is added to the loaded data, if its lines match
    at.text_input(key="paste_name").input("other")
    at.text_area(key="paste_system").input("only one line")
    at.text_area(key="paste_reference").input("")
    at.button(key="paste_add").click().run()
    [error] = messages(at, "error")
    assert "pasted system other: 1 (differs)" in error
    assert bleu_by_system(at) == pytest.approx({"mine": expected})
    at.text_area(key="paste_system").input("a cat\nhello world")
    at.button(key="paste_add").click().run()
    assert list(bleu_by_system(at)) == ["mine", "other"]


def test_load_the_sample_again(at):
    load_two_wmt17(at)
    at.button(key="load_sample").click().run()
    assert_sample_shown(at)


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_scoring_big_inputs_shows_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Systems not scored yet are scored under a progress bar, one step per system (the same
    rule for every metric); scored again, they show at once."""
    from streamlit.delta_generator import DeltaGenerator

    from bleu_app.runtime import _cache
    from bleu_app.scoring import _metrics

    steps: list[float] = []
    real_update = DeltaGenerator.progress

    def recording_update(self, value, *args, **kwargs):
        steps.append(value)
        return real_update(self, value, *args, **kwargs)

    _cache.stats_store.clear()
    monkeypatch.setattr(DeltaGenerator, "progress", recording_update)
    monkeypatch.setattr(_metrics.st, "progress",
                        lambda *a, **k: recording_update(_metrics.st.container(), *a, **k))
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    assert not app.exception
    assert steps[0] == 0.0 and steps[-1] == 1.0 and len(steps) == 1 + len(SAMPLE_SYSTEMS)
    assert not app.get("progress")  # cleared once the systems are scored
    steps.clear()
    AppTest.from_file(str(APP), default_timeout=60).run()
    assert steps == []  # kept for every session: nothing to wait for

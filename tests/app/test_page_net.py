"""The test net over every page (issue 36), in AppTest: each scenario is one visitor's session
that loads its data (the bundled sample, or files uploaded in the sidebar), picks metrics under
"Also compute" (each alone, and all together), uploads a segment-score file where it says so,
in English or in Dutch, and then opens every page: no exception, no error box, and every chart
drawn with data. Before: ticking TER put an UnhashableParamError where the dashboard's charts
should be, and no test opened a page with TER on.

Besides the walk: a page that fails shows one sentence with what to do (never a traceback),
Streamlit's own error details are off in the served app, a 1 MiB segment is shown bounded on
Sentences, and a JSON Lines file with a lone surrogate loads on Data and Sentences.
tests/browser/test_page_net_browser.py walks the same pages in Chromium.
"""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pytest
import tomllib
from conftest import DATA_DIR, RAISE_VARIABLE, read_lines
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))

from bleu_app.app import PAGE_FAILED, PAGES  # noqa: E402 -- after the path

WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"
UPLOADED = ("Facebook-AI", "Online-W", "UEdin")
SAMPLE_SYSTEMS = ("JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G",
                  "Online-W", "Online-Y", "OpenNMT", "PROMT")
#: pages that draw at least one chart with every scenario's data (Data and Background draw
#: none; Metrics & human scores draws its correlations once scores are loaded)
WITH_CHARTS = {"dashboard", "sentences", "compare", "how_bleu_works", "brevity_penalty",
               "sensitivity", "blind_spots"}


@dataclass(frozen=True)
class Scenario:
    """One visitor: the data, the interface language, the metrics under "Also compute" and
    whether a segment-score file is uploaded."""

    data: str  # "sample" or "upload"
    language: str
    metrics: tuple[str, ...]
    scores: bool

    @property
    def systems(self) -> tuple[str, ...]:
        return SAMPLE_SYSTEMS if self.data == "sample" else UPLOADED


SCENARIOS = [  # every metric alone and all together; both data, both languages, scores twice
    pytest.param(Scenario("sample", "en", ("TER",), False), id="sample-en-TER"),
    pytest.param(Scenario("sample", "nl", ("chrF",), True), id="sample-nl-chrF-scores"),
    pytest.param(Scenario("upload", "en", ("chrF++",), True), id="upload-en-chrF++-scores"),
    pytest.param(Scenario("upload", "nl", ("chrF", "chrF++", "TER"), False),
                 id="upload-nl-all"),
]


def plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def segment_scores(systems: tuple[str, ...], segments: int) -> bytes:
    """A COMET-like segment-score table for ``systems`` (one segment in 11 unrated)."""
    rows = ["system\tseg_id\tCOMET"]
    for k, name in enumerate(systems):
        for i in range(1, segments + 1):
            value = "None" if i % 11 == 0 else f"{((i * 7 + k * 13) % 100) / 100:.4f}"
            rows.append(f"{name}\t{i}\t{value}")
    return ("\n".join(rows) + "\n").encode()


def start(scenario: Scenario) -> AppTest:
    """The visitor's session with its data, language, metrics and scores in place."""
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.query_params.update({"lang": scenario.language,
                            "other_metrics": ",".join(scenario.metrics)})
    at.run()
    if scenario.data == "upload":
        at.file_uploader(key="systems_upload").set_value(
            [(f"newstest2021.en-de.hyp.{name}.de",
              (WMT21 / f"newstest2021.en-de.hyp.{name}.de").read_bytes(), "text/plain")
             for name in UPLOADED])
        at.file_uploader(key="references_upload").set_value(
            [("newstest2021.en-de.ref.A.de", (WMT21 / "newstest2021.en-de.ref.A.de").read_bytes(),
              "text/plain")]).run()
        assert list(at.session_state["dataset"].systems) == list(UPLOADED)
    assert not at.exception, at.exception
    assert at.session_state["other_metrics"] == list(scenario.metrics)
    if scenario.scores:
        segments = at.session_state["dataset"].n_segments
        at.switch_page("bleu_app/views/scores.py").run()
        at.file_uploader(key="scores_upload").set_value(
            [("comet.tsv", segment_scores(scenario.systems, segments),
              "text/tab-separated-values")]).run()
        assert not at.exception, at.exception
    return at


def chart_rows(at: AppTest) -> list[int]:
    """Rows of data each chart on the page draws (all its datasets together)."""
    counts = []
    for chart in at.get("vega_lite_chart"):
        rows = 0
        for dataset in chart.proto.datasets:
            reader = pa.ipc.open_stream(io.BytesIO(dataset.data.data))
            rows += reader.read_all().num_rows
        counts.append(rows)
    return counts


def metrics_in_charts(at: AppTest) -> set[str]:
    """Every value of a ``metric`` column in the page's charts' data."""
    found: set[str] = set()
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            table = pa.ipc.open_stream(io.BytesIO(dataset.data.data)).read_all()
            if "metric" in table.column_names:
                found.update(str(value) for value in table.column("metric").to_pylist())
    return found


def problems(at: AppTest, script: str) -> list[str]:
    found = [f"exception: {e.message[:300]}" for e in at.exception]
    found += [f"error box: {plain(e.value)[:300]}" for e in at.error]
    rows = chart_rows(at)
    if script in WITH_CHARTS and not rows:
        found.append("no chart")
    found += [f"chart {k + 1} of {len(rows)} is empty" for k, count in enumerate(rows)
              if count == 0]
    return found


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_page_with_every_metric_and_scores(scenario: Scenario) -> None:
    at = start(scenario)
    found = {}
    for script, _, _ in PAGES:
        at.switch_page(f"bleu_app/views/{script}.py").run()
        if trouble := problems(at, script):
            found[script] = trouble
        if script == "dashboard":
            shown = metrics_in_charts(at)
            wanted = {*scenario.metrics, *(["COMET"] if scenario.scores else [])}
            assert wanted <= shown, (wanted, shown)
        if script == "scores" and scenario.scores:
            assert chart_rows(at), "no correlation chart with scores loaded"
    assert found == {}


def test_a_failing_page_shows_one_sentence_never_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As served (errors not raised for the tests): a bug in a page is one sentence saying
    what to do, the rest of the app (sidebar, navigation) still there."""
    from bleu_app.widgets import _charts

    def broken(*args, **kwargs):
        raise RuntimeError("/srv/secret/path: a bug")

    monkeypatch.delenv(RAISE_VARIABLE)
    monkeypatch.setattr(_charts, "show", broken)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300).run()
    assert not at.exception
    [error] = [plain(e.value) for e in at.error]
    assert error.startswith("Something went wrong on this page") and "/srv" not in error
    assert at.selectbox(key="tokenize").value == "13a"  # the sidebar is drawn
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.query_params["lang"] = "nl"
    at.run()
    [error] = [plain(e.value) for e in at.error]
    assert error.startswith("Er ging iets mis op deze pagina")
    assert PAGE_FAILED.startswith("Something went wrong")


@pytest.mark.parametrize("path", [".streamlit/config.toml", "bleu_app/streamlit.toml"])
def test_the_served_app_shows_no_error_details(path: str) -> None:
    """Streamlit's exception box showed the traceback, server paths and "Ask Google / Ask
    ChatGPT" links; off in both settings files (the repository's and the package's)."""
    with (REPO / path).open("rb") as handle:
        assert tomllib.load(handle)["client"]["showErrorDetails"] == "none"


LONG_LINE = ("Das ist ein sehr langer Satz mit vielen Wörtern " * 22_000)[:2**20]


def with_a_long_segment() -> AppTest:
    """A session whose system output and reference hold a 1 MiB (and a 512 KiB) line 2."""
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300).run()
    at.file_uploader(key="systems_upload").set_value(
        [("hyp.Long.de", f"Kurz .\n{LONG_LINE}\nNoch einer .\n".encode(), "text/plain")])
    at.file_uploader(key="references_upload").set_value(
        [("ref.de", f"Kurz .\n{LONG_LINE[:2**19]}\nNoch einer .\n".encode(),
          "text/plain")]).run()
    assert not at.exception, at.exception
    return at


def test_a_1_mib_segment_is_shown_bounded_on_sentences() -> None:
    """Before: 343 MiB of HTML in 57 s for the segment view (2.4 GB of server memory); a 50 MB
    line took the server past 14 GB (docs/bad_inputs.md has the numbers measured now)."""
    at = with_a_long_segment()
    at.switch_page("bleu_app/views/sentences.py").run()
    at.number_input(key="open_segment").set_value(2).run()
    assert not at.exception, at.exception
    table = next(df.value for df in at.dataframe if "id" in df.value.columns)
    longest = max(len(str(value)) for value in table.to_numpy().ravel())
    assert longest < 1_000  # a cell: 500 characters and the count of the rest
    drawn = sum(len(m.value) for m in at.markdown) + sum(len(t.value) for t in at.text)
    assert drawn < 100_000  # parts of 5,000 characters, no n-gram chips
    assert any("1,048,576 characters" in plain(m.value) for m in at.markdown)
    assert any("This segment is long" in plain(info.value) for info in at.info)


def drawn_characters(at: AppTest) -> int:
    """Characters of text a page draws: Markdown, captions, text, infos and table cells."""
    texts = [*at.markdown, *at.caption, *at.text, *at.info, *at.warning, *at.error]
    cells = sum(len(str(value)) for table in at.dataframe
                for value in table.value.to_numpy().ravel())
    return sum(len(str(element.value)) for element in texts) + cells


def test_a_1_mib_segment_in_every_export_is_made_on_demand_and_whole(monkeypatch) -> None:
    """The long line's exports: the pages that show segments (Sentences, Compare, Metrics &
    human scores) and the dashboard draw a bounded page, every download that can hold a
    segment is made only when asked for (a callable, never built on a rerun), and what it
    gives is the whole text: the segment view's "The whole text" and Sentences' CSV of the
    filtered rows hold the 1 MiB line uncut. Before, the segment view had no download and
    drew the whole line as 343 MiB of n-gram HTML."""
    from streamlit.delta_generator import DeltaGenerator

    made: dict[str, object] = {}
    real = DeltaGenerator.download_button

    def recording(self, label, data, *args, **kwargs):
        made[kwargs.get("key") or label] = data
        return real(self, label, data, *args, **kwargs)
    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    import streamlit as st
    monkeypatch.setattr(st, "download_button",
                        lambda *args, **kwargs: recording(st._main, *args, **kwargs))
    at = with_a_long_segment()
    for script in ("dashboard", "sentences", "compare", "scores"):
        at.switch_page(f"bleu_app/views/{script}.py").run()
        if script == "sentences":
            at.number_input(key="open_segment").set_value(2).run()
        assert not at.exception, (script, at.exception)
        assert drawn_characters(at) < 200_000, script  # the line is 1,048,576 characters
    holding = {key: data for key, data in made.items()
               if not isinstance(data, (str, bytes)) or len(data) > 100_000}
    assert holding and all(callable(data) for data in holding.values()), sorted(holding)
    whole = [key for key, data in holding.items() if key.endswith("_download")]
    assert whole and all(LONG_LINE.encode() in holding[key]() for key in whole[:1])
    assert any(LONG_LINE[:2**19].encode() == holding[key]() for key in whole)
    assert LONG_LINE.encode() in holding["download_segments"]()  # uncut in the CSV


def test_a_lone_surrogate_in_json_lines_loads_on_data_and_sentences() -> None:
    """Before: ``{"hyp": "\\ud800"}`` broke the Data and Sentences pages."""
    reference = read_lines(WMT21 / "newstest2021.en-de.ref.A.de")[:3]
    records = [f'{{"hyp": "{line}"}}' for line in reference[:2]] + ['{"hyp": "x \\ud800 y"}']
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300).run()
    at.file_uploader(key="systems_upload").set_value(
        [("lone.jsonl", "\n".join(records).encode(), "application/jsonl")])
    at.file_uploader(key="references_upload").set_value(
        [("ref.de", "".join(f"{line}\n" for line in reference).encode(), "text/plain")]).run()
    assert not at.exception, at.exception
    assert at.session_state["dataset"].systems["lone"].segments[2] == "x \ufffd y"
    for script in ("data", "sentences"):
        at.switch_page(f"bleu_app/views/{script}.py").run()
        assert not at.exception, (script, at.exception)

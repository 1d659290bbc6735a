"""Computing a learned metric on the Metrics & human scores page (AppTest), with the tiny models
tests/metrics/learned/learned_models.py builds: the plan before a run (distinct segments to
compute, what the cache holds, the device), the scores equal to the core's on the same model, a
metric on the dashboard; Cancel keeps the finished batches in the workspace database and the
next run takes them from there; xCOMET's spans in the Sentences detail; what the page says
without a source, for a reference-free model, for a missing model, and without the extra."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu.display.escaping import escape_markdown
from bleu.io import TextFile
from bleu.io.dataset import Dataset

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
for folder in (REPO, REPO / "tests" / "metrics" / "learned"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from learned_models import (  # noqa: E402 -- found through the folder added above
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

WAIT = 120  # seconds a run of a tiny model may take on a busy machine
LABEL = "COMET (comet)"  # the tiny model's folder is called comet


def _data(with_source: bool = True) -> Dataset:
    """The first 40 segments of the bundled sample: two systems, reference A, the source."""
    systems = {name: TextFile(f"hyp.{name}.de", tuple(lines)) for name, lines in SYSTEMS.items()}
    source = TextFile("src.en", tuple(SOURCES)) if with_source else None
    return Dataset(systems, (TextFile("ref.A.de", tuple(REFERENCE_A)),), source, "tiny", "de")


@pytest.fixture(name="database")
def database_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace database of this test's own: no score is cached from another test."""
    path = tmp_path / "workspaces.sqlite3"
    monkeypatch.setenv("BLEU_EXPLORER_DB", str(path))
    return path


def _app(data: Dataset) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    at.query_params.update({"n_bootstrap": "200"})
    at.session_state["dataset"] = data
    at.run()
    at.switch_page("bleu_app/views/scores.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _load(at: AppTest, model: Path | str, metric: str = "COMET") -> AppTest:
    at.radio(key="learned_metric").set_value(metric).run()
    at.text_input(key="learned_model").input(str(model)).run()
    at.button(key="learned_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(elements: object) -> list[str]:
    """What Markdown elements say, their escapes undone."""
    return [re.sub(r"\\(.)", r"\1", element.value) for element in elements]


def _finish(at: AppTest) -> AppTest:
    """Wait for the run the page started, then rerun (the fragment's poll, done by hand)."""
    if "learned_run" in at.session_state:  # else it ended before the page was drawn
        assert at.session_state["learned_run"].run.join(WAIT), "the run did not end"
    return at.run()


def _distinct(hypotheses: dict[str, list[str]]) -> int:
    """Segments a COMET run computes: each distinct (source, translation, reference) once."""
    return len({(s, m, r) for lines in hypotheses.values()
                for s, m, r in zip(SOURCES, lines, REFERENCE_A, strict=True)})


def _device() -> str:
    import torch

    if torch.cuda.is_available():
        return f"on the GPU ({torch.cuda.get_device_name(0)})"
    return "on the CPU (torch sees no GPU)"


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_computing_comet_shows_the_plan_and_adds_a_metric_to_the_dashboard(
        tiny_models: TinyModels) -> None:
    from bleu.metrics.learned import CometScorer, score

    at = _load(_app(_data()), tiny_models.comet)
    plan = f"{_distinct(SYSTEMS)} segments to compute (0 in the cache): "
    assert any(text.startswith(plan) and text.endswith(_device() + ".")
               for text in _texts(at.info)), _texts(at.info)
    assert any("Reference-based" in text for text in _texts(at.caption))
    at.button(key="learned_compute").click().run()
    _finish(at)
    assert not at.exception, [e.value for e in at.exception]
    loaded = at.session_state["segment_scores"][LABEL]
    expected = score(CometScorer(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
                     references=[REFERENCE_A])
    for system in expected.systems:
        assert loaded.scores(system.name).tolist() == pytest.approx(system.scores.tolist(),
                                                                     abs=1e-6)
    assert loaded.higher_is_better
    assert any(f"{LABEL}: {_distinct(SYSTEMS)} segments computed, 0 taken from the cache" in text
               for text in _texts(at.success))
    at.switch_page("bleu_app/views/dashboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if {LABEL, "p-value"} <= set(d.value.columns))
    for system in expected.systems:
        row = table.set_index("system").loc[system.name]
        assert float(row[LABEL]) == pytest.approx(system.system_score, abs=5e-5)


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_bertscore_with_a_chosen_layer_is_named_after_it(tiny_models: TinyModels) -> None:
    from bleu.metrics.learned import BertScoreScorer, score

    at = _app(_data())
    at.radio(key="learned_metric").set_value("BERTScore").run()
    at.number_input(key="learned_layers").set_value(1).run()
    _load(at, tiny_models.encoder, "BERTScore")
    at.button(key="learned_compute").click().run()
    _finish(at)
    assert not at.exception, [e.value for e in at.exception]
    loaded = at.session_state["segment_scores"]["BERTScore (encoder, layer 1)"]
    expected = score(BertScoreScorer(tiny_models.encoder, num_layers=1, device="cpu"), SYSTEMS,
                     references=[REFERENCE_A])
    for system in expected.systems:
        assert loaded.scores(system.name).tolist() == pytest.approx(system.scores.tolist(),
                                                                     abs=1e-6)


@pytest.fixture(name="gate")
def gate_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """COMET's batches held after the first until the test opens the gate (then one more)."""
    from bleu.metrics.learned import CometScorer

    gate = threading.Event()
    original = CometScorer.compute

    def gated(self, pending, keys):  # type: ignore[no-untyped-def]
        for number, step in enumerate(original(self, pending, keys)):
            if number:
                assert gate.wait(WAIT)
                gate.clear()
            yield step

    monkeypatch.setattr(CometScorer, "compute", gated)
    yield gate
    gate.set()


@pytest.mark.learned
def test_cancel_keeps_what_was_done_and_the_next_run_takes_it_from_the_cache(
        tiny_models: TinyModels, database: Path, gate: threading.Event) -> None:
    from bleu.metrics.learned import CometScorer
    from bleu.metrics.learned.cache import segment_key
    from bleu.workspace.score_cache import DatabaseScoreCache

    at = _load(_app(_data()), tiny_models.comet)
    at.button(key="learned_compute").click().run()
    job = at.session_state["learned_run"]
    while job.run.progress is None or job.run.progress.done == 0:
        assert not job.run.finished, job.run.error
        job.run.join(0.02)
    at.run()  # the poll: the progress bar and Cancel
    total = _distinct(SYSTEMS)
    bars = [re.sub(r"\\(.)", r"\1", bar.proto.text) for bar in at.get("progress")]
    assert bars and re.match(rf"[1-9]\d* of {total} segments computed \(0 from the cache\); ",
                             bars[0]), bars
    at.button(key="learned_cancel").click().run()
    assert job.run.cancel.is_set()
    gate.set()  # the batch under way finishes; then the run stops
    _finish(at)
    stopped = [re.search(rf"{re.escape(LABEL)}: Stopped after (\d+) of {total} segments; those "
                         r"are kept in the cache\.", text) for text in _texts(at.info)]
    [kept] = [int(found.group(1)) for found in stopped if found]
    assert 0 < kept < total
    assert LABEL not in at.session_state["segment_scores"]
    scorer = CometScorer(tiny_models.comet, device="cpu")
    keys = [segment_key(texts) for lines in SYSTEMS.values()
            for texts in scorer.segment_texts(lines, SOURCES, [REFERENCE_A])]
    assert len(DatabaseScoreCache(database).get(scorer.identity, keys)) == kept
    # the next run: the plan counts what is cached, and only the rest is computed
    at.run()
    assert any(text.startswith(f"{total - kept} segments to compute ({kept} in the cache)")
               for text in _texts(at.info)), _texts(at.info)
    gate.set()
    at.button(key="learned_compute").click().run()
    while not at.session_state["learned_run"].run.finished:
        gate.set()
        at.session_state["learned_run"].run.join(0.05)
    _finish(at)
    assert any(f"{total - kept} segments computed, {kept} taken from the cache" in text
               for text in _texts(at.success)), _texts(at.success)
    assert any("Signature: COMET|model:comet|" in text for text in _texts(at.success))
    # and once more: everything comes from the cache, nothing is computed
    assert any(text.startswith(f"Every segment is in the cache ({total} in the cache)")
               for text in _texts(at.info)), _texts(at.info)
    at.button(key="learned_compute").click().run()
    _finish(at)
    assert any(f"0 segments computed, {total} taken from the cache" in text
               for text in _texts(at.success)), _texts(at.success)
    assert LABEL in at.session_state["segment_scores"]


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_a_closed_sessions_run_stops(tiny_models: TinyModels, gate: threading.Event,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The run asks, before each batch, whether its session is still open; once it is not
    (the tab closed), it stops and keeps what it finished."""
    from bleu_app.scoring import _learned

    open_session = threading.Event()
    open_session.set()
    monkeypatch.setattr(_learned, "_session_open", lambda: open_session.is_set)
    at = _load(_app(_data()), tiny_models.comet)
    at.button(key="learned_compute").click().run()
    job = at.session_state["learned_run"]
    while job.run.progress is None or job.run.progress.done == 0:
        assert not job.run.finished, job.run.error
        job.run.join(0.02)
    open_session.clear()  # the tab is closed: nobody polls, nobody clicks Cancel
    gate.set()
    assert job.run.join(WAIT)
    assert job.run.state == "cancelled" and job.run.abandoned
    _finish(at)
    assert any("the session that started it was closed" in text for text in _texts(at.info))


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_two_sessions_compute_with_one_loaded_model(tiny_models: TinyModels) -> None:
    """Two visitors' sessions (two AppTests in one server process) load the same model, which
    the server keeps once, and compute at the same time: both get the core's scores."""
    from bleu.metrics.learned import CometScorer, score

    first, second = _load(_app(_data()), tiny_models.comet), _load(_app(_data()),
                                                                    tiny_models.comet)
    from bleu_app.scoring._learned import _loaded_model

    assert _loaded_model("COMET", str(tiny_models.comet), None) is \
        _loaded_model("COMET", str(tiny_models.comet), None)
    first.button(key="learned_compute").click().run()
    second.button(key="learned_compute").click().run()
    for at in (first, second):
        _finish(at)
        assert not at.exception, [e.value for e in at.exception]
    expected = score(CometScorer(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
                     references=[REFERENCE_A])
    for at in (first, second):
        loaded = at.session_state["segment_scores"][LABEL]
        for system in expected.systems:
            assert loaded.scores(system.name).tolist() == pytest.approx(
                system.scores.tolist(), abs=1e-6)


def _try_models() -> None:
    """A session that names models as a crafted request would: paths, existing or not."""
    import streamlit as st

    from bleu.errors import InputError
    from bleu_app.scoring._learned import _scorer

    messages = []
    for crafted in ("/etc", "/", "../comet", "/no/such/folder", "Unbabel/wmt22-comet-da"):
        try:
            _scorer("COMET", crafted, None)
        except InputError as error:
            messages.append(str(error))
    st.session_state["messages"] = messages


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_a_shared_server_offers_its_models_and_no_free_path(
        tiny_models: TinyModels, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With BLEU_EXPLORER_SHARED=1 the model is picked among the operator's models (no text
    field); a request naming anything else, a path included, gets the one message."""

    models = tmp_path / "models"
    models.mkdir()
    (models / "comet").symlink_to(tiny_models.comet)
    monkeypatch.setenv("BLEU_EXPLORER_SHARED", "1")
    monkeypatch.setenv("BLEU_EXPLORER_MODELS", str(models))
    at = _app(_data())
    assert all(field.key != "learned_model" for field in at.text_input)
    assert at.selectbox(key="learned_offered").options == ["comet"]
    at.button(key="learned_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(button.key == "learned_compute" for button in at.button)
    tried = AppTest.from_function(_try_models, default_timeout=WAIT).run()
    assert not tried.exception, [e.value for e in tried.exception]
    messages = set(tried.session_state["messages"])
    assert messages == {"This model is not offered on this server: pick one of the models in "
                        "the list."}


@pytest.mark.unified
@pytest.mark.usefixtures("database")
def test_xcomet_spans_are_marked_in_the_sentences_and_compare_details(
        tiny_models: TinyModels, tmp_path: Path) -> None:
    """xCOMET through unbabel-comet (the learned-unified extra's environment)."""
    from learned_models import build_xcomet

    from bleu.explore.error_spans import spans_html, summary
    from bleu.metrics.learned import load_comet, score

    xcomet = build_xcomet(tiny_models.encoder, tmp_path / "xcomet")
    at = _load(_app(_data()), xcomet)
    assert at.checkbox(key="learned_use_reference").value  # xCOMET reads it, or does without
    at.button(key="learned_compute").click().run()
    _finish(at)
    assert not at.exception, [e.value for e in at.exception]
    expected = score(load_comet(xcomet, device="cpu"), SYSTEMS, sources=SOURCES,
                     references=[REFERENCE_A])
    at.switch_page("bleu_app/views/sentences.py").run()
    a = at.selectbox(key="sentences_a").value
    spans = expected.system(a).spans
    segment = next(i for i, found in enumerate(spans) if found) + 1
    at.number_input(key="open_segment").set_value(segment).run()
    assert not at.exception, [e.value for e in at.exception]
    html = [m.value for m in at.markdown]
    assert spans_html(SYSTEMS[a][segment - 1], spans[segment - 1]) in html
    counted = summary(spans[segment - 1])
    assert f"**COMET (xcomet)** error spans: {counted}" in _texts(at.markdown)
    at.switch_page("bleu_app/views/compare.py").run()
    at.number_input(key="compare_segment").set_value(segment).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [m.value for m in at.markdown]
    pair = (at.selectbox(key="compare_a").value, at.selectbox(key="compare_b").value)
    assert a in pair
    for name in pair:
        marked = expected.system(name).spans[segment - 1]
        assert (spans_html(SYSTEMS[name][segment - 1], marked) in shown) == bool(marked)


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_what_the_page_says_about_the_source_and_the_reference(tiny_models: TinyModels) -> None:
    at = _load(_app(_data(with_source=False)), tiny_models.comet)
    assert any("the loaded data has none" in text for text in _texts(at.warning))
    assert all(button.key != "learned_compute" for button in at.button)
    at = _load(_app(_data()), tiny_models.comet_qe)
    assert any(text.startswith("Reference-free (quality estimation)") for text in
               _texts(at.caption))
    assert any(button.key == "learned_compute" for button in at.button)


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_a_missing_model_shows_the_command_that_fetches_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    at = _load(_app(_data()), "Unbabel/wmt22-comet-da")
    errors = _texts(at.error)
    assert any("is not on this machine" in text and
               "huggingface-cli download Unbabel/wmt22-comet-da" in text for text in errors)
    assert all(button.key != "learned_compute" for button in at.button)


@pytest.mark.usefixtures("database")
def test_without_the_extra_the_page_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs in both environments: the library is made absent as an import meets it."""
    monkeypatch.setitem(sys.modules, "transformers", None)
    at = _load(_app(_data()), "Unbabel/wmt22-comet-da")
    assert escape_markdown("pip install 'bleu-explorer[learned]'") in \
        " ".join(e.value for e in at.error)


def _teaching_page() -> None:
    """What a teaching page does: the session's model, if any, on the user's own sentence pair."""
    import streamlit as st

    from bleu_app.scoring import _learned

    found = _learned.session_model()
    if found is None:
        st.info(_learned.needs_model())
    else:
        label, scorer = found
        value = _learned.score_sentence(scorer, "Die Katze saß auf der Matte.",
                                        ["Die Katze sitzt auf der Matte."],
                                        "The cat sat on the mat.")
        st.session_state["shown"] = (label, value)


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_a_teaching_page_scores_its_own_sentence_pair_with_the_sessions_model(
        tiny_models: TinyModels) -> None:
    from bleu.metrics.learned import CometScorer, score
    from bleu_app.scoring._learned import LOADED, Request

    at = AppTest.from_function(_teaching_page, default_timeout=WAIT).run()
    assert next(i.value for i in at.info).startswith(
        "A learned metric (COMET, BERTScore, MetricX) shows")
    at.session_state[LOADED] = Request("COMET", str(tiny_models.comet))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    label, value = at.session_state["shown"]
    expected = score(CometScorer(tiny_models.comet, device="cpu"),
                     {"s": ["Die Katze saß auf der Matte."]},
                     sources=["The cat sat on the mat."],
                     references=[["Die Katze sitzt auf der Matte."]])
    assert label == LABEL and value == pytest.approx(expected.systems[0].scores[0], abs=1e-6)


@pytest.mark.parametrize(("page", "typed"), [
    ("bleu_app/views/how_bleu_works.py", {"teach_candidate": "the cat sat on the mat"}),
    ("bleu_app/views/blind_spots.py", {"blind_hyp": "the cat sat", "blind_refs": "a cat sat"})])
def test_the_teaching_pages_say_what_a_learned_metric_needs(page: str,
                                                            typed: dict[str, str]) -> None:
    """Without a loaded model, How BLEU works and Blind spots say what would show a learned
    metric beside BLEU on the user's own pair (runs in both environments)."""
    at = AppTest.from_file(str(APP), default_timeout=WAIT).run()
    at.switch_page(page).run()
    for key, text in typed.items():
        at.text_area(key=key).set_value(text)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("A learned metric (COMET, BERTScore, MetricX) shows here" in c.value
               for c in at.caption)


@pytest.mark.learned
@pytest.mark.usefixtures("database")
def test_how_bleu_works_shows_the_sessions_model_beside_bleu(tiny_models: TinyModels) -> None:
    """With a model loaded, the teaching page's own pair gets its score beside BLEU (BERTScore:
    the page has no source), equal to the core's; COMET, which reads the source, says so."""
    from bleu.metrics.learned import BertScoreScorer, score
    from bleu_app.scoring._learned import LOADED, Request

    at = AppTest.from_file(str(APP), default_timeout=WAIT).run()
    at.switch_page("bleu_app/views/how_bleu_works.py").run()
    at.text_area(key="teach_candidate").set_value("Die Katze saß auf der Matte.")
    at.text_area(key="teach_references").set_value("Die Katze sitzt auf der Matte.")
    at.session_state[LOADED] = Request("COMET", str(tiny_models.comet))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("source" in c.value for c in at.caption)  # reference-based COMET reads the source
    at.session_state[LOADED] = Request("BERTScore", str(tiny_models.encoder), 1)
    at.run()
    [shown] = [m for m in at.metric if m.label.startswith("BERTScore")]
    expected = score(BertScoreScorer(tiny_models.encoder, num_layers=1, device="cpu"),
                     {"s": ["Die Katze saß auf der Matte."]},
                     references=[["Die Katze sitzt auf der Matte."]])
    assert float(shown.value) == pytest.approx(expected.systems[0].scores[0], abs=5e-5)

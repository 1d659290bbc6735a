"""runtime/_cache.shared: one result per server for inputs of the same content, handed to every
session as it is, so what it hands out must be read-only (scores' arrays) or copy-on-write
(tables): a session that changes its copy changes nothing another session sees."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import streamlit as st
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bleu.evaluation import registry  # noqa: E402 -- after the path
from bleu.evaluation.scores import from_stats  # noqa: E402
from bleu.io.dataset import assemble  # noqa: E402
from bleu.io.model import TextFile  # noqa: E402
from bleu_app.runtime import _cache  # noqa: E402

HYPS = {"A": ("the cat sat on the mat", "a dog ran"), "B": ("the cat", "the dog ran away")}
REFS = (("the cat sat on the mat", "the dog ran"),)


def dataset(label: str = "toy"):
    return assemble([TextFile(name, lines) for name, lines in HYPS.items()],
                    [TextFile(f"ref{k}", lines) for k, lines in enumerate(REFS)], label=label)


@pytest.fixture(autouse=True)
def fresh_caches():
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def test_a_shared_result_is_computed_once_for_inputs_of_the_same_content():
    calls = []

    @_cache.shared(max_entries=4)
    def systems(data) -> tuple[str, ...]:
        calls.append(data.label)
        return tuple(data.systems)

    first, again = dataset(), dataset()  # two loads of the same files: two objects
    assert first is not again
    assert systems(first) is systems(again) == ("A", "B")
    assert len(calls) == 1


def test_scores_from_statistics_are_read_only_and_leave_their_input_writable():
    references = [list(lines) for lines in REFS]
    metric = registry.get("BLEU").make(references)
    stats = {name: metric.segment_stats(list(lines)) for name, lines in HYPS.items()}
    scored = from_stats("BLEU", metric.get_signature(), metric.scorer, stats)
    for name, lines in HYPS.items():
        assert float(scored.scores[name]) == pytest.approx(
            sacrebleu.corpus_bleu(list(lines), references).score, abs=1e-9)
        with pytest.raises(ValueError):
            scored.stats[name][0, 0] = 99
        with pytest.raises(ValueError):
            scored.sentence_scores[name][0] = 99
        assert stats[name].flags.writeable  # the caller's matrix is its own still
        assert np.shares_memory(scored.stats[name], stats[name])  # a view, not a copy


def two_sessions_change_their_tables() -> None:
    """The sentence table asked for twice (as two sessions would), the first copy changed."""
    import streamlit as st

    from bleu.io.dataset import assemble
    from bleu.io.model import TextFile
    from bleu.metrics.bleu.score import BLEUOptions
    from bleu_app.widgets import _explore

    data = assemble([TextFile("A", ("the cat sat on the mat", "a dog ran")),
                     TextFile("B", ("the cat", "the dog ran away"))],
                    [TextFile("ref", ("the cat sat on the mat", "the dog ran"))], label="toy")
    sentence = BLEUOptions(smooth_method="exp", effective_order=True)
    first = _explore.table(data, sentence, ("A", "B"))
    kept = first.copy()
    first.iloc[0, 0] = first.iloc[1, 0]
    first["mine"] = 1
    again = _explore.table(data, sentence, ("A", "B"))
    st.session_state["same"] = again.equals(kept) and "mine" not in again.columns
    st.session_state["shared"] = again is not first


def test_a_shared_table_is_not_changed_by_a_session_that_changes_its_copy():
    at = AppTest.from_function(two_sessions_change_their_tables, default_timeout=60).run()
    assert not at.exception
    assert at.session_state["same"] and at.session_state["shared"]


# --- issue 36: every server-wide cache bounded in bytes, not only in entries ----------------

def test_a_bounded_cache_drops_the_least_recently_used_beyond_its_bytes():
    kept = _cache.BoundedCache(max_bytes=100, max_entries=10)
    for key in "abc":
        kept.put(key, key * 40, 40)
    assert len(kept) == 2 and kept.nbytes == 80  # "a" went: 120 bytes were too many
    assert kept.get("a") is _cache.MISSING and kept.get("b") == "b" * 40
    kept.put("d", "d", 40)  # "c" is now the least recently used, not "b"
    assert kept.get("c") is _cache.MISSING and kept.get("b") == "b" * 40
    kept.put("huge", "x", 101)  # bigger than the whole budget: not kept, nothing dropped
    assert kept.get("huge") is _cache.MISSING and len(kept) == 2


def test_a_group_keeps_its_own_number_of_entries():
    kept = _cache.BoundedCache(max_bytes=10**6, max_entries=100)
    for k in range(5):
        kept.put(("f", k), k, 1, group="f", group_entries=3)
        kept.put(("g", k), k, 1, group="g", group_entries=5)
    assert [k for k in range(5) if kept.get(("f", k)) is not _cache.MISSING] == [2, 3, 4]
    assert all(kept.get(("g", k)) == k for k in range(5))


def test_staged_uploads_are_charged_what_they_hold():
    """Five distinct drops of 120 MiB each took the server from 131 to 747 MiB, never freed:
    what a staged upload holds is measured (its segments as Python strings), so the staging
    cache keeps at most STAGING_BYTES of them."""
    from bleu.io.staging import StagedArchive, stage_file

    text = ("ein Satz mit ein paar Wörtern " * 4 + "\n").encode() * 20_000  # 2.4 MB
    staged = StagedArchive(tuple(stage_file(text, "hyp.A.de")), (), 1)
    measured = _cache.approx_bytes(staged)
    assert measured > len(text)  # the strings, not the bytes uploaded
    kept = _cache.BoundedCache(max_bytes=3 * measured, max_entries=64)
    for upload in range(5):
        kept.put(upload, staged, _cache.approx_bytes(staged))
    assert len(kept) == 3 and kept.nbytes <= 3 * measured


def test_cached_tables_are_copies_and_charged_their_pickle():
    calls = []

    @_cache.data(max_entries=4)
    def table(n: int) -> dict[str, list[int]]:
        calls.append(n)
        return {"rows": list(range(n))}

    first = table(3)
    first["rows"].append(99)  # a session changes its copy
    assert table(3) == {"rows": [0, 1, 2]} and calls == [3]
    assert 0 < _cache.cache("shared").nbytes < 1000


def test_results_of_every_metric_are_keyed_by_content():
    """The TER crash: Streamlit hashed a dashboard's MetricResults field by field (as a
    dataclass) and failed on TER's scorer, a plain object; the caches key it by its scores'
    content key, for every metric."""
    from bleu.evaluation.results import metric_results

    references = [list(lines) for lines in REFS]
    for name in ("BLEU", "chrF", "chrF++", "TER"):
        metric = registry.get(name).make(references)
        stats = {system: metric.segment_stats(list(lines)) for system, lines in HYPS.items()}
        scored = from_stats(name, metric.get_signature(), metric.scorer, stats)
        results = metric_results(scored, baseline="A", n_samples=50)
        again = metric_results(from_stats(name, metric.get_signature(), metric.scorer, stats),
                               baseline="A", n_samples=50)
        assert _cache.content_key(results) == _cache.content_key(again), name
        assert _cache.content_key(results) != _cache.content_key(results.only(["A"])), name


def test_every_server_wide_cache_is_bounded_in_bytes():
    """Streamlit's caches bound their entries, not their bytes: in the app they only hold
    what no upload changes: a function without arguments (the bundled samples, WordNet), or
    one keyed by the server's own settings (its database location: one store and one score
    cache), by the interface language (Blind spots' cases, the ready exercises: two each) or
    by a learned model (two at most, picked from this machine's models, never uploaded);
    everything else goes through runtime/_cache."""
    import ast

    allowed = {("bleu_app/scoring/_learned.py", "_loaded_model"),
               ("bleu_app/scoring/_learned.py", "_score_cache"),
               ("bleu_app/session/_workspace.py", "_store_at"),
               ("bleu_app/views/blind_spots.py", "_cases"),
               ("bleu_app/widgets/_exercise_ui.py", "_ready")}
    found = []
    for path in sorted((REPO / "bleu_app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                text = ast.unparse(decorator)
                if "st.cache_data" in text or "st.cache_resource" in text:
                    takes = node.args.args + node.args.kwonlyargs
                    where = (str(path.relative_to(REPO)), node.name)
                    if takes and where not in allowed:
                        found.append(where)
    assert not found, f"caches bounded in entries only: {found}"

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
from bleu.metrics.bleu.score import BLEUOptions  # noqa: E402
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

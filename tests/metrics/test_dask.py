"""bleu.dask on a real local cluster (2 workers, loopback) equals bleu.corpus_bleu exactly."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import dask.bag as db
import dask.dataframe as dd
import distributed
import pandas as pd
import pytest
from conftest import DATA_DIR

import bleu
import bleu.metrics.dask as bleu_dask

WMT21 = DATA_DIR / "wmt21_newstest2021_en-de"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    # Worker processes are spawned, and spawn re-runs the parent's __main__ in each child. After
    # an AppTest in the same pytest process, __main__ is the Streamlit app: give the workers a
    # bare one instead.
    saved_main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                           dashboard_address=None, processes=True)
        with cluster, distributed.Client(cluster) as dask_client:
            yield dask_client
    finally:
        sys.modules["__main__"] = saved_main


@pytest.fixture(scope="module")
def corpus() -> tuple[list[str], list[list[str]]]:
    refs = [_lines(p) for p in sorted(WMT21.glob("*.ref.*"))]
    return _lines(WMT21 / "newstest2021.en-de.hyp.Online-W.de"), refs


def test_dataframe_corpus_bleu_is_exact(client: object, corpus) -> None:
    hyp, refs = corpus
    frame = pd.DataFrame({"hyp": hyp, **{f"ref{k}": r for k, r in enumerate(refs)}})
    ddf = dd.from_pandas(frame, npartitions=5)
    ours = bleu_dask.corpus_bleu(ddf, refs=["ref0", "ref1", "ref2"])
    expected = bleu.corpus_bleu(hyp, refs)
    assert ours.score == expected.score
    assert ours.counts == expected.counts and ours.totals == expected.totals
    assert ours.sys_len == expected.sys_len and ours.ref_len == expected.ref_len
    assert ours.signature == expected.signature


def test_bag_corpus_bleu_is_exact(client: object, corpus) -> None:
    hyp, refs = corpus
    bag = db.from_sequence(list(zip(hyp, zip(*refs, strict=True), strict=True)), npartitions=4)
    assert bleu_dask.corpus_bleu(bag, tokenize="intl").score == bleu.corpus_bleu(
        hyp, refs, tokenize="intl").score


def test_sentence_scores_match_sentence_bleu(client: object, corpus) -> None:
    hyp, refs = corpus
    frame = pd.DataFrame({"hyp": hyp, "ref": refs[0]})
    scores = bleu_dask.sentence_scores(dd.from_pandas(frame, npartitions=3)).compute()
    assert len(scores) == len(hyp)
    for i in (0, 17, len(hyp) - 1):
        assert abs(scores.iloc[i] - bleu.sentence_bleu(hyp[i], [refs[0][i]]).score) < 1e-9

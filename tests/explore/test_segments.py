"""The sentence table: sentence BLEU from statistics rows equals sentence_bleu and sacrebleu."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines

import bleu
from bleu.explore.segments import (
    DIFF,
    REF_LEN,
    BadPatternError,
    SegmentFilter,
    UnknownColumnError,
    filter_segments,
    mean_versus_corpus,
    sentence_options,
    sentence_table,
    table_columns,
    table_csv,
)
from bleu.metrics.bleu.score import BLEUOptions

FOLDER = DATA_DIR / "wmt21_newstest2021_en-de"
N = 100


@pytest.fixture(scope="module")
def corpus():
    refs = [read_lines(FOLDER / f"newstest2021.en-de.ref.{k}.de")[:N] for k in "AC"]
    systems = {name: read_lines(FOLDER / f"newstest2021.en-de.hyp.{name}.de")[:N]
               for name in ("Facebook-AI", "Online-W")}
    stats = {name: bleu.segment_stats(lines, refs) for name, lines in systems.items()}
    return systems, refs, stats


@pytest.mark.parametrize("method", ["exp", "floor", "add-k", "none"])
def test_sentence_bleu_equals_sentence_bleu_and_sacrebleu(corpus, method):
    systems, refs, stats = corpus
    options = BLEUOptions()
    table = sentence_table(systems, refs, stats, options,
                           sentence=sentence_options(options, method))
    oracle = sacrebleu.metrics.BLEU(smooth_method=method, effective_order=True)
    for i in range(0, N, 7):
        hyp, seg_refs = systems["Online-W"][i], [r[i] for r in refs]
        ours = bleu.sentence_bleu(hyp, seg_refs, smooth_method=method).score
        theirs = oracle.sentence_score(hyp, seg_refs).score
        assert table["BLEU Online-W"][i] == pytest.approx(theirs, abs=1e-9)
        assert ours == pytest.approx(theirs, abs=1e-9)


def test_columns_lengths_and_difference(corpus):
    systems, refs, stats = corpus
    source = [f"src {i}" for i in range(N)]
    table = sentence_table(systems, refs, stats, BLEUOptions(), source=source,
                           documents=["d1"] * 50 + ["d2"] * 50, pair=("Facebook-AI", "Online-W"))
    assert list(table["id"][:3]) == [1, 2, 3]
    assert table["source"][4] == "src 4" and table["document"][60] == "d2"
    assert table["reference 2"][3] == refs[1][3]
    assert list(table["len Facebook-AI"]) == list(stats["Facebook-AI"][:, 0])
    # ref len is the first reference's token count (13a), independent of the system
    assert table[REF_LEN][5] == len(sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(
        refs[0][5]).split())
    diff = table["BLEU Online-W"] - table["BLEU Facebook-AI"]
    assert np.allclose(table[DIFF], diff)


def test_filters(corpus):
    systems, refs, stats = corpus
    table = sentence_table(systems, refs, stats, BLEUOptions())
    word = systems["Online-W"][10].split()[0]
    found = filter_segments(table, SegmentFilter(query=word, search_columns=("Online-W",),
                                                 case_sensitive=True))
    expected = [i + 1 for i, line in enumerate(systems["Online-W"]) if word in line]
    assert list(found["id"]) == expected
    lowered = filter_segments(table, SegmentFilter(query=word.upper(),
                                                   search_columns=("Online-W",)))
    assert list(lowered["id"]) == [i + 1 for i, line in enumerate(systems["Online-W"])
                                   if word.lower() in line.lower()]
    regex = filter_segments(table, SegmentFilter(query=r"\d{4}", regex=True))
    assert 0 < len(regex) < N
    scored = filter_segments(table, SegmentFilter(score_column="BLEU Online-W",
                                                  score_range=(20.0, 40.0),
                                                  length_column="len Online-W",
                                                  length_range=(10, 30)))
    assert ((scored["BLEU Online-W"] >= 20) & (scored["BLEU Online-W"] <= 40)).all()
    assert ((scored["len Online-W"] >= 10) & (scored["len Online-W"] <= 30)).all()
    assert len(scored) == int(((table["BLEU Online-W"].between(20, 40))
                               & table["len Online-W"].between(10, 30)).sum())
    picked = filter_segments(table, SegmentFilter(ids=(3, 9)))
    assert list(picked["id"]) == [3, 9]
    rows = list(csv.reader(io.StringIO(table_csv(picked).decode("utf-8"), newline="")))
    assert rows[0][0] == "id" and [row[0] for row in rows[1:]] == ["3", "9"]


def test_bad_regex_and_unknown_column_are_input_errors(corpus):
    systems, refs, stats = corpus
    table = sentence_table(systems, refs, stats, BLEUOptions())
    with pytest.raises(BadPatternError, match="not a valid regular expression"):
        filter_segments(table, SegmentFilter(query="(unclosed", regex=True))
    with pytest.raises(UnknownColumnError, match="nope"):
        filter_segments(table, SegmentFilter(query="x", search_columns=("nope",)))
    assert issubclass(BadPatternError, bleu.InputError)


def test_system_name_clash_is_refused(corpus):
    systems, refs, stats = corpus
    with pytest.raises(bleu.InputError, match="clashes"):
        sentence_table({"source": systems["Online-W"]}, refs, {"source": stats["Online-W"]},
                       BLEUOptions())


def test_mean_versus_corpus_numbers(corpus):
    systems, refs, stats = corpus
    note = mean_versus_corpus("Online-W", stats["Online-W"], BLEUOptions())
    corpus_score = sacrebleu.corpus_bleu(systems["Online-W"], refs).score
    sentences = [sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score
                 for i, h in enumerate(systems["Online-W"])]
    assert note.corpus_bleu == pytest.approx(corpus_score, abs=1e-9)
    assert note.mean_sentence_bleu == pytest.approx(np.mean(sentences), abs=1e-9)
    assert f"{corpus_score:.2f}" in note.text() and f"{np.mean(sentences):.2f}" in note.text()
    assert note.summary() == (f"Online-W: mean of sentence BLEU {np.mean(sentences):.2f}, "
                              f"corpus BLEU {corpus_score:.2f}")


def test_table_columns_describe_the_pair(corpus):
    systems, refs, stats = corpus
    table = sentence_table(systems, refs, stats, BLEUOptions(), pair=("Online-W", "Facebook-AI"))
    columns = table_columns(table, ("Online-W", "Facebook-AI"))
    assert set(columns) == set(table.columns)  # every column, and only those
    assert columns["BLEU Online-W"].format.decimals == 2
    assert columns[DIFF].format.signed and columns[REF_LEN].format.thousands
    assert columns["Facebook-AI"].format is None and "output" in columns["Facebook-AI"].help

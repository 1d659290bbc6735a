"""Fuzzing the whole path a user's data takes: random bytes through the readers and
``assemble``, random Unicode and random objects through the BLEU API, random options.

Properties: the only exceptions are ``bleu.errors.InputError`` subclasses with a message; scores,
precisions and bootstrap intervals lie in [0, 100]; the statistics of ``bleu.segment_stats``,
``bleu.explain`` and ``corpus_bleu`` agree (per-order credited sums equal the stats row, rows sum
to the corpus counts). tests/io/test_io_properties.py fuzzes each reader alone.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import segment_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleu
from bleu.errors import InputError
from bleu.io import TextFile, detect_format, read_any
from bleu.io.dataset import assemble
from bleu.metrics.bleu.score import BLEUOptions, score_from_stats

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENIZERS = ("none", "13a", "intl", "zh", "char")
NAMES = ("sys.txt", "sys.tsv", "sys.csv", "sys.jsonl", "sys.xml", "sys.sgm", "sys.de", "")

#: any text, lone surrogates, NUL and line separators included
ANY_TEXT = st.text(st.characters(), max_size=40)
TEXT = st.one_of(segment_text, ANY_TEXT)


@st.composite
def options(draw: st.DrawFn) -> dict[str, object]:
    """BLEU options in their documented ranges (floor in (0, 1], add-k k in [0, 10])."""
    method = draw(st.sampled_from(("exp", "floor", "add-k", "none")))
    value = {"floor": st.floats(1e-6, 1.0), "add-k": st.floats(0.0, 10.0)}.get(method)
    return {"tokenize": draw(st.sampled_from(TOKENIZERS)), "lowercase": draw(st.booleans()),
            "smooth_method": method, "smooth_value": None if value is None else draw(value),
            "max_ngram_order": draw(st.integers(1, 6)), "effective_order": draw(st.booleans())}


@st.composite
def aligned(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and 1-3 reference streams of one length, some references None (never all)."""
    n = draw(st.integers(1, 8))
    hyps = draw(st.lists(TEXT, min_size=n, max_size=n))
    streams = [draw(st.lists(st.one_of(TEXT, st.none()), min_size=n, max_size=n))
               for _ in range(draw(st.integers(1, 3)))]
    for i in range(n):
        if all(stream[i] is None for stream in streams):
            streams[0][i] = hyps[i] if draw(st.booleans()) else draw(TEXT)
    return hyps, streams


#: sacrebleu computes a perfect score as exp(log(100)) = 100.00000000000004, and so do we (the
#: scores agree to 1e-9); the app shows it as 100.00
TOP = 100.0 + 1e-9


def percent(value: float) -> bool:
    return math.isfinite(value) and 0.0 <= value <= TOP


def in_range(score: bleu.BLEUScore) -> None:
    """Every percentage of a score is a finite number in [0, 100]."""
    for value in (score.score, *score.precisions):
        assert percent(value), score
    assert 0.0 <= score.bp <= 1.0 and score.sys_len >= 0 and score.ref_len >= 0


def input_error_or(call, *args, **kwargs):
    """Run ``call``; an InputError (with a message) is an allowed outcome, returned as None."""
    try:
        return call(*args, **kwargs)
    except InputError as error:
        assert str(error).strip()
        return None


# --- random objects and text through the API --------------------------------------------------

JUNK = st.one_of(TEXT, st.none(), st.integers(), st.binary(max_size=5), st.floats(),
                 st.lists(st.text(max_size=3), max_size=2))


@FUZZ
@given(hyps=st.one_of(st.lists(JUNK, max_size=6), TEXT),
       refs=st.one_of(st.lists(st.one_of(st.lists(JUNK, min_size=1, max_size=6), TEXT),
                               max_size=3), TEXT),
       opts=options())
def test_api_takes_anything_and_raises_only_input_errors(hyps, refs, opts):
    score = input_error_or(bleu.corpus_bleu, hyps, refs, **opts)
    if score is not None:
        in_range(score)


@FUZZ
@given(corpus=aligned(), opts=options())
def test_corpus_scores_in_range_and_rows_sum_to_the_counts(corpus, opts):
    hyps, refs = corpus
    score = bleu.corpus_bleu(hyps, refs, **opts)
    in_range(score)
    rows = bleu.segment_stats(hyps, refs, tokenize=opts["tokenize"], lowercase=opts["lowercase"],
                              max_ngram_order=opts["max_ngram_order"])
    order = opts["max_ngram_order"]
    assert rows.shape == (len(hyps), 2 + 2 * order) and (rows >= 0).all()
    total = rows.sum(axis=0)
    assert (score.sys_len, score.ref_len) == (total[0], total[1])
    if opts["smooth_method"] != "add-k":  # add-k reports counts with k added, as sacrebleu
        assert list(score.counts) == list(total[2:2 + order])
        assert list(score.totals) == list(total[2 + order:])
    assert (rows[:, 2:2 + order] <= rows[:, 2 + order:]).all()  # clipped matches <= n-grams


@FUZZ
@given(hyp=TEXT, refs=st.lists(st.one_of(TEXT, st.none()), min_size=1, max_size=3),
       opts=options())
def test_explain_is_consistent_with_its_stats_and_segment_stats(hyp, refs, opts):
    explanation = input_error_or(bleu.explain, hyp, refs, **opts)
    if explanation is None:
        assert all(ref is None for ref in refs)  # the one refusal: no reference at all
        return
    order = opts["max_ngram_order"]
    stats = explanation.stats
    for n, ngrams in enumerate(explanation.ngrams, 1):
        assert sum(g.credited for g in ngrams) == stats[1 + n]  # credited sums == matches
        assert sum(g.count for g in ngrams) == stats[1 + order + n]  # occurrences == totals
        assert all(g.credited == min(g.count, max(g.ref_counts)) for g in ngrams)
    assert stats[0] == len(explanation.hypothesis_tokens)
    row = bleu.segment_stats([hyp], [[ref] for ref in refs], tokenize=opts["tokenize"],
                             lowercase=opts["lowercase"], max_ngram_order=order)[0]
    assert tuple(int(x) for x in row) == tuple(stats)
    in_range(explanation.score)
    again = score_from_stats(np.asarray(stats), BLEUOptions(**opts))
    assert again.score == explanation.score.score
    sentence = bleu.sentence_bleu(hyp, refs, **opts)
    assert sentence.score == explanation.score.score
    in_range(sentence)


@FEW
@given(corpus=aligned(), seed=st.integers(0, 2**31 - 1))
def test_bootstrap_intervals_in_range(corpus, seed):
    hyps, refs = corpus
    result = bleu.bootstrap_ci(hyps, refs, n_samples=20, seed=seed)
    assert result.score == bleu.corpus_bleu(hyps, refs).score and percent(result.score)
    assert result.mean is not None and result.ci is not None
    assert percent(result.mean) and result.ci >= 0.0


def test_reference_streams_without_segments_are_an_input_error():
    with pytest.raises(InputError, match="The corpus is empty"):
        bleu.corpus_bleu(["a"], [[]])
    with pytest.raises(InputError, match="The corpus is empty"):
        bleu.corpus_bleu([], [[]])


# --- random bytes through the readers, assemble and scoring -----------------------------------

LINE_BYTES = st.one_of(
    st.binary(max_size=60),
    st.lists(st.sampled_from([b"a", b"b c", b"\n", b"\r", b"\r\n", b"\t", b"\x00", b"\xff",
                              b"\xef\xbb\xbf", b"\xff\xfe", b"\xe2\x80\xa8", b"\xc2\x85", b" ",
                              b'{"text": "x"}', b"<seg id=\"1\">y</seg>", b"text\thyp", b","]),
             max_size=30).map(b"".join),
)


@FUZZ
@given(system=LINE_BYTES, reference=LINE_BYTES, name=st.sampled_from(NAMES),
       tokenize=st.sampled_from(TOKENIZERS))
def test_any_uploaded_bytes_load_and_score_or_say_why(system, reference, name, tokenize):
    def read(data: bytes, file_name: str) -> TextFile:
        kind = detect_format(file_name, data)
        return read_any(data, file_name, format=kind, column="text", field="text",
                        stream="hyp:S" if kind == "wmt-xml" else None)

    def load():
        return assemble([read(system, name)], [read(reference, "ref.txt")])

    dataset = input_error_or(load)
    if dataset is None:
        return
    [hyps] = [file.segments for file in dataset.systems.values()]
    assert len(hyps) == dataset.n_segments
    score = bleu.corpus_bleu(list(hyps), [list(s) for s in dataset.reference_streams],
                             tokenize=tokenize)
    in_range(score)

"""Property tests on generated corpora: our BLEU equals sacrebleu's, and the numpy engine equals
the plain Counter-based statistics, row by row, across chunk boundaries.

Generated segments hold punctuation, digits with '.', ',' and '-', HTML entities, <skipped>,
Unicode punctuation and symbols, CJK, emoji, odd whitespace (\\r, \\x0b, \\x1c, \\x85, \\u2028,
embedded \\n), the tokenizers' private markers, empty and whitespace-only lines and long lines.
References may be None (no reference for that segment) or "" (a real, empty reference).
"""

from __future__ import annotations

import math

from conftest import counter_segment_stats, read_lines, segment_text
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu
from bleu.metrics.bleu.engine import ReferenceTable, tokenize_line

TOKENIZERS = ["none", "13a", "intl", "zh", "char"]
SMOOTHING = ["none", "floor", "add-k", "exp"]


@st.composite
def corpora(draw: st.DrawFn, max_segments: int = 10) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and 1-3 reference streams; a reference may be None, never all of a segment's."""
    n = draw(st.integers(1, max_segments))
    n_refs = draw(st.integers(1, 3))
    hyps = draw(st.lists(segment_text, min_size=n, max_size=n))
    reference = st.one_of(segment_text, st.just(""), st.none())
    streams = [draw(st.lists(reference, min_size=n, max_size=n)) for _ in range(n_refs)]
    for i in range(n):
        if all(stream[i] is None for stream in streams):
            streams[draw(st.integers(0, n_refs - 1))][i] = draw(segment_text)
    # Borrow hypothesis words now and then, so that higher-order n-grams match too.
    for i in range(n):
        if draw(st.booleans()):
            k = draw(st.integers(0, n_refs - 1))
            if streams[k][i] is not None:
                streams[k][i] = f"{hyps[i]} {streams[k][i]}"
    return hyps, streams


options = st.fixed_dictionaries({
    "tokenize": st.sampled_from(TOKENIZERS),
    "lowercase": st.booleans(),
    "max_ngram_order": st.integers(1, 5),
    "smooth_method": st.sampled_from(SMOOTHING),
    "effective_order": st.booleans(),
})


@settings(max_examples=200, deadline=None)
@given(corpus=corpora(), kwargs=options)
def test_corpus_bleu_equals_sacrebleu(corpus: tuple[list[str], list[list[str | None]]],
                                      kwargs: dict[str, object]) -> None:
    hyps, refs = corpus
    theirs = SacreBLEU(force=True, **kwargs).corpus_score(hyps, refs)
    ours = bleu.corpus_bleu(hyps, refs, force=True, **kwargs)
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9)
    assert ours.format() == theirs.format()


@settings(max_examples=200, deadline=None)
@given(corpus=corpora(max_segments=1), kwargs=options)
def test_sentence_bleu_equals_sacrebleu(corpus: tuple[list[str], list[list[str | None]]],
                                        kwargs: dict[str, object]) -> None:
    hyps, refs = corpus
    seg = [stream[0] for stream in refs]
    theirs = SacreBLEU(**kwargs).sentence_score(hyps[0], seg)
    ours = bleu.sentence_bleu(hyps[0], seg, **kwargs)
    assert list(ours.counts) == list(theirs.counts)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9)


def _reference_rows(hyps: list[str], refs: list[list[str | None]],
                    options: bleu.BLEUOptions) -> list[list[int]]:
    rows = []
    for i, hyp in enumerate(hyps):
        refs_tokens = [tokenize_line(stream[i], options) for stream in refs
                       if stream[i] is not None]
        rows.append(counter_segment_stats(tokenize_line(hyp, options), refs_tokens,
                                            options.max_ngram_order))
    return rows


@settings(max_examples=200, deadline=None)
@given(corpus=corpora(max_segments=12), kwargs=options, chunk=st.integers(1, 5))
def test_engine_equals_counter_reference(corpus: tuple[list[str], list[list[str | None]]],
                                         kwargs: dict[str, object], chunk: int) -> None:
    """The numpy matrix equals the Counter formulation, with chunks of 1-5 segments."""
    hyps, refs = corpus
    opts = bleu.BLEUOptions(**kwargs)
    expected = _reference_rows(hyps, refs, opts)
    table = ReferenceTable(refs, opts, chunk_segments=chunk)
    assert table.segment_stats(hyps).tolist() == expected
    order = opts.max_ngram_order
    assert bleu.segment_stats(hyps, refs, tokenize=opts.tokenize, lowercase=opts.lowercase,
                              max_ngram_order=order).tolist() == expected


def test_engine_on_real_data_across_chunks(wmt21_en_de: tuple[dict[str, list[str]],
                                                              list[list[str]]]) -> None:
    """1002 real segments, 3 references, chunk sizes that do and do not divide the corpus."""
    systems, refs = wmt21_en_de
    hyps = systems["Online-W"]
    opts = bleu.BLEUOptions(max_ngram_order=4)
    expected = _reference_rows(hyps, refs, opts)
    for chunk in (1, 7, 100, 501, 1002, 4096):
        assert ReferenceTable(refs, opts, chunk_segments=chunk).segment_stats(hyps).tolist() \
            == expected, chunk


def test_one_table_scores_many_systems(wmt21_en_de: tuple[dict[str, list[str]],
                                                          list[list[str]]]) -> None:
    """A table built once gives every system the same rows a fresh table would."""
    systems, refs = wmt21_en_de
    opts = bleu.BLEUOptions(tokenize="intl")
    table = ReferenceTable(refs, opts, chunk_segments=300)
    for name in ("UEdin", "Online-W", "happypoet"):
        fresh = ReferenceTable(refs, opts).segment_stats(systems[name])
        assert table.segment_stats(systems[name]).tolist() == fresh.tolist(), name


def test_read_lines_keeps_empty_lines(tmp_path: object) -> None:
    path = tmp_path / "x.txt"  # type: ignore[operator]
    path.write_text("a\n\n b \n", encoding="utf-8")
    assert read_lines(path) == ["a", "", " b "]

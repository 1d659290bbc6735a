"""Corpus BLEU on every real test set in ../shared/data equals sacrebleu's (counts and score).

Each test set is scored with the tokenizer that reproduces its published numbers (MANIFEST.md):
13a for de/en targets, zh for Chinese, char for WMT22 Japanese, none for the pre-tokenized
compare-mt files. Every reference is tried alone and all references together. sacrebleu needs
about 0.2 s per system even with its references cached, so each combination scores a rotating
sample of systems, plus the systems with quirks (empty lines, a BOM inside the text).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import DATA_ROOTS, REPO_DATA, SHARED_DATA, read_lines
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu

SYSTEMS_PER_COMBINATION = 2


@dataclass(frozen=True)
class DataSet:
    folder: str
    tokenize: str
    references: dict[str, str]  # name -> file
    systems: dict[str, str]  # name -> file
    quirky: tuple[str, ...] = ()  # systems scored against every combination


def _wmt(folder: str, prefix: str, lang: str, refs: str, tokenize: str,
         quirky: tuple[str, ...] = ()) -> DataSet:
    path = REPO_DATA / folder
    systems = {p.name[len(f"{prefix}.hyp."): -len(lang) - 1]: p.name
               for p in sorted(path.glob(f"{prefix}.hyp.*.{lang}"))}
    return DataSet(folder, tokenize, {k: f"{prefix}.ref.{k}.{lang}" for k in refs}, systems,
                   quirky)


def _wmt17() -> DataSet:
    path = REPO_DATA / "wmt17_newstest2017_en-de"
    ref = "newstest2017.en-de.ref.de"
    systems = {p.name[len("newstest2017."): -len(".en-de.de")]: p.name
               for p in sorted(path.glob("newstest2017.*.en-de.de")) if p.name != ref}
    return DataSet(path.name, "13a", {"ref": ref}, systems, ("online-A.0",))


def _compare_mt(folder: str, stem: str, suffix: str, tokenize: str) -> DataSet:
    return DataSet(folder, tokenize, {"ref": f"{stem}.ref{suffix}"},
                   {s: f"{stem}.{s}{suffix}" for s in ("sys1", "sys2")})


TEST_SETS = {
    "ted-detok": _compare_mt("compare-mt_ted_sk-en", "ted", ".detok.eng", "13a"),
    "ted-tok": _compare_mt("compare-mt_ted_sk-en", "ted", ".eng", "none"),
    "multited-ja": _compare_mt("compare-mt_multited_ja", "multited", ".jpn", "none"),
    "wmt17-en-de": _wmt17(),
    "wmt21-en-de": _wmt("wmt21_newstest2021_en-de", "newstest2021.en-de", "de", "ACD", "13a"),
    "wmt21-zh-en": _wmt("wmt21_newstest2021_zh-en", "newstest2021.zh-en", "en", "A", "13a",
                        ("Online-W",)),
    "wmt22-en-de": _wmt("wmt22_generaltest2022_en-de", "generaltest2022.en-de", "de", "AB", "13a"),
    "wmt22-en-zh": _wmt("wmt22_generaltest2022_en-zh", "generaltest2022.en-zh", "zh", "AB", "zh"),
    "wmt22-en-ja": _wmt("wmt22_generaltest2022_en-ja", "generaltest2022.en-ja", "ja", "A", "char",
                        ("Online-W",)),
}


def _combinations(data_set: DataSet) -> list[tuple[str, ...]]:
    """Each reference alone and, with several, all of them together."""
    names = tuple(data_set.references)
    return [(name,) for name in names] + ([names] if len(names) > 1 else [])


def _params() -> list[object]:
    """Every system on tests/data's cut; on the full sets a rotating sample of systems per
    reference combination, plus the quirky ones."""
    params = []
    for root in DATA_ROOTS:
        full = root.values[0] == SHARED_DATA
        for key, data_set in TEST_SETS.items():
            systems = list(data_set.systems)
            for c, refs in enumerate(_combinations(data_set)):
                picked = ([systems[(c * SYSTEMS_PER_COMBINATION + j) % len(systems)]
                           for j in range(SYSTEMS_PER_COMBINATION)] if full else systems)
                picked += [s for s in data_set.quirky if s not in picked]
                for system in dict.fromkeys(picked):
                    name = f"{key}-{'+'.join(refs)}-{system}-{root.id}"
                    params.append(pytest.param(root.values[0], key, refs, system, id=name,
                                               marks=root.marks))
    return params


def _path(root: Path, data_set: DataSet, file: str) -> Path:
    return root / data_set.folder / file


@cache
def _metrics(root: Path, key: str, refs: tuple[str, ...]) -> tuple[bleu.BLEU, SacreBLEU]:
    """Ours and sacrebleu's metric with these references tokenized and counted once."""
    data_set = TEST_SETS[key]
    streams = [read_lines(_path(root, data_set, data_set.references[r])) for r in refs]
    ours = bleu.BLEU(tokenize=data_set.tokenize, force=True, references=streams)
    theirs = SacreBLEU(tokenize=data_set.tokenize, force=True, references=streams)
    return ours, theirs


@pytest.mark.parametrize("root", DATA_ROOTS)
def test_every_data_set_is_listed(root: Path) -> None:
    """A new folder of text data must be added to TEST_SETS (and cut into tests/data)."""
    folders = {p.name for p in root.iterdir() if p.is_dir() and p.name != "sacrebleu_cases"}
    listed = {data_set.folder for data_set in TEST_SETS.values()}
    assert folders == listed
    for data_set in TEST_SETS.values():
        assert data_set.systems, data_set.folder
        for file in [*data_set.references.values(), *data_set.systems.values()]:
            assert _path(root, data_set, file).is_file(), file


@pytest.mark.parametrize(("root", "key", "refs", "system"), _params())
def test_corpus_bleu_equals_sacrebleu(root: Path, key: str, refs: tuple[str, ...],
                                      system: str) -> None:
    data_set = TEST_SETS[key]
    hyps = read_lines(_path(root, data_set, data_set.systems[system]))
    ours_metric, sacre_metric = _metrics(root, key, refs)
    theirs = sacre_metric.corpus_score(hyps, None)
    ours = ours_metric.corpus_score(hyps)
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9)
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.precisions == pytest.approx(theirs.precisions, rel=0, abs=1e-9)
    assert ours.format() == theirs.format()


@pytest.mark.parametrize("root", DATA_ROOTS)
@pytest.mark.parametrize("key", list(TEST_SETS))
def test_corpus_bleu_function_matches_cached_metric(root: Path, key: str) -> None:
    """bleu.corpus_bleu (references passed per call) gives the cached metric's statistics."""
    data_set = TEST_SETS[key]
    refs = _combinations(data_set)[-1]
    streams = [read_lines(_path(root, data_set, data_set.references[r])) for r in refs]
    hyps = read_lines(_path(root, data_set, next(iter(data_set.systems.values()))))
    direct = bleu.corpus_bleu(hyps, streams, tokenize=data_set.tokenize, force=True)
    theirs = _metrics(root, key, refs)[1].corpus_score(hyps, None)
    assert math.isclose(direct.score, theirs.score, rel_tol=0, abs_tol=1e-9)
    assert list(direct.counts) == list(theirs.counts)
    assert (direct.sys_len, direct.ref_len) == (theirs.sys_len, theirs.ref_len)


# --- A grid of every option on a sample: tests/data's 100 lines of WMT21 en-de, 3 references --

GRID_LINES = 100
SMOOTHING = [("none", None), ("none", 0.5), ("floor", None), ("floor", 0.05), ("add-k", None),
             ("add-k", 2), ("exp", None), ("exp", 0.5)]
SENTENCES_PER_OPTION = 3  # public sentence_score calls per option set (the rest via the matrix)
SMALL_CORPUS = 10  # lines scored through the public corpus_bleu for every option set


@cache
def _grid_data() -> tuple[list[str], list[list[str]]]:
    data_set = TEST_SETS["wmt21-en-de"]
    refs = [read_lines(_path(REPO_DATA, data_set, f))[:GRID_LINES]
            for f in data_set.references.values()]
    hyps = read_lines(_path(REPO_DATA, data_set, data_set.systems["UEdin"]))[:GRID_LINES]
    return hyps, refs


def _same(ours: bleu.BLEUScore, theirs: object, where: str) -> None:
    assert math.isclose(ours.score, theirs.score, rel_tol=0, abs_tol=1e-9), where
    assert list(ours.counts) == list(theirs.counts), where
    assert list(ours.totals) == list(theirs.totals), where
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len), where
    assert len(ours.precisions) == len(theirs.precisions), where
    assert all(math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
               for a, b in zip(ours.precisions, theirs.precisions, strict=True)), where
    assert math.isclose(ours.bp, theirs.bp, rel_tol=0, abs_tol=1e-12), where


@pytest.mark.parametrize("order", [1, 2, 4, 6])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "zh", "char"])
def test_option_grid(tokenize: str, lowercase: bool, order: int) -> None:
    """Statistics rows equal sacrebleu's sentence statistics; then every smoothing method (with
    and without a value) and effective order, for the corpus and for every sentence."""
    hyps, refs = _grid_data()
    sacre = SacreBLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=order,
                      effective_order=True, references=refs)
    seg_refs = [[stream[i] for stream in refs] for i in range(len(hyps))]
    # sacrebleu's own per-segment statistics (its references cached once); the public
    # corpus_score below checks that they are what its scores are computed from.
    sacre_rows = [[int(x) for x in row] for row in sacre._extract_corpus_statistics(hyps, None)]
    ours_rows = bleu.segment_stats(hyps, refs, tokenize=tokenize, lowercase=lowercase,
                                   max_ngram_order=order)
    assert ours_rows.tolist() == sacre_rows
    # sacrebleu's corpus_score is compute_bleu on the summed rows: check it once, then use it.
    corpus_public = sacre.corpus_score(hyps, None)
    summed = [sum(column) for column in zip(*sacre_rows, strict=True)]

    def sacre_from(row: list[int], method: str, value: float | None, eff: bool) -> object:
        return SacreBLEU.compute_bleu(row[2: 2 + order], row[2 + order:], row[0], row[1],
                                      smooth_method=method, smooth_value=value,
                                      effective_order=eff, max_ngram_order=order)

    assert sacre_from(summed, "exp", None, True).score == corpus_public.score
    small_h = hyps[:SMALL_CORPUS]
    small_r = [stream[:SMALL_CORPUS] for stream in refs]
    for method, value in SMOOTHING:
        for eff in (False, True):
            where = f"{tokenize=} {lowercase=} {order=} {method=} {value=} {eff=}"
            options = bleu.BLEUOptions(tokenize=tokenize, lowercase=lowercase,
                                       smooth_method=method, smooth_value=value,
                                       max_ngram_order=order, effective_order=eff)
            _same(bleu.score_from_stats(ours_rows.sum(axis=0), options),
                  sacre_from(summed, method, value, eff), f"corpus {where}")
            vectorized = bleu.scores_from_stats(ours_rows, options)
            for i, (row, sacre_row) in enumerate(zip(ours_rows, sacre_rows, strict=True)):
                theirs = sacre_from(sacre_row, method, value, eff)
                _same(bleu.score_from_stats(row, options), theirs, f"sentence {i} {where}")
                assert math.isclose(vectorized[i], theirs.score, rel_tol=0, abs_tol=1e-9), where
            kwargs = {"tokenize": tokenize, "lowercase": lowercase, "smooth_method": method,
                      "smooth_value": value, "max_ngram_order": order, "effective_order": eff}
            sacre_full = SacreBLEU(**kwargs)
            for i in range(SENTENCES_PER_OPTION):
                _same(bleu.sentence_bleu(hyps[i], seg_refs[i], **kwargs),
                      sacre_full.sentence_score(hyps[i], seg_refs[i]), f"sentence_bleu {where}")
            _same(bleu.corpus_bleu(small_h, small_r, force=True, **kwargs),
                  sacre_full.corpus_score(small_h, small_r), f"corpus_bleu {where}")


# --- Variable references: None where a segment has fewer, "" as a real empty reference --------

def _variable_references() -> tuple[list[str], list[list[str | None]]]:
    """WMT21 en-de with holes: about a fifth of the references None, a few '' (never all None)."""
    data_set = TEST_SETS["wmt21-en-de"]
    streams: list[list[str | None]] = [
        list(read_lines(_path(REPO_DATA, data_set, f))) for f in data_set.references.values()
    ]
    for i in range(len(streams[0])):
        for k in range(1, len(streams)):  # stream 1 keeps every segment: never all None
            if (i * 7 + k) % 5 == 0:
                streams[k][i] = None
            elif (i * 11 + k) % 97 == 0:
                streams[k][i] = ""
        if i % 89 == 0:  # now and then stream 1 takes stream 2's text (or ""), stream 2 None
            streams[0][i], streams[1][i] = streams[1][i] or "", None
    hyps = read_lines(_path(REPO_DATA, data_set, data_set.systems["Online-W"]))
    return hyps, streams


def test_variable_references_equal_sacrebleu() -> None:
    hyps, refs = _variable_references()
    assert any(r[i] is None for r in refs for i in range(len(hyps)))
    assert any(r[i] == "" for r in refs for i in range(len(hyps)))
    theirs = SacreBLEU().corpus_score(hyps, refs)
    ours = bleu.corpus_bleu(hyps, refs)
    _same(ours, theirs, "corpus")
    assert ours.signature.startswith("nrefs:var|")
    ours_rows = bleu.segment_stats(hyps, refs)
    sacre = SacreBLEU(effective_order=True)
    for i in range(0, len(hyps), 37):
        seg = [r[i] for r in refs]
        their_sentence = sacre.sentence_score(hyps[i], seg)
        _same(bleu.sentence_bleu(hyps[i], seg), their_sentence, f"segment {i}")
        assert ours_rows[i].tolist() == [their_sentence.sys_len, their_sentence.ref_len,
                                         *their_sentence.counts, *their_sentence.totals]

"""Benchmark corpora built from the real test sets in ../shared/data, with nothing loaded but
the standard library (so that a cold process stays cold: ``cold.py``). ``corpora.py`` adds
Arrow for the in-process benchmarks.

Bigger corpora replicate real lines; every replica of a line ends in its own number token
(``<run>x<replica>``, one token under every tokenizer here), so no two segments of a corpus,
and no two runs, share a line: nothing that a cache keyed on lines holds is ever timed.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = (REPO.parent / "shared" / "data").resolve()
WMT17 = DATA / "wmt17_newstest2017_en-de"
WMT21 = DATA / "wmt21_newstest2021_en-de"


def read_lines(path: Path) -> list[str]:
    """The segments of a data file: UTF-8, split on newlines, the final empty string dropped."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def wmt17_systems() -> tuple[dict[str, list[str]], list[str]]:
    """The 16 WMT17 en-de systems by name, and the one reference (3004 segments each)."""
    systems = {
        path.name.removeprefix("newstest2017.").removesuffix(".en-de.de"): read_lines(path)
        for path in sorted(WMT17.glob("newstest2017.*.en-de.de"))
        if ".ref." not in path.name
    }
    return systems, read_lines(WMT17 / "newstest2017.en-de.ref.de")


def _base(n_refs: int) -> tuple[list[str], list[list[str]]]:
    """One real system and ``n_refs`` real reference streams of equal length."""
    if n_refs == 1:
        systems, ref = wmt17_systems()
        return systems["uedin-nmt.4722"], [ref]
    refs = [read_lines(WMT21 / f"newstest2021.en-de.ref.{k}.de") for k in "ACD"]
    # WMT21 en-de has three human references; a fourth stream is another system's output.
    refs.append(read_lines(WMT21 / "newstest2021.en-de.hyp.Online-W.de"))
    if n_refs > len(refs):
        raise ValueError(f"at most {len(refs)} reference streams, asked for {n_refs}")
    return read_lines(WMT21 / "newstest2021.en-de.hyp.Facebook-AI.de"), refs[:n_refs]


def replicate(lines: list[str], n_segments: int, run: int) -> list[str]:
    """``n_segments`` lines cycling through ``lines``, each made unique by a number token."""
    size = len(lines)
    return [f"{lines[i % size]} {run}x{i // size}" for i in range(n_segments)]


def corpus(n_segments: int, n_refs: int, run: int = 0) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and ``n_refs`` reference streams of ``n_segments`` unique segments.

    1 reference: WMT17 en-de (uedin-nmt against newstest2017); 2-4: WMT21 en-de (Facebook-AI
    against references A, C, D and, as a fourth, Online-W's output).
    """
    hyps, refs = _base(n_refs)
    return (replicate(hyps, n_segments, run),
            [replicate(ref, n_segments, run) for ref in refs])

"""Each tokenizer on 60k real lines: ours (``Tokenizer.words``) against sacrebleu's.

Both sides produce the words of every line: sacrebleu's tokenizer applied line by line and
split, as its BLEU does, against our ``words(lines)``, which is what our engine consumes. Lines
come from real test sets (German for 13a and intl, Chinese for zh, Japanese for char), made
unique per run; sacrebleu's line cache is also cleared before each run. Every run's words are
checked identical.

    python benchmarks/bench_tokenizers.py
"""

from __future__ import annotations

from pathlib import Path

from corpora import DATA, read_lines, replicate
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from timing import Row, best_times

from bleu.metrics.tokenizers import get_tokenizer

N_LINES = 60_000
SOURCES = {
    "13a": ("wmt17_newstest2017_en-de", "*.de", Tokenizer13a),
    "intl": ("wmt17_newstest2017_en-de", "*.de", TokenizerV14International),
    "zh": ("wmt22_generaltest2022_en-zh", "*.zh", TokenizerZh),
    "char": ("wmt22_generaltest2022_en-ja", "*.ja", TokenizerChar),
}


def real_lines(folder: str, pattern: str) -> list[str]:
    """Every line of the test set's files in that language (references and systems)."""
    return [line for path in sorted(Path(DATA, folder).glob(pattern)) for line in
            read_lines(path)]


def compare(name: str, repeats: int) -> Row:
    folder, pattern, sacre_class = SOURCES[name]
    base = real_lines(folder, pattern)
    runs = [replicate(base, N_LINES, 200 + i) for i in range(repeats)]
    ours_tokenizer, sacre = get_tokenizer(name), sacre_class()

    def ours(i: int) -> list[list[str]]:
        words = ours_tokenizer.words(runs[i])
        flat = words.strings()  # only for the check below: outside the engine's path
        offsets = words.offsets
        return [flat[offsets[k] : offsets[k + 1]] for k in range(len(runs[i]))]

    def theirs(i: int) -> list[list[str]]:
        sacre_class.__call__.cache_clear()
        return [sacre(line.rstrip()).split() for line in runs[i]]

    ours_time, _, theirs_time, their_words = best_times(
        lambda i: ours_tokenizer.words(runs[i]), theirs, repeats)
    for i in range(repeats):
        if ours(i) != their_words[i]:
            raise AssertionError(f"{name}: our words differ from sacrebleu's (run {i})")
    return Row("tokenizer", f"{name}, {N_LINES:,} lines ({folder.split('_')[0]})", ours_time,
               theirs_time, f"best of {repeats}")


def rows(repeats: int = 7) -> list[Row]:
    return [compare(name, repeats) for name in SOURCES]


def main() -> None:
    for row in rows():
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()

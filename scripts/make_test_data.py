"""Cut tests/data/ from the full test sets in ../shared/data: the first LINES segments of every
text file (systems, references, sources), MQM rows of those segments, each set's published
scores (small) and sacrebleu's recorded cases. Run from the repository root:
``python scripts/make_test_data.py``."""

from __future__ import annotations

import shutil
from pathlib import Path

LINES = 100
REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
TARGET = REPO / "tests" / "data"


def cut_text(source: Path, target: Path) -> None:
    lines = source.read_bytes().split(b"\n")[:LINES]
    target.write_bytes(b"\n".join(lines) + b"\n")


def cut_mqm(source: Path, target: Path) -> None:
    rows = source.read_text(encoding="utf-8").split("\n")
    kept = [rows[0]] + [row for row in rows[1:] if row.split() and row.split()[-1].isdigit()
                        and int(row.split()[-1]) <= LINES]
    target.write_text("\n".join(kept) + "\n", encoding="utf-8")


def main() -> None:
    for folder in sorted(p for p in SHARED.iterdir() if p.is_dir()):
        out = TARGET / folder.name
        out.mkdir(parents=True, exist_ok=True)
        if folder.name == "sacrebleu_cases":
            shutil.copy(folder / "cases.json", out / "cases.json")
            continue
        for path in sorted(folder.iterdir()):
            if path.name.startswith("mqm_"):
                cut_mqm(path, out / path.name)
            elif path.suffix == ".tsv":  # a test set's published scores: small, kept whole
                shutil.copy(path, out / path.name)
            else:
                cut_text(path, out / path.name)


if __name__ == "__main__":
    main()

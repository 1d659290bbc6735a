"""Checks across loaded files: alignment, duplicate names, copied references, tokenized input."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import LengthMismatchError
from ..i18n import tr
from ..metrics.bleu.engine import looks_tokenized
from ..number_rule import PERCENT
from .model import TextFile

__all__ = ["IDENTICAL_WARN_FRACTION", "check_aligned", "duplicate_name_note",
           "identical_lines_note", "looks_tokenized", "similarity_to_reference",
           "unique_names"]

#: Warn when a system equals a reference on more than this fraction of lines.
IDENTICAL_WARN_FRACTION = 0.5


def check_aligned(files: Sequence[TextFile]) -> None:
    """Refuse files whose segment counts differ, listing every file's count."""
    counts = [len(f.segments) for f in files]
    if len(set(counts)) <= 1:
        return
    first = files[0]
    listed = "; ".join(
        f"{f.name}: {len(f.segments):,}" + ("" if len(f.segments) == counts[0] else " (differs)")
        for f in files
    )
    raise LengthMismatchError(
        f"The files do not have the same number of segments. {listed}. Expected every file to "
        f"have as many as the first, {first.name} ({counts[0]:,}): one line per segment, in the "
        "same order.")


def unique_names(names: Iterable[str]) -> list[str]:
    """The names with a suffix " (2)", " (3)", ... on repeats, never colliding with a given name."""
    names = list(names)
    taken = set(names)
    seen: set[str] = set()
    result = []
    for name in names:
        new = name
        number = 2
        while new in seen:
            while f"{name} ({number})" in taken or f"{name} ({number})" in seen:
                number += 1
            new = f"{name} ({number})"
        seen.add(new)
        result.append(new)
    return result


def duplicate_name_note(original: str, renamed: str) -> str:
    """The note shown when a file's name repeats an earlier one and was given a suffix."""
    return f"Another file is already named {original!r}; this one is shown as {renamed!r}."


def similarity_to_reference(system: TextFile, reference: TextFile) -> float:
    """The fraction of lines where the system equals the reference (whitespace-insensitive).

    Lines with an empty reference are not counted; 0.0 when there is no line to compare.
    """
    check_aligned([reference, system])
    pairs = [(" ".join(h.split()), " ".join(r.split()))
             for h, r in zip(system.segments, reference.segments, strict=True)]
    compared = [h == r for h, r in pairs if r]
    return sum(compared) / len(compared) if compared else 0.0


def identical_lines_note(system: TextFile, reference: TextFile,
                         threshold: float = IDENTICAL_WARN_FRACTION) -> str | None:
    """A warning when a system copies a reference on more than ``threshold`` of its lines."""
    fraction = similarity_to_reference(system, reference)
    if fraction <= threshold:
        return None
    return tr("{system} is identical to the reference {reference} on {share}% of lines: is it "
              "the reference uploaded as a system (or the reverse)?").format(
        system=system.name, reference=reference.name, share=PERCENT.text(100 * fraction))

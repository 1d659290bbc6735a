"""Validation shared by every metric: streams of strings, aligned references, a non-empty corpus.

Each refusal is an ``InputError`` subclass whose message says what was expected, what was found
and where (which stream, which segment).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InvalidTextError, LengthMismatchError, MissingReferenceError

References = Sequence[Sequence[str | None]]


def check_text_stream(stream: Sequence[object], what: str, allow_none: bool = False) -> None:
    """Refuse anything that is not a sequence of strings (None allowed in reference streams)."""
    if isinstance(stream, str | bytes) or not isinstance(stream, Sequence):
        raise InvalidTextError(f"{what} must be a list of strings, got {type(stream).__name__}.")
    if set(map(type, stream)) <= ({str, type(None)} if allow_none else {str}):
        return  # the common case, checked at C speed; the loop below finds the culprit
    for index, item in enumerate(stream):
        if isinstance(item, str) or (allow_none and item is None):
            continue
        raise InvalidTextError(
            f"{what}: segment {index + 1} is {type(item).__name__} ({item!r:.40}), expected str"
            + (" or None." if allow_none else ".")
        )


def check_references(references: References, n_segments: int | None) -> int:
    """Validate reference streams; return the number of segments they describe."""
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise InvalidTextError(
            "references must be a non-empty list of reference streams (lists of strings); "
            f"got {type(references).__name__}."
        )
    for k, stream in enumerate(references):
        check_text_stream(stream, f"reference stream {k + 1}", allow_none=True)
    lengths = [len(stream) for stream in references]
    expected = lengths[0] if n_segments is None else n_segments
    if expected == 0:
        raise InvalidTextError(
            "The corpus is empty: the reference streams hold no segments; give at least one "
            "segment (one line per segment in every stream)."
        )
    for k, length in enumerate(lengths):
        if length != expected:
            what = "the hypotheses have" if n_segments is not None else "reference stream 1 has"
            raise LengthMismatchError(
                f"reference stream {k + 1} has {length} segments, but {what} {expected}; "
                "every stream needs one line per segment."
            )
    return expected


def check_hypotheses(hypotheses: Sequence[str], n_segments: int) -> None:
    """The hypotheses are strings, one per segment of the references."""
    check_text_stream(hypotheses, "hypotheses")
    if len(hypotheses) != n_segments:
        raise LengthMismatchError(
            f"The hypotheses have {len(hypotheses)} segments, but the references have "
            f"{n_segments}; every stream needs one line per segment."
        )


def reference_presence(references: References, n_segments: int) -> np.ndarray:
    """Which references are there (not None), as a (segments, references) bool matrix;
    refuses a segment that has none at all."""
    present = np.array([[r is not None for r in stream] for stream in references], bool).T
    present = present.reshape(n_segments, len(references))
    missing = np.flatnonzero(~present.any(axis=1))
    if len(missing):
        listed = ", ".join(str(i + 1) for i in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise MissingReferenceError(
            f"Segment {listed}{more} has no reference at all (every reference stream holds None "
            "there); give at least one reference per segment, or drop the segment."
        )
    return present


def references_per_segment(present: np.ndarray) -> int:
    """sacrebleu's ``nrefs`` of the signature: the references per segment, -1 where it varies."""
    counts = present.sum(axis=1)
    return int(counts[0]) if (counts == counts[0]).all() else -1

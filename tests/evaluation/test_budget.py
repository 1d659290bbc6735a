"""The server's budget: a memory estimate that refuses what would not fit, and resample counts
shrunk (with a note) for big data sets; limits read from the environment."""

from __future__ import annotations

import pytest

from bleu.errors import InputError
from bleu.evaluation.budget import (
    MIN_RESAMPLES,
    DataTooLargeError,
    ServerLimits,
    check_memory,
    estimate_memory_mb,
    fit_resamples,
)
from bleu.io import TextFile
from bleu.io.dataset import Dataset


def data(n_segments: int, n_systems: int = 2, line: str = "a few words in a line") -> Dataset:
    hyp = TextFile("hyp", (line,) * n_segments)
    return Dataset({f"S{k}": hyp for k in range(n_systems)}, (TextFile("ref", hyp.segments),))


def test_the_estimate_grows_with_segments_systems_and_text():
    small = estimate_memory_mb(data(1_000))
    assert estimate_memory_mb(data(2_000)) == pytest.approx(2 * small)
    assert estimate_memory_mb(data(1_000, n_systems=5)) > small
    assert estimate_memory_mb(data(1_000, line="x" * 400)) > small


def test_the_estimate_is_not_below_the_texts_themselves():
    """Two systems and a reference of 100k lines of 100 characters: 30 MB of text at least."""
    assert estimate_memory_mb(data(100_000, line="y" * 100)) > 3 * 100_000 * 100 / 2**20


def test_too_much_is_refused_with_numbers_and_a_way_out():
    big = data(50_000)
    limit = int(estimate_memory_mb(big)) // 2
    with pytest.raises(DataTooLargeError, match=r"50,000 segments.*allows .* MiB") as raised:
        check_memory(big, ServerLimits(memory_mb=limit))
    assert isinstance(raised.value, InputError)  # the pages' refusal path shows it
    assert "BLEU_EXPLORER_MEMORY_MB" in str(raised.value)
    check_memory(big, ServerLimits(memory_mb=limit * 3))  # fits: nothing raised


def test_resamples_are_kept_when_they_fit():
    fitted = fit_resamples(1_000, 2_037, 9, ServerLimits())
    assert (fitted.requested, fitted.used, fitted.note) == (1_000, 1_000, None)


def test_resamples_shrink_to_the_budget_with_a_note():
    limits = ServerLimits(resample_cells=1_000_000_000)
    fitted = fit_resamples(10_000, 1_000_000, 2, limits)
    assert fitted.used == 1_000_000_000 // (1_000_000 * 2) == 500
    assert "500 resamples instead of the 10,000" in fitted.note
    assert fit_resamples(10_000, 50_000_000, 4, limits).used == MIN_RESAMPLES


def test_limits_from_the_environment():
    assert ServerLimits.from_environment({}) == ServerLimits()
    found = ServerLimits.from_environment({"BLEU_EXPLORER_MEMORY_MB": "512",
                                           "BLEU_EXPLORER_RESAMPLE_CELLS": "1_000_000"})
    assert found == ServerLimits(512, 1_000_000)
    for bad in ("0", "-5", "lots"):
        with pytest.raises(ValueError, match="BLEU_EXPLORER_MEMORY_MB must be a positive"):
            ServerLimits.from_environment({"BLEU_EXPLORER_MEMORY_MB": bad})

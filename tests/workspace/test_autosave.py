"""Where newly loaded data goes (``bleu.workspace.autosave``): into the open workspace when it
only adds to it, as a copy when the workspace is read-only here, as a new workspace otherwise,
and nowhere when it is a bundled sample, which the data itself says (``Dataset.sample``)."""

from __future__ import annotations

import dataclasses

import pytest

from bleu.io import TextFile
from bleu.io.dataset import Dataset
from bleu.workspace.autosave import Save, copy_name, decide, extends, new_name

REF_A = TextFile("ref.A.de", ("Ein Haus.", "Zwei Häuser."))
REF_C = TextFile("ref.C.de", ("Ein Heim.", "Zwei Heime."))
SOURCE = TextFile("src.en", ("A house.", "Two houses."))
SYS_1 = TextFile("one.de", ("Ein Haus.", "Zwei Hauser."))
SYS_2 = TextFile("two.de", ("Haus.", "Zwei Häuser."))
BASE = Dataset({"one": SYS_1}, (REF_A,), label="upload")


@pytest.mark.parametrize("new", [
    pytest.param(Dataset({"one": SYS_1, "two": SYS_2}, (REF_A,)), id="a system added"),
    pytest.param(Dataset({"renamed": SYS_1}, (REF_A,)), id="a system renamed"),
    pytest.param(Dataset({"one": SYS_1}, (REF_A, REF_C)), id="a reference added"),
    pytest.param(Dataset({"one": SYS_1}, (REF_A,), SOURCE), id="a source added"),
    pytest.param(BASE, id="the same data"),
])
def test_data_that_only_adds_extends(new: Dataset) -> None:
    assert extends(BASE, new)
    assert decide(BASE, new, current="ws-id", owned=True) is Save.IN_PLACE
    assert decide(BASE, new, current="ws-id", owned=False) is Save.COPY
    assert decide(BASE, new, current=None, owned=False) is Save.NEW  # no workspace open
    assert decide(None, new, current="ws-id", owned=True) is Save.NEW  # nothing loaded before


@pytest.mark.parametrize("new", [
    pytest.param(Dataset({"two": SYS_2}, (REF_A,)), id="a system replaced"),
    pytest.param(Dataset({"one": SYS_1}, (REF_C,)), id="another reference"),
    pytest.param(Dataset({"one": SYS_1}, (REF_C, REF_A)), id="references reordered"),
    pytest.param(Dataset({"one": TextFile("one.de", ("Ein Haus.",))},
                         (TextFile("ref.A.de", ("Ein Haus.",)),)), id="fewer segments"),
])
def test_other_data_is_a_new_workspace(new: Dataset) -> None:
    assert not extends(BASE, new)
    for owned in (True, False):
        assert decide(BASE, new, current="ws-id", owned=owned) is Save.NEW


def test_a_source_replaced_or_dropped_does_not_extend() -> None:
    with_source = dataclasses.replace(BASE, source=SOURCE)
    other = TextFile("src.en", ("A home.", "Two homes."))
    assert not extends(with_source, dataclasses.replace(BASE, source=other))
    assert not extends(with_source, BASE)


def test_the_sample_is_never_saved_whatever_its_label_says() -> None:
    sample = dataclasses.replace(BASE, label="anything at all", sample="wmt22-en-de")
    for current, owned in ((None, False), ("ws-id", True), ("ws-id", False)):
        assert decide(BASE, sample, current=current, owned=owned) is Save.NOT_THE_SAMPLE
    # a user's upload whose label happens to start like the sample's is saved
    lookalike = dataclasses.replace(BASE, label="Sample: WMT22 General MT English→German")
    assert decide(None, lookalike, current=None, owned=False) is Save.NEW


def test_changing_the_sample_makes_it_the_users_data() -> None:
    """A system renamed or added to the sample is no longer the sample: it is saved (a link
    naming the sample would lose the change)."""
    sample = dataclasses.replace(BASE, sample="wmt22-en-de")
    renamed = sample.renamed("one", "mine")
    grown = sample.with_system(SYS_2, "two")
    assert (renamed.sample, grown.sample) == (None, None)
    assert decide(sample, renamed, current=None, owned=False) is Save.NEW
    assert decide(sample, grown, current=None, owned=False) is Save.NEW


def test_names() -> None:
    two = Dataset({"one": SYS_1, "two": SYS_2}, (REF_A, REF_C))
    assert new_name(two) == two.title and new_name(two).endswith("2 systems")
    assert new_name(BASE) == BASE.title
    assert copy_name("my evaluation") == "my evaluation (copy)"

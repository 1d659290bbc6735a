"""What to do with newly loaded data: save it into the open workspace, as a copy, as a new
workspace, or not at all (a bundled sample). Pure: the app carries the decision out."""

from __future__ import annotations

import enum

from ..i18n import tr
from ..io.dataset import Dataset


class Save(enum.Enum):
    """Where newly loaded data goes."""

    #: a bundled sample (``Dataset.sample``): never saved; the open workspace is left
    NOT_THE_SAMPLE = "not the sample"
    #: it only adds to the open workspace, which this browser owns: saved into it
    IN_PLACE = "in place"
    #: it only adds to the open workspace, which is read-only here: saved as the user's copy
    COPY = "copy"
    #: other data (or no workspace open): saved as a new workspace
    NEW = "new"


def extends(previous: Dataset, new: Dataset) -> bool:
    """Whether ``new`` keeps all of ``previous`` (same segments, its systems, its references in
    order, its source) and only renames or adds systems, adds references or adds a source: a
    user completing an upload step by step stays in one workspace."""
    kept_source = previous.source is None or (
        new.source is not None and previous.source.segments == new.source.segments)
    old_refs = [ref.key for ref in previous.references]
    new_refs = [ref.key for ref in new.references]
    return (previous.n_segments == new.n_segments and kept_source
            and new_refs[:len(old_refs)] == old_refs
            and set(previous.system_keys.values()) <= set(new.system_keys.values()))


def decide(previous: Dataset | None, new: Dataset, *, current: str | None,
           owned: bool) -> Save:
    """Where ``new`` goes, given the data it replaces, the open workspace's id (None when
    none is open) and whether this browser owns that workspace."""
    if new.sample is not None:
        return Save.NOT_THE_SAMPLE
    if current is None or previous is None or not extends(previous, new):
        return Save.NEW
    return Save.IN_PLACE if owned else Save.COPY


def new_name(data: Dataset) -> str:
    """A new workspace's name: the data's title, WMT's test set and pair and the systems
    (``generaltest2023.en-he · 5 systems``), which the owner can change."""
    return data.title


def copy_name(name: str) -> str:
    """The name of a copy of the workspace called ``name``."""
    return tr("{name} (copy)").format(name=name)

"""Which value of each option a session starts with: the one rule for links and workspaces.

Lowest to highest: the app's defaults (the tokenizer follows the target language), then the
options a workspace was saved with (``?ws=ID``), then the options the link itself names
(``?ws=ID&tokenize=intl``). A link is what someone chose to share, so what it says wins; where
it overrides what the workspace saved, the app says so. After the first run of a session its
state owns every option: the URL is rewritten from it, and only the owner's changes are saved
into the workspace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Opening:
    """The options a session starts with (by widget key; only those the workspace or the link
    give: the rest keep their defaults), and those where the link overrode the workspace:
    key -> (the workspace's value, the link's)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    overridden: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)


def opening(saved: Mapping[str, Any], link: Mapping[str, Any]) -> Opening:
    """The options of a session opened by a link with ``link``'s options on a workspace saved
    with ``saved`` (empty for no workspace): the link's win."""
    overridden = {key: (saved[key], value) for key, value in link.items()
                  if key in saved and saved[key] != value}
    return Opening({**saved, **link}, overridden)

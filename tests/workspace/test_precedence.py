"""The one rule for the options a session starts with: the link's over the workspace's saved
ones over the defaults; where the link overrides the workspace, that is reported."""

from __future__ import annotations

import itertools

from bleu.workspace.precedence import opening

KEYS = ("tokenize", "lowercase", "max_ngram_order", "n_bootstrap")
#: each key absent (None) or one of two values: every combination is tried
CHOICES = (None, "13a", True)


def test_the_link_wins_and_says_over_what() -> None:
    saved = {"tokenize": "13a", "lowercase": True, "n_bootstrap": 500}
    link = {"tokenize": "intl", "lowercase": True, "max_ngram_order": 3}
    found = opening(saved, link)
    assert found.options == {"tokenize": "intl", "lowercase": True, "n_bootstrap": 500,
                             "max_ngram_order": 3}
    assert found.overridden == {"tokenize": ("13a", "intl")}  # equal values are no override


def test_no_workspace_or_no_link_options() -> None:
    assert opening({}, {"tokenize": "intl"}).options == {"tokenize": "intl"}
    assert opening({}, {"tokenize": "intl"}).overridden == {}
    assert opening({"tokenize": "zh"}, {}).options == {"tokenize": "zh"}
    assert opening({"tokenize": "zh"}, {}).overridden == {}


def _dictionaries() -> list[dict]:
    return [{key: value for key, value in zip(KEYS, values, strict=True) if value is not None}
            for values in itertools.product(CHOICES, repeat=len(KEYS))]


def test_every_key_takes_the_highest_source() -> None:
    """All 81 x 81 pairs of saved and link options (each key absent or one of two values)."""
    for saved, link in itertools.product(_dictionaries(), repeat=2):
        found = opening(saved, link)
        assert set(found.options) == set(saved) | set(link)
        for key, value in found.options.items():
            assert value == (link[key] if key in link else saved[key])
        assert found.overridden == {key: (saved[key], link[key]) for key in link
                                    if key in saved and saved[key] != link[key]}

"""The one rule for the options a session starts with: the link's over the workspace's saved
ones over the defaults; where the link overrides the workspace, that is reported."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bleu.workspace.precedence import opening

KEYS = st.sampled_from(["tokenize", "lowercase", "max_ngram_order", "n_bootstrap"])
VALUES = st.one_of(st.sampled_from(["13a", "intl", "char"]), st.booleans(),
                   st.integers(1, 9))


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


@given(st.dictionaries(KEYS, VALUES), st.dictionaries(KEYS, VALUES))
def test_every_key_takes_the_highest_source(saved: dict, link: dict) -> None:
    found = opening(saved, link)
    assert set(found.options) == set(saved) | set(link)
    for key, value in found.options.items():
        assert value == (link[key] if key in link else saved[key])
    assert set(found.overridden) == {key for key in link if key in saved
                                     and saved[key] != link[key]}

"""bleu/charts/schema_index.py: Altair's ``from_dict`` with its schema index built once per class
builds what Altair's own index, built anew, builds; and a class builds its index once."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest
from altair.utils import schemapi

from bleu import charts
from bleu.charts.schema_index import reuse_schema_index
from bleu.teaching.breakdown import walkthrough


def altairs_own(cls: type, dct: dict) -> object:
    """What Altair's ``from_dict`` returns for ``dct`` (validation aside): a fresh index."""
    return schemapi._FromDict(cls._default_wrapper_classes()).from_dict(dct, cls)


@pytest.mark.parametrize(("cls", "dct"), [
    (alt.Tooltip, {"shorthand": "n:O"}),
    (alt.Tooltip, {"field": "label", "type": "nominal", "title": "p_n"}),
    (alt.X, {"shorthand": "percent:Q", "scale": {"domain": [0, 100]}}),
    (alt.Text, {"shorthand": "label:N"}),
    (alt.TextValue, {"value": "undefined"}),
    (alt.Color, {"field": "kind", "type": "nominal", "legend": {"orient": "bottom"}}),
])
def test_channels_are_built_as_altair_builds_them(cls, dct):
    ours = cls.from_dict(dct, validate=False)  # as encode() calls it
    assert type(ours) is type(altairs_own(cls, dct))
    assert ours.to_dict() == altairs_own(cls, dct).to_dict()


def test_a_whole_chart_comes_back_as_altair_builds_it():
    walk = walkthrough("the the the the the the the",
                       ["the cat is on the mat", "there is a cat on the mat"])
    spec = charts.log_terms_chart(walk).to_dict()
    ours = alt.LayerChart.from_dict(spec)
    theirs = altairs_own(alt.LayerChart, spec)
    assert type(ours) is type(theirs) is alt.LayerChart
    assert ours.to_dict() == theirs.to_dict() == spec


def test_validation_is_kept():
    with pytest.raises(Exception, match=r"not valid|is not one of|Additional properties"):
        alt.X.from_dict({"field": "x", "type": "no such type"})


def test_each_class_builds_its_index_once(monkeypatch):
    assert reuse_schema_index()  # in place (bleu.charts installed it on import)
    built = []
    original = schemapi._FromDict.__init__

    def counted(self, wrapper_classes, /):
        built.append(1)
        original(self, wrapper_classes)

    monkeypatch.setattr(schemapi._FromDict, "__init__", counted)
    for _ in range(3):
        alt.Chart(pd.DataFrame({"n": [1]})).mark_bar().encode(
            x="n:O", tooltip=["n:O"], strokeDash=alt.value([2, 2]))
    assert len(built) <= 3  # at most once for each class used, not once per call
    before = len(built)
    alt.Chart(pd.DataFrame({"n": [1]})).mark_bar().encode(
        x="n:O", tooltip=["n:O"], strokeDash=alt.value([2, 2]))
    assert len(built) == before

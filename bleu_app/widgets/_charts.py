"""Charts on a page: every chart goes through ``show``, with the builder (``bleu.charts``) and
its arguments. The Vega-Lite spec is built once per server for the same builder and arguments
(hashed by content, ``_cache.HASH_FUNCS``) and shared read-only by every session: a rerun, or
another session on the same data and language, sends the stored spec and builds nothing. User
text in a chart's data is shown literally (``bleu.charts.text.visible_text``) and numbers take the
interface language's separators (Vega's ``config.locale``: the charts' d3 formats stay those of
the number rule) on every page.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from bleu.charts.locale import localized, localized_spec
from bleu.charts.text import visible_text
from bleu.display.escaping import show_controls_frame
from bleu.i18n import language
from bleu_app.runtime import _cache

#: Altair's active theme and data transformer belong to the process: one conversion at a time
_ALTAIR_GLOBALS = threading.Lock()
_THEMES = getattr(alt, "theme", None) or alt.themes
#: the data transformer that keeps a chart's tables aside (``_named``)
TRANSFORMER = "bleu_explorer_named"
#: the specs kept: a page's charts for the data, options and choices of the sessions lately
#: seen (How BLEU works: 4 per typed example)
KEPT = 256


def _named(data: Any, datasets: dict[str, Any]) -> dict[str, str]:
    """An Altair data transformer: the chart's table kept in ``datasets`` under a name of its
    own (Streamlit sends each as Arrow, as it does for ``st.altair_chart``), the spec naming
    it; equal tables are kept once, as ``st.altair_chart`` keeps them."""
    for name, kept in datasets.items():
        if kept is data or (isinstance(data, pd.DataFrame) and isinstance(kept, pd.DataFrame)
                            and data.equals(kept) and data.dtypes.equals(kept.dtypes)):
            return {"name": name}
    name = f"bleu-data-{len(datasets)}"
    datasets[name] = data
    return {"name": name}


alt.data_transformers.register(TRANSFORMER, _named)


def vega_lite(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """``chart`` as the Vega-Lite spec ``st.altair_chart`` sends (Streamlit's blank theme unless
    another was chosen, tables under ``datasets``), with user text shown literally and numbers
    in the interface language's separators. Not
    validated again: the builders' specs are validated by their tests (tests/charts)."""
    datasets: dict[str, Any] = {}
    shown = localized(visible_text(chart))
    with _ALTAIR_GLOBALS:
        theme = _THEMES.enable("none") if _THEMES.active == "default" else nullcontext()
        with theme, alt.data_transformers.enable(TRANSFORMER, datasets=datasets):
            spec = shown.to_dict(validate=False)
    spec["datasets"] = {**spec.get("datasets", {}), **datasets}
    _blank_null_legend_title(spec)
    return spec


def plain_spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """``chart.to_dict()`` (validated, data inline, Altair's own theme), never while another
    conversion has the process's theme or data transformer switched."""
    with _ALTAIR_GLOBALS:
        return chart.to_dict()


def _blank_null_legend_title(spec: dict[str, Any]) -> None:
    """A null colour-legend title as " ": Streamlit writes that into the spec it is given (for
    a Vega-Lite bug, its issue 9339); done here once, before the spec is shared, so that no
    session's run changes a spec that another is sending."""
    color = spec.get("encoding", {}).get("color")
    if not isinstance(color, dict):
        return
    if "title" in color and color["title"] is None:
        color["title"] = " "
    legend = color.get("legend")
    if isinstance(legend, dict) and "title" in legend and legend["title"] is None:
        legend["title"] = " "


@st.cache_resource(max_entries=KEPT, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _spec(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], lang: str,
          _builder: Callable[..., alt.TopLevelMixin]) -> dict[str, Any]:
    """The spec of ``name``'s chart of ``args`` and ``kwargs`` in language ``lang`` (builders
    translate their titles, and numbers take its separators); read-only: it is shared."""
    return vega_lite(_builder(*args, **kwargs))


def show(where: Any, builder: Callable[..., alt.TopLevelMixin], *args: Any,
         **options: Any) -> Any:
    """``where.vega_lite_chart`` (``where``: ``st``, a column, a container) of the chart
    ``builder(*args)`` (a ``functools.partial`` carries keyword arguments), its spec built
    once per server for arguments of the same content in the same interface language;
    ``options`` go to Streamlit (key, width, on_select...)."""
    func, bound, kwargs = (builder.func, builder.args, dict(builder.keywords)) \
        if isinstance(builder, partial) else (builder, (), {})
    spec = _spec(f"{func.__module__}.{func.__qualname__}", (*bound, *args), kwargs, language(),
                 _builder=func)
    return where.vega_lite_chart(spec=spec, **options)


@st.cache_resource(max_entries=KEPT, show_spinner=False, hash_funcs=_cache.HASH_FUNCS)
def _layout(name: str, params: tuple[Any, ...], columns: tuple[tuple[str, str], ...], lang: str,
            _layout: Callable[..., alt.TopLevelMixin],
            _empty: pd.DataFrame) -> tuple[dict[str, Any], str | None]:
    """The spec of layout ``name`` of a table with ``columns`` (name, dtype) and ``params`` in
    ``lang``, drawn on none of its rows, and the name its table has there (None where the
    layout made more than one table: it cannot be filled in)."""
    spec = vega_lite(_layout(_empty, *params))
    names = list(spec["datasets"])
    return spec, names[0] if len(names) == 1 else None


def show_table(where: Any, layout: Callable[..., alt.TopLevelMixin], table: pd.DataFrame,
               *params: Any, **options: Any) -> Any:
    """``show(where, layout, table, *params)`` for a layout (``bleu.charts.teaching``: one that
    reads ``table`` only as the chart's data): the spec is built once per server for the same
    ``params``, columns and language, and each new table is sent in it (with user text shown
    literally). A chart redrawn on every keystroke then builds nothing."""
    name = f"{layout.__module__}.{layout.__qualname__}"
    columns = tuple((str(column), str(dtype)) for column, dtype in table.dtypes.items())
    spec, table_name = _layout(name, params, columns, language(), _layout=layout,
                               _empty=table.iloc[:0])
    if table_name is None:
        return show(where, layout, table, *params, **options)
    sent = {**spec, "datasets": {**spec["datasets"], table_name: show_controls_frame(table)}}
    return where.vega_lite_chart(spec=sent, **options)


def show_spec(where: Any, spec: dict, **options: Any) -> Any:
    """``where.vega_lite_chart(spec, **options)`` for a spec made as a dict (numbers written
    for the interface language)."""
    return where.vega_lite_chart(localized_spec(spec), **options)

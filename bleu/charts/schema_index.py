"""Altair's index of its schema classes, built once: Altair 6 builds it anew on every
``from_dict`` call (a JSON dump and hash of each of some 570 classes' schemas, about 3 ms), and
every shorthand in an encoding (``"n:O"``), ``alt.value`` and ``alt.datum`` is such a call: two
thirds of the time our builders took. The index depends on the classes only, so it is kept
per class for the process; the objects ``from_dict`` returns are Altair's own, unchanged.

The index holds the classes defined when a class first converts a dict: Altair's own are all
defined when ``altair`` is imported. ``reuse_schema_index`` leaves Altair as it is where its
``from_dict`` no longer looks as this code expects (``tests/charts/test_schema_index.py``).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from altair.utils import schemapi

_MARK = "_bleu_reuses_schema_index"


def reuse_schema_index() -> bool:
    """Make ``SchemaBase.from_dict`` reuse one index per class (once per process); True when
    that is in place."""
    base = getattr(schemapi, "SchemaBase", None)
    index_class = getattr(schemapi, "_FromDict", None)
    original = getattr(base, "from_dict", None)
    if original is None or index_class is None:
        return False
    if getattr(original, _MARK, False):
        return True
    if list(inspect.signature(original).parameters) != ["dct", "validate"] \
            or not hasattr(base, "_default_wrapper_classes"):
        return False  # an Altair this code does not know: leave it alone

    @functools.cache
    def index(cls: type) -> Any:
        return index_class(cls._default_wrapper_classes())

    def from_dict(cls: type, dct: dict[str, Any], validate: bool = True) -> Any:
        if validate:
            cls.validate(dct)
        return index(cls).from_dict(dct, cls)

    from_dict.__doc__ = original.__doc__
    setattr(from_dict, _MARK, True)
    base.from_dict = classmethod(from_dict)
    return True


reuse_schema_index()

"""chrF's options (validated once), its reproducibility signature and its score object, each
as sacrebleu 2.6 spells them (field order, abbreviations, names, text and JSON)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import UnknownOptionError
from ..base import ScoreText, Signature


def _check_order(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise UnknownOptionError(f"{what} must be an integer >= 0, got {value!r}.")
    return int(value)


def _check_flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool | np.bool_ | int | np.integer) or value not in (0, 1):
        raise UnknownOptionError(f"{what} must be True or False, got {value!r}.")
    return bool(value)


@dataclass(frozen=True)
class CHRFOptions:
    """Every option that changes a chrF number, validated once (sacrebleu's names, defaults)."""

    char_order: int = 6
    word_order: int = 0
    beta: float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "char_order", _check_order(self.char_order, "char_order"))
        set_field(self, "word_order", _check_order(self.word_order, "word_order"))
        if self.char_order + self.word_order == 0:
            raise UnknownOptionError(
                "char_order and word_order are both 0: chrF needs at least one n-gram order "
                "(char_order >= 1, e.g. 6 for chrF, or word_order >= 1, e.g. 2 for chrF++)."
            )
        beta = self.beta
        if (isinstance(beta, bool) or not isinstance(beta, int | float | np.integer | np.floating)
                or not math.isfinite(beta) or beta < 0):
            raise UnknownOptionError(
                f"beta must be a finite number >= 0 (recall's weight; 2 for chrF2), got {beta!r}."
            )
        # a plain int or float: the score's name prints it as sacrebleu does (chrF2, chrF0.5)
        set_field(self, "beta", int(beta) if isinstance(beta, int | np.integer) else float(beta))
        for flag in ("lowercase", "whitespace", "eps_smoothing"):
            set_field(self, flag, _check_flag(getattr(self, flag), flag))

    @property
    def order(self) -> int:
        """Character plus word orders: the number of ``[hyp, ref, match]`` triples in a row."""
        return self.char_order + self.word_order

    @property
    def name(self) -> str:
        return score_name(self.beta, self.word_order)


def score_name(beta: float, word_order: int) -> str:
    """sacrebleu's name of the score: ``chrF{beta}`` and a ``+`` per word order (chrF2++)."""
    return f"chrF{beta}" + "+" * word_order


#: the short names of chrF's own signature fields (sacrebleu's ``--short``)
SHORT_NAMES = {"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"}


def chrf_signature(options: CHRFOptions, n_refs: int, **resampling: Any) -> Signature:
    """sacrebleu's chrF signature (``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|
    version:...``); ``resampling`` takes a test's or CI's ``bs``, ``ar`` and ``seed``."""
    own = [("case", "lc" if options.lowercase else "mixed"),
           ("eff", "no" if options.eps_smoothing else "yes"),
           ("nc", options.char_order), ("nw", options.word_order),
           ("space", "yes" if options.whitespace else "no")]
    return Signature.build(n_refs, own, SHORT_NAMES, **resampling)


@dataclass(frozen=True)
class CHRFScore(ScoreText):
    """A corpus or sentence chrF (chrF++) score with sacrebleu's fields."""

    score: float
    char_order: int
    word_order: int
    beta: float

    @property
    def name(self) -> str:
        return score_name(self.beta, self.word_order)


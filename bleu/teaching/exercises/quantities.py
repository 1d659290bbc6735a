"""The quantities a student computes by hand: their keys (``matches_2``, ``p_1``, ``c``,
``bp``, ``bleu``...), what kind of number each is (a count, a precision, a factor, a score)
and the label of its box."""

from __future__ import annotations

from ...i18n import tr

#: what a student can be asked, besides the per-order m_n, t_n and p_n
LENGTHS = ("c", "r", "bp")
FINAL = "bleu"
#: the geometric mean exp(Σ w_n log p_n): asked in the step-by-step view only
MEAN = "mean"


def order_keys(order: int, *names: str) -> tuple[str, ...]:
    """``matches_1``, ``total_1``, ``p_1``, ... for orders 1..``order`` (``names``: which of
    ``matches``, ``total``, ``p``; all three by default), order by order."""
    kinds = names or ("matches", "total", "p")
    return tuple(f"{kind}_{n}" for n in range(1, order + 1) for kind in kinds)


def all_keys(order: int = 4) -> tuple[str, ...]:
    """Every quantity of a BLEU computation, in the order of the formula."""
    return (*order_keys(order), *LENGTHS, FINAL)


def kind_of(key: str) -> str:
    """``count``, ``precision``, ``factor`` or ``score``: how the answer is read and compared."""
    if key.startswith(("matches_", "total_")) or key in ("c", "r"):
        return "count"
    if key.startswith("p_"):
        return "precision"
    return "factor" if key in ("bp", MEAN) else "score"


def order_of(key: str) -> int:
    """The n-gram order of a per-order key (``p_3`` -> 3)."""
    return int(key.rsplit("_", 1)[1])


def label(key: str) -> str:
    """What a quantity is, as the exercise form labels its box."""
    if key.startswith("matches_"):
        return tr("m_{n}: credited (clipped) {n}-grams").format(n=order_of(key))
    if key.startswith("total_"):
        return tr("t_{n}: {n}-grams in the candidate").format(n=order_of(key))
    if key.startswith("p_"):
        return tr("p_{n} = m_{n}/t_{n}").format(n=order_of(key))
    return {"c": tr("c: candidate length (tokens)"), "r": tr("r: reference length (tokens)"),
            "bp": tr("BP: brevity penalty"), FINAL: tr("BLEU (0–100)"),
            MEAN: tr("the geometric mean exp(Σ w_n log p_n)")}[key]

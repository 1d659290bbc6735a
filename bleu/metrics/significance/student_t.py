"""Student's t distribution's two-sided tail, for the paired t-test (scipy stays a test-only
dependency): ``P(|T| >= t) = I_x(df/2, 1/2)`` with ``x = df / (df + t**2)``, the regularized
incomplete beta function evaluated by its continued fraction (modified Lentz's method, as in
Numerical Recipes, 3rd ed., section 6.4), in float64 to about 1e-15 relative.
"""

from __future__ import annotations

import math

_EPSILON = 1e-16
_TINY = 1e-300
_MAX_TERMS = 10_000


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), converging for x < (a + 1) / (a + b + 2)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    value = d
    for m in range(1, _MAX_TERMS):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            value *= c * d
        if abs(c * d - 1.0) < _EPSILON:
            return value
    raise ArithmeticError(f"the incomplete beta fraction did not converge (a={a}, b={b}, x={x})")


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def two_sided_p(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom (NaN for a NaN t)."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2.0, 0.5, df / (df + t * t))

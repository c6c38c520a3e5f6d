"""Template filters for ratings on the display scale (:mod:`ratings.display`).

``{{ r|rating }}`` takes a ``Rating`` (or any object with ``mu`` and ``sigma``) and prints
"1620" or "1500?" (provisional); ``{{ r|rating_pm }}`` prints the ± ("± 150").
"""

from __future__ import annotations

from typing import Any

from django import template

from games import wording
from ratings import display

register = template.Library()


@register.filter
def rating(r: Any) -> str:
    if r is None or getattr(r, "mu", None) is None:
        return "–"
    return display.text(r.mu, r.sigma)


@register.filter
def rating_pm(r: Any) -> str:
    if r is None or getattr(r, "sigma", None) is None:
        return ""
    return f"± {display.uncertainty(r.sigma)}"


@register.filter
def mu_rating(mu: float | None) -> str:
    """A bare skill estimate (e.g. from a rating change) on the display scale."""
    return "–" if mu is None else str(display.rating(mu))


@register.filter
def rating_change(c: Any) -> str:
    """A rating change (anything with ``mu_before`` and ``mu_after``) on the display scale: "+38"."""
    if c is None or getattr(c, "mu_before", None) is None:
        return ""
    return display.signed(display.change(c.mu_before, c.mu_after))


@register.filter
def provisional(r: Any) -> bool:
    """Whether a rating (anything with ``sigma``) is still provisional."""
    return r is not None and getattr(r, "sigma", None) is not None and display.is_provisional(r.sigma)


@register.filter
def ordinal(n: int | None) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th"."""
    return "" if n is None else wording.ordinal(int(n))

"""Template filters for ratings on the display scale (:mod:`ratings.display`).

``{{ r|rating }}`` takes a ``Rating`` (or any object with ``mu`` and ``sigma``) and prints
"1620" or "1500?" (provisional); ``{{ r|rating_pm }}`` prints the ± ("± 150").
"""

from __future__ import annotations

from typing import Any

from django import template

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

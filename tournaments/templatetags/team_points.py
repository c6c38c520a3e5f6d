"""``{{ value|halves }}``: a team score as people write it (2½, ½, 3), as on the match pages."""

from __future__ import annotations

from django import template

from ..teams.event_pages import points

register = template.Library()


@register.filter
def halves(value: float | None) -> str:
    return points(value)

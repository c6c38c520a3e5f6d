"""The time-zone menu: some 600 raw tz names are unreadable in one list, so the menu groups the
canonical "Region/City" zones by region (Europe, America, Asia, …) and names each by its city
("New York", "Buenos Aires (Argentina)"). Legacy aliases ("US/Eastern", "Etc/GMT+5", "GB",
"EST5EDT", and the backward links "Asia/Calcutta"… that ``zone.tab`` does not list) are left out;
UTC stays (the empty value: no zone chosen). A zone someone already
has that the menu leaves out is still offered to them (:func:`zone_choices`'s ``keep``).

``static/js/timezone.js`` puts the browser's own zone first (and chooses it when none is set).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import TZPATH, available_timezones

from django.utils.translation import gettext_lazy, pgettext_lazy

#: The tz database's regions, as the menu's groups (in this order); any other first part is a
#: legacy alias.
REGIONS: dict[str, Any] = {
    "Europe": pgettext_lazy("time-zone region", "Europe"),
    "America": pgettext_lazy("time-zone region", "America"),
    "Asia": pgettext_lazy("time-zone region", "Asia"),
    "Africa": pgettext_lazy("time-zone region", "Africa"),
    "Australia": pgettext_lazy("time-zone region", "Australia"),
    "Pacific": pgettext_lazy("time-zone region", "Pacific"),
    "Atlantic": pgettext_lazy("time-zone region", "Atlantic"),
    "Indian": pgettext_lazy("time-zone region", "Indian Ocean"),
    "Antarctica": pgettext_lazy("time-zone region", "Antarctica"),
    "Arctic": pgettext_lazy("time-zone region", "Arctic"),
}


def city_name(zone: str) -> str:
    """ "America/New_York" → "New York"; "America/Argentina/Buenos_Aires" → "Buenos Aires
    (Argentina)"."""
    parts = [p.replace("_", " ") for p in zone.split("/")[1:]]
    city = parts[-1]
    return f"{city} ({', '.join(parts[:-1])})" if len(parts) > 1 else city


def _zone_tab() -> str:
    """The tz database's ``zone.tab`` (one line per canonical zone of each country), from the
    system's zoneinfo or the ``tzdata`` package; "" when neither has it."""
    for base in TZPATH:
        try:
            return Path(base, "zone.tab").read_text(encoding="utf-8")
        except OSError:
            continue
    try:
        return resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError):
        return ""


def canonical_zones() -> set[str]:
    """The zones the menu offers: ``available_timezones()`` in the tz regions, less the backward
    links ("Europe/Belfast", "Asia/Calcutta") when ``zone.tab`` tells which zones are canonical."""
    zones = {z for z in available_timezones() if z.split("/")[0] in REGIONS and "/" in z}
    tab = {line.split("\t")[2] for line in _zone_tab().splitlines() if line and not line.startswith("#")}
    return zones & tab if tab else zones


@cache
def grouped_zones() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """(region, ((zone, city), …)) for every canonical zone, cities in alphabetical order."""
    zones = canonical_zones()
    out = []
    for region in REGIONS:
        cities = sorted(
            ((z, city_name(z)) for z in zones if z.split("/")[0] == region),
            key=lambda zc: zc[1].casefold(),
        )
        out.append((region, tuple(cities)))
    return tuple(out)


def listed(zone: str) -> bool:
    """Whether the menu offers ``zone`` in a region's group."""
    return any(zone == z for _region, cities in grouped_zones() for z, _c in cities)


def zone_choices(keep: str = "") -> list[Any]:
    """The menu's choices: UTC (the empty value), then one optgroup per region; ``keep`` (the
    zone someone has, if the menu leaves it out) in a group of its own at the end."""
    choices: list[Any] = [("", "UTC")]
    choices += [(REGIONS[region], list(cities)) for region, cities in grouped_zones() if cities]
    if keep and keep in available_timezones() and not listed(keep):
        choices.append((gettext_lazy("Other"), [(keep, keep.replace("_", " "))]))
    return choices

"""A season's settings, checked: what ``season_create`` and ``season_update`` accept.

Each check raises ``InvalidInput`` saying what was wrong and why; nothing is written before all
of them pass."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from common.errors import InvalidInput
from games.models import GameKind

from ..models import Season, Tournament

#: The settings a season takes (``season_create``/``season_update`` keyword arguments).
SETTINGS = (
    "name",
    "starts",
    "ends",
    "game",
    "edition",
    "seats",
    "format",
    "rounds",
    "time_control",
    "rated",
    "points_scale",
    "round_times",
    "round_deadline_minutes",
    "deadline_rule",
    "division_size",
    "promote",
    "relegate",
    "newcomers",
    "series_points",
    "best_of",
    "prizes",
    "team_boards",
)
#: The longest round deadline: a year.
MAX_MINUTES = 366 * 24 * 60
#: The most boards a team match of a team season has.
MAX_TEAM_BOARDS = 12
FORMATS = (Tournament.Format.ROUND_ROBIN, Tournament.Format.SWISS)


def check_settings(*, kind: str, values: dict[str, Any]) -> dict[str, Any]:
    """The settings with ``round_times`` normalised (ISO, UTC); ``InvalidInput`` on the first wrong one."""
    unknown = sorted(set(values) - set(SETTINGS))
    if unknown:
        raise InvalidInput(_("a season has no setting %(names)s") % {"names": ", ".join(unknown)})
    if kind not in Season.Kind.values:
        raise InvalidInput(
            _("a season's kind is one of %(kinds)s, not %(kind)s")
            % {"kinds": ", ".join(Season.Kind.values), "kind": repr(kind)}
        )
    out = dict(values)
    _check_name(out)
    _check_play(kind, out)
    _check_divisions(out)
    _check_team_boards(kind, out)
    if "round_times" in out:
        out["round_times"] = checked_times(out["round_times"])
    _check_deadline(out)
    _check_series(out)
    if "prizes" in out:
        out["prizes"] = checked_prizes(out["prizes"])
    return out


def _check_name(v: dict[str, Any]) -> None:
    if "name" in v and not str(v["name"] or "").strip():
        raise InvalidInput(_("a season needs a name"))
    if v.get("starts") and v.get("ends") and v["starts"] > v["ends"]:
        raise InvalidInput(_("a season cannot end before it starts"))


def _check_play(kind: str, v: dict[str, Any]) -> None:
    if kind == Season.Kind.DIVISIONS and not v.get("game", "x"):
        raise InvalidInput(_("a season with divisions needs a game: shacru, azacru or pacru"))
    if v.get("game") and v["game"] not in GameKind.values:
        raise InvalidInput(
            _("game must be shacru, azacru or pacru, not %(game)s") % {"game": repr(v["game"])}
        )
    if "seats" in v and v["seats"] not in (2, 3, 4):
        raise InvalidInput(_("seats must be 2, 3 or 4, not %(seats)s") % {"seats": v["seats"]})
    if "format" in v and v["format"] not in FORMATS:
        raise InvalidInput(
            _("a division plays a round robin or a Swiss, not %(format)s") % {"format": repr(v["format"])}
        )
    rounds = v.get("rounds")
    if rounds is not None and (not isinstance(rounds, int) or not 0 <= rounds <= 30):
        raise InvalidInput(_("rounds must be 0 (computed) to 30"))
    scale = v.get("points_scale")
    if scale is not None and (
        not isinstance(scale, list)
        or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in scale)
    ):
        raise InvalidInput(_("points_scale is a list of numbers, best place first"))


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_divisions(v: dict[str, Any]) -> None:
    seats = v.get("seats", 2)
    size = v.get("division_size", 8)
    promote, relegate = v.get("promote", 2), v.get("relegate", 2)
    if not all(_number(x) for x in (size, promote, relegate)):
        raise InvalidInput(_("division_size, promote and relegate are whole numbers"))
    if size < max(3, seats):
        raise InvalidInput(
            _("a division needs at least %(n)s players (3, and never fewer than the seats at a table)")
            % {"n": max(3, seats)}
        )
    if promote < 0 or relegate < 0:
        raise InvalidInput(_("promote and relegate cannot be negative"))
    if promote + relegate >= size:
        raise InvalidInput(
            _(
                "%(promote)s going up and %(relegate)s going down leave nobody staying in a division of "
                "%(size)s: promote + relegate must be below the division size"
            )
            % {"promote": promote, "relegate": relegate, "size": size}
        )
    if "newcomers" in v and v["newcomers"] not in Season.Placement.values:
        raise InvalidInput(_("newcomers are placed at the bottom or by rating (bottom, rating)"))


def _check_team_boards(kind: str, v: dict[str, Any]) -> None:
    boards = v.get("team_boards")
    if boards is None:
        return
    if not _number(boards) or not 1 <= boards <= MAX_TEAM_BOARDS:
        raise InvalidInput(
            _(
                "team_boards is the number of boards of each team match: 1 to %(n)s "
                "(or empty: a season of players)"
            )
            % {"n": MAX_TEAM_BOARDS}
        )
    if kind != Season.Kind.DIVISIONS:
        raise InvalidInput(_("only a season with divisions can be a season of teams (team_boards)"))


def checked_times(times: Any) -> list[str]:
    """Round start times: ISO datetimes, each after the one before; naive ones are read as UTC."""
    if times is None:
        return []
    if not isinstance(times, list):
        raise InvalidInput(_("round_times is a list of dates and times, one per round"))
    out: list[datetime] = []
    for i, value in enumerate(times, start=1):
        try:
            moment = datetime.fromisoformat(str(value))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            moment = moment.astimezone(UTC)
        except (ValueError, OverflowError):
            raise InvalidInput(
                _("round %(n)s: %(value)s is not a date and time (e.g. 2026-12-01T19:00:00Z)")
                % {"n": i, "value": repr(value)}
            ) from None
        if out and moment <= out[-1]:
            raise InvalidInput(
                _("round %(n)s starts no later than round %(before)s: each round must start after the last")
                % {"n": i, "before": i - 1}
            )
        out.append(moment)
    return [m.isoformat() for m in out]


def _check_deadline(v: dict[str, Any]) -> None:
    minutes = v.get("round_deadline_minutes")
    if minutes is not None and (not _number(minutes) or not 1 <= minutes <= MAX_MINUTES):
        raise InvalidInput(
            _("round_deadline_minutes is a positive number of minutes (or empty: no deadline)")
        )
    if "deadline_rule" in v and v["deadline_rule"] not in Tournament.DeadlineRule.values:
        raise InvalidInput(
            _("deadline_rule is one of %(rules)s") % {"rules": ", ".join(Tournament.DeadlineRule.values)}
        )


def _check_series(v: dict[str, Any]) -> None:
    points = v.get("series_points")
    if points is not None and (
        not isinstance(points, list)
        or not all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0 for x in points)
    ):
        raise InvalidInput(_("series_points is a list of points (zero or more) by place, first place first"))
    best = v.get("best_of")
    if best is not None and (not _number(best) or best < 1):
        raise InvalidInput(_("best_of counts at least 1 result (or is empty: every result counts)"))


def checked_prizes(prizes: Any) -> list[dict[str, Any]]:
    """Prizes: [{"label": text, "places": [first, last], "rating_max": null or a rating}, ...]."""
    if prizes is None:
        return []
    if not isinstance(prizes, list):
        raise InvalidInput(_("prizes is a list of prizes"))
    out = []
    for i, prize in enumerate(prizes, start=1):
        if not isinstance(prize, dict) or not str(prize.get("label") or "").strip():
            raise InvalidInput(_("prize %(n)s needs a label") % {"n": i})
        places = prize.get("places")
        if (
            not isinstance(places, list)
            or len(places) != 2
            or not all(_number(p) for p in places)
            or not 1 <= places[0] <= places[1]
        ):
            raise InvalidInput(
                _("prize %(n)s: places is [first, last], e.g. [1, 3], first at least 1 and not after last")
                % {"n": i}
            )
        cap = prize.get("rating_max")
        if cap is not None and (not _number(cap) or cap < 0):
            raise InvalidInput(_("prize %(n)s: rating_max is a rating (or empty: every rating)") % {"n": i})
        out.append({"label": str(prize["label"]).strip(), "places": list(places), "rating_max": cap})
    return out

"""Leagues and events being set up: creating and joining leagues, creating events, opening
registration, and the organisers' audit trail.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.clocks import TimeControl
from games.guests import forbid_guest
from games.models import GameKind, Player

from ...calendar import schedule
from ...models import AuditEntry, League, Season, Tournament
from ...organising import roles
from ...pairing.bracket import setting_error
from ...selectors import is_organiser
from ...standings import REQUESTED_BYES
from ...teams.battles import checked_battle

# ------------------------------------------------------------------- leagues


def require_organiser(*, league: League, player: Player) -> None:
    if not is_organiser(league, player):
        raise Forbidden(_("only organisers of %(league)s may do this") % {"league": league.name})


@transaction.atomic
def league_create(*, organiser: Player, name: str, slug: str = "", description: str = "") -> League:
    forbid_guest(organiser, "create leagues")
    roles.require_role(player=organiser, doing="creating a league")
    slug = slug or slugify(name)
    if not slug:
        raise InvalidInput(_("a league needs a name with letters or digits"))
    if League.objects.filter(slug=slug).exists():
        raise Conflict(_("the league address %(slug)s is taken") % {"slug": repr(slug)})
    league = League.objects.create(name=name, slug=slug, description=description)
    league.organisers.add(organiser)
    league.members.add(organiser)
    return league


def league_join(*, league: League, player: Player) -> None:
    forbid_guest(player, "join leagues")
    league.members.add(player)


# --------------------------------------------------------------- tournaments


@transaction.atomic
def tournament_create(
    *,
    organiser: Player,
    league: League,
    name: str,
    game: str,
    seats: int,
    format: str = Tournament.Format.SWISS,
    rounds: int | None = None,
    advance: int = 1,
    edition: str = "302",
    time_control: dict[str, Any] | None = None,
    rated: bool = True,
    points_scale: list[float] | None = None,
    check_in: bool = False,
    requested_bye: str = "half",
    season: Season | None = None,
    open_registration: bool = True,
    max_players: int | None = None,
    rating_min: int | None = None,
    rating_max: int | None = None,
    registration_opens: Any = None,
    registration_closes: Any = None,
    now: datetime | None = None,
    duration_minutes: int | None = None,
    berserk: bool = True,
    team_battle_top: int | None = None,
    battle_teams: list[int | str] | None = None,
    **calendar: Any,
) -> Tournament:
    """A new event in the league, open for registration unless ``open_registration`` is false.

    ``calendar``: the start and round schedule (``starts_at``, ``min_players``, ``check_in_minutes``,
    ``round_start``, ``round_interval_minutes``, ``round_times``, ``round_deadline_minutes``,
    ``deadline_rule``), checked by ``tournaments.calendar.schedule.checked_fields`` against ``now``.

    An arena (format ``arena``) runs ``duration_minutes`` from its start and has no rounds;
    ``berserk`` lets its players halve their own clock for a point more (only under a running clock:
    untimed and correspondence arenas have no berserk, whatever is asked; ``_checked_arena``).
    A team battle (an arena only): ``team_battle_top`` best scorers of each of ``battle_teams``
    (slugs or ids, two or more) count (``tournaments.teams.battles``).

    Only the league's organisers may create one. Every setting is checked first, in this order: entry
    rules, format, scoring, time control and edition, season.
    """
    require_organiser(league=league, player=organiser)
    rounds, tc, edition = event_settings_check(
        game=game,
        seats=seats,
        format=format,
        rounds=rounds,
        advance=advance,
        edition=edition,
        time_control=time_control,
        points_scale=points_scale,
        requested_bye=requested_bye,
        max_players=max_players,
        rating_min=rating_min,
        rating_max=rating_max,
        registration_opens=registration_opens,
        registration_closes=registration_closes,
    )
    duration_minutes, berserk = _checked_arena(
        format=format,
        rounds=rounds,
        duration_minutes=duration_minutes,
        berserk=berserk,
        tc=tc,
        points_scale=points_scale,
        calendar=calendar,
    )
    team_battle_top, teams = checked_battle(format=format, top=team_battle_top, teams=battle_teams)
    if season is not None and season.league_id != league.pk:
        raise InvalidInput(_("the season belongs to another league"))
    unknown = set(calendar) - schedule.FIELDS
    if unknown:
        raise TypeError(f"tournament_create() got unexpected arguments {sorted(unknown)}")
    when = schedule.checked_fields(
        now=now or timezone.now(),
        format=format,
        rounds=rounds,
        max_players=max_players,
        registration_closes=registration_closes,
        **calendar,
    )
    t = Tournament.objects.create(
        **when,
        league=league,
        season=season,
        name=name,
        game=game,
        edition=edition,
        seats=seats,
        format=format,
        rounds=rounds,
        advance=advance,
        time_control=tc.to_dict(),
        rated=rated,
        points_scale=points_scale,
        check_in=check_in,
        requested_bye=requested_bye,
        max_players=max_players,
        rating_min=rating_min,
        rating_max=rating_max,
        registration_opens=registration_opens,
        registration_closes=registration_closes,
        status=Tournament.Status.REGISTRATION if open_registration else Tournament.Status.DRAFT,
        created_by=organiser,
        duration_minutes=duration_minutes,
        berserk=berserk,
        team_battle_top=team_battle_top,
    )
    t.battle_teams.set(teams)
    return t


def event_settings_check(
    *,
    game: str,
    seats: int,
    format: str = Tournament.Format.SWISS,
    rounds: int | None = None,
    advance: int = 1,
    edition: str = "302",
    time_control: dict[str, Any] | None = None,
    points_scale: list[float] | None = None,
    requested_bye: str = "half",
    max_players: int | None = None,
    rating_min: int | None = None,
    rating_max: int | None = None,
    registration_opens: Any = None,
    registration_closes: Any = None,
) -> tuple[int, TimeControl, str]:
    """Check an event's settings as :func:`tournament_create` does, creating nothing (a recurring
    event's template is checked so): the rounds (a Swiss's default when not named), the time control
    and the edition, or ``InvalidInput`` with the reason."""
    _check_entry_rules(max_players, rating_min, rating_max, registration_opens, registration_closes)
    rounds = _checked_format(game=game, seats=seats, format=format, rounds=rounds, advance=advance)
    _check_scoring(seats=seats, points_scale=points_scale, requested_bye=requested_bye)
    tc, edition = _checked_play(game=game, time_control=time_control, edition=edition)
    return rounds, tc, edition


def _check_entry_rules(
    max_players: int | None,
    rating_min: int | None,
    rating_max: int | None,
    registration_opens: Any,
    registration_closes: Any,
) -> None:
    """Check who may enter and when: the number of places, the rating bounds, the registration window."""
    if max_players is not None and max_players < 2:
        raise InvalidInput(_("an event needs room for at least 2 players, not %(n)s") % {"n": max_players})
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidInput(
            _("the minimum rating (%(min)s) is above the maximum (%(max)s)")
            % {"min": rating_min, "max": rating_max}
        )
    if (rating_min is not None and rating_min < 0) or (rating_max is not None and rating_max < 0):
        raise InvalidInput(_("rating bounds cannot be negative"))
    if registration_opens and registration_closes and registration_opens >= registration_closes:
        raise InvalidInput(_("registration must open before it closes"))


def _checked_format(*, game: str, seats: int, format: str, rounds: int | None, advance: int) -> int:
    """Check the game, seats and format; the number of rounds (a Swiss's default when not named)."""
    if game not in GameKind.values:
        raise InvalidInput(_("game must be shacru, azacru or pacru, not %(game)s") % {"game": repr(game)})
    if seats not in (2, 3, 4):
        raise InvalidInput(_("seats must be 2, 3 or 4"))
    if format not in Tournament.Format.values:
        raise InvalidInput(
            _("format must be one of %(formats)s") % {"formats": ", ".join(Tournament.Format.values)}
        )
    if rounds is None:  # not named: a Swiss plays the default, other formats compute theirs at the start
        rounds = Tournament.DEFAULT_SWISS_ROUNDS if format == Tournament.Format.SWISS else 0
    if format == Tournament.Format.SWISS and not 1 <= rounds <= 30:
        raise InvalidInput(_("a Swiss needs 1 to 30 rounds"))
    if format == Tournament.Format.KNOCKOUT and (error := setting_error(seats, advance)):
        raise InvalidInput(_("knockout: %(error)s") % {"error": error})
    if format == Tournament.Format.DOUBLE_ELIMINATION and seats != 2:
        raise InvalidInput(
            _("double elimination is played on 2-seat tables only, not %(seats)s") % {"seats": seats}
        )
    return rounds


#: How long an arena may run, in minutes: five minutes to a day.
ARENA_MINUTES = (5, 1440)


def _checked_arena(
    *,
    format: str,
    rounds: int,
    duration_minutes: int | None,
    berserk: bool,
    tc: TimeControl,
    points_scale: list[float] | None,
    calendar: dict[str, Any],
) -> tuple[int | None, bool]:
    """An arena's duration and whether it has berserk (only under a clock that runs while one
    thinks: not untimed, not correspondence); other formats take no duration and no berserk."""
    if format != Tournament.Format.ARENA:
        if duration_minutes is not None:
            raise InvalidInput(_("only an arena has a duration: other formats play their rounds out"))
        return None, False
    low, high = ARENA_MINUTES
    if duration_minutes is None:
        raise InvalidInput(
            _("an arena needs duration_minutes: how long it runs, %(low)s to %(high)s minutes")
            % {"low": low, "high": high}
        )
    if not low <= duration_minutes <= high:
        raise InvalidInput(
            _("an arena runs %(low)s to %(high)s minutes, not %(value)s")
            % {"low": low, "high": high, "value": duration_minutes}
        )
    if rounds:
        raise InvalidInput(_("an arena has no rounds: its players are paired until its time is up"))
    rounds_set = {
        k for k in ("round_interval_minutes", "round_times", "round_deadline_minutes") if calendar.get(k)
    }
    if calendar.get("round_start", Tournament.RoundStart.ASAP) != Tournament.RoundStart.ASAP or rounds_set:
        raise InvalidInput(_("an arena has no rounds, so no round schedule or round deadline"))
    if points_scale is not None and any(float(v) != int(v) for v in points_scale):
        raise InvalidInput(_("an arena's points are whole numbers: give a points scale without fractions"))
    return duration_minutes, bool(berserk) and tc.timed and tc.kind != "correspondence"


def _check_scoring(*, seats: int, points_scale: list[float] | None, requested_bye: str) -> None:
    """Check the points per place (one value a seat) and what a requested bye pays."""
    if points_scale is not None and len(points_scale) != seats:
        raise InvalidInput(
            ngettext(
                "points_scale needs %(n)d value, best place first",
                "points_scale needs %(n)d values, best place first",
                seats,
            )
            % {"n": seats}
        )
    if requested_bye not in REQUESTED_BYES:
        raise InvalidInput(
            _("a bye the organiser gives pays zero or half, not %(value)s") % {"value": repr(requested_bye)}
        )


def _checked_play(*, game: str, time_control: dict[str, Any] | None, edition: str) -> tuple[TimeControl, str]:
    """The time control and the rules edition, checked (``InvalidInput`` with the reason if not valid)."""
    try:
        tc = TimeControl.from_dict(time_control)
        edition = engine.variant(game).edition_for(edition)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    return tc, edition


def _locked(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    return t


def refuse_arena(*, t: Tournament) -> None:
    """The round-based actions (next round, pairing again, seeds, byes, late entries) refuse an
    arena: it has none of them (``tournaments.arena``)."""
    if t.format == Tournament.Format.ARENA:
        raise Conflict(
            _(
                "%(event)s is an arena: it has no rounds, seeds, byes or late entries. Players join "
                "at any time and are paired as soon as they are free, until its time is up."
            )
            % {"event": t.name}
        )


@transaction.atomic
def registration_open(*, tournament_id: int, by: Player) -> Tournament:
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    if t.status != Tournament.Status.DRAFT:
        raise Conflict(
            _("registration can be opened only for a draft, and this tournament is %(status)s")
            % {"status": t.get_status_display()}
        )
    t.status = Tournament.Status.REGISTRATION
    t.save(update_fields=["status"])
    return t


def audit(*, t: Tournament, by: Player | None, action: str, **fields: Any) -> AuditEntry:
    """Write what an organiser did to the event (``AuditEntry``)."""
    return AuditEntry.objects.create(tournament=t, by=by, action=action, **fields)

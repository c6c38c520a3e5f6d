"""Seasons that are competitions: creating and editing a season, players registering, marking
rounds they cannot play and withdrawing, the start (players placed into divisions, each an event
of the season's format and calendar) and the close (places, promotion and relegation, the next
season opened). Every function is keyword-only and one transaction under the season's row lock.

The rules (placement, groups, movement, withdrawals, series points) are in ``placement`` and in
``docs/organisers/seasons.md``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common.errors import Conflict, InvalidInput, NotFound
from games.events import announce_after_commit
from games.guests import require_verified_email
from games.models import Player

from .. import pairing
from ..competitions import selectors as event_reads
from ..competitions import services as events
from ..competitions.services.rounds import start_locked
from ..competitions.services.setup import _locked as locked_event
from ..competitions.services.setup import event_settings_check, require_organiser
from ..events import season_changed
from ..models import Division, League, Registration, Season, SeasonEntry, TeamEvent, Tournament
from ..teams import seasons as team_seasons
from . import placement
from .news import division_name, season_news
from .rules import SETTINGS, check_settings
from .selectors import series_table

DONE = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _locked(season_id: int) -> Season:
    season = (
        Season.objects.select_for_update(of=("self",)).select_related("league").filter(pk=season_id).first()
    )
    if season is None:
        raise NotFound(_("there is no season %(id)s") % {"id": season_id})
    return season


def _event_settings(values: dict[str, Any]) -> dict[str, Any]:
    """A divisions season's play settings checked as an event's (time control, edition, scale)."""
    fmt = values.get("format", Tournament.Format.ROUND_ROBIN)
    _, tc, edition = event_settings_check(
        game=values["game"],
        seats=values.get("seats", 2),
        format=fmt,
        rounds=(values.get("rounds") or None) if fmt == Tournament.Format.SWISS else None,
        edition=values.get("edition") or "302",
        time_control=values.get("time_control") or None,
        points_scale=values.get("points_scale"),
    )
    return {**values, "time_control": tc.to_dict(), "edition": edition}


@transaction.atomic
def season_create(*, league: League, by: Player, name: str, kind: str, **settings: Any) -> Season:
    """A new season of ``league`` in registration (organisers only); ``settings`` as ``rules.SETTINGS``."""
    require_organiser(league=league, player=by)
    values = check_settings(kind=kind, values={**settings, "name": name})
    if kind == Season.Kind.DIVISIONS:
        if not values.get("game"):
            raise InvalidInput(_("a season with divisions needs a game: shacru, azacru or pacru"))
        values = _event_settings(values)
    values["name"] = values["name"].strip()
    return Season.objects.create(
        league=league, kind=kind, created_by=by, slug=slugify(values["name"])[:80], **values
    )


@transaction.atomic
def season_update(*, season_id: int, by: Player, **settings: Any) -> Season:
    """Change a season's settings while registration is open (organisers only)."""
    season = _locked(season_id)
    require_organiser(league=season.league, player=by)
    if season.status != Season.Status.REGISTRATION:
        raise Conflict(
            _("a season's settings can be changed only before it starts, and %(season)s is %(status)s")
            % {"season": season.name, "status": season.get_status_display()}
        )
    current = {f: getattr(season, f) for f in SETTINGS}
    values = check_settings(kind=season.kind, values={**current, **settings})
    if season.kind == Season.Kind.DIVISIONS:
        values = _event_settings(values)
    team_seasons.check_switch(season=season, team_boards=values.get("team_boards"))
    changed = [f for f in SETTINGS if values[f] != current[f]]
    for f in changed:
        setattr(season, f, values[f].strip() if f == "name" else values[f])
    season.save(update_fields=changed or None)
    return season


# ----------------------------------------------------------------- players


def _entry(season: Season, player: Player) -> SeasonEntry:
    entry = (
        SeasonEntry.objects.select_for_update()
        .filter(season=season, player=player, status=SeasonEntry.Status.REGISTERED)
        .first()
    )
    if entry is None:
        raise Conflict(
            _("%(player)s is not registered for %(season)s (or has withdrawn)")
            % {"player": player, "season": season.name}
        )
    return entry


@transaction.atomic
def season_register(*, season_id: int, player: Player) -> SeasonEntry:
    """Register ``player`` for a season open for registration (again, after withdrawing)."""
    require_verified_email(player, "play in seasons")
    season = _locked(season_id)
    if season.kind == Season.Kind.GROUP:
        raise Conflict(_("%(season)s only gathers events: register for its events") % {"season": season.name})
    team_seasons.refuse_players(season=season)
    if season.status != Season.Status.REGISTRATION:
        raise Conflict(
            _("registration for %(season)s is closed: the season is %(status)s")
            % {"season": season.name, "status": season.get_status_display()}
        )
    entry = SeasonEntry.objects.select_for_update().filter(season=season, player=player).first()
    if entry is not None and entry.status == SeasonEntry.Status.REGISTERED:
        raise Conflict(_("you are registered for %(season)s already") % {"season": season.name})
    if entry is None:
        entry = SeasonEntry.objects.create(season=season, player=player, arrived=SeasonEntry.Movement.NEW)
    else:
        entry.status = SeasonEntry.Status.REGISTERED
        entry.save(update_fields=["status"])
    season.league.members.add(player)
    return entry


@transaction.atomic
def season_withdraw(*, season_id: int, player: Player) -> SeasonEntry:
    """Withdraw from a season: before the start the place is simply given up; once running the
    player also withdraws from their division's event (their games there end with a resignation)
    and, at the close, goes down (out of the next season)."""
    season = _locked(season_id)
    if season.status == Season.Status.FINISHED:
        raise Conflict(
            _("%(season)s has finished: there is nothing to withdraw from") % {"season": season.name}
        )
    entry = _entry(season, player)
    t = entry.division.tournament if entry.division else None
    if t is not None and t.status not in DONE:
        reg = (
            Registration.objects.filter(tournament=t, player=player).values_list("status", flat=True).first()
        )
        if reg not in (None, Registration.Status.WITHDRAWN):
            events.withdraw(tournament_id=t.pk, player=player, by=player)
    entry.status = SeasonEntry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    return entry


def _checked_rounds(season: Season, rounds: Any) -> set[int]:
    if not isinstance(rounds, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in rounds
    ):
        raise InvalidInput(_("rounds is a list of round numbers, e.g. [2, 5]"))
    calendar = len(season.round_times or [])
    if rounds and not calendar:
        raise Conflict(_("%(season)s has no rounds on its calendar yet") % {"season": season.name})
    wrong = sorted(n for n in set(rounds) if not 1 <= n <= calendar)
    if wrong:
        raise InvalidInput(
            _("the season's calendar has rounds 1 to %(last)s: there is no round %(rounds)s")
            % {"last": calendar, "rounds": ", ".join(str(n) for n in wrong)}
        )
    return set(rounds)


@transaction.atomic
def set_unavailable(*, season_id: int, player: Player, rounds: list[int]) -> SeasonEntry:
    """The rounds ``player`` cannot play (replacing the earlier list). Each becomes a requested bye
    in the player's division event, paying what the event's ``requested_bye`` says. Rounds already
    paired can be neither added nor taken back."""
    season = _locked(season_id)
    if season.kind != Season.Kind.DIVISIONS:
        raise Conflict(_("only a season with divisions has rounds of its own: mark the events you miss"))
    team_seasons.refuse_players(season=season)
    if season.status == Season.Status.FINISHED:
        raise Conflict(_("%(season)s has finished") % {"season": season.name})
    entry = _entry(season, player)
    new, old = _checked_rounds(season, rounds), set(entry.unavailable)
    t = entry.division.tournament if entry.division else None
    paired = t.current_round if t is not None else 0
    late = sorted(n for n in new ^ old if n <= paired)
    if late:
        raise Conflict(
            _("round %(rounds)s is paired already: it can no longer be changed")
            % {"rounds": ", ".join(str(n) for n in late)}
        )
    entry.unavailable = sorted(new)
    entry.save(update_fields=["unavailable"])
    if t is not None and t.status not in DONE:
        reg = Registration.objects.select_for_update().filter(tournament=t, player=player).first()
        if reg is not None:
            reg.manual_byes = sorted((set(reg.manual_byes) - (old - new)) | new)
            reg.save(update_fields=["manual_byes"])
    return entry


# ------------------------------------------------------------------- start


def _organiser(season: Season, by: Player | None) -> Player:
    """Who the division events are created and started by: ``by``, else the season's creator while
    an organiser, else any organiser of the league."""
    if by is not None:
        return by
    organisers = season.league.organisers.all()
    if season.created_by_id and organisers.filter(pk=season.created_by_id).exists():
        return season.created_by  # type: ignore[return-value]
    first = organisers.order_by("pk").first()
    if first is None:
        raise Conflict(_("%(league)s has no organiser to run the season") % {"league": season.league.name})
    return first


def _first_round_date(season: Season) -> date | None:
    """The date of the season's first round (UTC), if its calendar has one."""
    times = season.round_times or []
    return datetime.fromisoformat(times[0]).date() if times else None


@transaction.atomic
def season_start(*, season_id: int, by: Player | None = None, now: datetime | None = None) -> Season:
    """Start a season (an organiser ``by``, or the sweep when registration closes): a divisions
    season places its players into divisions, each an event that starts at the first round time
    (at once if that has passed, or when the calendar is empty); other seasons just run."""
    season = _locked(season_id)
    if by is not None:
        require_organiser(league=season.league, player=by)
    if season.status != Season.Status.REGISTRATION:
        raise Conflict(
            _("%(season)s has started already (it is %(status)s)")
            % {"season": season.name, "status": season.get_status_display()}
        )
    now = now or timezone.now()
    if season.team_boards:  # a season of teams: its divisions are team events
        team_seasons.start_team_season(season=season, organiser=_organiser(season, by), by=by, now=now)
    elif season.kind == Season.Kind.DIVISIONS:
        _start_divisions(season, organiser=_organiser(season, by), by=by, now=now)
    season.status = Season.Status.RUNNING
    season.started_at = now
    season.starts = season.starts or _first_round_date(season) or now.date()
    season.save(update_fields=["status", "started_at", "starts"])
    pk = season.pk
    announce_after_commit(season_changed, lambda: {"season": season_news(pk, state="started")})
    return season


def _arrivals(season: Season, entries: list[SeasonEntry]) -> list[placement.Arrival]:
    last = {}
    if season.previous_id:
        rows = SeasonEntry.objects.filter(season_id=season.previous_id, division__isnull=False)
        last = {p: (lv, place) for p, lv, place in rows.values_list("player_id", "division__level", "place")}
    rated = [
        (e.player_id, events.displayed_rating(game=season.game, player=e.player), e.arrived) for e in entries
    ]
    return placement.arrivals(rated, last)


def _check_calendar(season: Season, levels: list[list[list[int]]]) -> None:
    """Every division's rounds have a time on the calendar (when it has one)."""

    def rounds(group: list[int]) -> int:
        if season.format == Tournament.Format.SWISS:
            return season.rounds or Tournament.DEFAULT_SWISS_ROUNDS
        return len(pairing.round_robin(group, season.seats))

    times = len(season.round_times or [])
    if short := placement.too_many_rounds(levels, times=times, rounds=rounds):
        raise Conflict(
            _(
                "a division of %(players)s players at level %(level)s plays %(rounds)s rounds, but "
                "the calendar has %(times)s round times: add times, or make divisions smaller"
            )
            % {"players": short[0], "level": short[1], "rounds": short[2], "times": times}
        )


def _start_now(t: Tournament, *, by: Player | None, now: datetime) -> None:
    """Start a division's event at once: by the organiser who started the season, or (the sweep)
    as the calendar starts an event at its time (audited "auto_start")."""
    if by is not None:
        events.start(tournament_id=t.pk, by=by)
    else:
        start_locked(t=locked_event(t.pk), by=None, now=now)


def _start_divisions(season: Season, *, organiser: Player, by: Player | None, now: datetime) -> None:
    entries = list(
        SeasonEntry.objects.select_for_update(of=("self",))
        .filter(season=season, status=SeasonEntry.Status.REGISTERED)
        .select_related("player")
        .order_by("registered_at", "id")
    )
    if len(entries) < 2:
        raise Conflict(_("a season with divisions needs at least two registered players"))
    order = placement.ordered(_arrivals(season, entries), newcomers=season.newcomers)
    levels = placement.divisions(order, size=season.division_size, seats=season.seats)
    _check_calendar(season, levels)
    by_player = {e.player_id: e for e in entries}
    first = datetime.fromisoformat(season.round_times[0]) if season.round_times else None
    for level, groups in enumerate(levels, start=1):
        for i, group in enumerate(groups):
            letter = chr(ord("A") + i) if len(groups) > 1 else ""
            division = Division.objects.create(season=season, level=level, group=letter)
            t = _division_event(season, division, organiser=organiser, now=now)
            _enter(t, [by_player[p] for p in group], division)
            if first is None or first <= now:
                _start_now(t, by=by, now=now)


def _division_event(season: Season, division: Division, *, organiser: Player, now: datetime) -> Tournament:
    swiss = season.format == Tournament.Format.SWISS
    t = events.tournament_create(
        organiser=organiser,
        league=season.league,
        name=f"{season.name}: {division_name(level=division.level, group=division.group)}"[:100],
        game=season.game,
        seats=season.seats,
        format=season.format,
        rounds=(season.rounds or None) if swiss else None,
        edition=season.edition or "302",
        time_control=season.time_control or None,
        rated=season.rated,
        points_scale=season.points_scale,
        season=season,
    )
    times = list(season.round_times or [])
    t.starts_at = datetime.fromisoformat(times[0]) if times else None
    t.round_start = Tournament.RoundStart.TIMES if times else Tournament.RoundStart.ASAP
    t.round_times = times or None
    t.round_deadline_minutes = season.round_deadline_minutes
    t.deadline_rule = season.deadline_rule
    t.registration_closes = now  # the season decides who plays: nobody enters a division by themself
    t.save(
        update_fields=[
            "starts_at",
            "round_start",
            "round_times",
            "round_deadline_minutes",
            "deadline_rule",
            "registration_closes",
        ]
    )
    division.tournament = t
    division.save(update_fields=["tournament"])
    return t


def _enter(t: Tournament, entries: list[SeasonEntry], division: Division) -> None:
    """Register the division's players in its event, their unavailable rounds as requested byes."""
    Registration.objects.bulk_create(
        [Registration(tournament=t, player=e.player, manual_byes=sorted(e.unavailable)) for e in entries]
    )
    t.league.members.add(*[e.player for e in entries])
    SeasonEntry.objects.filter(pk__in=[e.pk for e in entries]).update(division=division)


# ------------------------------------------------------------------- close


@transaction.atomic
def season_close(
    *, season_id: int, by: Player | None = None, name: str = "", now: datetime | None = None
) -> Season:
    """Close a running season whose events have all finished: each player's place and movement,
    the season finished, and the next season opened (returned) with everyone who stays in the
    league's seasons, ``arrived`` as their movement. Closing a finished season again returns the
    season opened then, and changes nothing."""
    season = _locked(season_id)
    if by is not None:
        require_organiser(league=season.league, player=by)
    if season.status == Season.Status.FINISHED:
        return Season.objects.filter(previous=season).first() or season
    if season.status != Season.Status.RUNNING:
        raise Conflict(_("%(season)s has not started: there is nothing to close") % {"season": season.name})
    if season.team_boards:
        team_seasons.close_team_divisions(season=season)
    elif season.kind == Season.Kind.DIVISIONS:
        _close_divisions(season)
    else:
        _close_events(season)
    now = now or timezone.now()
    season.status = Season.Status.FINISHED
    season.finished_at = now
    season.ends = season.ends or now.date()
    season.save(update_fields=["status", "finished_at", "ends"])
    nxt = _open_next(season, by=by, name=name)
    if season.team_boards:
        team_seasons.carry_over(season=season, nxt=nxt)
    pk = season.pk
    announce_after_commit(season_changed, lambda: {"season": season_news(pk, state="finished")})
    return nxt


def unfinished(*, season: Season) -> list[Tournament | TeamEvent]:
    """The season's events (its divisions', or a series' own) still to be played or finished."""
    rows = Tournament.objects.filter(season=season).exclude(status__in=DONE).order_by("pk")
    return [*rows.only("pk", "name", "status"), *team_seasons.unfinished(season=season)]


def _refuse_unfinished(season: Season) -> None:
    left = unfinished(season=season)
    if left:
        raise Conflict(
            _("%(event)s is still %(status)s: a season closes when all its events have finished")
            % {"event": left[0].name, "status": left[0].get_status_display()}
        )


def _close_divisions(season: Season) -> None:
    _refuse_unfinished(season)
    divisions = list(Division.objects.filter(season=season).select_related("tournament"))
    bottom = max((d.level for d in divisions), default=1)
    for d in divisions:
        members = list(SeasonEntry.objects.select_for_update().filter(season=season, division=d))
        if d.tournament is None or not members:
            continue
        standing = [row.player for row in event_reads.tournament_standings(d.tournament)]
        left_event = set(
            Registration.objects.filter(
                tournament=d.tournament, status=Registration.Status.WITHDRAWN
            ).values_list("player_id", flat=True)
        )
        withdrawn = {e.player_id for e in members if e.status == SeasonEntry.Status.WITHDRAWN} | left_event
        rank = {p: i for i, p in enumerate(standing)}
        members.sort(key=lambda e: (e.player_id in withdrawn, rank.get(e.player_id, len(rank)), e.pk))
        moves = placement.movements(
            [e.player_id for e in members],
            withdrawn=withdrawn,
            level=d.level,
            bottom=bottom,
            promote=season.promote,
            relegate=season.relegate,
        )
        for place, e in enumerate(members, start=1):
            e.place, e.movement = place, moves[e.player_id]
            if e.player_id in withdrawn:
                e.status = SeasonEntry.Status.WITHDRAWN
            e.save(update_fields=["place", "movement", "status"])


def _close_events(season: Season) -> None:
    """A series (or group) season: every event finished; a series' places from its table."""
    _refuse_unfinished(season)
    if season.kind != Season.Kind.SERIES:
        return
    entries = {e.player_id: e for e in SeasonEntry.objects.select_for_update().filter(season=season)}
    for row in series_table(season):
        e = entries.get(row.player_id)
        if e is None:  # played the series' events without registering for the season
            e = SeasonEntry(season=season, player_id=row.player_id, arrived=SeasonEntry.Movement.NEW)
        e.place = row.place
        e.movement = SeasonEntry.Movement.STAY if e.status == SeasonEntry.Status.REGISTERED else ""
        e.save()


def _open_next(season: Season, *, by: Player | None, name: str) -> Season:
    kept = {f: getattr(season, f) for f in SETTINGS if f not in ("name", "starts", "ends", "round_times")}
    title = (name or "").strip() or _("%(name)s (next)") % {"name": season.name}
    nxt = Season.objects.create(
        league=season.league,
        kind=season.kind,
        previous=season,
        name=title[:80],
        slug=slugify(title)[:80],
        round_times=[],
        created_by=by or season.created_by,
        **kept,
    )
    stays = SeasonEntry.objects.filter(season=season, status=SeasonEntry.Status.REGISTERED).order_by(
        "place", "id"
    )
    SeasonEntry.objects.bulk_create(
        [
            SeasonEntry(season=nxt, player_id=e.player_id, arrived=e.movement or SeasonEntry.Movement.STAY)
            for e in stays
        ]
    )
    return nxt

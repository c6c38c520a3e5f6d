"""Leagues and tournaments: every write, with its permission check, in one transaction.

Rounds are paired by the pure functions of :mod:`tournaments.pairing` and
played on ordinary tables created through ``games.services``. A round ends
when its last table finishes (the ``game_finished`` event, through a Celery
task); the next round is then paired at once, or the tournament ends.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import selectors as game_reads
from games import services as games
from games.clocks import TimeControl
from games.events import send_after_commit
from games.guests import forbid_guest, require_verified_email
from games.housebots import house_bot
from games.models import GameKind, Player, Table
from games.results import GameResult
from ratings import display as rating_display
from ratings import selectors as ratings
from ratings.models import Rating

from . import organisers, pairing
from .events import entered, event_changed, late_entry_answered, late_entry_invited, round_paired
from .models import (
    AuditEntry,
    LateEntryInvitation,
    League,
    Registration,
    Round,
    RoundTable,
    Season,
    Tournament,
)
from .pairing import double_elim
from .pairing.bracket import BracketError, bracket, bracket_round, seed_order, setting_error, table_advancers
from .selectors import history, is_organiser, late_entries, requested_byes, unplayed_rounds
from .standings import REQUESTED_BYES, standings, table_scale

# ------------------------------------------------------------------- leagues


def require_organiser(league: League, player: Player) -> None:
    if not is_organiser(league, player):
        raise Forbidden(_("only organisers of %(league)s may do this") % {"league": league.name})


@transaction.atomic
def league_create(*, organiser: Player, name: str, slug: str = "", description: str = "") -> League:
    forbid_guest(organiser, "create leagues")
    organisers.require_role(organiser, "creating a league")
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
) -> Tournament:
    require_organiser(league, organiser)
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
    try:
        tc = TimeControl.from_dict(time_control)
        edition = engine.variant(game).edition_for(edition)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if season is not None and season.league_id != league.pk:
        raise InvalidInput(_("the season belongs to another league"))
    return Tournament.objects.create(
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
    )


def _locked(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    return t


@transaction.atomic
def registration_open(*, tournament_id: int, by: Player) -> Tournament:
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.status != Tournament.Status.DRAFT:
        raise Conflict(
            _("registration can be opened only for a draft, and this tournament is %(status)s")
            % {"status": t.get_status_display()}
        )
    t.status = Tournament.Status.REGISTRATION
    t.save(update_fields=["status"])
    return t


def audit(t: Tournament, by: Player | None, action: str, **fields: Any) -> AuditEntry:
    """Write what an organiser did to the event (``AuditEntry``)."""
    return AuditEntry.objects.create(tournament=t, by=by, action=action, **fields)


def displayed_rating(game: str, player: Player) -> int:
    """The player's rating in ``game`` on the display scale; 1500 (a newcomer's) without one."""
    mu = Rating.objects.filter(game=game, player=player).values_list("mu", flat=True).first()
    return rating_display.rating(mu) if mu is not None else rating_display.rating(25.0)


def places_taken(t: Tournament) -> int:
    return Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN).count()


def _check_capacity(t: Tournament) -> None:
    if t.max_players is not None and places_taken(t) >= t.max_players:
        raise Conflict(
            ngettext(
                "the event is full: %(taken)d of %(n)d place taken",
                "the event is full: %(taken)d of %(n)d places taken",
                t.max_players,
            )
            % {"taken": t.max_players, "n": t.max_players}
        )


def _check_rating(t: Tournament, player: Player, yourself: bool) -> None:
    if t.rating_min is None and t.rating_max is None:
        return
    value = displayed_rating(t.game, player)
    words = {"name": player.display_name, "game": GameKind(t.game).label, "value": value}
    if t.rating_min is not None and value < t.rating_min:
        words["limit"] = t.rating_min
        raise Forbidden(
            (
                _("your %(game)s rating is %(value)s, below this event's minimum of %(limit)s")
                if yourself
                else _("%(name)s's %(game)s rating is %(value)s, below this event's minimum of %(limit)s")
            )
            % words
        )
    if t.rating_max is not None and value > t.rating_max:
        words["limit"] = t.rating_max
        raise Forbidden(
            (
                _("your %(game)s rating is %(value)s, above this event's maximum of %(limit)s")
                if yourself
                else _("%(name)s's %(game)s rating is %(value)s, above this event's maximum of %(limit)s")
            )
            % words
        )


@transaction.atomic
def register(*, tournament_id: int, player: Player, by: Player | None = None) -> Registration:
    """Register ``player`` (themself, or ``by`` an organiser of the league).

    Players registering themselves meet every rule: the registration window, the capacity
    (``max_players``) and the rating bounds (display scale; no rating counts as 1500). An organiser
    may register anyone while registration is open or the event is a draft, outside the window and
    the rating bounds; the capacity still applies, and in an event with check-in the player is
    checked in at once (the organiser vouches for them)."""
    require_verified_email(player, "play in tournaments")
    t = _locked(tournament_id)
    by_organiser = by is not None and by.pk != player.pk
    if by_organiser:
        require_organiser(t.league, by)
        if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise Conflict(
                _("players can be registered only before the start: the event is %(status)s")
                % {"status": t.get_status_display()}
            )
    else:
        if t.status != Tournament.Status.REGISTRATION:
            raise Conflict(
                _("registration is not open: the tournament is %(status)s")
                % {"status": t.get_status_display()}
            )
        now = timezone.now()
        if (t.registration_opens and now < t.registration_opens) or (
            t.registration_closes and now > t.registration_closes
        ):
            raise Conflict(_("registration is closed at this time"))
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is not None and reg.status != Registration.Status.WITHDRAWN:
        raise Conflict(
            _("you are registered already")
            if not by_organiser
            else _("%(player)s is registered already") % {"player": player}
        )
    _check_capacity(t)
    if not by_organiser:
        _check_rating(t, player, yourself=True)
    status = Registration.Status.CHECKED_IN if by_organiser and t.check_in else Registration.Status.REGISTERED
    if reg is None:
        reg = Registration.objects.create(tournament=t, player=player, status=status)
    else:
        reg.status = status
        reg.save(update_fields=["status"])
    t.league.members.add(player)
    if by_organiser:
        audit(t, by, "register", detail={"player": player.pk, "name": player.display_name})
        send_after_commit(entered, registration_id=reg.pk, by_id=by.pk if by else None)
    return reg


@transaction.atomic
def register_bot(*, tournament_id: int, level: str, by: Player) -> Registration:
    """An organiser enters a house bot of ``level`` (checked in at once; bots are always there)."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    entered = set(Registration.objects.filter(tournament=t).values_list("player_id", flat=True))
    try:
        bot = house_bot(level, exclude=entered)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    reg = register(tournament_id=tournament_id, player=bot, by=by)
    reg.status = Registration.Status.CHECKED_IN
    reg.save(update_fields=["status"])
    return reg


@transaction.atomic
def check_in(*, tournament_id: int, player: Player, by: Player | None = None) -> Registration:
    """Check ``player`` in (themself, or ``by`` an organiser of the league)."""
    t = _locked(tournament_id)
    by_organiser = by is not None and by.pk != player.pk
    if by_organiser:
        require_organiser(t.league, by)
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is None or reg.status == Registration.Status.WITHDRAWN:
        raise Forbidden(
            _("you are not registered for this tournament")
            if not by_organiser
            else _("%(player)s is not registered") % {"player": player}
        )
    if t.status not in (Tournament.Status.REGISTRATION, Tournament.Status.DRAFT if by_organiser else ""):
        raise Conflict(
            _("check-in is over: the tournament is %(status)s") % {"status": t.get_status_display()}
        )
    reg.status = Registration.Status.CHECKED_IN
    reg.save(update_fields=["status"])
    if by_organiser:
        audit(t, by, "check in", detail={"player": player.pk, "name": player.display_name})
    return reg


@transaction.atomic
def withdraw(*, tournament_id: int, player: Player, by: Player) -> Registration:
    """Withdraw a player (themself, or by an organiser); their running tables end with a resignation."""
    t = _locked(tournament_id)
    if by.pk != player.pk:
        require_organiser(t.league, by)
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is None or reg.status == Registration.Status.WITHDRAWN:
        raise Conflict(_("%(player)s is not registered (or already withdrawn)") % {"player": player})
    reg.status = Registration.Status.WITHDRAWN
    reg.save(update_fields=["status"])
    if by.pk != player.pk:
        audit(t, by, "remove", detail={"player": player.pk, "name": player.display_name})
    running = Table.objects.filter(
        round_table__round__tournament=t,
        status=Table.Status.ACTIVE,
        seats__player=player,
        seats__state="playing",
    )
    for table in running:
        games.game_resign(table_id=table.pk, player=player)
    return reg


@transaction.atomic
def give_bye(*, tournament_id: int, player: Player, by: Player) -> Registration:
    """The organiser gives ``player`` a bye in the next round: a requested bye, paying what the
    event's ``requested_bye`` says (nothing, or a draw's points), never the pairing bye's win."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.format == Tournament.Format.KNOCKOUT:
        raise Conflict(_("a knockout's byes come from its bracket (round 1 only, to the top seeds)"))
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        raise Conflict(_("a double elimination's byes come from its bracket"))
    reg = Registration.objects.filter(tournament=t, player=player).exclude(status="withdrawn").first()
    if reg is None:
        raise NotFound(_("%(player)s is not playing in this tournament") % {"player": player})
    nxt = t.current_round + 1
    if nxt not in reg.manual_byes:
        reg.manual_byes = [*reg.manual_byes, nxt]
        reg.save(update_fields=["manual_byes"])
    return reg


MISSED_ROUNDS = ("zero", "half")


def _check_late_entry(t: Tournament, player: Player) -> None:
    """Refuse (409) a late entry of ``player`` into ``t`` that cannot work now."""
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(
            _("late entries are for a running event, and this one is %(status)s")
            % {"status": t.get_status_display()}
        )
    if t.format != Tournament.Format.SWISS:
        raise Conflict(
            _(
                "only a Swiss takes late entries: a round robin's schedule and a knockout's bracket "
                "are fixed at the start"
            )
        )
    if t.current_round >= t.rounds:
        raise Conflict(_("every round has been paired already: there is no round left to join"))
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is not None:
        if reg.status == Registration.Status.WITHDRAWN:
            raise Conflict(
                _("%(player)s withdrew from this event and cannot be entered again") % {"player": player}
            )
        raise Conflict(_("%(player)s is already playing in this event") % {"player": player})


def _enter_late(t: Tournament, player: Player, missed: str) -> Registration:
    """Enter ``player`` from the round after the current one; each round before pays ``missed``."""
    points = 0.0
    if missed == "half":
        scale = table_scale(t.seats, t.seats, t.points_scale)
        points = sum(scale) / len(scale)
    reg = Registration.objects.create(
        tournament=t,
        player=player,
        status=Registration.Status.CHECKED_IN,
        joined_round=t.current_round + 1,
        missed_points=points,
    )
    t.league.members.add(player)
    return reg


@transaction.atomic
def late_entry(
    *, tournament_id: int, player: Player, by: Player, missed: str = "zero"
) -> LateEntryInvitation:
    """The organiser enters ``player`` into a running Swiss, from the next round on.

    Each round already paired (the one being played included) counts as missed: worth nothing
    (``missed="zero"``) or half (``"half"``: the scale's average, what a drawn two-player game pays),
    as in chess opens. The player is paired like everyone else from the next round, with those points.

    Nobody is put into an event without consent: entering another person makes an invitation
    (status ``pending``) that the player accepts or declines (:func:`late_entry_answer`), told by a
    notification; only on acceptance are they entered, from the round after the one being played
    then. An organiser entering themself, or a house bot (nobody to ask), is entered at once (the
    invitation is ``accepted`` already). A player who declined is not asked again. Every late entry
    and invitation writes an audit line.
    """
    require_verified_email(player, "play in tournaments")
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if missed not in MISSED_ROUNDS:
        raise InvalidInput(
            _("missed rounds are worth 'zero' or 'half', not %(missed)s") % {"missed": repr(missed)}
        )
    _check_late_entry(t, player)
    earlier = LateEntryInvitation.objects.filter(tournament=t, player=player).first()
    if earlier is not None:
        if earlier.status == LateEntryInvitation.Status.DECLINED:
            raise Conflict(
                _("%(player)s declined to enter this event late, and will not be asked again")
                % {"player": player}
            )
        raise Conflict(
            _("%(player)s is invited already: the invitation waits for their answer") % {"player": player}
        )
    words = {"player": player.pk, "name": player.display_name, "missed": missed, "round": t.current_round + 1}
    if player.pk == by.pk or player.is_bot:
        invitation = LateEntryInvitation.objects.create(
            tournament=t,
            player=player,
            invited_by=by,
            missed=missed,
            status=LateEntryInvitation.Status.ACCEPTED,
            answered_at=timezone.now(),
        )
        _enter_late(t, player, missed)
        audit(t, by, "late entry", detail=words)
        return invitation
    invitation = LateEntryInvitation.objects.create(tournament=t, player=player, invited_by=by, missed=missed)
    audit(t, by, "late entry invited", detail=words)
    send_after_commit(late_entry_invited, invitation_id=invitation.pk)
    return invitation


@transaction.atomic
def late_entry_answer(*, invitation_id: int, by: Player, accept: bool) -> LateEntryInvitation:
    """The invited player accepts (and is entered from the next round, as :func:`late_entry` would
    have) or declines an organiser's late-entry invitation; nobody else may answer for them. The
    answer is in the audit log and the organiser who invited is told."""
    found = (
        LateEntryInvitation.objects.filter(pk=invitation_id).values_list("tournament_id", "player_id").first()
    )
    if found is None:
        raise NotFound(_("there is no invitation %(id)s") % {"id": invitation_id})
    if found[1] != by.pk:
        raise Forbidden(_("only the invited player may answer this invitation"))
    t = _locked(found[0])  # the event first, as every write of it: then the invitation
    invitation = LateEntryInvitation.objects.select_for_update().get(pk=invitation_id)
    if invitation.status != LateEntryInvitation.Status.PENDING:
        raise Conflict(
            _("the invitation was answered already: %(status)s") % {"status": invitation.get_status_display()}
        )
    words = {"player": by.pk, "name": by.display_name, "missed": invitation.missed}
    if accept:
        require_verified_email(by, "play in tournaments")
        _check_late_entry(t, by)
        reg = _enter_late(t, by, invitation.missed)
        invitation.status = LateEntryInvitation.Status.ACCEPTED
        audit(t, by, "late entry accepted", detail={**words, "round": reg.joined_round})
    else:
        invitation.status = LateEntryInvitation.Status.DECLINED
        audit(t, by, "late entry declined", detail=words)
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    send_after_commit(late_entry_answered, invitation_id=invitation.pk)
    return invitation


@transaction.atomic
def start(*, tournament_id: int, by: Player) -> Tournament:
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise Conflict(_("the tournament is %(status)s") % {"status": t.get_status_display()})
    players = _players(t)
    if len(players) < 2:
        raise Conflict(_("at least two registered (and checked-in) players are needed"))
    if t.format == Tournament.Format.ROUND_ROBIN:
        schedule = pairing.round_robin([p.pk for p in players], t.seats)
        t.schedule = [[list(tb.players) for tb in r.tables] for r in schedule]
        t.rounds = len(schedule)
    if t.format == Tournament.Format.KNOCKOUT:
        try:
            t.rounds = len(bracket(len(players), t.seats, t.advance))
        except BracketError as exc:
            raise Conflict(_("this knockout cannot start: %(error)s") % {"error": exc}) from None
        t.seeds = _seeded(t, players)
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        t.rounds = double_elim.planned_rounds(len(players))
        t.seeds = _seeded(t, players)
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    t.save()
    send_after_commit(event_changed, tournament_id=t.pk, state="started")
    _pair_round(t)
    audit(t, by, "start", detail={"players": len(players)})
    return t


def _seeded(t: Tournament, players: list[Player]) -> list[int]:
    """The bracket's seed order: the organiser's seeds first (``Registration.seed``, 1 = top), then
    everyone else by rating (``seed_order``: conservative rating, highest first, then id)."""
    rating_of = ratings.conservative_ratings(t.game, [p.pk for p in players])
    by_rating = seed_order([pairing.Entrant(p.pk, rating=rating_of.get(p.pk, 0.0)) for p in players])
    seed_of = dict(
        Registration.objects.filter(tournament=t, seed__isnull=False).values_list("player_id", "seed")
    )
    seeded = sorted((p for p in by_rating if p in seed_of), key=lambda p: (seed_of[p], by_rating.index(p)))
    return seeded + [p for p in by_rating if p not in seed_of]


@transaction.atomic
def set_seeds(*, tournament_id: int, seeds: dict[int, int | None], by: Player) -> Tournament:
    """The organiser seeds players before the start (player id -> seed, 1 = top; ``None`` clears one).

    Seeds must be distinct positive numbers; players not named keep theirs."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise Conflict(
            _("seeds are set before the start, and the event is %(status)s")
            % {"status": t.get_status_display()}
        )
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=t)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player")
    }
    for player_id, seed in seeds.items():
        if player_id not in regs:
            raise InvalidInput(
                _("player %(id)s is not registered for %(event)s") % {"id": player_id, "event": t.name}
            )
        if seed is not None and seed < 1:
            raise InvalidInput(
                _("a seed is 1 or more, not %(seed)s (%(name)s)")
                % {"seed": seed, "name": regs[player_id].player.display_name}
            )
    after = {p: r.seed for p, r in regs.items()} | seeds
    taken: dict[int, int] = {}
    for player_id, seed in after.items():
        if seed is None:
            continue
        if seed in taken:
            first, second = regs[taken[seed]].player.display_name, regs[player_id].player.display_name
            raise InvalidInput(
                _("seed %(seed)s is given twice: to %(first)s and %(second)s")
                % {"seed": seed, "first": first, "second": second}
            )
        taken[seed] = player_id
    changed = []
    for player_id, seed in seeds.items():
        if regs[player_id].seed != seed:
            regs[player_id].seed = seed
            changed.append(regs[player_id])
    Registration.objects.bulk_update(changed, ["seed"])
    if changed:
        audit(t, by, "seeds", detail={"seeds": {str(r.player_id): r.seed for r in changed}})
    return t


@transaction.atomic
def pause(*, tournament_id: int, by: Player) -> Tournament:
    """Pause a running event: when the current round ends, the next one is not paired until
    :func:`resume` (tables being played go on)."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(
            _("only a running event can be paused, and %(event)s is %(status)s")
            % {"event": t.name, "status": t.get_status_display()}
        )
    if t.paused:
        raise Conflict(_("%(event)s is paused already") % {"event": t.name})
    t.paused = True
    t.save(update_fields=["paused"])
    audit(t, by, "pause", detail={"round": t.current_round})
    return t


@transaction.atomic
def resume(*, tournament_id: int, by: Player) -> Round | None:
    """Resume a paused event; if its current round is over, the next round is paired at once (or
    the event ends). Returns the round paired now, if any."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if not t.paused:
        raise Conflict(_("%(event)s is not paused") % {"event": t.name})
    t.paused = False
    t.save(update_fields=["paused"])
    audit(t, by, "resume", detail={"round": t.current_round})
    if t.status != Tournament.Status.RUNNING:
        return None
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is not None and current.status == Round.Status.FINISHED:
        before = t.current_round
        _advance(t)
        if t.current_round > before:
            return Round.objects.get(tournament=t, number=t.current_round)
    return None


@transaction.atomic
def next_round(*, tournament_id: int, by: Player) -> Round:
    """Start the next round by hand (the current one must be over)."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(_("the tournament is %(status)s") % {"status": t.get_status_display()})
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is not None and current.status != Round.Status.FINISHED:
        raise Conflict(_("round %(number)s is still being played") % {"number": current.number})
    if not _more_rounds(t):
        raise Conflict(_("every round has been played"))
    return _pair_round(t)


@transaction.atomic
def repair_round(*, tournament_id: int, by: Player) -> Round:
    """Pair the current round again, while none of its tables has a move or a result: pairing again
    deletes every table of the round, so a result entered (by an organiser, or a table ended by
    no-shows) would be thrown away. Such a round is refused whole, not re-paired around the finished
    tables: the others' pairings were made together with them."""
    t = _locked(tournament_id)
    require_organiser(t.league, by)
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is None or current.status != Round.Status.RUNNING:
        raise Conflict(_("there is no round being played to pair again"))
    refusal = repair_refusal(current)
    if refusal:
        raise Conflict(refusal)
    tables = Table.objects.filter(round_table__round=current)
    for tb in tables:
        tb.delete()
    current.delete()
    t.current_round -= 1
    t.save(update_fields=["current_round"])
    return _pair_round(t)


def repair_refusal(rnd: Round) -> str:
    """Why round ``rnd`` cannot be paired again ("" when it can): a table has a move or a result."""
    links = RoundTable.objects.filter(round=rnd).select_related("table").order_by("number")
    for rt in links:
        words = {"round": rnd.number, "board": rt.number}
        if rt.table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
            return (
                _(
                    "round %(round)s cannot be paired again: board %(board)s already has a result, and "
                    "pairing again would throw it away. To change a result, correct it under Results; "
                    "the round's other tables play on."
                )
                % words
            )
        if rt.table.actions:
            return (
                _(
                    "round %(round)s cannot be paired again: board %(board)s has started playing, and "
                    "pairing again would throw its moves away. Enter a result for it under Results instead."
                )
                % words
            )
    return ""


# ------------------------------------------------------------------- rounds


def _players(t: Tournament) -> list[Player]:
    regs = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN)
    if t.check_in and t.status != Tournament.Status.RUNNING:
        regs = regs.filter(status=Registration.Status.CHECKED_IN)
    return [r.player for r in regs.select_related("player__user")]


def _more_rounds(t: Tournament) -> bool:
    if t.format == Tournament.Format.KNOCKOUT and t.seeds is None:  # started before knockouts were planned
        last = Round.objects.filter(tournament=t, number=t.current_round).first()
        return last is None or last.tables.count() > 1
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:  # until the bracket has a winner (reset: +1)
        active = [p.pk for p in _players(t)]
        return not double_elim.plan_next(t.seeds or [], history(t).rounds, active).finished
    return t.current_round < t.rounds


def _pair_round(t: Tournament) -> Round:
    number = t.current_round + 1
    players = _players(t)
    past = history(t)
    meetings, seat_history, byes = past.meetings, past.seat_history, past.byes
    unplayed = unplayed_rounds(t, past.rounds, late_entries(t), requested=requested_byes(t))
    rows = {
        row.player: row
        for row in standings(
            [p.pk for p in players],
            past.results,
            t.seats,
            scale=t.points_scale,
            unplayed=unplayed,
            rounds=t.rounds,
        )
    }
    rating_of = ratings.conservative_ratings(t.game, [p.pk for p in players])
    if (
        t.format == Tournament.Format.SWISS
        and Registration.objects.filter(tournament=t, seed__isnull=False).exists()
    ):
        # The organiser's seeds order each score group (seeded players by seed, then the rest by
        # rating, as ``_seeded``): the pairing orders a group by ``rating``, so it gets the seed order.
        rating_of = {p: -float(i) for i, p in enumerate(_seeded(t, players))}
    manual, later = set(), set()
    for r in Registration.objects.filter(tournament=t).exclude(status="withdrawn"):
        if number in r.manual_byes:
            manual.add(r.player_id)
        if r.joined_round > number:  # entered late, for a later round (the round is being paired again)
            later.add(r.player_id)
    players = [p for p in players if p.pk not in later]
    two_seat_swiss = t.format == Tournament.Format.SWISS and t.seats == 2
    floated = _last_floats(t, past, [p.pk for p in players]) if two_seat_swiss else {}
    entrants = [
        pairing.Entrant(
            id=p.pk,
            score=rows[p.pk].points if p.pk in rows else 0.0,
            rating=rating_of.get(p.pk, 0.0),
            meetings=dict(meetings.get(p.pk, {})),
            seat_history=tuple(seat_history.get(p.pk, ())),
            byes=byes[p.pk],
            small_tables=past.small_tables[p.pk],
            last_seats=past.last_seats[p.pk],
            floated=floated.get(p.pk, 0),
        )
        for p in players
        if p.pk not in manual
    ]
    if t.format == Tournament.Format.SWISS:
        plan = pairing.swiss_round(entrants, t.seats)
    elif t.format == Tournament.Format.ROUND_ROBIN:
        plan = _scheduled_round(t, number, {e.id for e in entrants}, seat_history)
    elif t.format == Tournament.Format.DOUBLE_ELIMINATION:
        plan = _double_elim_round(t, number, past.rounds, entrants)
    else:
        plan = _knockout_round(t, entrants)
    rnd = Round.objects.create(tournament=t, number=number, byes=sorted([*plan.byes, *manual]))
    by_id = {p.pk: p for p in players}
    for n, table_plan in enumerate(plan.tables, start=1):
        table = games.table_create(
            creator=t.created_by,
            game=t.game,
            players=len(table_plan.players),
            edition=t.edition,
            rated=t.rated,
            join=False,
            time_control=t.time_control,
            no_show="timeout",
        )
        RoundTable.objects.create(round=rnd, table=table, number=n)
        for seat, player_id in enumerate(table_plan.players, start=1):
            games.seat_join(table_id=table.pk, player=by_id[player_id], seat=seat, event=True)
    t.current_round = number
    t.save(update_fields=["current_round"])
    send_after_commit(round_paired, round_id=rnd.pk)
    if not plan.tables:
        _finish_round(t, rnd)
    return rnd


def _scheduled_round(
    t: Tournament, number: int, active: set[int], seats_taken: dict[int, list[int]]
) -> pairing.Round:
    """Round ``number`` of the schedule fixed at the start. A full table keeps the schedule's seat order:
    ``pairing.round_robin`` chose seat 1 and the last seat over the whole schedule, each player's
    count within one of every other's, which seating round by round would undo. A table someone has
    left since (withdrawn, or given a bye) is seated afresh from the seats taken so far."""
    tables, byes = [], []
    for players in (t.schedule or [])[number - 1]:
        present = [p for p in players if p in active]
        if len(present) == len(players):
            tables.append(pairing.Table(tuple(present)))
        elif len(present) >= 2:
            tables.append(pairing.Table(pairing.assign_seats(present, seats_taken)))
        else:
            byes.extend(present)
    return pairing.Round(tuple(tables), tuple(byes))


def _last_floats(t: Tournament, past: Any, players: list[int]) -> dict[int, int]:
    """How each player floated in the last round (``pairing.Entrant.floated``): +1 up (met a higher
    score), -1 down (a lower score, or a bye); players who did neither are left out."""
    if not past.rounds:
        return {}
    last = past.rounds[-1]
    earlier = [r for r in past.results if r.round < last.number]
    unplayed = unplayed_rounds(
        t, past.rounds, late_entries(t), upto=last.number - 1, requested=requested_byes(t)
    )
    before: dict[int, float] = {}  # nothing played before the last round: everyone on 0
    if earlier or any(unplayed.values()):
        rows = standings(players, earlier, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds)
        before = {row.player: row.points for row in rows}
    out = dict.fromkeys(last.byes, -1)
    for table in last.tables:
        if len(table.players) == 2:
            a, b = table.players
            if before.get(a, 0.0) != before.get(b, 0.0):
                out[a] = 1 if before.get(a, 0.0) < before.get(b, 0.0) else -1
                out[b] = -out[a]
    return out


def _knockout_round(t: Tournament, entrants: list[pairing.Entrant]) -> pairing.Round:
    """The next round of the bracket planned at the start (``tournaments.pairing.bracket``): round 1's
    field is the seeds, a later one those who went through the last round (table by table, ties at
    the cut to the better seed) or had a bye there; a player who withdrew is left out."""
    last = Round.objects.filter(tournament=t, number=t.current_round).first()
    if t.seeds is None:  # started before knockouts were planned: the old unplanned rounds
        if last is None:
            return pairing.knockout_round(entrants, t.seats)
        table_ids = list(last.tables.order_by("number").values_list("table_id", flat=True))
        finished = game_reads.game_results(table_ids)
        ranks = [finished[tid].ranks() if tid in finished else {} for tid in table_ids]
        advancing = set(pairing.knockout_advancers(ranks, t.advance)) | set(last.byes)
        return pairing.knockout_round([e for e in entrants if e.id in advancing], t.seats)
    seed = {p: i for i, p in enumerate(t.seeds, start=1)}
    if last is None:
        going = set(t.seeds)
    else:
        table_ids = list(last.tables.order_by("number").values_list("table_id", flat=True))
        finished = game_reads.game_results(table_ids)
        going = set(last.byes)
        for tid in table_ids:
            if tid in finished:
                going.update(table_advancers(finished[tid].ranks(), t.advance, seed))
    active = {e.id: e for e in entrants}
    field = [p for p in t.seeds if p in going and p in active]
    planned = bracket(len(t.seeds), t.seats, t.advance)[t.current_round]
    return bracket_round(field, planned, {p: e.seat_history for p, e in active.items()})


def _double_elim_round(
    t: Tournament, number: int, rounds: list[Any], entrants: list[pairing.Entrant]
) -> pairing.Round:
    """The next round of a double elimination (``tournaments.pairing.double_elim``), both brackets
    at once; a bracket reset's second final makes the event one round longer than planned."""
    plan = double_elim.plan_next(t.seeds or [], rounds, [e.id for e in entrants])
    if plan.tables and number > t.rounds:
        t.rounds = number
        t.save(update_fields=["rounds"])
    return pairing.Round(plan.tables, plan.byes)


def _finish_round(t: Tournament, rnd: Round) -> None:
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    if t.paused and _more_rounds(t):
        return  # the organiser resumes the event (``resume``), or starts the next round by hand
    _advance(t)


def _advance(t: Tournament) -> None:
    """The current round is over: pair the next one, or end the event."""
    planned = (
        t.format in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION) and t.seeds is not None
    )
    if _more_rounds(t) and (planned or len(_players(t)) >= 2):
        # A knockout plays its planned rounds out: a lone player left walks over to the title.
        _pair_round(t)
    else:
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        reopened = AuditEntry.objects.filter(tournament=t, action="reopen").exists()
        again = t.current_round if reopened else 0
        send_after_commit(event_changed, tournament_id=t.pk, state="finished", again=again)


def reopen_if_undecided(t: Tournament, by: Player) -> Round | None:
    """After a result of a finished elimination event was corrected (``t`` locked by the caller):
    if the corrected bracket has more to play -- a double elimination's grand final now won by the
    losers-bracket champion needs the bracket reset -- the event runs again, as if it had never
    finished: status running, no finish time, the next round paired at once (unless the event is
    paused: then on ``resume``). The standings and final places are read from the tables, so they
    follow; the players are told (``event_changed`` "reopened", then "finished" again at the end).
    Returns the round paired, if any; ``None`` and no change when the event stays finished."""
    planned = t.format in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)
    if t.status != Tournament.Status.FINISHED or not planned or t.seeds is None:
        return None
    t.status = Tournament.Status.RUNNING  # who takes part is read as for a running event (check-in done)
    if not _more_rounds(t):
        t.status = Tournament.Status.FINISHED
        return None
    t.finished_at = None
    t.save(update_fields=["status", "finished_at"])
    audit(t, by, "reopen", detail={"round": t.current_round})
    send_after_commit(event_changed, tournament_id=t.pk, state="reopened", again=t.current_round)
    if t.paused:
        return None
    return _pair_round(t)


def table_finished(*, table_id: int, result: GameResult | None = None) -> str:
    """A table ended: count no-shows, and when its round is complete, pair the next one (idempotent).

    ``result`` is the one ``game_finished`` carried; without it (an aborted table, a task sent
    by hand) it is read from games' public results."""
    rt = RoundTable.objects.select_related("round").filter(table_id=table_id).first()
    if rt is None:
        return "not a tournament table"
    with transaction.atomic():
        t = _locked(rt.round.tournament_id)
        rnd = Round.objects.select_for_update().get(pk=rt.round_id)
        rt = RoundTable.objects.select_for_update().get(pk=rt.pk)
        status = game_reads.table_status(table_id)
        if not rt.counted and status in (Table.Status.FINISHED, Table.Status.ABORTED):
            result = result or game_reads.game_result(table_id)
            if result is not None:
                _count_no_shows(t, result)
            rt.counted = True
            rt.save(update_fields=["counted"])
        if rnd.status == Round.Status.FINISHED:
            return "round already finished"
        open_tables = Table.objects.filter(round_table__round=rnd).exclude(
            status__in=[Table.Status.FINISHED, Table.Status.ABORTED]
        )
        if open_tables.exists():
            return "round still running"
        if t.status != Tournament.Status.RUNNING or rnd.number != t.current_round:
            return "not the current round"
        _finish_round(t, rnd)
        return "round finished"


def _count_no_shows(t: Tournament, result: GameResult) -> None:
    """A seat that lost on time without ever moving at the table is a no-show; two withdraw the player."""
    for player_id in result.no_shows():
        reg = Registration.objects.filter(tournament=t, player_id=player_id).first()
        if reg is None or reg.status == Registration.Status.WITHDRAWN:
            continue
        reg.no_shows += 1
        if reg.no_shows >= 2:
            reg.status = Registration.Status.WITHDRAWN
        reg.save(update_fields=["no_shows", "status"])

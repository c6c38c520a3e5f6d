"""Who plays an event: registration, bots, check-in, withdrawals, byes asked for, late entries."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import services as games
from games.events import PlayerRef, send_after_commit
from games.guests import require_verified_email
from games.housebots import house_bot
from games.models import GameKind, Player, Table
from ratings import display as rating_display
from ratings.models import Rating

from ...events import Entry, entered, late_entry_answered, late_entry_invited
from ...models import ArenaPlayer, LateEntryInvitation, Registration, Tournament
from ...standings import table_scale
from .. import news
from .setup import _locked, audit, refuse_arena, require_organiser


def displayed_rating(*, game: str, player: Player) -> int:
    """The player's rating in ``game`` on the display scale; 1500 (a newcomer's) without one."""
    mu = Rating.objects.filter(game=game, player=player).values_list("mu", flat=True).first()
    return rating_display.rating(mu) if mu is not None else rating_display.rating(25.0)


def places_taken(*, t: Tournament) -> int:
    return Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN).count()


def _check_capacity(t: Tournament) -> None:
    if t.max_players is not None and places_taken(t=t) >= t.max_players:
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
    value = displayed_rating(game=t.game, player=player)
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


def check_entry_rules(*, t: Tournament, player: Player) -> None:
    """The rules a player entering ``t`` themself meets (an arena joined while it runs, say):
    a place left (``max_players``) and the rating bounds."""
    _check_capacity(t)
    _check_rating(t, player, yourself=True)


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
        require_organiser(league=t.league, player=by)
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
        audit(t=t, by=by, action="register", detail={"player": player.pk, "name": player.display_name})
        entry = Entry(
            registration_id=reg.pk,
            tournament_id=t.pk,
            event=t.name,
            player=PlayerRef.of(player),
            by=PlayerRef.of(by) if by else None,
        )
        send_after_commit(entered, entry=entry)
    return reg


@transaction.atomic
def register_bot(*, tournament_id: int, level: str, by: Player) -> Registration:
    """An organiser enters a house bot of ``level`` (checked in at once; bots are always there)."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    entered = set(Registration.objects.filter(tournament=t).values_list("player_id", flat=True))
    try:
        bot = house_bot(level, exclude=entered)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    reg = register(tournament_id=tournament_id, player=bot, by=by)
    reg.status = Registration.Status.CHECKED_IN
    reg.save(update_fields=["status"])
    return reg


def _check_in_window(t: Tournament) -> None:
    """A scheduled event's check-in opens ``check_in_minutes`` before ``starts_at``: not earlier."""
    if t.starts_at is None:
        return
    opens = t.starts_at - timedelta(minutes=t.check_in_minutes)
    if timezone.now() < opens:
        raise Conflict(
            ngettext(
                "check-in is not open yet: it opens %(n)d minute before the start, at %(when)s",
                "check-in is not open yet: it opens %(n)d minutes before the start, at %(when)s",
                t.check_in_minutes,
            )
            % {
                "n": t.check_in_minutes,
                "when": formats.date_format(timezone.localtime(opens), "DATETIME_FORMAT"),
            }
        )


@transaction.atomic
def check_in(*, tournament_id: int, player: Player, by: Player | None = None) -> Registration:
    """Check ``player`` in (themself, or ``by`` an organiser of the league). In a scheduled event
    a player checks in from ``check_in_minutes`` before ``starts_at``; an organiser at any time."""
    t = _locked(tournament_id)
    by_organiser = by is not None and by.pk != player.pk
    if by_organiser:
        require_organiser(league=t.league, player=by)
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
    if not by_organiser:
        _check_in_window(t)
    reg.status = Registration.Status.CHECKED_IN
    reg.save(update_fields=["status"])
    if by_organiser:
        audit(t=t, by=by, action="check in", detail={"player": player.pk, "name": player.display_name})
    return reg


@transaction.atomic
def withdraw(*, tournament_id: int, player: Player, by: Player) -> Registration:
    """Withdraw a player (themself, or by an organiser); their running tables end with a resignation."""
    t = _locked(tournament_id)
    if by.pk != player.pk:
        require_organiser(league=t.league, player=by)
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is None or reg.status == Registration.Status.WITHDRAWN:
        raise Conflict(_("%(player)s is not registered (or already withdrawn)") % {"player": player})
    reg.status = Registration.Status.WITHDRAWN
    reg.save(update_fields=["status"])
    # An arena's player is not paired again (their points stay on its board: ``tournaments.arena``).
    ArenaPlayer.objects.filter(tournament=t, player=player).update(withdrawn=True, free_since=None)
    if by.pk != player.pk:
        audit(t=t, by=by, action="remove", detail={"player": player.pk, "name": player.display_name})
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
    require_organiser(league=t.league, player=by)
    refuse_arena(t=t)
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
    require_organiser(league=t.league, player=by)
    refuse_arena(t=t)
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
        audit(t=t, by=by, action="late entry", detail=words)
        return invitation
    invitation = LateEntryInvitation.objects.create(tournament=t, player=player, invited_by=by, missed=missed)
    audit(t=t, by=by, action="late entry invited", detail=words)
    send_after_commit(late_entry_invited, invitation=news.late_entry_news(invitation))
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
        audit(t=t, by=by, action="late entry accepted", detail={**words, "round": reg.joined_round})
    else:
        invitation.status = LateEntryInvitation.Status.DECLINED
        audit(t=t, by=by, action="late entry declined", detail=words)
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    send_after_commit(late_entry_answered, invitation=news.late_entry_news(invitation))
    return invitation

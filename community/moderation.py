"""Moderation: removing a message, muting a player (in a room, a club's rooms or the whole site),
lifting a mute, and closing a report (acted on, or dismissed).

Who may: a room's moderators (staff, or the organisers of the room's club: ``rooms.may_moderate``)
remove its messages and mute in it; a club's organisers mute in all its rooms; only staff mute on
the whole site; a report is handled by the organisers of its club (staff: every report). Each
action locks the rows it changes, writes a :class:`ModerationAction` (who, why, when: the log,
never edited), and after the commit tells the player acted on (``moderated``: a notification in
their language). A removed message also announces ``chat_posted``, so open pages show it removed.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.events import PlayerRef, send_after_commit
from games.models import Player
from tournaments.models import League

from . import rooms
from .events import ChatPosted, ModerationDecision, chat_posted, moderated
from .models import Message, ModerationAction, Mute, Report, Room

#: A mute's shortest and longest length, in minutes (an hour; 30 days).
MUTE_MIN_MINUTES = 60
MUTE_MAX_MINUTES = 30 * 24 * 60
#: The longest reason a moderator may give, in characters.
REASON_MAX_LENGTH = 500

Action = ModerationAction.Action


def _reason(reason: str, *, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise InvalidInput(_("give a reason: the player is told it, and the log keeps it"))
    if len(reason) > REASON_MAX_LENGTH:
        raise InvalidInput(_("the reason is too long: at most %(n)d characters") % {"n": REASON_MAX_LENGTH})
    return reason


def _tell(action: ModerationAction, player: Player | None, mute: Mute | None = None, where: str = "") -> None:
    """Tell ``player`` (a person with an account) of ``action`` once the transaction commits."""
    if player is None:
        return
    decision = ModerationDecision(
        action=action.action,
        action_id=action.pk,
        player=PlayerRef.of(player),
        reason=action.reason,
        until=mute.until if mute is not None else None,
        scope=mute.scope if mute is not None else "",
        where=where,
    )
    send_after_commit(moderated, decision=decision)


def _close_reports(*, reports: list[Report], by: Player, status: str, reason: str) -> None:
    """Mark locked open ``reports`` handled, log each, and tell each reporter."""
    now = timezone.now()
    for r in reports:
        r.status, r.handled_by, r.handled_at = status, by, now
        r.save(update_fields=["status", "handled_by", "handled_at"])
        action = ModerationAction.objects.create(
            actor=by,
            action=Action.RESOLVE if status == Report.Status.RESOLVED else Action.DISMISS,
            player=r.player,
            league=r.league,
            message=r.message,
            report=r,
            reason=reason,
        )
        # The reporter hears about the player they reported (``where``: that player's name).
        _tell(action, r.reporter, where=r.player.display_name)


def message_delete(*, message_id: int, by: Player, reason: str) -> Message:
    """Remove a message from its room (readers see that a message was removed; the log keeps it).
    Its open reports are closed as acted on. Removing a removed message changes nothing."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        message = (
            Message.objects.select_for_update(of=("self",))
            .select_related("room", "author")
            .filter(pk=message_id)
            .first()
        )
        if message is None or not rooms.may_read(room=message.room, player=by):
            raise NotFound(_("there is no message %(id)s") % {"id": message_id})
        if not rooms.may_moderate(room=message.room, player=by):
            raise Forbidden(
                _("only this room's moderators (its club's organisers, or staff) remove messages")
            )
        if message.deleted_at is not None:
            return message
        message.deleted_at, message.deleted_by = timezone.now(), by
        message.save(update_fields=["deleted_at", "deleted_by"])
        action = ModerationAction.objects.create(
            actor=by,
            action=Action.DELETE_MESSAGE,
            player=message.author,
            room=message.room,
            league=message.room.league,
            message=message,
            reason=reason,
        )
        reports = list(
            Report.objects.select_for_update(of=("self",))
            .select_related("player", "reporter")
            .filter(message=message, status=Report.Status.OPEN)
            .order_by("pk")
        )
        _close_reports(reports=reports, by=by, status=Report.Status.RESOLVED, reason=reason)
        if not message.scrubbed:
            _tell(action, message.author, where=rooms.room_label(room=message.room))
        send_after_commit(chat_posted, post=ChatPosted(room_id=message.room_id, message_id=message.pk))
    return message


def may_mute(*, by: Player | None, scope: str, room: Room | None, league: League | None) -> bool:
    """Whether ``by`` may mute (or lift a mute) of this scope: a room's moderators in that room, a
    club's organisers in its rooms, staff anywhere."""
    if by is None:
        return False
    if scope == Mute.Scope.ROOM:
        return room is not None and rooms.may_moderate(room=room, player=by)
    if scope == Mute.Scope.LEAGUE:
        return league is not None and rooms.may_moderate_league(league=league, player=by)
    return bool(by.user.is_staff)


def _where(*, scope: str, room: Room | None, league: League | None) -> str:
    if scope == Mute.Scope.ROOM and room is not None:
        return rooms.room_label(room=room)
    if scope == Mute.Scope.LEAGUE and league is not None:
        return league.name
    return ""


def mute(
    *,
    by: Player,
    player_id: int,
    scope: str,
    minutes: int,
    reason: str,
    room: Room | None = None,
    league: League | None = None,
    report_id: int | None = None,
) -> Mute:
    """Mute ``player_id`` for ``minutes`` (an hour to 30 days) in ``room``, in ``league``'s rooms,
    or everywhere (``scope``). A mute of the same scope and place in force is replaced (the newest
    decision stands). ``report_id``: the report this acts on (closed as acted on)."""
    if scope not in Mute.Scope.values:
        raise InvalidInput(_("scope must be one of %(choices)s") % {"choices": ", ".join(Mute.Scope.values)})
    if scope == Mute.Scope.ROOM and room is None:
        raise InvalidInput(_("a room mute needs the room: give its id as room"))
    if scope == Mute.Scope.LEAGUE and league is None:
        raise InvalidInput(_("a club mute needs the club: give its slug as league"))
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise InvalidInput(_("minutes must be a whole number"))
    if not MUTE_MIN_MINUTES <= minutes <= MUTE_MAX_MINUTES:
        raise InvalidInput(
            _("a mute lasts from %(min)d minutes to %(max)d minutes (30 days)")
            % {"min": MUTE_MIN_MINUTES, "max": MUTE_MAX_MINUTES}
        )
    reason = _reason(reason, required=True)
    room = room if scope == Mute.Scope.ROOM else None
    league = league if scope == Mute.Scope.LEAGUE else None
    if not may_mute(by=by, scope=scope, room=room, league=league):
        raise Forbidden(_mute_refusal(scope))
    with transaction.atomic():
        target = Player.objects.select_for_update().select_related("user").filter(pk=player_id).first()
        if target is None:
            raise NotFound(_("there is no player %(id)s") % {"id": player_id})
        if target.pk == by.pk:
            raise InvalidInput(_("you cannot mute yourself"))
        if target.is_bot:
            raise InvalidInput(_("house bots do not chat: there is nothing to mute"))
        if target.user.is_staff:
            raise InvalidInput(_("staff cannot be muted"))
        now = timezone.now()
        Mute.objects.filter(
            player=target, scope=scope, room=room, league=league, lifted_at__isnull=True, until__gt=now
        ).update(lifted_at=now, lifted_by=by)
        made = Mute.objects.create(
            player=target,
            scope=scope,
            room=room,
            league=league,
            until=now + timedelta(minutes=minutes),
            reason=reason,
            by=by,
        )
        action = ModerationAction.objects.create(
            actor=by,
            action=Action.MUTE,
            player=target,
            room=room,
            league=league or (room.league if room is not None else None),
            mute=made,
            reason=reason,
        )
        if report_id is not None:
            _close_reports(
                reports=[_open_report(report_id=report_id, by=by, player=target)],
                by=by,
                status=Report.Status.RESOLVED,
                reason=reason,
            )
        _tell(action, target, made, _where(scope=scope, room=room, league=league))
    return made


def _mute_refusal(scope: str) -> str:
    if scope == Mute.Scope.ROOM:
        return _("only this room's moderators (its club's organisers, or staff) mute in it")
    if scope == Mute.Scope.LEAGUE:
        return _("only the club's organisers (or staff) mute in its rooms")
    return _("only staff mute a player on the whole site")


def unmute(*, mute_id: int, by: Player, reason: str = "") -> Mute:
    """Lift a mute before its end (the player may write again). Lifting a lifted mute changes
    nothing; one that ran out already is refused (409)."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        found = (
            Mute.objects.select_for_update(of=("self",))
            .select_related("player", "room", "league")
            .filter(pk=mute_id)
            .first()
        )
        if found is None:
            raise NotFound(_("there is no mute %(id)s") % {"id": mute_id})
        if not may_mute(by=by, scope=found.scope, room=found.room, league=found.league):
            raise Forbidden(_mute_refusal(found.scope))
        if found.lifted_at is not None:
            return found
        now = timezone.now()
        if found.until <= now:
            raise Conflict(_("this mute ended already: there is nothing to lift"))
        found.lifted_at, found.lifted_by = now, by
        found.save(update_fields=["lifted_at", "lifted_by"])
        action = ModerationAction.objects.create(
            actor=by,
            action=Action.UNMUTE,
            player=found.player,
            room=found.room,
            league=found.league or (found.room.league if found.room is not None else None),
            mute=found,
            reason=reason,
        )
        _tell(action, found.player, found, _where(scope=found.scope, room=found.room, league=found.league))
    return found


def _open_report(*, report_id: int, by: Player, player: Player | None = None) -> Report:
    """The open report ``report_id``, locked, when ``by`` may handle it (and it is about ``player``)."""
    found = (
        Report.objects.select_for_update(of=("self",))
        .select_related("reporter", "player", "message", "league")
        .filter(pk=report_id)
        .first()
    )
    if found is None:
        raise NotFound(_("there is no report %(id)s") % {"id": report_id})
    if not rooms.may_moderate_league(league=found.league, player=by):
        raise Forbidden(_("only the organisers of the report's club (or staff) handle it"))
    if found.status != Report.Status.OPEN:
        raise Conflict(_("this report was handled already"))
    if player is not None and found.player_id != player.pk:
        raise InvalidInput(_("report %(id)s is about another player") % {"id": report_id})
    return found


def report_close(*, report_id: int, by: Player, status: str, reason: str = "") -> Report:
    """Close an open report: ``resolved`` (acted on) or ``dismissed``; the reporter is told."""
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise InvalidInput(_("a report is closed as resolved or dismissed"))
    reason = _reason(reason, required=False)
    with transaction.atomic():
        found = _open_report(report_id=report_id, by=by)
        _close_reports(reports=[found], by=by, status=status, reason=reason)
    return found


def report_dismiss(*, report_id: int, by: Player, reason: str = "") -> Report:
    return report_close(report_id=report_id, by=by, status=Report.Status.DISMISSED, reason=reason)


def report_resolve(*, report_id: int, by: Player, reason: str = "") -> Report:
    return report_close(report_id=report_id, by=by, status=Report.Status.RESOLVED, reason=reason)

"""Reports: a player tells the moderators about a message, a player or a game.

A report names the player it is about (a message's author, a game's player, the player named)
and the club whose organisers may handle it (``Report.league``: the message's room's club, or the
game's; none for a casual table or a player: staff only). One reporter has at most one open report
about one thing: reporting it again answers the open one. When the open reports about a player
reach ``CHAT_REPORT_MAIL_THRESHOLD`` the moderators are mailed (``reports_piling``), once each time
the count reaches it (it drops again as reports are handled).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import Forbidden, InvalidInput, NotFound
from games.events import PlayerRef, send_after_commit
from games.models import Player, Seat, Table
from tournaments.models import League

from . import rooms
from .events import ReportsPiling, reports_piling
from .models import Message, Report

#: The longest note a reporter may add, in characters.
DETAILS_MAX_LENGTH = 2000
#: The moderation queue's page (the mail links there).
QUEUE_URL = "/moderation/"


def _lock_players(ids: set[int]) -> None:
    """Lock the reporter's and the reported player's rows, in id order (two players reporting each
    other at once never deadlock): one reporter's reports, and the count of open reports about one
    player, are then decided one at a time."""
    list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))


def _message_subject(*, reporter: Player, message_id: int | None) -> tuple[Player, Message, League | None]:
    if message_id is None:
        raise InvalidInput(_("say which message you report: give its id as message"))
    message = Message.objects.select_related("room", "author").filter(pk=message_id).first()
    if message is None or not rooms.may_read(room=message.room, player=reporter):
        # A message the reporter cannot read is not named as existing.
        raise NotFound(_("there is no message %(id)s you can read") % {"id": message_id})
    if message.author is None or message.scrubbed:
        raise InvalidInput(_("this message's author deleted their account: there is nobody to report"))
    if message.deleted_at is not None:
        raise InvalidInput(_("a moderator removed this message already"))
    return message.author, message, message.room.league


def _player_subject(*, player_id: int | None) -> Player:
    if player_id is None:
        raise InvalidInput(_("say which player you report: give their id as player"))
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(_("there is no player %(id)s") % {"id": player_id})
    if player.is_bot:
        raise InvalidInput(_("house bots are run by the site: there is nobody to report"))
    return player


def _game_subject(
    *, reporter: Player, table_id: int | None, player_id: int | None
) -> tuple[Player, Table, League | None]:
    if table_id is None:
        raise InvalidInput(_("say which game you report: give its table's id as table"))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(id)s") % {"id": table_id})
    seated = list(
        Seat.objects.filter(table=table, player__is_bot=False)
        .exclude(player=reporter)
        .select_related("player")
        .order_by("number")
    )
    if player_id is None:
        if len(seated) != 1:
            raise InvalidInput(_("say which player of this game you report: give their id as player"))
        return seated[0].player, table, rooms.table_room(table=table, kind="players").league
    found = [s.player for s in seated if s.player_id == player_id]
    if not found:
        raise InvalidInput(
            _("player %(player)s does not play at table %(table)s") % {"player": player_id, "table": table_id}
        )
    return found[0], table, rooms.table_room(table=table, kind="players").league


def moderators_of(*, leagues: set[int | None]) -> tuple[PlayerRef, ...]:
    """Who handles reports of these clubs: their organisers, and staff for reports without a club."""
    who = Q(organised_leagues__in=[pk for pk in leagues if pk is not None])
    if None in leagues:
        staff = get_user_model().objects.filter(is_staff=True, is_active=True).values("pk")
        who |= Q(user_id__in=staff)
    players = Player.objects.filter(who, is_bot=False, is_guest=False).distinct().order_by("pk")
    return tuple(PlayerRef.of(p) for p in players)


def report(
    *,
    reporter: Player,
    subject: str,
    reason: str,
    details: str = "",
    message_id: int | None = None,
    player_id: int | None = None,
    table_id: int | None = None,
) -> tuple[Report, bool]:
    """``reporter`` reports a message, a player or a game, for ``reason``; the report, and whether
    it is new (False: this reporter's open report about the same thing, unchanged)."""
    if reporter.is_guest:
        raise Forbidden(_("guest accounts cannot report: create an account to report a player"))
    if subject not in Report.Subject.values:
        raise InvalidInput(
            _("subject must be one of %(choices)s") % {"choices": ", ".join(Report.Subject.values)}
        )
    if reason not in Report.Reason.values:
        raise InvalidInput(
            _("reason must be one of %(choices)s") % {"choices": ", ".join(Report.Reason.values)}
        )
    details = (details or "").strip()
    if len(details) > DETAILS_MAX_LENGTH:
        raise InvalidInput(
            _("the details are too long: at most %(n)d characters") % {"n": DETAILS_MAX_LENGTH}
        )
    message: Message | None = None
    table: Table | None = None
    league: League | None = None
    if subject == Report.Subject.MESSAGE:
        player, message, league = _message_subject(reporter=reporter, message_id=message_id)
    elif subject == Report.Subject.GAME:
        player, table, league = _game_subject(reporter=reporter, table_id=table_id, player_id=player_id)
    else:
        player = _player_subject(player_id=player_id)
    if player.pk == reporter.pk:
        raise InvalidInput(_("you cannot report yourself"))
    with transaction.atomic():
        _lock_players({reporter.pk, player.pk})
        same = Report.objects.filter(
            reporter=reporter, subject=subject, player=player, status=Report.Status.OPEN
        )
        if message is not None:
            same = same.filter(message=message)
        if table is not None:
            same = same.filter(table=table)
        found = same.first()
        if found is not None:
            return found, False
        made = Report.objects.create(
            reporter=reporter,
            subject=subject,
            player=player,
            message=message,
            table=table,
            league=league,
            reason=reason,
            details=details,
        )
        _tell_if_piling(player=player, report=made)
    return made, True


def _tell_if_piling(*, player: Player, report: Report) -> None:
    """Mail the moderators when this report brings the open reports about ``player`` to the
    threshold (the player's row is locked: the count reaches it once)."""
    threshold = settings.CHAT_REPORT_MAIL_THRESHOLD
    open_reports = Report.objects.filter(player=player, status=Report.Status.OPEN)
    count = open_reports.count()
    if threshold <= 0 or count != threshold:
        return
    leagues = set(open_reports.values_list("league_id", flat=True))
    piling = ReportsPiling(
        player=PlayerRef.of(player),
        open_reports=count,
        moderators=moderators_of(leagues=leagues),
        url=f"{QUEUE_URL}?player={player.pk}#report-{report.pk}",
    )
    send_after_commit(reports_piling, piling=piling)

"""Chat rooms: finding (or making) a table's, an event's, a ladder's and a club's room, and who may
read, write and moderate in each.

A room is made the first time it is asked for. ``Room.league`` is the club whose organisers
moderate it: a club's own room that club, an event's or a ladder's theirs, a table's the club of
the event, ladder challenge, ladder queue, arena or team match it was played for (none for a
casual table: staff only).

Who may read: a table's *players' room*, the table's seated players and the room's moderators; its
*spectators' room*, anyone (anonymous visitors too) except the table's players while the table is
open or in play (as on lichess: what spectators say never reaches the players during the game);
event, ladder and club rooms, anyone.

Who may write (signed in, never a guest): the players' room, the seated players; the spectators'
room, anyone signed in who is not seated while the game runs (and everyone once it ended); an
event's room, its entrants and the club's members and organisers; a ladder's, its members and the
club's members and organisers; a club's, its members and organisers. Staff may write anywhere. A
mute in force (this room, its club, the whole site) or the room's chat switched off refuses.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from common.errors import NotFound
from games.models import Player, Seat, Table
from tournaments.models import (
    ArenaTable,
    Challenge,
    Ladder,
    LadderMember,
    League,
    QueueTable,
    Registration,
    RoundTable,
    TeamBoard,
    Tournament,
)

from .models import ChatOff, Mute, Room

#: A table's rooms (``Room.kind``).
TABLE_KINDS = (Room.Kind.PLAYERS, Room.Kind.SPECTATORS)
#: A table whose game is not over yet: its players do not see the spectators' room.
RUNNING = (Table.Status.OPEN, Table.Status.ACTIVE)

_Organisers = League.organisers.through
_Members = League.members.through


def _table_league_id(table: Table) -> int | None:
    """The club a table was played for (its event, ladder challenge or queue, arena or team
    match), or None for a casual table. One query per kind of link, stopping at the first found;
    read only when the table's room is made."""
    tid = table.pk
    for found in (
        RoundTable.objects.filter(table_id=tid).values_list("round__tournament__league_id", flat=True),
        ArenaTable.objects.filter(table_id=tid).values_list("tournament__league_id", flat=True),
        Challenge.objects.filter(table_id=tid).values_list("ladder__league_id", flat=True),
        QueueTable.objects.filter(table_id=tid).values_list("ladder__league_id", flat=True),
        TeamBoard.objects.filter(table_id=tid).values_list("match__round__event__league_id", flat=True),
    ):
        league_id = found.first()
        if league_id is not None:
            return league_id
    return None


def _get_or_create(lookup: dict[str, object], league_id: int | None) -> Room:
    """The room matching ``lookup``, made when missing (two requests making it at once: the
    second reads the first's)."""
    query = Room.objects.select_related("table", "tournament", "ladder", "league")
    room = query.filter(**lookup).first()
    if room is not None:
        return room
    try:
        with transaction.atomic():
            Room.objects.create(**lookup, league_id=league_id)
    except IntegrityError:
        pass
    return query.get(**lookup)


def table_room(*, table: Table, kind: str) -> Room:
    """The table's ``players`` or ``spectators`` room."""
    if kind not in TABLE_KINDS:
        raise ValueError(f"a table has no {kind} room")
    existing = Room.objects.filter(table=table, kind=kind).select_related("table", "league").first()
    if existing is not None:
        return existing
    return _get_or_create({"table": table, "kind": kind}, _table_league_id(table))


def event_room(*, tournament: Tournament) -> Room:
    """The event's room (moderated by its club's organisers)."""
    return _get_or_create({"tournament": tournament, "kind": Room.Kind.EVENT}, tournament.league_id)


def ladder_room(*, ladder: Ladder) -> Room:
    """The ladder's room (moderated by its club's organisers)."""
    return _get_or_create({"ladder": ladder, "kind": Room.Kind.LADDER}, ladder.league_id)


def league_room(*, league: League) -> Room:
    """The club's own room."""
    return _get_or_create({"league": league, "kind": Room.Kind.LEAGUE}, league.pk)


def room_by_id(*, room_id: int) -> Room:
    """The room ``room_id`` with what it belongs to; NotFound when there is none."""
    room = Room.objects.select_related("table", "tournament", "ladder", "league").filter(pk=room_id).first()
    if room is None:
        raise NotFound(_("there is no chat room %(id)s") % {"id": room_id})
    return room


def room_label(*, room: Room) -> str:
    """The room's name as pages and notifications show it, in the active language."""
    if room.kind == Room.Kind.PLAYERS:
        # Translators: a chat room: the players' own room at a table
        return _("Table %(table)s · players") % {"table": room.table_id}
    if room.kind == Room.Kind.SPECTATORS:
        # Translators: a chat room: the spectators' room at a table
        return _("Table %(table)s · spectators") % {"table": room.table_id}
    if room.kind == Room.Kind.EVENT and room.tournament is not None:
        return room.tournament.name
    if room.kind == Room.Kind.LADDER and room.ladder is not None:
        return str(room.ladder)
    if room.league is not None:
        return room.league.name
    return str(room)


def room_url(*, room: Room) -> str:
    """The path of the page showing the room (``/tables/12/``, ``/tournaments/3/``, …)."""
    if room.table_id is not None:
        return reverse("table", args=[room.table_id])
    if room.kind == Room.Kind.EVENT:
        return reverse("tournament", args=[room.tournament_id])
    if room.kind == Room.Kind.LADDER:
        return reverse("ladder", args=[room.ladder_id])
    assert room.league is not None, "a club's room has its club"
    return reverse("league", args=[room.league.slug])


# ---------------------------------------------------------------- who may do what
def is_staff(player: Player | None) -> bool:
    return player is not None and bool(player.user.is_staff)


def may_moderate_league(*, league: League | None, player: Player | None) -> bool:
    """Whether ``player`` moderates the club's rooms: staff, or one of the club's organisers (no
    club: staff only)."""
    if player is None:
        return False
    if is_staff(player):
        return True
    return (
        league is not None and _Organisers.objects.filter(league_id=league.pk, player_id=player.pk).exists()
    )


def may_moderate(*, room: Room, player: Player | None) -> bool:
    """Whether ``player`` may delete messages and mute players in ``room``: staff, or an
    organiser of the room's club."""
    if player is None:
        return False
    if is_staff(player):
        return True
    return (
        room.league_id is not None
        and _Organisers.objects.filter(league_id=room.league_id, player_id=player.pk).exists()
    )


def _seated(room: Room, player: Player | None) -> bool:
    return player is not None and Seat.objects.filter(table_id=room.table_id, player=player).exists()


def _table_running(room: Room) -> bool:
    status = room.table.status if room.table is not None else Table.objects.get(pk=room.table_id).status
    return status in RUNNING


def may_read(*, room: Room, player: Player | None) -> bool:
    """Whether ``player`` (None: an anonymous visitor) may read ``room``."""
    if room.kind == Room.Kind.PLAYERS:
        return _seated(room, player) or may_moderate(room=room, player=player)
    if room.kind == Room.Kind.SPECTATORS:
        return not (_seated(room, player) and _table_running(room))
    return True


def _in_club(room: Room, player: Player) -> bool:
    """Whether ``player`` is a member or an organiser of the room's club (one query)."""
    if room.league_id is None:
        return False
    members = _Members.objects.filter(league_id=room.league_id, player_id=player.pk).values("pk")
    organisers = _Organisers.objects.filter(league_id=room.league_id, player_id=player.pk).values("pk")
    return members.union(organisers).exists()


def _belongs(room: Room, player: Player) -> str | None:
    """Why ``player`` may not write in ``room`` by who they are (None: they may)."""
    if room.kind == Room.Kind.PLAYERS:
        if _seated(room, player):
            return None
        return _("only the players at this table write in its players' room")
    if room.kind == Room.Kind.SPECTATORS:
        if _seated(room, player) and _table_running(room):
            return _("players do not write in the spectators' room while their game is on")
        return None
    if room.kind == Room.Kind.EVENT:
        entered = (
            Registration.objects.filter(tournament_id=room.tournament_id, player=player)
            .exclude(status=Registration.Status.WITHDRAWN)
            .exists()
        )
        if entered or _in_club(room, player):
            return None
        return _("only the event's players and the club's members and organisers write in the event's chat")
    if room.kind == Room.Kind.LADDER:
        if LadderMember.objects.filter(ladder_id=room.ladder_id, player=player).exists():
            return None
        if _in_club(room, player):
            return None
        return _("only the ladder's players and the club's members and organisers write in the ladder's chat")
    if _in_club(room, player):
        return None
    return _("only the club's members and organisers write in the club's chat")


def active_mute(*, player: Player, room: Room) -> Mute | None:
    """The mute keeping ``player`` from writing in ``room`` now (in this room, in its club, or
    on the whole site), the one lasting longest; None when none is in force."""
    where = Q(scope=Mute.Scope.SITE) | Q(scope=Mute.Scope.ROOM, room_id=room.pk)
    if room.league_id is not None:
        where |= Q(scope=Mute.Scope.LEAGUE, league_id=room.league_id)
    return (
        Mute.objects.filter(where, player=player, until__gt=timezone.now(), lifted_at__isnull=True)
        .order_by("-until")
        .first()
    )


def chat_is_off(*, room: Room, player: Player | None) -> bool:
    """Whether ``player`` switched this room's chat off for themselves."""
    return player is not None and ChatOff.objects.filter(room_id=room.pk, player=player).exists()


def write_refusal(*, room: Room, player: Player | None, chat_off: bool | None = None) -> str | None:
    """None when ``player`` may write in ``room`` now; otherwise the sentence saying why not.
    ``chat_off``: whether they switched the room off, when the caller knows already."""
    if player is None:
        return _("sign in to chat")
    if player.is_guest:
        return _("guest accounts cannot chat: create an account to talk to other players")
    if player.is_bot:
        return _("bots do not chat")
    if not may_read(room=room, player=player):
        if room.kind == Room.Kind.SPECTATORS:
            return _("players do not write in the spectators' room while their game is on")
        return _("only the players at this table write in its players' room")
    if chat_is_off(room=room, player=player) if chat_off is None else chat_off:
        return _("you switched this chat off: switch it on to write here")
    mute = active_mute(player=player, room=room)
    if mute is not None:
        until = formats.date_format(timezone.localtime(mute.until), "DATETIME_FORMAT")
        if mute.scope == Mute.Scope.SITE:
            return _("you are muted on the whole site until %(until)s") % {"until": until}
        if mute.scope == Mute.Scope.LEAGUE:
            return _("you are muted in this club's chats until %(until)s") % {"until": until}
        return _("you are muted in this chat until %(until)s") % {"until": until}
    if is_staff(player):
        return None
    return _belongs(room, player)

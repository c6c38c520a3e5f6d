"""Challenges to a table: a player opens a table, takes a seat and keeps one for a friend.

:func:`challenge` opens the table through ``games.services.table_create`` (every option checked
as for any table) and names the player challenged in ``Table.invited`` in the same transaction:
while the invitation stands, ``games.services.tables.seat_join`` keeps a free seat for them
(others may take the other free seats of a 3–4 seat table, never the last one). The player
challenged takes their seat as at any table, or :func:`decline` s; the challenger may
:func:`withdraw`. Each step is announced after commit as ``community.events.table_challenge``
(``sent``, ``accepted``, ``declined``, ``withdrawn``), its ``by`` the player who acted and its
``to`` the other one, whom ``accounts`` tells.

Refused: challenging yourself, a player who does not exist, a bot or a guest account, and any
challenge between two players when either blocked the other (``games.blocks``; the player
blocked is not told why). A guest cannot challenge. One open challenge to the same player at a
time, and at most ``CHALLENGES_OPEN_MAX`` open challenges per player: a challenge is an
invitation, not a way to flood someone's inbox.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import blocks
from games import services as games
from games.clocks import TimeControl
from games.errors import TableNotActive
from games.events import PlayerRef, send_after_commit, table_changed
from games.models import Player, Seat, Table
from games.services.transitions import announce_change, locked_table

from .events import TableChallenge, table_challenge

#: The most challenges one player may have waiting for an answer at once.
CHALLENGES_OPEN_MAX = 10


def _opponent(*, by: Player, to_id: int) -> Player:
    """The player ``by`` may challenge, or the refusal saying why not."""
    if by.is_guest:
        raise Forbidden(_("guest accounts cannot challenge players: create an account to play people"))
    if to_id == by.pk:
        raise InvalidInput(_("you cannot challenge yourself"))
    to = Player.objects.filter(pk=to_id, user__is_active=True).first()
    if to is None:
        raise NotFound(_("there is no player %(player)s") % {"player": to_id})
    if to.is_bot:
        raise InvalidInput(
            _("%(name)s is a bot: open a table and invite it there instead") % {"name": to.display_name}
        )
    if to.is_guest:
        raise InvalidInput(
            _("%(name)s plays as a guest: guests play bots only, so they cannot be challenged")
            % {"name": to.display_name}
        )
    if blocks.has_blocked(by, to.pk):
        raise Forbidden(
            _("you blocked %(name)s: unblock them on their page to challenge them")
            % {"name": to.display_name}
        )
    if blocks.has_blocked(to, by.pk):
        # Nobody is told they were blocked: the words say only that the challenge cannot be made.
        raise Forbidden(_("%(name)s does not take challenges from you") % {"name": to.display_name})
    return to


def refusal(*, by: Player | None, to: Player) -> str | None:
    """Why ``by`` cannot challenge ``to`` now (None: they can), for a page to say before the
    form is sent. Same rules as :func:`challenge`."""
    if by is None:
        return None
    try:
        _opponent(by=by, to_id=to.pk)
    except (Forbidden, InvalidInput, NotFound) as exc:
        return str(exc)
    return None


def _event(table: Table, status: str, by: Player, to: Player) -> None:
    send_after_commit(
        table_challenge,
        challenge=TableChallenge(
            table_id=table.pk,
            game=table.game,
            players=table.players,
            rated=table.rated,
            status=status,
            by=PlayerRef.of(by),
            to=PlayerRef.of(to),
            time_control=dict(table.time_control or {}),
        ),
    )


@transaction.atomic
def challenge(
    *,
    by: Player,
    to_id: int,
    game: str,
    players: int = 2,
    time_control: dict[str, Any] | None = None,
    rated: bool = False,
    edition: str = "302",
) -> Table:
    """``by`` opens a table of ``players`` seats, sits down and keeps a seat for ``to_id``, who
    is told (``table_challenge``: ``sent``). The table as ``games`` made it."""
    to = _opponent(by=by, to_id=to_id)
    Player.objects.select_for_update().filter(pk=by.pk).first()  # one challenge of theirs at a time
    waiting = Table.objects.filter(created_by=by, status=Table.Status.OPEN, invited__isnull=False)
    same = waiting.filter(invited=to).exclude(seats__player_id=F("invited_id")).first()
    if same is not None:
        raise Conflict(
            _("you challenged %(name)s already: table %(table)s waits for them")
            % {"name": to.display_name, "table": same.pk},
            table=same.pk,
        )
    if waiting.count() >= CHALLENGES_OPEN_MAX:
        raise Conflict(
            _(
                "%(count)s of your challenges are waiting for an answer, the most there can be: "
                "withdraw one first"
            )
            % {"count": CHALLENGES_OPEN_MAX}
        )
    if players < 2 or players > 4:
        raise InvalidInput(_("a table has 2 to 4 seats, not %(players)s") % {"players": players})
    table = games.table_create(
        creator=by, game=game, players=players, edition=edition, rated=rated, time_control=time_control
    )
    Table.objects.filter(pk=table.pk).update(invited=to)
    table.refresh_from_db()
    _event(table, "sent", by, to)
    return table


def _open_challenge(table_id: int) -> Table:
    table = locked_table(table_id=table_id)
    if table.invited_id is None:
        raise Conflict(_("nobody is challenged to table %(table)s") % {"table": table_id})
    if table.status != Table.Status.OPEN:
        raise TableNotActive(
            _("table %(table)s is %(status)s: the challenge is over")
            % {"table": table_id, "status": table.status_word}
        )
    return table


def _abort_or_free(table: Table, seated: list[int]) -> None:
    """Nobody but the challenger (or nobody) seated: the table is aborted; others seated: it
    stays open with no seat kept."""
    if [p for p in seated if p != table.created_by_id]:
        table.invited = None
        table.save(update_fields=["invited"])
    else:
        table.status = Table.Status.ABORTED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])


@transaction.atomic
def decline(*, table_id: int, player: Player) -> Table:
    """The player challenged to ``table_id`` declines: the table is aborted (or, when others sat
    down meanwhile, it stays open with no seat kept) and the challenger is told."""
    table = _open_challenge(table_id)
    if table.invited_id != player.pk:
        raise Forbidden(_("only the player challenged to table %(table)s can decline") % {"table": table_id})
    seated = list(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    if player.pk in seated:
        raise Conflict(
            _("you took your seat at table %(table)s already: leave it instead") % {"table": table_id}
        )
    _abort_or_free(table, seated)
    announce_change(table_id=table.pk)
    _event(table, "declined", player, table.created_by)
    return table


@transaction.atomic
def withdraw(*, table_id: int, player: Player) -> Table:
    """The challenger withdraws a challenge the player challenged has not taken up yet: they
    leave their seat, the table is aborted (or stays open without a kept seat when others sat
    down), and the player challenged is told."""
    table = _open_challenge(table_id)
    if table.created_by_id != player.pk:
        raise Forbidden(
            _("only the challenger can withdraw the challenge to table %(table)s") % {"table": table_id}
        )
    invited = table.invited
    assert invited is not None
    seated = list(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    if invited.pk in seated:
        raise Conflict(
            _("%(name)s took their seat already: leave the table instead") % {"name": invited.display_name}
        )
    Seat.objects.filter(table=table, player=player).delete()
    _abort_or_free(table, [p for p in seated if p != player.pk])
    announce_change(table_id=table.pk, players=(player.pk,))
    _event(table, "withdrawn", player, invited)
    return table


def forget(*, player: Player) -> None:
    """``player``'s account is being deleted: the challenges waiting for them are declined
    without a word to anyone (the challengers see the tables aborted)."""
    waiting = Table.objects.filter(invited=player, status=Table.Status.OPEN)
    for table_id in waiting.values_list("pk", flat=True):
        table = locked_table(table_id=table_id)
        seated = list(Seat.objects.filter(table=table).values_list("player_id", flat=True))
        if player.pk not in seated:
            _abort_or_free(table, seated)
            announce_change(table_id=table.pk)


# ---------------------------------------------------------------- reads
def waiting_for(*, player: Player) -> list[Table]:
    """Open tables ``player`` is challenged to and has not sat down at, newest first."""
    return list(
        Table.objects.filter(invited=player, status=Table.Status.OPEN)
        .exclude(seats__player=player)
        .select_related("created_by")
        .order_by("-id")[:CHALLENGES_OPEN_MAX]
    )


def sent_by(*, player: Player) -> list[Table]:
    """Open tables where ``player`` challenged someone who has not sat down yet, newest first."""
    return list(
        Table.objects.filter(created_by=player, status=Table.Status.OPEN, invited__isnull=False)
        .exclude(seats__player_id=F("invited_id"))
        .select_related("invited")
        .order_by("-id")[:CHALLENGES_OPEN_MAX]
    )


def time_control_text(table: Table) -> str:
    return TimeControl.from_dict(table.time_control or None).describe()


# ---------------------------------------------------------------- accepted
@receiver(table_changed)
def on_table_changed(*, table_id: int, players: tuple[int, ...] = (), **_: Any) -> None:
    """A player challenged took their seat (a join names the players who sat down): the
    challenge is accepted, and the challenger is told. Moves name nobody and cost no query."""
    if not players:
        return
    table = (
        Table.objects.filter(pk=table_id, invited_id__in=players, seats__player_id=F("invited_id"))
        .select_related("created_by", "invited")
        .first()
    )
    if table is not None and table.invited is not None:
        _event(table, "accepted", table.invited, table.created_by)


def table_note(*, table: Table, player: Player | None) -> dict[str, Any] | None:
    """What a table's page says of a challenge to it while it is open: who challenged whom,
    and whether the viewer is the player challenged (take your seat / decline) or the challenger
    (withdraw). None when nobody is challenged, the table is under way, or they sat down."""
    if table.invited_id is None or table.status != Table.Status.OPEN:
        return None
    seated = {s.player_id for s in table.seats.all()}
    if table.invited_id in seated:
        return None
    invited = table.invited
    assert invited is not None
    viewer = player.pk if player is not None else None
    return {
        "by": table.created_by,
        "to": invited,
        "me_invited": viewer == invited.pk,
        "me_challenger": viewer == table.created_by_id and viewer in seated,
    }

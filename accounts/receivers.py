"""Turning the services' events into notifications, and keeping the list of signed-in sessions.

Each receiver runs after the event's transaction committed (the senders use
``games.events.send_after_commit``), reads what it needs, and calls :func:`notify.notify`, whose
unique key per event and recipient makes a repeated event harmless. Live games (any clock but
correspondence) send no "your turn" at once: the idle sweep (``accounts.sweeps``) covers them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone, translation

from games.events import game_finished, turn_started
from games.models import GameKind, Player, Seat, Table
from games.results import GameResult
from games.wording import describe
from tournaments.competitions.selectors import final_places
from tournaments.events import (
    challenge_changed,
    entered,
    event_changed,
    late_entry_answered,
    late_entry_invited,
    queue_table_formed,
    round_paired,
)
from tournaments.models import (
    Challenge,
    Ladder,
    LateEntryInvitation,
    Registration,
    Round,
    RoundTable,
    Tournament,
)

from . import sessions
from .models import Notification
from .notify import account_of_user, account_zone, notify, recipient_language, user_zone


def game_name(game: str) -> str:
    return str(GameKind(game).label) if game in GameKind.values else game


def _humans(player_ids: list[int]) -> dict[int, Player]:
    return {
        p.pk: p
        for p in Player.objects.filter(pk__in=player_ids, is_bot=False, is_guest=False).select_related(
            "user__account"
        )
    }


def when(at: Any, user_id: int) -> str:
    """A moment in the recipient's time zone, written out (kept in ``params`` for the API's
    readers; the inbox and mails write ``<name>_at`` out in the reader's language and zone:
    ``accounts.kinds.moment``)."""
    zone = user_zone(user_id)
    return f"{at.astimezone(zone):%a %d %b %H:%M} ({zone.key})"


def turn_notice(table: Table, seat_number: int, *, idle: bool = False) -> None:
    """The "your turn" notification of ``seat_number`` at ``table`` (once per turn)."""
    seats = list(Seat.objects.filter(table=table).select_related("player__user__account").order_by("number"))
    mine = next((s for s in seats if s.number == seat_number), None)
    if mine is None or mine.player.is_bot or mine.player.is_guest:
        return
    params = {
        "table": table.pk,
        "ply": table.ply,
        "game": game_name(table.game),
        "opponents": [s.player.display_name for s in seats if s.number != seat_number],
        "idle": idle,
    }
    if table.deadline is not None:
        account = account_of_user(mine.player.user)
        zone = account_zone(account)
        params["deadline"] = f"{table.deadline.astimezone(zone):%a %d %b %H:%M} ({zone.key})"
        params["deadline_at"] = table.deadline.isoformat()
    # An earlier "your turn" at this table is over: the newest one stands for it.
    Notification.objects.filter(
        user_id=mine.player.user_id,
        kind="your_turn",
        key__startswith=f"turn:{table.pk}:",
        read_at__isnull=True,
    ).update(read_at=timezone.now())
    notify(
        user_id=mine.player.user_id,
        kind="your_turn",
        key=f"turn:{table.pk}:{table.ply}",
        params=params,
        url=reverse("table", args=[table.pk]),
    )


@receiver(turn_started)
def on_turn(*, table_id: int, ply: int, seat: int, clock: str, **_: Any) -> None:
    if clock != "correspondence":
        return
    table = Table.objects.filter(pk=table_id, ply=ply, to_move=seat, status=Table.Status.ACTIVE).first()
    if table is not None:
        turn_notice(table, seat)


@receiver(game_finished)
def on_game_finished(*, result: GameResult, **_: Any) -> None:
    people = _humans([s.player_id for s in result.seats])
    if not people:
        return
    names = dict(
        Player.objects.filter(pk__in=[s.player_id for s in result.seats]).values_list("pk", "display_name")
    )
    # The result in words, in each recipient's language (it is kept in the notification).
    outcomes: dict[str, str] = {}
    for s in result.seats:
        player = people.get(s.player_id)
        if player is None:
            continue
        language = recipient_language(player.user)
        if language not in outcomes:
            with translation.override(language):
                words = describe(result, names)
                outcomes[language] = f"{words.headline} ({words.ending})"
        outcome = outcomes[language]
        notify(
            user_id=player.user_id,
            kind="game_over",
            key=f"over:{result.table_id}",
            params={
                "table": result.table_id,
                "player": player.pk,
                "game": game_name(result.game),
                "opponents": [
                    names.get(o.player_id, "?") for o in result.seats if o.player_id != s.player_id
                ],
                "outcome": outcome,
                "rank": s.rank,
                "rated": result.rated,
            },
            url=reverse("table", args=[result.table_id]),
        )


@receiver(challenge_changed)
def on_challenge(*, challenge_id: int, status: str, **_: Any) -> None:
    c = Challenge.objects.select_related("ladder", "challenger", "challenged").filter(pk=challenge_id).first()
    if c is None:
        return
    ladder_url = reverse("ladder", args=[c.ladder_id])
    base = {"ladder": c.ladder.name, "challenge": c.pk}
    people = _humans([c.challenger_id, c.challenged_id])
    challenger, challenged = people.get(c.challenger_id), people.get(c.challenged_id)
    if status == Challenge.Status.PENDING and challenged is not None:
        notify(
            user_id=challenged.user_id,
            kind="challenge",
            key=f"challenge:{c.pk}",
            params={
                **base,
                "by": c.challenger.display_name,
                "expires": when(c.expires_at, challenged.user_id),
                "expires_at": c.expires_at.isoformat(),
                "forfeit": c.ladder.kind == "position",
            },
            url=ladder_url,
        )
    elif status in (Challenge.Status.ACCEPTED, Challenge.Status.DECLINED) and challenger is not None:
        url = reverse("table", args=[c.table_id]) if c.table_id else ladder_url
        notify(
            user_id=challenger.user_id,
            kind="challenge_answer",
            key=f"challenge:{c.pk}:{status}",
            params={**base, "by": c.challenged.display_name, "status": status},
            url=url,
        )
    elif status == Challenge.Status.CANCELLED and challenged is not None:
        notify(
            user_id=challenged.user_id,
            kind="challenge_answer",
            key=f"challenge:{c.pk}:{status}",
            params={**base, "by": c.challenger.display_name, "status": status},
            url=ladder_url,
        )
    elif status == Challenge.Status.EXPIRED:
        forfeit = c.outcome == Challenge.Outcome.FORFEIT
        for player, other, is_challenger in (
            (challenger, c.challenged, True),
            (challenged, c.challenger, False),
        ):
            if player is None:
                continue
            if forfeit:
                outcome = (
                    "you take their place (a forfeit)"
                    if is_challenger
                    else "they take your place (a forfeit)"
                )
            else:
                outcome = "nothing changes on the ladder"
            notify(
                user_id=player.user_id,
                kind="challenge_answer",
                key=f"challenge:{c.pk}:expired",
                params={
                    **base,
                    "by": other.display_name,
                    "status": "expired",
                    "challenger": is_challenger,
                    "forfeit": forfeit,
                    "outcome": outcome,
                },
                url=ladder_url,
            )


@receiver(round_paired)
def on_round(*, round_id: int, **_: Any) -> None:
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return
    t = rnd.tournament
    event_url = reverse("tournament", args=[t.pk])
    tables = RoundTable.objects.filter(round=rnd).values_list("table_id", flat=True)
    seats = list(Seat.objects.filter(table_id__in=list(tables)).select_related("player"))
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    people = _humans([s.player_id for s in seats] + list(rnd.byes or []))
    base = {"event": t.name, "round": rnd.number, "tournament": t.pk}
    for table_id, at_table in by_table.items():
        for s in at_table:
            player = people.get(s.player_id)
            if player is None:
                continue
            notify(
                user_id=player.user_id,
                kind="round",
                key=f"round:{rnd.pk}",
                params={
                    **base,
                    "table": table_id,
                    "opponents": [o.player.display_name for o in at_table if o.player_id != s.player_id],
                },
                url=reverse("table", args=[table_id]),
            )
    for player_id in rnd.byes or []:
        player = people.get(player_id)
        if player is not None:
            notify(
                user_id=player.user_id,
                kind="round",
                key=f"round:{rnd.pk}",
                params={**base, "bye": True},
                url=event_url,
            )


@receiver(queue_table_formed)
def on_queue_table(*, ladder_id: int, table_id: int, players: tuple[int, ...], **_: Any) -> None:
    """Each player the queue seated is told their table is ready (with its link), in case their
    queue page is not open (or not live)."""
    ladder = Ladder.objects.filter(pk=ladder_id).values("name", "game").first()
    if ladder is None:
        return
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "display_name"))
    for player_id, player in _humans(list(players)).items():
        notify(
            user_id=player.user_id,
            kind="queue_table",
            key=f"queue-table:{table_id}",
            params={
                "ladder": ladder["name"],
                "ladder_id": ladder_id,
                "table": table_id,
                "game": game_name(ladder["game"]),
                "opponents": [names.get(p, "?") for p in players if p != player_id],
            },
            url=reverse("table", args=[table_id]),
        )


@receiver(event_changed)
def on_event(*, tournament_id: int, state: str, again: int = 0, **_: Any) -> None:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    regs = list(
        Registration.objects.filter(tournament=t)
        .exclude(status=Registration.Status.WITHDRAWN)
        .values_list("player_id", flat=True)
    )
    people = _humans(regs)
    places: dict[int, int] = {}
    if state == "finished":
        places = final_places([t]).get(t.pk, {})
    for player_id, player in people.items():
        params: dict[str, Any] = {"event": t.name, "tournament": t.pk, "state": state}
        if player_id in places:
            params.update(place=places[player_id], of=len(regs))
        notify(
            user_id=player.user_id,
            kind="event",
            # An event reopened by a corrected result finishes again: a new notification each time.
            key=f"event:{t.pk}:{state}" + (f":{again}" if again else ""),
            params=params,
            url=reverse("tournament", args=[t.pk]),
        )


@receiver(entered)
def on_entered(*, registration_id: int, by_id: int | None, **_: Any) -> None:
    reg = Registration.objects.select_related("tournament", "player").filter(pk=registration_id).first()
    if reg is None or reg.player.is_bot or reg.player.is_guest:
        return
    # No name (an organiser no longer known): the title says "An organiser" in the reader's words.
    by = Player.objects.filter(pk=by_id).values_list("display_name", flat=True).first() or ""
    t = reg.tournament
    notify(
        user_id=reg.player.user_id,
        kind="entered",
        key=f"entered:{reg.pk}:{timezone.now():%Y%m%d}",
        params={"event": t.name, "tournament": t.pk, "by": by},
        url=reverse("tournament", args=[t.pk]),
    )


@receiver(late_entry_invited)
@receiver(late_entry_answered)
def on_late_entry(*, invitation_id: int, **_: Any) -> None:
    """An invitation into an event under way goes to the player (their page to accept or decline);
    their answer goes to the organiser who invited them."""
    invitation = (
        LateEntryInvitation.objects.select_related("tournament", "player", "invited_by")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None:
        return
    t = invitation.tournament
    params = {
        "event": t.name,
        "tournament": t.pk,
        "invitation": invitation.pk,
        "status": invitation.status,
        "missed": invitation.missed,
        "round": t.current_round + 1,
        "name": invitation.player.display_name,
        "by": invitation.invited_by.display_name if invitation.invited_by else "",
    }
    if invitation.status == LateEntryInvitation.Status.PENDING:
        to = invitation.player
    else:
        to = invitation.invited_by
        if invitation.status == LateEntryInvitation.Status.ACCEPTED:
            params["round"] = (
                Registration.objects.filter(tournament=t, player=invitation.player)
                .values_list("joined_round", flat=True)
                .first()
                or params["round"]
            )
    if to is None or to.is_bot or to.is_guest:
        return
    notify(
        user_id=to.user_id,
        kind="late_entry",
        key=f"late-entry:{invitation.pk}:{invitation.status}",
        params=params,
        url=reverse("tournament", args=[t.pk]),
    )


@receiver(user_logged_in)
def on_login(*, request: Any, user: Any, **_: Any) -> None:
    if request is not None and hasattr(request, "session"):
        sessions.record(request, user)


@receiver(user_logged_out)
def on_logout(*, request: Any, user: Any, **_: Any) -> None:
    if request is not None and hasattr(request, "session") and request.session.session_key:
        sessions.forget(request.session.session_key)

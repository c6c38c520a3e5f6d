"""What each change publishes (after its commit): the table and the lobby for any table write,
the player for a seat taken or left and for notifications, the event or ladder for club events
(and both the ladder and its players for a table its queue formed)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Notification
from games.events import game_finished, table_changed
from games.results import GameResult
from tournaments.events import (
    challenge_changed,
    entered,
    event_changed,
    late_entry_answered,
    queue_changed,
    queue_table_formed,
    round_paired,
)
from tournaments.models import Challenge, LateEntryInvitation, QueueTable, Registration, Round, RoundTable

from .publish import publish


@receiver(table_changed)
def on_table(*, table_id: int, players: tuple[int, ...] = (), **_: Any) -> None:
    publish(f"table:{table_id}", "lobby", *(f"player:{p}" for p in players))


@receiver(game_finished)
def on_finished(*, result: GameResult, **_: Any) -> None:
    topics = [f"player:{s.player_id}" for s in result.seats]
    rt = (
        RoundTable.objects.filter(table_id=result.table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if rt is not None:
        topics.append(f"tournament:{rt}")
    ladder = QueueTable.objects.filter(table_id=result.table_id).values_list("ladder_id", flat=True).first()
    ladder = (
        ladder
        or Challenge.objects.filter(table_id=result.table_id).values_list("ladder_id", flat=True).first()
    )
    if ladder is not None:
        topics.append(f"ladder:{ladder}")
    publish(*topics)


@receiver(challenge_changed)
def on_challenge(*, challenge_id: int, **_: Any) -> None:
    c = (
        Challenge.objects.filter(pk=challenge_id)
        .values("ladder_id", "challenger_id", "challenged_id")
        .first()
    )
    if c is not None:
        publish(f"ladder:{c['ladder_id']}", f"player:{c['challenger_id']}", f"player:{c['challenged_id']}")


@receiver(queue_changed)
def on_queue(*, ladder_id: int, player_id: int, **_: Any) -> None:
    """Someone joined or left the queue: every open page of the ladder shows who waits now."""
    publish(f"ladder:{ladder_id}", f"player:{player_id}")


@receiver(queue_table_formed)
def on_queue_table(*, ladder_id: int, players: tuple[int, ...] = (), **_: Any) -> None:
    """The ladder's page of each queued player reads its fragment again: it now links to their
    table, and the page goes there (static/js/live.js, ``data-go``)."""
    publish(f"ladder:{ladder_id}", *(f"player:{p}" for p in players))


@receiver(round_paired)
def on_round(*, round_id: int, **_: Any) -> None:
    t = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if t is not None:
        publish(f"tournament:{t}", "lobby")


@receiver(event_changed)
def on_event(*, tournament_id: int, **_: Any) -> None:
    publish(f"tournament:{tournament_id}", "lobby")


@receiver(entered)
def on_entered(*, registration_id: int, **_: Any) -> None:
    reg = Registration.objects.filter(pk=registration_id).values("tournament_id", "player_id").first()
    if reg is not None:
        publish(f"tournament:{reg['tournament_id']}", f"player:{reg['player_id']}")


@receiver(late_entry_answered)
def on_late_entry_answered(*, invitation_id: int, **_: Any) -> None:
    found = LateEntryInvitation.objects.filter(pk=invitation_id).values("tournament_id", "player_id").first()
    if found is not None:
        publish(f"tournament:{found['tournament_id']}", f"player:{found['player_id']}")


@receiver(post_save, sender=Notification)
def on_notification(*, instance: Notification, created: bool, **_: Any) -> None:
    if created:
        player = getattr(getattr(instance.user, "player", None), "pk", None)
        if player is not None:
            publish(f"player:{player}")

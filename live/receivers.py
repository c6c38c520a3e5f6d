"""What each change publishes (after its commit): the table and the lobby for any table write,
the player for a seat taken or left and for notifications, the event or ladder for club events
(and both the ladder and its players for a table its queue formed), the chat room for a message.
Every topic comes from the event's typed payload: nothing here reads another app's tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Notification
from community.events import ChatPosted, chat_posted
from games.events import PlayerRef, game_finished, table_changed
from tournaments.events import (
    ArenaChanged,
    ChallengeNews,
    Entry,
    EventNews,
    LateEntryNews,
    PoolTableFormed,
    QueueTableFormed,
    ResultRecorded,
    RoundPaired,
    TeamEventNews,
    arena_changed,
    challenge_changed,
    entered,
    event_changed,
    late_entry_answered,
    pool_changed,
    pool_table_formed,
    queue_changed,
    queue_table_formed,
    result_recorded,
    round_paired,
    team_event_changed,
)

from .publish import publish


@receiver(table_changed)
def on_table(*, table_id: int, players: tuple[int, ...] = (), **_: Any) -> None:
    publish(f"table:{table_id}", "lobby", *(f"player:{p}" for p in players))


@receiver(game_finished)
def on_finished(*, players: Mapping[int, PlayerRef], **_: Any) -> None:
    """The players' pages (their games, their ratings) change; the event or ladder the table
    counts for changes once it has recorded the result (``result_recorded``)."""
    publish(*(f"player:{p.id}" for p in players.values()))


@receiver(result_recorded)
def on_recorded(*, recorded: ResultRecorded, **_: Any) -> None:
    topics = []
    if recorded.tournament_id is not None:
        topics.append(f"tournament:{recorded.tournament_id}")
    if recorded.ladder_id is not None:
        topics.append(f"ladder:{recorded.ladder_id}")
    publish(*topics)


@receiver(challenge_changed)
def on_challenge(*, challenge: ChallengeNews, **_: Any) -> None:
    publish(
        f"ladder:{challenge.ladder_id}",
        f"player:{challenge.challenger.id}",
        f"player:{challenge.challenged.id}",
    )


@receiver(queue_changed)
def on_queue(*, ladder_id: int, player_id: int, **_: Any) -> None:
    """Someone joined or left the queue: every open page of the ladder shows who waits now."""
    publish(f"ladder:{ladder_id}", f"player:{player_id}")


@receiver(queue_table_formed)
def on_queue_table(*, formed: QueueTableFormed, **_: Any) -> None:
    """The ladder's page of each queued player reads its fragment again: it now links to their
    table, and the page goes there (static/js/live.js, ``data-go``)."""
    publish(f"ladder:{formed.ladder_id}", *(f"player:{p.id}" for p in formed.players))


@receiver(pool_changed)
def on_pool(*, pool_id: int, players: tuple[int, ...] = (), **_: Any) -> None:
    """Who waits in a quick pairing pool changed: the lobbies' "Play now" counts, and the pages of
    the players who joined, left or were let go."""
    publish("lobby", *(f"player:{p}" for p in players))


@receiver(pool_table_formed)
def on_pool_table(*, formed: PoolTableFormed, **_: Any) -> None:
    """The lobby of each seated player reads its "Play now" fragment again: it links to their table
    now, and the page goes there (static/js/live.js, ``data-go``)."""
    publish("lobby", *(f"player:{p.id}" for p in formed.players))


@receiver(round_paired)
def on_round(*, paired: RoundPaired, **_: Any) -> None:
    publish(f"tournament:{paired.tournament_id}", "lobby")


@receiver(event_changed)
def on_event(*, event: EventNews, **_: Any) -> None:
    publish(f"tournament:{event.tournament_id}", "lobby")


@receiver(arena_changed)
def on_arena(*, arena: ArenaChanged, **_: Any) -> None:
    """An arena's leaderboard changed; the pages of players it seated read their fragment again
    (it links to their table now, and the page goes there: ``data-go``)."""
    publish(f"tournament:{arena.tournament_id}", *(f"player:{p}" for p in arena.players))


@receiver(team_event_changed)
def on_team_event(*, news: TeamEventNews, **_: Any) -> None:
    """A team event moved on (a round paired or opened, a board counted, ...): its pages (event,
    matches, line-ups) and the pages of the players concerned (captains, players seated)."""
    publish(f"team_event:{news.event_id}", *(f"player:{p}" for p in news.players))


@receiver(entered)
def on_entered(*, entry: Entry, **_: Any) -> None:
    publish(f"tournament:{entry.tournament_id}", f"player:{entry.player.id}")


@receiver(late_entry_answered)
def on_late_entry_answered(*, invitation: LateEntryNews, **_: Any) -> None:
    publish(f"tournament:{invitation.tournament_id}", f"player:{invitation.player.id}")


@receiver(chat_posted)
def on_chat(*, post: ChatPosted, **_: Any) -> None:
    """A message was posted (or removed, or scrubbed) in a chat room: its open pages read what is
    new (``?after=<their last id>``)."""
    publish(f"chat:{post.room_id}")


@receiver(post_save, sender=Notification)
def on_notification(*, instance: Notification, created: bool, **_: Any) -> None:
    """A new notification: its recipient's pages (the inbox count). ``accounts.notify`` reads the
    user with their player, so this reads nothing more (a row saved elsewhere: one query)."""
    if created:
        player = getattr(getattr(instance.user, "player", None), "pk", None)
        if player is not None:
            publish(f"player:{player}")

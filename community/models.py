"""Chat rooms and their messages, who follows whom, reports, mutes and the moderation log.

A *room* is made the first time it is read or written: a table has two (its players' room and its
spectators' room), an event, a ladder and a club one each. ``Room.league`` is the club whose
organisers moderate the room (none for a casual table: staff only). Blocks live in ``games``
(``games.models.Block``), because the table's seating rules read them.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy

from games.models import Player, Table
from tournaments.models import Ladder, League, Tournament


class Room(models.Model):
    class Kind(models.TextChoices):
        PLAYERS = "players", pgettext_lazy("chat room", "players")
        SPECTATORS = "spectators", pgettext_lazy("chat room", "spectators")
        EVENT = "event", pgettext_lazy("chat room", "event")
        LADDER = "ladder", pgettext_lazy("chat room", "ladder")
        LEAGUE = "league", pgettext_lazy("chat room", "club")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    #: The club whose organisers moderate this room (a league's own room: that league; an event's or
    #: a ladder's: theirs; a table's: its event's or ladder's, none for a casual table).
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "kind"], condition=Q(table__isnull=False), name="room_table_kind_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(kind="event"), name="room_event_unique"
            ),
            models.UniqueConstraint(fields=["ladder"], condition=Q(kind="ladder"), name="room_ladder_unique"),
            models.UniqueConstraint(fields=["league"], condition=Q(kind="league"), name="room_league_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} room {self.pk}"


class Message(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="messages")
    #: None once the author's account is deleted (the text is scrubbed then too).
    author = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)
    #: Removed by a moderator: readers see that a message was removed, the log keeps the text.
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: The author deleted their account: the text is gone for good ("deleted message").
    scrubbed = models.BooleanField(default=False, db_default=False)

    class Meta:
        indexes = [models.Index(fields=["room", "id"], name="message_room_id")]


class ChatOff(models.Model):
    """A player switched a room's chat off for themselves: they neither read nor write there."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="chat_off_unique")]


class Follow(models.Model):
    """``player`` follows ``followed`` (a friend): sees when they are online or playing."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["player", "followed"], name="follow_unique"),
            models.CheckConstraint(condition=~Q(player=models.F("followed")), name="follow_not_self"),
        ]


class Mute(models.Model):
    """A player may not write in a room, in a club's rooms, or anywhere, until ``until``."""

    class Scope(models.TextChoices):
        ROOM = "room", pgettext_lazy("mute scope", "this room")
        LEAGUE = "league", pgettext_lazy("mute scope", "the club's rooms")
        SITE = "site", pgettext_lazy("mute scope", "the whole site")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=8, choices=Scope.choices)
    room = models.ForeignKey(Room, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    until = models.DateTimeField()
    reason = models.TextField()
    by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        indexes = [models.Index(fields=["player", "until"], name="mute_player_until")]


class Report(models.Model):
    class Subject(models.TextChoices):
        MESSAGE = "message", pgettext_lazy("report subject", "a message")
        PLAYER = "player", pgettext_lazy("report subject", "a player")
        GAME = "game", pgettext_lazy("report subject", "a game")

    class Reason(models.TextChoices):
        ABUSE = "abuse", pgettext_lazy("report reason", "abuse or insults")
        SPAM = "spam", pgettext_lazy("report reason", "spam or advertising")
        CHEATING = "cheating", pgettext_lazy("report reason", "cheating")
        NAME = "name", pgettext_lazy("report reason", "offensive name")
        OTHER = "other", pgettext_lazy("report reason", "something else")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "open")
        RESOLVED = "resolved", pgettext_lazy("report status", "acted on")
        DISMISSED = "dismissed", pgettext_lazy("report status", "dismissed")

    reporter = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    subject = models.CharField(max_length=8, choices=Subject.choices)
    #: The reported player (a message's author, a game's seat, the player named).
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: The club whose organisers may handle it (the message's room's or the game's club); none: staff.
    league = models.ForeignKey(League, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    details = models.TextField(blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "league"], name="report_status_league")]


class ModerationAction(models.Model):
    """The moderation log: every action, who took it, why and when. Never edited."""

    class Action(models.TextChoices):
        DELETE_MESSAGE = "delete_message", pgettext_lazy("moderation", "deleted a message")
        MUTE = "mute", pgettext_lazy("moderation", "muted")
        UNMUTE = "unmute", pgettext_lazy("moderation", "lifted a mute")
        DISMISS = "dismiss", pgettext_lazy("moderation", "dismissed a report")
        RESOLVE = "resolve", pgettext_lazy("moderation", "acted on a report")
        WARN = "warn", pgettext_lazy("moderation", "warned")

    actor = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    room = models.ForeignKey(Room, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    league = models.ForeignKey(League, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    mute = models.ForeignKey(Mute, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

"""Players, tables, seats and the append-only move log.

The moves are the source of truth; ``Table.position`` (the engine's JSON
position) is a cache that ``manage.py verify_games`` rebuilds and checks.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import pgettext_lazy

import engine

from .clocks import TimeControl
from .names import HELD, name_key


class Player(models.Model):
    """One per user account: how the service knows a person (or a bot)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    display_name = models.CharField(max_length=40)
    #: The display name normalised, case folded and reduced to its confusables skeleton
    #: (``games.names.name_key``), set on every save: unique, so no two players carry names that
    #: differ only in case, width, spacing or look-alike letters. A key starting with
    #: ``games.names.HELD`` holds a place (a deleted player) and is kept until a rename.
    name_key = models.CharField(max_length=200, null=True, blank=True, unique=True, editable=False)
    #: The username's key (``games.names.name_key``): unique, so no two accounts have look-alike
    #: usernames. A deleted account keeps its old username's key until ``username_held_until``
    #: (``USERNAME_HOLD_DAYS``), so nobody takes the name at once.
    username_key = models.CharField(max_length=200, null=True, blank=True, unique=True, editable=False)
    username_held_until = models.DateTimeField(null=True, blank=True, editable=False)
    is_bot = models.BooleanField(default=False)
    #: A throwaway account from "play as guest": casual games against bots only (``games.guests``).
    is_guest = models.BooleanField(default=False, db_index=True)
    #: Bots only: the engine bot's level (random, greedy, search) and its thinking time per move.
    bot_level = models.CharField(max_length=10, blank=True, default="")
    bot_budget = models.FloatField(default=0.5, help_text="bots: seconds per move")
    #: The account's e-mail address was verified (kept by ``accounts``; rated play may need it:
    #: ``RATED_NEEDS_VERIFIED_EMAIL``).
    email_verified = models.BooleanField(default=False)
    #: Correspondence vacation (``games.vacation``): while ``vacation_until`` is in the future the
    #: player's correspondence clocks do not run; days are taken from a yearly allowance.
    vacation_started = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True)
    #: The calendar year ``vacation_days_used`` counts in.
    vacation_year = models.PositiveSmallIntegerField(default=0, db_default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0, db_default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_house_bot(self) -> bool:
        """A bot the service plays itself (``games.housebots``): it has an engine level."""
        return self.is_bot and bool(self.bot_level)

    @property
    def is_outside_bot(self) -> bool:
        """A bot account played by a program of its own through the API (``live.bot_api``): no
        engine level, so the service never moves for it. Plays unrated tables only."""
        return self.is_bot and not self.bot_level

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        renamed = fields is not None and "display_name" in fields
        if renamed or not (self.name_key or "").startswith(HELD):
            self.name_key = name_key(self.display_name)
        if fields is not None and "display_name" in fields and "name_key" not in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        super().save(*args, **kwargs)


#: A table's status as a sentence says it ("table 12 is finished: no moves can be made"); the
#: choice labels are for lists ("open (waiting for players)").
STATUS_WORDS = {
    "open": pgettext_lazy("a table is …", "open"),
    "active": pgettext_lazy("a table is …", "active"),
    "finished": pgettext_lazy("a table is …", "finished"),
    "aborted": pgettext_lazy("a table is …", "aborted"),
}

#: The seats' colours (``Seat.COLOURS``, stored in English) as people read them.
COLOUR_NAMES = {
    "red": pgettext_lazy("seat colour", "red"),
    "black": pgettext_lazy("seat colour", "black"),
    "yellow": pgettext_lazy("seat colour", "yellow"),
    "green": pgettext_lazy("seat colour", "green"),
}


class GameKind(models.TextChoices):
    SHACRU = "shacru", "Shacru"
    AZACRU = "azacru", "Azacru"
    PACRU = "pacru", "Pacru"


class Table(models.Model):
    """A game of 2–4 players: its options, its seats, its position and result."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("table status", "open (waiting for players)")
        ACTIVE = "active", pgettext_lazy("table status", "active")
        FINISHED = "finished", pgettext_lazy("table status", "finished")
        ABORTED = "aborted", pgettext_lazy("table status", "aborted")

    game = models.CharField(max_length=8, choices=GameKind.choices)
    edition = models.CharField(max_length=4, blank=True, default="", help_text="Pacru only: 302 or 2011")
    players = models.PositiveSmallIntegerField(help_text="number of seats, 2 to 4")
    ply_limit = models.PositiveIntegerField(default=1000)
    rated = models.BooleanField(default=True)
    # No index of its own: table_status_id_idx and table_status_finished_idx lead with it.
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_tables")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The engine position (RULES §9) after the last action; null until the table starts.
    position = models.JSONField(null=True, blank=True)
    #: A set-up start position (imports); null means the standard start.
    initial_position = models.JSONField(null=True, blank=True)
    ply = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Number of actions in the log (moves and resignations/timeouts): the next one's ``seq``.
    actions = models.PositiveIntegerField(default=0)
    end_reason = models.CharField(max_length=16, blank=True, default="")
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: ``{"ranking": {seat: rank}, "scores": {seat: markers}, "winner": seat|None, "end": reason}``,
    #: plus ``"aborted": true`` when a rated table ended before every seat had moved: it is then
    #: rated for nobody and ``rated`` is false (``games.services.transitions.abort_rating_if_unmoved``).
    result = models.JSONField(null=True, blank=True)
    #: The time control (``games.clocks.TimeControl.to_dict()``); untimed by default.
    time_control = models.JSONField(default=dict, blank=True)
    #: ``{seat: {"remaining": seconds, "periods": n}}`` as at the start of the current turn.
    clocks = models.JSONField(null=True, blank=True)
    #: When the seat on turn started thinking (the server's clock).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    #: What happens when the first move is not made in time: the table is aborted (casual play),
    #: or the player on turn is out as on a timeout (tournaments: the round is not stalled).
    no_show = models.CharField(
        max_length=8,
        choices=[
            ("abort", pgettext_lazy("no-show rule", "abort the table")),
            ("timeout", pgettext_lazy("no-show rule", "the player is out")),
        ],
        default="abort",
    )
    #: Seat numbers held by bots (fixed when the table starts): who the bot runner plays for.
    bot_seats = models.JSONField(default=list, blank=True)
    #: When the next automatic action is due (before grace): the flag of the seat on turn,
    #: or the first-move abort. Null when nothing is due (untimed, or not active).
    deadline = models.DateTimeField(null=True, blank=True)
    #: A challenge to one player (``community`` friends: "challenge to a table"): while the table
    #: is open, one free seat is kept for them; they take it or decline.
    invited = models.ForeignKey(
        "Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="invitations"
    )
    #: A worker computing the bot's move for ``bot_lease_actions`` holds the turn until
    #: ``bot_lease_until``, so the bot sweep does not start a second search (games.botplay).
    bot_lease_actions = models.PositiveIntegerField(null=True, blank=True)
    bot_lease_until = models.DateTimeField(null=True, blank=True)
    #: The finished table this one is the rematch of (one rematch per table: the first asked).
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name="table_players_2_to_4"),
        ]
        # Every list and tag reads a bounded slice of an index, however long the history grows
        # (docs/operators/scale.md): ids grow with creation time, so "newest first" is -id.
        indexes = [
            models.Index(
                fields=["deadline"],
                condition=Q(status="active", deadline__isnull=False),
                name="table_due_idx",
            ),
            # The lists by status, newest first (open tables, the API's ?status=).
            models.Index(fields=["status", "-id"], name="table_status_id_idx"),
            # Finished tables, last finished first (lobby, API ?status=finished&ordering=...).
            models.Index(fields=["status", "-finished_at"], name="table_status_finished_idx"),
            # The lobby's change tag: the last table to end (finished or aborted).
            models.Index(
                fields=["-finished_at"], condition=Q(finished_at__isnull=False), name="table_ended_idx"
            ),
            # Games being played, last started first (lobby).
            models.Index(
                fields=["-started_at"], condition=Q(status="active"), name="table_active_started_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_game_display()} ({self.players} players, {self.status})"

    @property
    def time_control_text(self) -> str:
        return TimeControl.from_dict(self.time_control).describe()

    @property
    def status_word(self) -> str:
        """The status in a sentence ("table 12 is finished: …"), in the active language."""
        return str(STATUS_WORDS.get(self.status, self.status))

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def rules(self) -> dict[str, Any]:
        """What the game's rules offer (the engine's ``Variant.rules``), for templates that
        would otherwise test the game's name."""
        return engine.variant(self.game).rules


class Seat(models.Model):
    """A player's place at a table: seat number (move order), colour, fate and result."""

    class State(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("seat state", "playing")
        OUT = "out", pgettext_lazy("seat state", "out")

    class Reason(models.TextChoices):
        BLOCKED = "blocked", pgettext_lazy("how a player's game ended", "blocked")
        CAPTURED = "captured", pgettext_lazy("how a player's game ended", "lost the last chevron")
        RESIGNED = "resigned", pgettext_lazy("how a player's game ended", "resigned")
        TIMEOUT = "timeout", pgettext_lazy("how a player's game ended", "lost on time")

    #: The seats' colours as stored (``colour``, the API's value); :attr:`colour_name` says one.
    COLOURS = {1: "red", 2: "black", 3: "yellow", 4: "green"}

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    colour = models.CharField(max_length=8)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PLAYING)
    eliminated_at_ply = models.PositiveIntegerField(null=True, blank=True)
    elimination_reason = models.CharField(max_length=8, choices=Reason.choices, blank=True, default="")
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    markers = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
        ]
        # A player's tables, newest first, a page at a time (player pages, "my tables").
        indexes = [models.Index(fields=["player", "-table"], name="seat_player_table_idx")]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}: {self.player}"

    @property
    def colour_name(self) -> str:
        """The seat's colour in the active language (``colour`` is the stored, English value)."""
        return str(COLOUR_NAMES.get(self.colour, self.colour))


class Move(models.Model):
    """One action at a table, in order: a move (a ply) or a resignation/timeout.

    Rows are only ever inserted; ``seq`` orders them, ``ply`` is the ply a
    move made (null for resignations and timeouts, which are not plies).
    """

    class Kind(models.TextChoices):
        MOVE = "move", pgettext_lazy("kind of action at a table", "move")
        RESIGN = "resign", pgettext_lazy("kind of action at a table", "resignation")
        TIMEOUT = "timeout", pgettext_lazy("kind of action at a table", "timeout")

    # No index of its own: move_seq_unique (table, seq) leads with it, and each index is one more
    # write on every move.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    ply = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MOVE)
    notation = models.CharField(max_length=80, help_text="canonical notation; empty for events")
    submitted = models.CharField(max_length=80, blank=True, default="", help_text="as the client sent it")
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="move_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "ply"], condition=Q(kind="move"), name="move_ply_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} #{self.seq}: {self.action}"

    @property
    def action(self) -> str:
        """The record line of this action: the notation or ``resign N`` / ``timeout N``."""
        return self.notation if self.kind == self.Kind.MOVE else f"{self.kind} {self.seat}"


class Heartbeat(models.Model):
    """When a background loop (the clock sweep, the bot sweep) last ran: read by the readiness
    check, so a stopped beat or worker is seen (games.health)."""

    name = models.CharField(max_length=32, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class Block(models.Model):
    """A player who does not want to play with another: quick pairing and the ladders' queues
    never seat them together (events are the exception: a block never skips a pairing)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~Q(player=F("blocked")), name="block_not_self"),
        ]

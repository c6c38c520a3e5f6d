"""Events (tournaments): registrations, late-entry invitations, rounds and their tables,
announcements and the organisers' audit log.

Tournaments depend on games, never the reverse: a round's tables are ordinary ``games.Table``
rows, linked here by :class:`RoundTable`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import models
from django.utils.translation import pgettext_lazy

from games.clocks import TimeControl
from games.models import GameKind, Player, Table

from .clubs import EventSeries, League, Season


class Tournament(models.Model):
    #: The rounds of a Swiss whose organiser names none (the dashboard's form suggests the same).
    DEFAULT_SWISS_ROUNDS = 5

    class Format(models.TextChoices):
        SWISS = "swiss", pgettext_lazy("event format", "Swiss")
        ROUND_ROBIN = "round_robin", pgettext_lazy("event format", "round robin")
        KNOCKOUT = "knockout", pgettext_lazy("event format", "knockout")
        DOUBLE_ELIMINATION = "double_elim", pgettext_lazy("event format", "Double elimination")
        ARENA = "arena", pgettext_lazy("event format", "arena")

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("event status", "draft")
        REGISTRATION = "registration", pgettext_lazy("event status", "registration open")
        RUNNING = "running", pgettext_lazy("event status", "running")
        FINISHED = "finished", pgettext_lazy("event status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("event status", "called off")

    class RoundStart(models.TextChoices):
        ASAP = "asap", pgettext_lazy("round start", "as soon as the last round ends")
        INTERVAL = "interval", pgettext_lazy("round start", "at a fixed interval")
        TIMES = "times", pgettext_lazy("round start", "at set times")

    class DeadlineRule(models.TextChoices):
        SCORE = "score", pgettext_lazy("deadline rule", "scored from the position")
        DRAW = "draw", pgettext_lazy("deadline rule", "counted as a draw (a shared place)")
        FORFEIT = "forfeit", pgettext_lazy("deadline rule", "lost by whoever is on move")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments"
    )
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=8, choices=GameKind.choices)
    edition = models.CharField(max_length=4, blank=True, default="")
    seats = models.PositiveSmallIntegerField(help_text="players per table, 2 to 4")
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss: number of rounds; others: computed"
    )
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="knockout: players advancing from each table"
    )
    time_control = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    points_scale = models.JSONField(null=True, blank=True, help_text="points per place, best first")
    check_in = models.BooleanField(default=False, help_text="only checked-in players are paired")
    #: What a bye the organiser gives pays (``standings.requested_bye_value``): nothing, or half
    #: (the scale's average, a draw's value: FIDE's ½-point bye). The pairing's own bye pays a win.
    requested_bye = models.CharField(
        max_length=4,
        choices=[
            ("zero", pgettext_lazy("requested bye", "nothing")),
            ("half", pgettext_lazy("requested bye", "half: a draw's points")),
        ],
        default="half",
        db_default="half",  # old code still serving during a rolling deploy inserts without it
        help_text="what a bye the organiser gives pays: zero, or half (a draw's points)",
    )
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    #: Most players the event takes (null: no limit); registration refuses the next one.
    max_players = models.PositiveIntegerField(null=True, blank=True)
    #: Entry bounds on the displayed rating in the event's game (``ratings.display``); null: none.
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    #: A paused running event pairs no new round when the current one ends (the organiser resumes it).
    paused = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    #: Round robin: the whole schedule, fixed at the start ([[table players…]…] per round).
    schedule = models.JSONField(null=True, blank=True)
    #: Knockout and double elimination: the player ids by seed (best first), fixed at the start
    #: (``tournaments.pairing.bracket``, ``tournaments.pairing.double_elim``).
    seeds = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_tournaments")
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The calendar (``tournaments.calendar``).
    #: When the event starts by itself (null: the organiser starts it by hand).
    starts_at = models.DateTimeField(null=True, blank=True)
    #: Fewer players than this at ``starts_at`` (and never fewer than two): the event is called off.
    min_players = models.PositiveSmallIntegerField(default=2, db_default=2)
    #: With check-in: it opens this long before ``starts_at``.
    check_in_minutes = models.PositiveSmallIntegerField(default=30, db_default=30)
    #: When each round after the first is paired (``RoundStart``).
    round_start = models.CharField(
        max_length=8, choices=RoundStart.choices, default=RoundStart.ASAP, db_default="asap"
    )
    #: Interval: minutes from one round's start to the next one's.
    round_interval_minutes = models.PositiveIntegerField(null=True, blank=True)
    #: Set times: when each round starts (ISO datetimes, UTC), round 1 first.
    round_times = models.JSONField(null=True, blank=True)
    #: Correspondence rounds: tables still unfinished this long after the round was paired are
    #: settled by ``deadline_rule``, once.
    round_deadline_minutes = models.PositiveIntegerField(null=True, blank=True)
    deadline_rule = models.CharField(
        max_length=8, choices=DeadlineRule.choices, default=DeadlineRule.SCORE, db_default="score"
    )
    #: Interval and set times: when the next round is due (it waits for the last one to end).
    next_round_at = models.DateTimeField(null=True, blank=True)
    #: The recurring event this is an occurrence of, and the occurrence's local date.
    series = models.ForeignKey(
        EventSeries, on_delete=models.SET_NULL, null=True, blank=True, related_name="occurrences"
    )
    occurrence = models.DateField(null=True, blank=True)
    # Arenas (``tournaments.arena``).
    #: How long the arena runs from its start, in minutes (null: not an arena).
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    #: Players may go berserk (halve their own clock for a point more on a win).
    berserk = models.BooleanField(default=True, db_default=True)
    #: A team battle (an arena whose players play for teams): how many of each team's best scorers
    #: count for it (null: no team battle), and the teams taking part.
    team_battle_top = models.PositiveSmallIntegerField(null=True, blank=True)
    battle_teams = models.ManyToManyField("Team", blank=True, related_name="battles")

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["series", "occurrence"], name="series_occurrence_unique")
        ]
        indexes = [
            models.Index(
                fields=["starts_at"],
                condition=models.Q(status__in=["draft", "registration"]),
                name="event_starts_at_idx",
            ),
            models.Index(
                fields=["next_round_at"], condition=models.Q(status="running"), name="event_next_round_idx"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def time_control_text(self) -> str:
        """The clock in words ("10+5", "untimed", "3 days/move, bank 7 days")."""
        return TimeControl.from_dict(self.time_control).describe()

    @property
    def ends_at(self) -> datetime | None:
        """An arena's end: its start plus its duration (None before the start, or not an arena)."""
        if self.started_at is None or self.duration_minutes is None:
            return None
        return self.started_at + timedelta(minutes=self.duration_minutes)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", pgettext_lazy("registration status", "registered")
        CHECKED_IN = "checked_in", pgettext_lazy("registration status", "checked in")
        WITHDRAWN = "withdrawn", pgettext_lazy("registration status", "withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    no_shows = models.PositiveSmallIntegerField(default=0)
    manual_byes = models.JSONField(default=list, blank=True, help_text="rounds given a bye by the organiser")
    #: The first round the player is paired in: 1, or later for a player entered into a running Swiss.
    joined_round = models.PositiveSmallIntegerField(default=1)
    #: What each round before ``joined_round`` paid the player (zero, or half: the scale's average).
    missed_points = models.FloatField(default=0.0)
    #: The organiser's seed (1 = top); knockouts seed by it before rating, Swiss orders ties by it.
    seed = models.PositiveIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registered_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="registration_unique")]


class LateEntryInvitation(models.Model):
    """An organiser's late entry of another player into a running Swiss, waiting for that player's
    consent: nobody is put into an event (a rated one above all) without saying yes. The player
    accepts (and is entered from the next round, as a late entry is) or declines; one invitation
    per player and event, so a declined player is not asked again (``tournaments.competitions.services``)."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("invitation status", "waiting for an answer")
        ACCEPTED = "accepted", pgettext_lazy("invitation status", "accepted")
        DECLINED = "declined", pgettext_lazy("invitation status", "declined")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="late_invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="late_invitations")
    invited_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    #: What each missed round pays once entered: "zero" or "half" (``services.MISSED_ROUNDS``).
    missed = models.CharField(max_length=4, default="zero")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="late_invitation_unique")
        ]


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("round status", "running")
        FINISHED = "finished", pgettext_lazy("round status", "finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    byes = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Correspondence rounds: when unfinished tables are settled (``Tournament.deadline_rule``).
    deadline = models.DateTimeField(null=True, blank=True)
    #: Set once the deadline was applied, so it is applied exactly once.
    deadline_applied = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique")]
        indexes = [
            models.Index(
                fields=["deadline"], condition=models.Q(deadline_applied=False), name="round_deadline_idx"
            )
        ]


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="round_table")
    number = models.PositiveSmallIntegerField()
    #: Set once the finished table's no-shows were counted (so a repeated event counts nothing).
    counted = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]


class Announcement(models.Model):
    """A message the organisers put on the event page (newest first)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    text = models.TextField(max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]


class AuditEntry(models.Model):
    """What an organiser did to an event, by whom, when and why (result corrections above all)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    action = models.CharField(max_length=32)
    #: The table concerned, when there is one (a result entered or corrected).
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.TextField(max_length=1000, blank=True, default="")
    #: What changed: e.g. {"before": {player id: rank}, "after": {player id: rank}}.
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

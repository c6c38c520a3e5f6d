"""Leagues (clubs), seasons, tournaments, registrations and rounds.

Tournaments depend on games, never the reverse: a round's tables are ordinary
``games.Table`` rows, linked here by :class:`RoundTable`.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext, pgettext_lazy

from games.clocks import TimeControl
from games.models import GameKind, Player, Table


class League(models.Model):
    """A club: organisers run its events, members take part, everyone can look."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True, default="")
    organisers = models.ManyToManyField(Player, related_name="organised_leagues", blank=True)
    members = models.ManyToManyField(Player, related_name="leagues", blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "name"]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class Tournament(models.Model):
    #: The rounds of a Swiss whose organiser names none (the dashboard's form suggests the same).
    DEFAULT_SWISS_ROUNDS = 5

    class Format(models.TextChoices):
        SWISS = "swiss", pgettext_lazy("event format", "Swiss")
        ROUND_ROBIN = "round_robin", pgettext_lazy("event format", "round robin")
        KNOCKOUT = "knockout", pgettext_lazy("event format", "knockout")
        DOUBLE_ELIMINATION = "double_elim", pgettext_lazy("event format", "Double elimination")

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("event status", "draft")
        REGISTRATION = "registration", pgettext_lazy("event status", "registration open")
        RUNNING = "running", pgettext_lazy("event status", "running")
        FINISHED = "finished", pgettext_lazy("event status", "finished")

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

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def time_control_text(self) -> str:
        """The clock in words ("10+5", "untimed", "3 days/move, bank 7 days")."""
        return TimeControl.from_dict(self.time_control).describe()


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

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique")]


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


class Ladder(models.Model):
    """A league's standing ladder for one game.

    A *rating* ladder is ordered by the players' conservative rating in the game; a *position*
    ladder keeps its own order, which only its challenges change (see ``tournaments.ladders``).
    """

    class Kind(models.TextChoices):
        RATING = "rating", pgettext_lazy("ladder kind", "ordered by rating")
        POSITION = (
            "position",
            pgettext_lazy("ladder kind", "ordered by position: a challenger who wins takes the place"),
        )

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ladders")
    game = models.CharField(max_length=8, choices=GameKind.choices)
    seats = models.PositiveSmallIntegerField(default=2, help_text="2: challenges; 3-4: matchmaking queue")
    name = models.CharField(max_length=80, blank=True, default="")
    time_control = models.JSONField(default=dict, blank=True)
    #: How many places above a challenger may be challenged; 0 means the default rule (see services).
    challenge_places = models.PositiveSmallIntegerField(default=0)
    challenge_days = models.FloatField(default=3, help_text="an unanswered challenge expires after this")
    queue_wait_seconds = models.PositiveIntegerField(
        default=120, help_text="matchmaking: after this wait any table is better than none"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.RATING)
    #: Challenges a player may have open at once (waiting for an answer, or being played).
    max_open_challenges = models.PositiveSmallIntegerField(default=3)
    #: After a decline, the same challenger waits this long before challenging that player again.
    decline_cooldown_hours = models.FloatField(default=24)
    #: Position ladders: declines allowed per period; past that a challenge must be played or forfeited.
    max_declines = models.PositiveSmallIntegerField(default=2)
    decline_period_days = models.FloatField(default=30)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "game"], name="ladder_per_league_game")]

    def __str__(self) -> str:
        # Translators: a ladder without a name of its own, e.g. "Riverside Club shacru ladder".
        return self.name or gettext("%(league)s %(game)s ladder") % {"league": self.league, "game": self.game}

    @property
    def time_control_text(self) -> str:
        """The clock in words ("10+5", "untimed", "3 days/move, bank 7 days")."""
        return TimeControl.from_dict(self.time_control).describe()


class LadderMember(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ladder_memberships")
    joined = models.DateTimeField(auto_now_add=True)
    #: Position ladders: the member's place (1 = top); null on rating ladders.
    position = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="ladder_member_unique")]


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("challenge status", "pending")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "cancelled")
        EXPIRED = "expired", pgettext_lazy("challenge status", "expired")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_made")
    challenged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_received")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    table = models.OneToOneField(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )

    class Outcome(models.TextChoices):
        CHALLENGER = "challenger", pgettext_lazy("challenge outcome", "the challenger won")
        CHALLENGED = "challenged", pgettext_lazy("challenge outcome", "the challenged player won")
        DRAW = "draw", pgettext_lazy("challenge outcome", "drawn")
        FORFEIT = "forfeit", pgettext_lazy("challenge outcome", "not answered in time: a forfeit")

    #: How the challenge ended (empty while it is open).
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")

    class Meta:
        ordering = ["-created"]


class QueueEntry(models.Model):
    """A player waiting for a 3–4 player ladder table."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="queue")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="queue_entries")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined"]
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="queue_entry_unique")]


class QueueTable(models.Model):
    """A table the matchmaking queue of a ladder formed (so the ladder's history and the table page
    know where it came from)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="queue_tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="queue_table")


class OrganiserRole(models.Model):
    """The organiser role, granted by staff (admin, ``manage.py organiser``): it lets a player create
    leagues and start bot matches (``tournaments.organising.roles``). Running a league's events needs
    being one of that league's ``organisers``, as before."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="organiser_role")
    granted_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="organiser_roles_granted"
    )
    granted_at = models.DateTimeField(auto_now_add=True)
    #: Bot-match tables this organiser may start in any 24 hours.
    bot_tables_per_day = models.PositiveIntegerField(default=200)

    def __str__(self) -> str:
        return f"organiser {self.player}"


class OrganiserRequest(models.Model):
    """A player asks to become an organiser; staff grant or refuse it."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("organiser request status", "pending")
        GRANTED = "granted", pgettext_lazy("organiser request status", "granted")
        REFUSED = "refused", pgettext_lazy("organiser request status", "refused")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="organiser_requests")
    message = models.TextField(max_length=1000, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="organiser_requests_decided"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="pending"), name="one_pending_organiser_request"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} asks to organise ({self.status})"

"""Teams: club teams and their members, team events (team round robin and team Swiss, also as the
divisions of a team season), their rounds, matches, line-ups and boards (``tournaments.teams``).

A *match* sets 2 to 4 teams against each other over ``boards`` boards: board ``b`` is one ordinary
``games.Table`` with each team's board-``b`` player. A team's *game points* in a match are the
place points its players earned on the boards; the teams' places in the match (by game points)
pay *match points*. Ratings stay individual: each board is rated as the game it is, nothing else.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from games.models import GameKind, Player, Table

from .clubs import Division, League, Season


class Team(models.Model):
    """A team: inside a club (``league``), or open across clubs (no league). Its captain (and
    vice-captain) manage members, the board order and line-ups."""

    class BoardOrder(models.TextChoices):
        RATING = "rating", pgettext_lazy("board order", "by rating")
        CAPTAIN = "captain", pgettext_lazy("board order", "as the captain sets it")

    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, related_name="teams")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(max_length=2000, blank=True, default="")
    #: The game whose ratings order the boards (board order by rating) and make the team's average.
    game = models.CharField(max_length=8, choices=GameKind.choices, default=GameKind.PACRU)
    captain = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="captained_teams")
    vice_captain = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="vice_captained_teams"
    )
    board_order = models.CharField(max_length=8, choices=BoardOrder.choices, default=BoardOrder.RATING)
    created_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player on a team: their place in the captain's board order (1 first; null: after those
    placed, by rating), and whether they are an alternate (plays when a regular cannot)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="team_memberships")
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    alternate = models.BooleanField(default=False)
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["team", "alternate", "board", "joined", "id"]
        constraints = [models.UniqueConstraint(fields=["team", "player"], name="team_member_unique")]


class TeamInvitation(models.Model):
    """A captain's invitation to a player (``invite``), or a player's request to join (``request``),
    waiting for the other side's answer. One pending per team and player."""

    class Kind(models.TextChoices):
        INVITE = "invite", pgettext_lazy("team invitation kind", "invited by the captain")
        REQUEST = "request", pgettext_lazy("team invitation kind", "asked to join")

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("team invitation status", "waiting for an answer")
        ACCEPTED = "accepted", pgettext_lazy("team invitation status", "accepted")
        DECLINED = "declined", pgettext_lazy("team invitation status", "declined")
        CANCELLED = "cancelled", pgettext_lazy("team invitation status", "withdrawn")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="team_invitations")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.INVITE)
    by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "player"],
                condition=Q(status="pending"),
                name="team_invitation_pending_unique",
            )
        ]


class TeamEvent(models.Model):
    """A team round robin or team Swiss: teams meet in matches of ``seats`` teams over ``boards``
    boards; rounds start at set times, line-ups close when the round starts."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", pgettext_lazy("team event format", "team round robin")
        SWISS = "swiss", pgettext_lazy("team event format", "team Swiss")

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("team event status", "registration open")
        RUNNING = "running", pgettext_lazy("team event status", "running")
        FINISHED = "finished", pgettext_lazy("team event status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("team event status", "called off")

    class Tiebreak(models.TextChoices):
        GAME_POINTS = "game_points", pgettext_lazy("team tiebreak", "game points")
        DIRECT = "direct", pgettext_lazy("team tiebreak", "direct encounter")
        BUCHHOLZ = "buchholz", pgettext_lazy("team tiebreak", "opponents' match points (Buchholz)")
        SONNEBORN_BERGER = "sonneborn_berger", pgettext_lazy("team tiebreak", "Sonneborn-Berger")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="team_events")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="team_events"
    )
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=8, choices=GameKind.choices)
    edition = models.CharField(max_length=4, blank=True, default="")
    #: Teams per match (and players per board's table): 2 to 4.
    seats = models.PositiveSmallIntegerField(default=2)
    #: Players of each team in a match (one per board).
    boards = models.PositiveSmallIntegerField(default=4)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    #: Swiss: the number of rounds; round robin: computed at the start.
    rounds = models.PositiveSmallIntegerField(default=0)
    time_control = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    #: Place points at each board's table (null: the events' default scale, ``standings``).
    points_scale = models.JSONField(null=True, blank=True)
    #: Points per team place in a match, best first (null: 2/0 at two teams, 2/1/0, 3/2/1/0).
    match_points = models.JSONField(null=True, blank=True)
    #: What orders teams level on match points (then the other tiebreaks, then the seed).
    tiebreak = models.CharField(max_length=16, choices=Tiebreak.choices, default=Tiebreak.GAME_POINTS)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    #: When the event starts by itself (null: the organiser starts it); round 1 starts then.
    starts_at = models.DateTimeField(null=True, blank=True)
    #: Set times for each round's start (ISO datetimes, UTC), round 1 first; empty: each next round
    #: starts ``round_gap_minutes`` after the last one ended (line-ups close at a round's start).
    round_times = models.JSONField(default=list, blank=True)
    round_gap_minutes = models.PositiveIntegerField(default=10)
    current_round = models.PositiveSmallIntegerField(default=0)
    #: Round robin: the schedule of team ids fixed at the start ([[match teams...]...] per round).
    schedule = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_team_events")
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name


class TeamEntry(models.Model):
    """A team entered into a team event; at the end, its final place."""

    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "team"], name="team_entry_unique")]


class TeamRound(models.Model):
    """A round of a team event: paired (matches known, line-ups open) until ``starts_at``, when the
    boards' tables open; finished when every match is."""

    class Status(models.TextChoices):
        LINEUPS = "lineups", pgettext_lazy("team round status", "line-ups open")
        PLAYING = "playing", pgettext_lazy("team round status", "playing")
        FINISHED = "finished", pgettext_lazy("team round status", "finished")

    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LINEUPS)
    #: Line-ups close and tables open then.
    starts_at = models.DateTimeField()
    #: Teams sitting the round out (a pairing bye pays a match won).
    byes = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="team_round_unique")]
        indexes = [
            models.Index(fields=["starts_at"], condition=Q(status="lineups"), name="team_round_due_idx")
        ]


class TeamMatch(models.Model):
    """A match of a round between 2 to 4 teams (``sides``)."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("team match status", "not started")
        PLAYING = "playing", pgettext_lazy("team match status", "playing")
        FINISHED = "finished", pgettext_lazy("team match status", "finished")

    round = models.ForeignKey(TeamRound, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="team_match_unique")]


class TeamMatchSide(models.Model):
    """A team in a match: its order (1 takes the first seat on board 1; boards alternate), game
    points so far, and once the match is over its place and match points."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="sides")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="match_sides")
    order = models.PositiveSmallIntegerField()
    game_points = models.FloatField(default=0.0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    match_points = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="team_match_side_unique"),
            models.UniqueConstraint(fields=["match", "order"], name="team_match_order_unique"),
        ]


class LineUp(models.Model):
    """A team's players for a round, board 1 first (a player id, or null for an empty board, which
    is forfeited). Changed freely until the round starts; then fixed."""

    round = models.ForeignKey(TeamRound, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    players = models.JSONField(default=list)
    #: Who set it (null: made from the board order when the captain set none).
    submitted_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["round", "team"]
        constraints = [models.UniqueConstraint(fields=["round", "team"], name="lineup_unique")]


class TeamBoard(models.Model):
    """One board of a match: the table its players sit at (null when too few players came for a
    game: the board is forfeited), the players by side order, and once counted the place points
    each team earned on it."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="team_board"
    )
    #: Player id (or null: nobody) of each side, in side order.
    players = models.JSONField(default=list)
    #: Team ids whose player was missing (the board is lost for them).
    forfeits = models.JSONField(default=list, blank=True)
    #: Once counted: {team id: place points}; ``counted`` makes counting happen exactly once.
    points = models.JSONField(default=dict, blank=True)
    counted = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="team_board_unique")]


class TeamSeasonEntry(models.Model):
    """A team registered for a team season (``Season.team_boards`` set): its division, how it came
    in, and at the end its place and where that takes it."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="team_entries")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="season_entries")
    division = models.ForeignKey(
        Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="team_entries"
    )
    withdrawn = models.BooleanField(default=False)
    #: up, down, stay or new (``SeasonEntry.Movement``).
    arrived = models.CharField(max_length=4, blank=True, default="")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    movement = models.CharField(max_length=4, blank=True, default="")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "team"], name="team_season_entry_unique")]

"""Clubs and their calendar: leagues, seasons (with divisions and entries), recurring events
and players' calendar feeds."""

from __future__ import annotations

from django.db import models
from django.utils.translation import pgettext_lazy

from games.models import GameKind, Player


class League(models.Model):
    """A club: organisers run its events, members take part, everyone can look."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True, default="")
    organisers = models.ManyToManyField(Player, related_name="organised_leagues", blank=True)
    members = models.ManyToManyField(Player, related_name="leagues", blank=True)
    #: Links in the club's chat rooms are shown as links (otherwise as plain text).
    chat_links = models.BooleanField(default=False, db_default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A league's season. A *group* season only gathers events; a *divisions* season splits its
    players into divisions (each an event of the season's format) with promotion and relegation
    into the next season; a *series* season (a Grand Prix) adds up points by place over its events,
    the best ``best_of`` results counting (``tournaments.seasons``)."""

    class Kind(models.TextChoices):
        GROUP = "group", pgettext_lazy("season kind", "a group of events")
        DIVISIONS = "divisions", pgettext_lazy("season kind", "divisions with promotion and relegation")
        SERIES = "series", pgettext_lazy("season kind", "a points series over its events")

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("season status", "registration open")
        RUNNING = "running", pgettext_lazy("season status", "running")
        FINISHED = "finished", pgettext_lazy("season status", "finished")

    class Placement(models.TextChoices):
        BOTTOM = "bottom", pgettext_lazy("season newcomers", "newcomers start in the bottom division")
        RATING = "rating", pgettext_lazy("season newcomers", "newcomers are placed by rating")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, blank=True, default="", db_default="")
    starts = models.DateField(null=True, blank=True)
    ends = models.DateField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.GROUP, db_default="group")
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_default="registration"
    )
    #: The season this one follows: its final places decide promotion and relegation into this one.
    previous = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="next_season"
    )
    # What each division plays (divisions seasons); series seasons take their events as they are.
    game = models.CharField(max_length=8, choices=GameKind.choices, blank=True, default="", db_default="")
    edition = models.CharField(max_length=4, blank=True, default="", db_default="")
    seats = models.PositiveSmallIntegerField(default=2, db_default=2)
    #: round_robin or swiss (``Tournament.Format``).
    format = models.CharField(max_length=12, default="round_robin", db_default="round_robin")
    rounds = models.PositiveSmallIntegerField(
        default=0, db_default=0, help_text="Swiss divisions: rounds; else computed"
    )
    time_control = models.JSONField(default=dict, null=True, blank=True)
    rated = models.BooleanField(default=True, db_default=True)
    points_scale = models.JSONField(null=True, blank=True, help_text="points per place at a table")
    #: The season's calendar: when each round starts (ISO datetimes, UTC), one per round.
    round_times = models.JSONField(default=list, null=True, blank=True)
    #: Each round's tables still unfinished this long after its start are settled (``deadline_rule``).
    round_deadline_minutes = models.PositiveIntegerField(null=True, blank=True)
    deadline_rule = models.CharField(max_length=8, default="score", db_default="score")
    division_size = models.PositiveSmallIntegerField(default=8, db_default=8)
    promote = models.PositiveSmallIntegerField(
        default=2, db_default=2, help_text="players going up from each division"
    )
    relegate = models.PositiveSmallIntegerField(
        default=2, db_default=2, help_text="players going down from each division"
    )
    newcomers = models.CharField(
        max_length=8, choices=Placement.choices, default=Placement.BOTTOM, db_default="bottom"
    )
    #: Series seasons: points by final place in each event (best first), and how many results count.
    series_points = models.JSONField(default=list, null=True, blank=True)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    #: A team season (divisions of teams, ``tournaments.teams.seasons``): the boards of each match
    #: (null: a season of players).
    team_boards = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Prizes: [{"label": ..., "places": [first, last], "rating_max": null or a rating}, ...].
    prizes = models.JSONField(default=list, null=True, blank=True)
    created_by = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="created_seasons"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "name"]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class Division(models.Model):
    """One division of a divisions season (level 1 is the top): its games are one event."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField()
    #: Divisions of one level split into groups: A, B, ... (empty when the level has one).
    group = models.CharField(max_length=2, blank=True, default="")
    name = models.CharField(max_length=80, blank=True, default="")
    tournament = models.OneToOneField(
        "Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="division"
    )
    #: A team season's division: its team event.
    team_event = models.OneToOneField(
        "TeamEvent", on_delete=models.SET_NULL, null=True, blank=True, related_name="division"
    )

    class Meta:
        ordering = ["season", "level", "group"]
        constraints = [models.UniqueConstraint(fields=["season", "level", "group"], name="division_unique")]


class SeasonEntry(models.Model):
    """A player registered for a season: their division, the rounds they cannot play, and at the
    end their place and where it takes them."""

    class Status(models.TextChoices):
        REGISTERED = "registered", pgettext_lazy("season entry status", "registered")
        WITHDRAWN = "withdrawn", pgettext_lazy("season entry status", "withdrawn")

    class Movement(models.TextChoices):
        NONE = "", pgettext_lazy("season movement", "not decided yet")
        UP = "up", pgettext_lazy("season movement", "promoted")
        DOWN = "down", pgettext_lazy("season movement", "relegated")
        STAY = "stay", pgettext_lazy("season movement", "stays")
        NEW = "new", pgettext_lazy("season movement", "newcomer")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_entries")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    division = models.ForeignKey(
        Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    #: Round numbers the player cannot play (a requested bye each, paying what the event's rules say).
    unavailable = models.JSONField(default=list, blank=True)
    #: How the player came into this season (from the last one): up, down, stay, or new.
    arrived = models.CharField(max_length=4, choices=Movement.choices, blank=True, default="")
    #: At the end: the place in the division (or the series) and where it takes the player.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    movement = models.CharField(max_length=4, choices=Movement.choices, blank=True, default="")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="season_entry_unique")]


class EventSeries(models.Model):
    """A recurring event: a template that creates each next occurrence ahead of time, registration
    open (``tournaments.calendar.recurring``). Times are kept as the local hour in the series' time
    zone, so a daylight-saving change keeps the hour players know."""

    class Frequency(models.TextChoices):
        DAILY = "daily", pgettext_lazy("recurrence", "every day")
        WEEKLY = "weekly", pgettext_lazy("recurrence", "every week")
        MONTHLY = "monthly", pgettext_lazy("recurrence", "every month")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="event_series")
    name = models.CharField(max_length=100)
    #: What each occurrence is: the keyword arguments of ``competitions.services.tournament_create``
    #: (game, seats, format, rounds, time_control, rated, points_scale, check_in, ...).
    event = models.JSONField(default=dict)
    frequency = models.CharField(max_length=8, choices=Frequency.choices, default=Frequency.WEEKLY)
    #: Every ``interval`` days, weeks or months.
    interval = models.PositiveSmallIntegerField(default=1)
    #: Weekly: the days (0 = Monday ... 6 = Sunday); empty: the first date's weekday.
    weekdays = models.JSONField(default=list, blank=True)
    local_time = models.TimeField()
    time_zone = models.CharField(max_length=64, default="UTC")
    first_date = models.DateField()
    until = models.DateField(null=True, blank=True)
    #: Each occurrence is created (registration open) this many days before it starts.
    create_days_ahead = models.PositiveSmallIntegerField(default=7)
    #: Local dates the organiser skipped ("YYYY-MM-DD").
    skipped = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_event_series")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "name"]

    def __str__(self) -> str:
        return self.name


class CalendarFeed(models.Model):
    """A player's private calendar feed (``/calendar/<secret>.ics``); the secret is reset from the
    settings page, which makes the old address stop working."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="calendar_feed")
    secret = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

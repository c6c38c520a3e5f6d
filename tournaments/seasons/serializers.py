"""Input and output shapes of the seasons API. Inputs are checked loosely here (types, ranges)
and fully by the services (``rules.check_settings``), whose errors say what was wrong and why.
Status and kind fields are plain strings (values in the help text), as in ``tournaments.serializers``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import GameKind

from ..models import Season
from ..teams.season_apis import TeamDivisionTableOut, TeamSeasonEntryOut
from .news import division_name


class SeasonSettingsIn(serializers.Serializer):
    """Every setting is optional: what is left out keeps its default (creating) or value (editing)."""

    name = serializers.CharField(max_length=80, required=False)
    starts = serializers.DateField(required=False, allow_null=True)
    ends = serializers.DateField(required=False, allow_null=True)
    game = serializers.ChoiceField(choices=GameKind.choices, required=False)
    edition = serializers.ChoiceField(choices=[("302", "302"), ("2011", "2011")], required=False)
    seats = serializers.IntegerField(min_value=2, max_value=4, required=False)
    format = serializers.CharField(max_length=12, required=False, help_text="round_robin or swiss")
    rounds = serializers.IntegerField(
        min_value=0, max_value=30, required=False, help_text="Swiss divisions: rounds (0: 5)"
    )
    time_control = serializers.JSONField(required=False)
    rated = serializers.BooleanField(required=False)
    points_scale = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    round_times = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        help_text="when each round starts: ISO datetimes (UTC unless an offset is given), in order",
    )
    round_deadline_minutes = serializers.IntegerField(
        min_value=1, max_value=366 * 24 * 60, required=False, allow_null=True
    )
    deadline_rule = serializers.ChoiceField(choices=["score", "draw", "forfeit"], required=False)
    division_size = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    promote = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    relegate = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    newcomers = serializers.ChoiceField(choices=Season.Placement.values, required=False)
    series_points = serializers.ListField(child=serializers.FloatField(min_value=0), required=False)
    best_of = serializers.IntegerField(min_value=1, max_value=1000, required=False, allow_null=True)
    prizes = serializers.JSONField(
        required=False,
        help_text='[{"label": "Champion", "places": [1, 1], "rating_max": null}, ...]; rating_max: a '
        "prize for the best players rated at most that at the season's start",
    )
    team_boards = serializers.IntegerField(
        min_value=1,
        max_value=12,
        required=False,
        allow_null=True,
        help_text="a season of teams (divisions only): the boards of each team match; "
        "null: a season of players",
    )


class SeasonIn(SeasonSettingsIn):
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(choices=Season.Kind.values, help_text="group, divisions or series")


class RoundsIn(serializers.Serializer):
    rounds = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1000), help_text="round numbers you cannot play"
    )


class CloseIn(serializers.Serializer):
    name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, help_text="the next season's name"
    )


class SeasonOut(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.CharField(source="league.slug", help_text="the league's slug")
    name = serializers.CharField()
    slug = serializers.CharField()
    kind = serializers.CharField(help_text="group, divisions or series")
    status = serializers.CharField(help_text="registration, running or finished")
    starts = serializers.DateField(allow_null=True)
    ends = serializers.DateField(allow_null=True)
    previous = serializers.IntegerField(source="previous_id", allow_null=True)
    game = serializers.CharField()
    edition = serializers.CharField()
    seats = serializers.IntegerField()
    format = serializers.CharField()
    rounds = serializers.IntegerField()
    time_control = serializers.JSONField()
    rated = serializers.BooleanField()
    points_scale = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    round_times = serializers.ListField(child=serializers.CharField())
    round_deadline_minutes = serializers.IntegerField(allow_null=True)
    deadline_rule = serializers.CharField()
    division_size = serializers.IntegerField()
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    newcomers = serializers.CharField(help_text="bottom or rating")
    series_points = serializers.ListField(child=serializers.FloatField())
    best_of = serializers.IntegerField(allow_null=True)
    prizes = serializers.JSONField()
    team_boards = serializers.IntegerField(
        allow_null=True,
        help_text="a season of teams: the boards of each team match; null: a season of players",
    )
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, instance: Any) -> Any:
        for name in ("round_times", "series_points", "prizes"):
            if getattr(instance, name) is None:
                setattr(instance, name, [])
        return super().to_representation(instance)


class EntryOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.display_name")
    status = serializers.CharField(help_text="registered or withdrawn")
    level = serializers.IntegerField(source="division.level", allow_null=True, default=None)
    group = serializers.CharField(source="division.group", allow_null=True, default=None)
    unavailable = serializers.ListField(child=serializers.IntegerField())
    arrived = serializers.CharField(help_text="up, down, stay, new (from last season), or empty")
    place = serializers.IntegerField(allow_null=True)
    movement = serializers.CharField(help_text="up, down, stay once the season is closed; else empty")


class DivisionOut(serializers.Serializer):
    id = serializers.IntegerField()
    level = serializers.IntegerField(help_text="1 = the top division")
    group = serializers.CharField(help_text="A, B ... when a level is split; else empty")
    name = serializers.SerializerMethodField(help_text='the name given, else "Division 2 A" in your language')
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)

    def get_name(self, d: Any) -> str:
        return division_name(level=d.level, group=d.group, name=d.name)

    tournament_status = serializers.CharField()
    team_event = serializers.IntegerField(
        source="team_event_id",
        allow_null=True,
        default=None,
        help_text="a team season's division: its team event (/team-events/{id}/); else null",
    )


class TableRowOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    place = serializers.IntegerField()
    points = serializers.FloatField()
    games = serializers.IntegerField()
    movement = serializers.CharField(
        help_text="up, down, stay (provisional while running); empty before round 1"
    )
    arrived = serializers.CharField()
    withdrawn = serializers.BooleanField()


class DivisionTableOut(serializers.Serializer):
    division = DivisionOut()
    rows = TableRowOut(many=True)
    final = serializers.BooleanField(help_text="places and movement decided (the season is closed)")


class ScheduledRoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)


class PrizePlayerOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    place = serializers.IntegerField()
    rating = serializers.IntegerField(help_text="the displayed rating at the season's start")


class PrizeAwardOut(serializers.Serializer):
    label = serializers.CharField()
    places = serializers.ListField(child=serializers.IntegerField())
    rating_max = serializers.IntegerField(allow_null=True)
    players = PrizePlayerOut(many=True)


class SeasonDetailOut(SeasonOut):
    next = serializers.IntegerField(allow_null=True, help_text="the season opened after this one")
    entries = EntryOut(many=True)
    divisions = DivisionOut(many=True, help_text="the divisions, top first (their events' ids)")
    table = DivisionTableOut(many=True, help_text="each division's table, top first")
    schedule = ScheduledRoundOut(many=True)
    prize_winners = PrizeAwardOut(many=True)
    team_entries = TeamSeasonEntryOut(many=True, help_text="a season of teams: the teams registered")
    team_table = TeamDivisionTableOut(
        many=True, help_text="a season of teams: each division's team standings, top first"
    )


class SeriesResultOut(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    event = serializers.CharField()
    place = serializers.IntegerField()
    points = serializers.FloatField()
    counted = serializers.BooleanField(help_text="one of the best results that count")


class SeriesRowOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    total = serializers.FloatField()
    place = serializers.IntegerField()
    results = SeriesResultOut(many=True)

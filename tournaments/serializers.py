"""Input and output shapes of the leagues, tournaments and ladders API.

The output serializers render what :mod:`tournaments.selectors` reads (model instances with their
annotations, prefetches and computed attributes) and so describe every response in the OpenAPI
schema. Status fields are plain strings (their values are in the help text): an enum named
``status`` would collide with the games API's table status in the schema's enum components.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.validation import DB_INT_MAX
from games.models import GameKind

from .models import Challenge, Registration, Round, Tournament


# ----------------------------------------------------------------------- input
class LeagueIn(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class TournamentIn(serializers.Serializer):
    league = serializers.SlugField(help_text="the league's slug")
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(min_value=2, max_value=4)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.SWISS)
    rounds = serializers.IntegerField(
        min_value=0,
        max_value=30,
        required=False,
        help_text=f"Swiss: 1 to 30, {Tournament.DEFAULT_SWISS_ROUNDS} when omitted (as on the organiser's "
        "dashboard); "
        "other formats: computed at the start (leave it out)",
    )
    advance = serializers.IntegerField(min_value=1, max_value=3, default=1)
    edition = serializers.ChoiceField(choices=[("302", "302"), ("2011", "2011")], default="302")
    time_control = serializers.JSONField(required=False)
    rated = serializers.BooleanField(default=True)
    points_scale = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    check_in = serializers.BooleanField(default=False)
    requested_bye = serializers.ChoiceField(
        choices=["zero", "half"],
        default="half",
        help_text="what a bye the organiser gives pays: zero, or half (a draw's points: the scale's "
        "average); the pairing's own bye (the odd player out) pays a win",
    )
    open_registration = serializers.BooleanField(default=True)
    # The calendar: when the event starts by itself, and its round schedule.
    starts_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="ISO 8601 with a zone (e.g. 2026-12-04T18:00:00Z): the event starts by itself then "
        "(in the future; null or absent: the organiser starts it)",
    )
    min_players = serializers.IntegerField(
        required=False,
        max_value=DB_INT_MAX,
        help_text="fewer players than this at starts_at call the event off: 2 (the default) to max_players",
    )
    check_in_minutes = serializers.IntegerField(
        required=False,
        max_value=DB_INT_MAX,
        help_text="with check_in: it opens this many minutes before starts_at, 5 to 1440 (default 30)",
    )
    round_start = serializers.ChoiceField(
        choices=Tournament.RoundStart.choices,
        required=False,
        help_text="when each round after the first is paired: asap (as the last one ends; the default), "
        "interval (round_interval_minutes after the last round's start) or times (round_times); a round "
        "due before the last one ended is paired as soon as it ends",
    )
    round_interval_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        max_value=DB_INT_MAX,
        help_text="round_start interval: minutes from one round's start to the next's, 1 to 86400",
    )
    round_times = serializers.ListField(
        child=serializers.DateTimeField(),
        required=False,
        allow_null=True,
        max_length=100,
        help_text="round_start times: when each round is paired (ISO 8601 with a zone), round 1 first, "
        "strictly increasing, not before starts_at; a Swiss needs one per round",
    )
    round_deadline_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        max_value=DB_INT_MAX,
        help_text="correspondence rounds: tables unfinished this many minutes after their round was paired "
        "are settled by deadline_rule, 5 to 86400 (60 days); null: no deadline",
    )
    deadline_rule = serializers.ChoiceField(
        choices=Tournament.DeadlineRule.values,  # plain values: one enum with the seasons API's
        required=False,
        help_text="what settles a table unfinished at the deadline: score (the default: the places the "
        "engine's scores give from the position), draw (everyone still in shares the place) or forfeit "
        "(whoever is on move is last of those still in, the others share the place above)",
    )
    # Arenas (format arena).
    duration_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        max_value=DB_INT_MAX,
        help_text="arena: how long it runs from its start, 5 to 1440 minutes (required for an arena, "
        "refused for other formats)",
    )
    berserk = serializers.BooleanField(
        default=True,
        help_text="arena: players may halve their own clock at the start of a table for a point more on a "
        "win; off by itself under an untimed or correspondence clock",
    )
    team_battle_top = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=20,
        help_text="arena: a team battle counting each team's best N scorers (1 to 20); needs battle_teams",
    )
    battle_teams = serializers.ListField(
        child=serializers.CharField(max_length=80),
        required=False,
        max_length=100,
        help_text="arena team battle: the teams taking part (slugs or ids), at least 2; players join for "
        "one of them they are a member of",
    )


class PlayerRef(serializers.Serializer):
    player = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=DB_INT_MAX,
        help_text="player id (organisers); yourself if absent",
    )


class OrganiserRequestIn(serializers.Serializer):
    message = serializers.CharField(
        max_length=1000, required=False, allow_blank=True, default="", help_text="your club, your plans"
    )


class OrganiserRequestOut(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    message = serializers.CharField()
    status = serializers.CharField(help_text="pending, granted or refused")
    created = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class LateEntryIn(serializers.Serializer):
    player = serializers.IntegerField(
        min_value=0, max_value=DB_INT_MAX, help_text="the player entered (their id)"
    )
    missed = serializers.ChoiceField(
        choices=["zero", "half"],
        default="zero",
        help_text="what each round already paired pays: nothing, or half (the scale's average)",
    )


class LateEntryInvitationOut(serializers.Serializer):
    """An organiser's late entry of a player: ``pending`` until the player answers; ``accepted`` at
    once when the organiser entered themself (or a house bot)."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    event = serializers.CharField(source="tournament.name")
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    invited_by = serializers.IntegerField(source="invited_by_id", allow_null=True)
    missed = serializers.CharField(help_text="what each missed round pays once entered: zero or half")
    status = serializers.CharField(help_text="pending, accepted or declined")
    created = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class LadderIn(serializers.Serializer):
    league = serializers.SlugField()
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(min_value=2, max_value=4, default=2)
    name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    time_control = serializers.JSONField(required=False)
    challenge_places = serializers.IntegerField(min_value=0, max_value=100, default=0)
    challenge_days = serializers.FloatField(min_value=0.01, max_value=60, default=3)
    kind = serializers.ChoiceField(
        choices=[("rating", "rating"), ("position", "position")],
        default="rating",
        help_text="rating: ordered by rating; position: a challenger who wins takes the place (2 seats)",
    )
    max_open_challenges = serializers.IntegerField(min_value=1, max_value=50, default=3)
    decline_cooldown_hours = serializers.FloatField(min_value=0, max_value=24 * 60, default=24)
    max_declines = serializers.IntegerField(min_value=0, max_value=100, default=2)
    decline_period_days = serializers.FloatField(min_value=0.01, max_value=365, default=30)


class ChallengeIn(serializers.Serializer):
    player = serializers.IntegerField(min_value=0, max_value=DB_INT_MAX, help_text="the player to challenge")


# ---------------------------------------------------------------------- output
class Number(serializers.FloatField):
    """A number rendered as it is (a sum of no values stays ``0``, as it always was: no ``0.0``)."""

    def to_representation(self, value: Any) -> Any:
        return value


def _statuses(choices: list[tuple[str, str]]) -> str:
    return "one of " + ", ".join(value for value, _ in choices)


TIME_CONTROL_HELP = 'e.g. {"kind": "fischer", "base": 600.0, "increment": 5.0} or {"kind": "untimed"}'


class PlayerNameOut(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


class LeagueOut(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    organisers = PlayerNameOut(many=True)
    members = serializers.IntegerField(source="member_count", help_text="how many members")


class TournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.CharField(source="league.slug", help_text="the league's slug")
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=GameKind.choices)
    edition = serializers.CharField(help_text="Pacru: 302 or 2011; empty for the other games")
    seats = serializers.IntegerField(help_text="players per table, 2 to 4")
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    rounds = serializers.IntegerField(help_text="the number of rounds (Swiss: set; others: computed)")
    advance = serializers.IntegerField(help_text="knockout: players advancing from each table")
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    rated = serializers.BooleanField()
    points_scale = serializers.ListField(
        child=Number(), allow_null=True, help_text="points per place, best first; null: the default"
    )
    check_in = serializers.BooleanField(help_text="only checked-in players are paired")
    requested_bye = serializers.ChoiceField(
        choices=["zero", "half"],
        help_text="what a bye the organiser gives pays: zero, or half (a draw's points)",
    )
    status = serializers.CharField(help_text=_statuses(Tournament.Status.choices))
    current_round = serializers.IntegerField(help_text="0 before the start")
    registered = serializers.IntegerField(help_text="players registered and not withdrawn")
    starts_at = serializers.DateTimeField(
        allow_null=True, help_text="when the event starts by itself; null: the organiser starts it"
    )
    min_players = serializers.IntegerField(help_text="fewer at starts_at call the event off")
    check_in_minutes = serializers.IntegerField(
        help_text="with check_in: it opens this long before starts_at"
    )
    round_start = serializers.ChoiceField(
        choices=Tournament.RoundStart.choices, help_text="when each round after the first is paired"
    )
    round_interval_minutes = serializers.IntegerField(
        allow_null=True, help_text="round_start interval: minutes from one round's start to the next's"
    )
    round_times = serializers.ListField(
        child=serializers.DateTimeField(),
        allow_null=True,
        help_text="round_start times: when each round is paired (UTC), round 1 first",
    )
    round_deadline_minutes = serializers.IntegerField(
        allow_null=True, help_text="minutes after its pairing a round's unfinished tables are settled"
    )
    deadline_rule = serializers.ChoiceField(
        choices=Tournament.DeadlineRule.values,  # plain values: one enum with the seasons API's
        help_text="how a table unfinished at the deadline is settled: score, draw or forfeit",
    )
    next_round_at = serializers.DateTimeField(
        allow_null=True, help_text="when the next round is due (interval and times; it waits for this one)"
    )
    duration_minutes = serializers.IntegerField(
        allow_null=True, help_text="arena: how long it runs from its start; null for other formats"
    )
    berserk = serializers.BooleanField(help_text="arena: players may go berserk (halve their own clock)")
    team_battle_top = serializers.IntegerField(
        allow_null=True, help_text="arena team battle: each team's best scorers counted; null: no team battle"
    )
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="arena: when it ends (its start plus its duration); null before the start"
    )


class LeagueDetailOut(LeagueOut):
    tournaments = TournamentOut(many=True, help_text="newest first")


class RoundSeatOut(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    rank = serializers.IntegerField(allow_null=True, help_text="final place at the table; null while playing")


class RoundTableOut(serializers.Serializer):
    number = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id", help_text="the games API's table id")
    status = serializers.CharField(source="table.status", help_text="the table's status (games API)")
    players = RoundSeatOut(many=True, source="table.seats", help_text="in seat order")
    bracket = serializers.CharField(
        required=False,
        help_text='double elimination only: e.g. "Winners bracket round 2", "Losers bracket round 1", '
        '"Grand final" (absent for other formats)',
    )


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text=_statuses(Round.Status.choices))
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="ids of the players with a bye")
    tables = RoundTableOut(many=True)
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="correspondence rounds: when unfinished tables are settled; null: none"
    )
    deadline_applied = serializers.BooleanField(help_text="the deadline passed and was applied")


class RegistrationOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    status = serializers.CharField(help_text=_statuses(Registration.Status.choices))
    no_shows = serializers.IntegerField()
    joined_round = serializers.IntegerField(
        help_text="the first round the player is paired in (1 unless late)"
    )
    missed_points = Number(help_text="what each round before joined_round paid (a late entry: zero or half)")


class StandingOut(serializers.Serializer):
    place = serializers.IntegerField(help_text="players share a place when points and tiebreaks are equal")
    player = serializers.IntegerField()
    display_name = serializers.CharField()
    points = Number(help_text="knockout: the rounds survived (a bye counts; the champion survived the final)")
    played = serializers.IntegerField(help_text="tables played (byes and forfeits not counted)")
    wins = serializers.IntegerField(help_text="tables won outright")
    tiebreaks = serializers.DictField(
        child=Number(),
        help_text="in the order they apply; 2 seats: buchholz, median_buchholz, sonneborn_berger, wins; "
        "3-4 seats: opponents_points, markers, average_place (lower is better); knockout: exit_place (the "
        "place at the table where the player went out, the final's for finalists; 0 while still in) and "
        "seed (1 best; 0: did not start), both lower is better; double elimination (points: tables "
        "won): losses, eliminated_in (the round of the second loss, 0 while in) and seed; arena: "
        "performance (the opponents' mean rating ±400 for each one beaten or lost to; 0 before a table)",
    )


class TournamentDetailOut(TournamentOut):
    """A tournament with its rounds played so far (``round_list``; ``rounds`` stays the number of
    rounds, as in the list), registrations and standings."""

    round_list = RoundOut(many=True, source="round_set", help_text="the rounds paired so far, in order")
    registrations = RegistrationOut(many=True, help_text="in the order they registered")
    standings = StandingOut(many=True, help_text="best first")


class LadderBriefOut(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.CharField(source="league.slug", help_text="the league's slug")
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(help_text="2: challenges; 3-4: matchmaking queue")
    name = serializers.CharField(source="*", help_text="its name, or the league's and the game's")
    kind = serializers.CharField(help_text="rating (ordered by rating) or position (challenges move places)")


class LadderRowOut(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField()
    display_name = serializers.CharField()
    rating = serializers.FloatField(
        allow_null=True, help_text="conservative rating (mu - 3 sigma), 2 decimals; null: unrated"
    )
    games = serializers.IntegerField(help_text="rated tables")
    last_played = serializers.DateTimeField(allow_null=True)


class ChallengeOut(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.IntegerField(source="challenger_id", help_text="player id")
    challenged = serializers.IntegerField(source="challenged_id", help_text="player id")
    status = serializers.CharField(help_text=_statuses(Challenge.Status.choices))
    created = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    table = serializers.IntegerField(source="table_id", allow_null=True, help_text="once accepted")
    outcome = serializers.CharField(
        help_text="empty while open; challenger, challenged or draw once played; forfeit when it expired "
        "unanswered on a position ladder"
    )


class LadderOut(LadderBriefOut):
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    order = LadderRowOut(many=True, help_text="the members, best first")
    challenges = ChallengeOut(many=True, source="pending_challenges", help_text="pending, newest first")
    queue = serializers.ListField(
        child=serializers.IntegerField(), source="queued", help_text="ids of the players queueing"
    )


class ChallengeAcceptedOut(serializers.Serializer):
    challenge = serializers.IntegerField()
    status = serializers.CharField(help_text="accepted")
    table = serializers.IntegerField(help_text="the new table (games API)")

"""Input and output shapes of the ratings API (ratings, their history, match quality).

Ratings are rendered to 3 decimal places, as they always were; each rating also carries its
``display_rating`` and ``display_uncertainty``, the numbers the pages show (``ratings.display``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import GameKind

from . import display, selectors
from .models import Rating


# ----------------------------------------------------------------------- input
class LeaderboardQuery(serializers.Serializer):
    provisional = serializers.BooleanField(required=False, allow_null=True, default=None)
    active_days = serializers.IntegerField(required=False, min_value=1, max_value=3650)
    ordering = serializers.ChoiceField(choices=list(selectors.ORDERINGS), default="conservative")
    limit = serializers.IntegerField(required=False, min_value=1, max_value=500, default=100)
    # Bounded so that offset + limit still fits the database's 64-bit OFFSET/LIMIT.
    offset = serializers.IntegerField(required=False, min_value=0, max_value=10**15, default=0)


# ---------------------------------------------------------------------- output
class Rounded(serializers.FloatField):
    """A float rounded to ``digits`` decimal places."""

    def __init__(self, digits: int = 3, **kwargs: Any):
        self.digits = digits
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> float:
        return round(float(value), self.digits)


class RatingOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    mu = Rounded(help_text="the rating's mean")
    sigma = Rounded(help_text="its uncertainty")
    conservative = Rounded(help_text="mu - 3 sigma: the leaderboard's order")
    games = serializers.IntegerField(help_text="rated tables played")
    provisional = serializers.SerializerMethodField(help_text="sigma is still above the provisional bound")
    last_played = serializers.DateTimeField(allow_null=True)
    display_rating = serializers.SerializerMethodField(
        help_text="the rating as the pages show it: 60 × mu, rounded, never below 0 (a newcomer: 1500)"
    )
    display_uncertainty = serializers.SerializerMethodField(
        help_text="its ± as the pages show it: 60 × sigma, rounded (a newcomer: 500)"
    )

    def get_provisional(self, r: Rating) -> bool:
        return selectors.is_provisional(r.sigma)

    def get_display_rating(self, r: Rating) -> int:
        return display.rating(r.mu)

    def get_display_uncertainty(self, r: Rating) -> int:
        return display.uncertainty(r.sigma)


class RatedPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField()


class LeaderboardRowOut(RatingOut):
    """A rating with its place on the leaderboard and its player (those first)."""

    position = serializers.IntegerField(help_text="1 = top, counted over every page")
    player = RatedPlayerOut()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        first = {name: fields.pop(name) for name in ("position", "player")}
        return {**first, **fields}


class LeaderboardOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    count = serializers.IntegerField(help_text="rows of the whole leaderboard (with these filters)")
    results = LeaderboardRowOut(many=True)


class RatingChangeOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    table = serializers.IntegerField(source="table_id")
    at = serializers.DateTimeField(help_text="when the table finished")
    rank = serializers.IntegerField(help_text="the player's place at the table")
    seats = serializers.IntegerField()
    mu_before = Rounded()
    sigma_before = Rounded()
    mu_after = Rounded()
    sigma_after = Rounded()
    conservative_after = Rounded()
    change = Rounded(source="delta", help_text="of the conservative rating")


class PlayerRatingsOut(serializers.Serializer):
    player = serializers.IntegerField()
    ratings = RatingOut(many=True, help_text="by game")
    history = RatingChangeOut(many=True, help_text="oldest first")


class QualityOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    players = serializers.ListField(child=serializers.IntegerField())
    quality = serializers.FloatField(help_text="TrueSkill match quality, 0 to 1 (1: evenly matched)")
    fair_threshold = serializers.FloatField(help_text="the quality a table of this size counts as fair from")
    fair = serializers.BooleanField()

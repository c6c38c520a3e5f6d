"""The organiser pages' forms: a league, an event, a bot match, a request for the organiser role."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.botlevels import LEVEL_TEXTS
from games.models import GameKind

from ..models import League, Tournament

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"]
#: The formats played in rounds (all but the arena).
ROUND_FORMATS = [f for f in Tournament.Format.values if f != Tournament.Format.ARENA]


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=80, label=pgettext_lazy("league form", "Name"))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        required=False,
        label=pgettext_lazy("league form", "Description"),
    )


def require_arena_minutes(form: forms.Form, data: dict[str, Any]) -> dict[str, Any]:
    """An arena's form (an event's or a series') must say how long it runs."""
    if data.get("format") == Tournament.Format.ARENA and not data.get("duration_minutes"):
        form.add_error(
            "duration_minutes",
            pgettext("event form", "an arena runs for a set time: say how many minutes (5 or more)"),
        )
    return data


class TournamentForm(forms.Form):
    league = forms.ModelChoiceField(
        queryset=League.objects.none(), label=pgettext_lazy("event form", "League")
    )
    name = forms.CharField(max_length=100, label=pgettext_lazy("event form", "Name"))
    game = forms.ChoiceField(choices=GameKind.choices, label=pgettext_lazy("event form", "Game"))
    seats = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, label=gettext_lazy("Players per table")
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices, label=pgettext_lazy("event form", "Format"))
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=Tournament.DEFAULT_SWISS_ROUNDS,
        required=False,
        label=gettext_lazy("Rounds (Swiss)"),
    )
    advance = forms.IntegerField(
        min_value=1,
        max_value=3,
        initial=1,
        required=False,
        label=gettext_lazy("Players advancing per table (knockout)"),
    )
    # An arena (``tournaments.arena``): no rounds; it runs for a time and pairs whoever is free.
    duration_minutes = forms.IntegerField(
        min_value=5,
        max_value=24 * 60,
        initial=60,
        required=False,
        label=gettext_lazy("Arena: minutes it runs from the start"),
    )
    berserk = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Arena: players may go berserk (halve their own clock for a point more on a win)"),
    )
    # A team battle (``tournaments.teams.battles``): players join for a team; its best K scorers count.
    team_battle_top = forms.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        label=gettext_lazy("Team battle: top scorers counted per team (empty: no team battle)"),
    )
    battle_teams = forms.CharField(
        max_length=2000,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "rooks, knights"}),
        label=gettext_lazy("Team battle: the teams' addresses (slugs), separated by commas, at least 2"),
    )
    max_players = forms.IntegerField(
        min_value=2, required=False, label=gettext_lazy("Most players (empty: no limit)")
    )
    rating_min = forms.IntegerField(min_value=0, required=False, label=gettext_lazy("Lowest rating allowed"))
    rating_max = forms.IntegerField(min_value=0, required=False, label=gettext_lazy("Highest rating allowed"))
    registration_opens = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label=gettext_lazy("Registration opens (empty: now)"),
    )
    registration_closes = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label=gettext_lazy("Registration closes (empty: at the start)"),
    )
    check_in = forms.BooleanField(
        required=False, label=gettext_lazy("Players must check in (only they are paired)")
    )
    requested_bye = forms.ChoiceField(
        choices=[
            ("half", pgettext_lazy("requested bye", "half: a draw's points")),
            ("zero", pgettext_lazy("requested bye", "nothing")),
        ],
        initial="half",
        required=False,  # left out (an older form, a script): FIDE's half point
        label=gettext_lazy("A bye you give pays"),
    )
    base_minutes = forms.FloatField(
        min_value=0, initial=10, label=gettext_lazy("Fischer: minutes (0 = untimed)")
    )
    increment = forms.FloatField(min_value=0, initial=5, label=gettext_lazy("Fischer: increment, seconds"))
    rated = forms.BooleanField(required=False, initial=True, label=pgettext_lazy("event form", "Rated"))
    # The schedule (its own fieldset on the page): times are in the organiser's time zone.
    starts_at = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label=gettext_lazy("Starts by itself at (empty: you start it)"),
    )
    min_players = forms.IntegerField(
        min_value=2,
        initial=2,
        required=False,  # left out (an older form, a script): 2
        label=gettext_lazy("Fewest players to start (fewer: it is called off)"),
    )
    check_in_minutes = forms.IntegerField(
        min_value=5,
        max_value=24 * 60,
        initial=30,
        required=False,
        label=gettext_lazy("Check-in opens, minutes before the start"),
    )
    round_start = forms.ChoiceField(
        choices=Tournament.RoundStart.choices,
        initial=Tournament.RoundStart.ASAP,
        required=False,
        label=gettext_lazy("Each next round starts"),
    )
    round_interval_minutes = forms.IntegerField(
        min_value=1,
        required=False,
        label=gettext_lazy("At a fixed interval: minutes from one round's start to the next"),
    )
    round_times = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "2026-12-04 19:00\n2026-12-11 19:00"}),
        label=gettext_lazy("At set times: one per line, round 1 first (e.g. 2026-12-04 19:00)"),
    )
    deadline = forms.IntegerField(
        min_value=1, required=False, label=gettext_lazy("Round deadline (empty: none)")
    )
    deadline_unit = forms.ChoiceField(
        choices=[
            ("days", pgettext_lazy("round deadline unit", "days after the round is paired")),
            ("hours", pgettext_lazy("round deadline unit", "hours after the round is paired")),
        ],
        initial="days",
        required=False,
        label=gettext_lazy("Round deadline in"),
    )
    deadline_rule = forms.ChoiceField(
        choices=Tournament.DeadlineRule.choices,
        initial=Tournament.DeadlineRule.SCORE,
        required=False,
        label=gettext_lazy("At the deadline, an unfinished game is"),
    )

    #: Which fields apply to which formats (the others apply to all): the page and its script use it.
    ONLY_FOR = {
        "rounds": ["swiss"],
        "advance": ["knockout"],
        "requested_bye": ["swiss", "round_robin"],
        "duration_minutes": ["arena"],
        "berserk": ["arena"],
        "team_battle_top": ["arena"],
        "battle_teams": ["arena"],
        # An arena has no rounds and no check-in: players join, also late, and are paired when free.
        **{name: ROUND_FORMATS for name in ("check_in", "check_in_minutes", "round_start")},
        **{name: ROUND_FORMATS for name in ("round_interval_minutes", "round_times", "deadline")},
        **{name: ROUND_FORMATS for name in ("deadline_unit", "deadline_rule")},
    }
    #: The fields of the "Schedule" fieldset.
    SCHEDULE = (
        "starts_at",
        "min_players",
        "check_in_minutes",
        "round_start",
        "round_interval_minutes",
        "round_times",
        "deadline",
        "deadline_unit",
        "deadline_rule",
    )

    def clean(self) -> dict[str, Any]:
        return require_arena_minutes(self, super().clean())

    def clean_round_times(self) -> list[datetime]:
        """One date and time a line, in the organiser's time zone (blank lines left out)."""
        field = forms.DateTimeField(input_formats=DATETIME_FORMATS)
        out = []
        for n, line in enumerate(self.cleaned_data.get("round_times", "").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                out.append(field.clean(line.strip()))
            except forms.ValidationError:
                raise forms.ValidationError(
                    pgettext(
                        "event form", "line %(n)s is not a date and time such as 2026-12-04 19:00: %(line)s"
                    )
                    % {"n": n, "line": line.strip()}
                ) from None
        return out

    def schedule(self) -> dict[str, Any]:
        """The schedule as ``tournament_create`` takes it (after ``is_valid``)."""
        d = self.cleaned_data
        minutes = None
        if d.get("deadline"):
            minutes = d["deadline"] * (24 * 60 if d.get("deadline_unit") == "days" else 60)
        return {
            "starts_at": d.get("starts_at"),
            "min_players": d.get("min_players") or 2,
            "check_in_minutes": d.get("check_in_minutes") or 30,
            "round_start": d.get("round_start") or Tournament.RoundStart.ASAP,
            "round_interval_minutes": d.get("round_interval_minutes"),
            "round_times": [t.isoformat() for t in d.get("round_times") or []] or None,
            "round_deadline_minutes": minutes,
            "deadline_rule": d.get("deadline_rule") or Tournament.DeadlineRule.SCORE,
        }


LEVEL_CHOICES = [
    *((lv.code, lv.label) for lv in LEVEL_TEXTS),
    ("random", pgettext_lazy("house bot level", "random")),
    ("greedy", pgettext_lazy("house bot level", "greedy")),
    ("search", pgettext_lazy("house bot level", "search")),
]
#: A seat left without a bot.
NO_BOT = ("", pgettext_lazy("bot match seat", "empty"))


class BotMatchForm(forms.Form):
    game = forms.ChoiceField(choices=GameKind.choices, label=pgettext_lazy("bot match form", "Game"))
    seat1 = forms.ChoiceField(choices=LEVEL_CHOICES, initial="search", label=gettext_lazy("Seat 1 bot"))
    seat2 = forms.ChoiceField(choices=LEVEL_CHOICES, initial="greedy", label=gettext_lazy("Seat 2 bot"))
    seat3 = forms.ChoiceField(
        choices=[NO_BOT, *LEVEL_CHOICES], required=False, label=gettext_lazy("Seat 3 bot")
    )
    seat4 = forms.ChoiceField(
        choices=[NO_BOT, *LEVEL_CHOICES], required=False, label=gettext_lazy("Seat 4 bot")
    )
    games = forms.IntegerField(
        min_value=1,
        max_value=100,
        initial=4,
        label=pgettext_lazy("bot match form", "Games"),
        help_text=gettext_lazy("seats rotate from game to game"),
    )
    rated = forms.BooleanField(required=False, initial=False, label=pgettext_lazy("bot match form", "Rated"))


class OrganiserRequestForm(forms.Form):
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=1000,
        required=False,
        label=gettext_lazy("About your club"),
        help_text=gettext_lazy("Who you are, the club or events you want to run (staff read this)."),
    )

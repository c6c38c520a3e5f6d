"""The organiser's form creating a team event for a club (``events.team_event_create``): its
game, teams per match and boards, format and rounds, clock, match points, tie-break and when
its rounds start. Only the club's organisers (and staff) see it; anybody else gets 403."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from common.errors import ServiceError
from common.players import request_player
from games.models import GameKind, Player

from ..models import League, TeamEvent
from ..organising.forms import DATETIME_FORMATS, TournamentForm
from ..selectors import is_organiser
from . import events


def _numbers(raw: str, what: str) -> list[float] | None:
    """Comma-separated numbers ("2, 1, 0"); ``None`` when left empty (the default scale)."""
    parts = [p.strip() for p in raw.replace(";", ",").split(",") if p.strip()]
    if not parts:
        return None
    out = []
    for part in parts:
        try:
            out.append(float(part))
        except ValueError:
            raise forms.ValidationError(
                _("%(value)s is not a number: write %(what)s like 2, 1, 0") % {"value": part, "what": what}
            ) from None
    return out


class TeamEventForm(forms.Form):
    name = forms.CharField(max_length=100, label=pgettext_lazy("team event form", "Name"))
    game = forms.ChoiceField(choices=GameKind.choices, label=pgettext_lazy("team event form", "Game"))
    seats = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        label=gettext_lazy("Teams per match (players per board)"),
    )
    boards = forms.IntegerField(
        min_value=1, max_value=events.MAX_BOARDS, initial=4, label=gettext_lazy("Boards per team")
    )
    format = forms.ChoiceField(
        choices=TeamEvent.Format.choices, label=pgettext_lazy("team event form", "Format")
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=events.MAX_SWISS_ROUNDS,
        initial=5,
        required=False,
        label=gettext_lazy("Rounds (Swiss)"),
    )
    # The clock as the event form has it (``organising.forms.TournamentForm``).
    base_minutes = TournamentForm.base_fields["base_minutes"]
    increment = TournamentForm.base_fields["increment"]
    rated = forms.BooleanField(required=False, initial=True, label=pgettext_lazy("team event form", "Rated"))
    match_points = forms.CharField(
        max_length=60,
        required=False,
        label=gettext_lazy(
            "Match points by place, best first (empty: 2, 0 at two teams a match, a drawn match paying "
            "1 each; 2, 1, 0 at three; 3, 2, 1, 0 at four)"
        ),
    )
    tiebreak = forms.ChoiceField(
        choices=TeamEvent.Tiebreak.choices, label=gettext_lazy("Tie-break after match points")
    )
    starts_at = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label=gettext_lazy("Starts by itself at (empty: you start it)"),
    )
    round_gap_minutes = forms.IntegerField(
        min_value=0,
        max_value=events.MAX_GAP_MINUTES,
        initial=10,
        label=gettext_lazy("Minutes between one round's end and the next round's start"),
    )
    round_times = TournamentForm.base_fields["round_times"]
    clean_round_times = TournamentForm.clean_round_times

    def clean_match_points(self) -> list[float] | None:
        return _numbers(self.cleaned_data.get("match_points", ""), _("match points"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("format") == TeamEvent.Format.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("a team Swiss needs its number of rounds"))
        scale, seats = data.get("match_points"), data.get("seats")
        if scale is not None and seats and len(scale) != seats:
            self.add_error(
                "match_points",
                _("give one number per team of a match (%(n)d), best first") % {"n": seats},
            )
        return data


def _organised_league(request: HttpRequest, slug: str) -> tuple[Player, League]:
    me = request_player(request)
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    if not is_organiser(league, me):
        raise PermissionDenied(
            _("only organisers of %(league)s create its team events") % {"league": league.name}
        )
    return me, league


def _create(me: Player, league: League, form: TeamEventForm) -> TeamEvent:
    d = form.cleaned_data
    minutes = d.get("base_minutes") or 0
    tc = (
        {"kind": "fischer", "base": int(minutes * 60), "increment": d.get("increment") or 0}
        if minutes
        else None
    )
    return events.team_event_create(
        league=league,
        by=me,
        name=d["name"],
        game=d["game"],
        seats=d["seats"],
        boards=d["boards"],
        format=d["format"],
        rounds=d.get("rounds") or 0,
        time_control=tc,
        rated=d["rated"],
        match_points=d.get("match_points"),
        tiebreak=d["tiebreak"],
        starts_at=d.get("starts_at"),
        round_times=[t.isoformat() for t in d.get("round_times") or []],
        round_gap_minutes=d["round_gap_minutes"],
    )


@login_required
def team_event_new_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The form creating a team event of the club; it posts here and opens the new event."""
    me, league = _organised_league(request, slug)
    form = TeamEventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = _create(me, league, form)
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(request, _("%(event)s created: teams can enter now") % {"event": event.name})
            return redirect("team-event", event_id=event.pk)
    context = {
        "league": league,
        "form": form,
        "zone": timezone.get_current_timezone_name(),
        "events": TeamEvent.objects.filter(league=league).order_by("-created", "-id")[:20],
    }
    return render(request, "teams/organiser_event_new.html", context, status=400 if form.errors else 200)

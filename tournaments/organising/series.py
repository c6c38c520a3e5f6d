"""The organiser's recurring-event pages: a league's series with the form that creates one, and
each series' page (edit it, see its next occurrences, skip one, pause, resume or delete it).

The event settings are the dashboard's event form's fields (``TournamentForm``), so a recurring
event offers what a one-off event does."""

from __future__ import annotations

import copy
from datetime import time
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.players import request_player
from games.models import Player

from .. import selectors as league_selectors
from ..calendar import recurring
from ..models import EventSeries, League, Tournament
from .forms import TournamentForm, require_arena_minutes

#: The event form's fields a recurring event takes (its name and dates are the series' own).
EVENT_FIELDS = (
    "game",
    "seats",
    "format",
    "rounds",
    "advance",
    "duration_minutes",
    "berserk",
    "max_players",
    "rating_min",
    "rating_max",
    "check_in",
    "requested_bye",
    "base_minutes",
    "increment",
    "rated",
)
#: The time-zone menu's regions (the tz database's "Region/City" names).
REGIONS = ("Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian")


@cache
def zone_choices() -> list[Any]:
    """UTC, then each region's zones by name (the browser's own list is far too long unsorted)."""
    zones = sorted(z for z in available_timezones() if "/" in z and z.split("/")[0] in REGIONS)
    groups = [
        (r, [(z, z.split("/", 1)[1].replace("_", " ")) for z in zones if z.startswith(r + "/")])
        for r in REGIONS
    ]
    return [("", "UTC"), *groups]  # the empty value: UTC, or the browser's zone (timezone.js)


class SeriesForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label=pgettext_lazy("series form", "Name"),
        help_text=gettext_lazy("each event is named after it with its date: “Friday Blitz — 4 Dec”"),
    )
    frequency = forms.ChoiceField(
        choices=EventSeries.Frequency.choices,
        initial=EventSeries.Frequency.WEEKLY,
        label=pgettext_lazy("series form", "Repeats"),
    )
    interval = forms.IntegerField(
        min_value=1,
        max_value=recurring.MAX_INTERVAL,
        initial=1,
        label=gettext_lazy("Every (1: every day, week or month; 2: every other …)"),
    )
    weekdays = forms.TypedMultipleChoiceField(
        choices=[(n, WEEKDAYS[n]) for n in range(7)],
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("On (weekly; none: the first date's day)"),
    )
    local_time = forms.TimeField(
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        initial=time(19, 0),
        label=gettext_lazy("Local start time"),
    )
    time_zone = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Time zone"),
        widget=forms.Select(attrs={"data-browser-zone": gettext_lazy("Your browser's zone")}),
    )
    first_date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), label=gettext_lazy("First date")
    )
    until = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        label=gettext_lazy("Last date (empty: no end)"),
    )
    create_days_ahead = forms.IntegerField(
        min_value=1,
        max_value=recurring.MAX_DAYS_AHEAD,
        initial=7,
        label=gettext_lazy("Open registration this many days before each event"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in EVENT_FIELDS:
            self.fields[name] = copy.deepcopy(TournamentForm.base_fields[name])
        self.fields["time_zone"].choices = zone_choices()  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        return require_arena_minutes(self, super().clean())

    def settings(self) -> dict[str, Any]:
        """The series' arguments (``recurring.series_create``) from the cleaned form."""
        d = self.cleaned_data
        return {
            "name": d["name"],
            "frequency": d["frequency"],
            "interval": d["interval"],
            "weekdays": sorted(d["weekdays"]) if d["frequency"] == EventSeries.Frequency.WEEKLY else [],
            "local_time": d["local_time"],
            "time_zone": d["time_zone"] or "UTC",
            "first_date": d["first_date"],
            "until": d["until"],
            "create_days_ahead": d["create_days_ahead"],
            "event": event_settings(d),
        }


def event_settings(d: dict[str, Any]) -> dict[str, Any]:
    """The event settings the series keeps, as the dashboard's event form makes them."""
    fmt = d["format"]
    event: dict[str, Any] = {"game": d["game"], "seats": d["seats"], "format": fmt, "rated": d["rated"]}
    if fmt == Tournament.Format.ARENA:  # no rounds, no check-in, no byes: it runs for its minutes
        event["duration_minutes"] = d["duration_minutes"]
        event["berserk"] = bool(d["berserk"])
    else:
        event["check_in"] = d["check_in"]
        event["requested_bye"] = d["requested_bye"] or "half"
    if fmt == Tournament.Format.SWISS and d["rounds"]:
        event["rounds"] = d["rounds"]
    if fmt == Tournament.Format.KNOCKOUT:
        event["advance"] = d["advance"] or 1
    if d["base_minutes"]:
        event["time_control"] = {
            "kind": "fischer",
            "base": d["base_minutes"] * 60,
            "increment": d["increment"],
        }
    for name in ("max_players", "rating_min", "rating_max"):
        if d[name] is not None:
            event[name] = d[name]
    return event


def initial_of(series: EventSeries) -> dict[str, Any]:
    """The form's values for an existing series."""
    e = series.event
    tc = e.get("time_control") or {}
    return {
        "name": series.name,
        "frequency": series.frequency,
        "interval": series.interval,
        "weekdays": series.weekdays,
        "local_time": series.local_time,
        "time_zone": "" if series.time_zone == "UTC" else series.time_zone,
        "first_date": series.first_date,
        "until": series.until,
        "create_days_ahead": series.create_days_ahead,
        **{k: e[k] for k in ("game", "seats", "format", "rounds", "advance", "max_players") if k in e},
        **{k: e[k] for k in ("rating_min", "rating_max", "check_in", "requested_bye", "rated") if k in e},
        **{k: e[k] for k in ("duration_minutes", "berserk") if k in e},
        "base_minutes": _whole(tc.get("base", 0) / 60) if tc.get("kind") == "fischer" else 0,
        "increment": _whole(tc.get("increment", 0)) if tc.get("kind") == "fischer" else 0,
    }


def _fields(form: SeriesForm) -> dict[str, Any]:
    """The schedule's fields, and the event's, each with the formats it applies to ("" for all)."""
    return {
        "when_fields": [f for f in form if f.name not in EVENT_FIELDS],
        "event_fields": [
            (f, " ".join(TournamentForm.ONLY_FOR.get(f.name, []))) for f in form if f.name in EVENT_FIELDS
        ],
    }


def _league_for(request: HttpRequest, slug: str) -> tuple[Player, League]:
    me = request_player(request)
    try:
        league = league_selectors.league(slug)
    except ServiceError:
        raise Http404("no such league") from None
    if not league_selectors.is_organiser(league, me):
        raise PermissionDenied(_("only organisers of %(league)s may do this") % {"league": league.name})
    return me, league


def _series_for(request: HttpRequest, series_id: int) -> tuple[Player, EventSeries]:
    me = request_player(request)
    series = EventSeries.objects.select_related("league").filter(pk=series_id).first()
    if series is None:
        raise Http404("no such recurring event")
    if not league_selectors.is_organiser(series.league, me):
        raise PermissionDenied(
            _("only organisers of %(league)s may do this") % {"league": series.league.name}
        )
    return me, series


def _zone_of_reader() -> str:
    """The organiser's own zone ("" when they set none: the menu then offers the browser's)."""
    name = timezone.get_current_timezone_name()
    return "" if name == "UTC" else name


@login_required
def league_series(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's recurring events, and the form that creates one."""
    me, league = _league_for(request, slug)
    form = SeriesForm(
        request.POST or None,
        initial={"time_zone": _zone_of_reader(), "first_date": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        try:
            series = recurring.series_create(league=league, by=me, **form.settings())
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(
                request,
                _(
                    "%(series)s created: each event is created, registration open, %(days)s days before it "
                    "starts"
                )
                % {"series": series.name, "days": series.create_days_ahead},
            )
            return redirect("organiser-series", series.pk)
    rows = [(s, recurring.upcoming(s, now=timezone.now(), count=1)) for s in league.event_series.all()]
    context = {"league": league, "form": form, "rows": rows, **_fields(form)}
    return render(request, "tournaments/organiser_series_list.html", context)


@login_required
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    """One recurring event: its settings to edit, and its next occurrences with Skip buttons."""
    me, series = _series_for(request, series_id)
    form = SeriesForm(request.POST or None, initial=initial_of(series))
    if request.method == "POST" and form.is_valid():
        try:
            recurring.series_update(series_id=series.pk, by=me, **form.settings())
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(
                request,
                _("%(series)s saved: the changes apply to the events not created yet")
                % {"series": form.cleaned_data["name"]},
            )
            return redirect("organiser-series", series.pk)
    context = {
        "series": series,
        "form": form,
        **_fields(form),
        "next": recurring.upcoming(series, now=timezone.now(), count=8),
        "created": series.occurrences.order_by("-occurrence")[:10],
    }
    return render(request, "tournaments/organiser_series.html", context)


@login_required
@require_POST
def series_action(request: HttpRequest, series_id: int, action: str) -> HttpResponse:
    """Skip one date, pause, resume or delete the series."""
    me, series = _series_for(request, series_id)
    try:
        done = _act(me, series, action, request.POST.get("date", ""))
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
        if action == "delete":
            return redirect("organiser-league-series", series.league.slug)
    return redirect("organiser-series", series.pk)


def _act(me: Player, series: EventSeries, action: str, day: str) -> str:
    words = {"series": series.name, "date": day}
    if action == "skip":
        try:
            when = forms.DateField().clean(day)
        except forms.ValidationError:
            raise Http404("no such date") from None
        called_off = recurring.series_skip(series_id=series.pk, date=when, by=me)
        if called_off is not None:
            return _("%(date)s skipped: %(event)s is called off and its players are told") % {
                **words,
                "event": called_off.name,
            }
        return _("%(date)s skipped: no event will be created that day") % words
    if action == "pause":
        recurring.series_pause(series_id=series.pk, by=me)
        return _("%(series)s paused: no more events are created until you resume it") % words
    if action == "resume":
        recurring.series_resume(series_id=series.pk, by=me)
        return _("%(series)s resumed: its next events are created as they come within reach") % words
    if action == "delete":
        recurring.series_delete(series_id=series.pk, by=me)
        return _("%(series)s deleted: the events already created stay") % words
    raise Http404("no such action")


def _whole(x: float) -> float | int:
    """3.0 -> 3 (the form shows "3", not "3.0"); 1.5 stays."""
    return int(x) if float(x).is_integer() else x

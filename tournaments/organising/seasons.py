"""The organiser's season pages: a league's seasons, the form that creates one (divisions or a
points series, its calendar and prizes), the same form filled in to edit a season until it
starts, and the buttons that start a season and close it (which opens the next one with promotion
and relegation applied)."""

from __future__ import annotations

from datetime import UTC, datetime
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
from django.views.decorators.http import require_POST

from common.errors import Conflict, ServiceError
from common.players import request_player
from games.models import GameKind, Player

from .. import selectors as league_selectors
from ..models import League, Season, Tournament
from ..seasons import services as season_services

#: Rows of round dates and prizes the form shows empty, beyond those filled in.
SPARE_ROWS = 3


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80, label=pgettext_lazy("season form", "Name"))
    kind = forms.ChoiceField(
        choices=[c for c in Season.Kind.choices if c[0] != Season.Kind.GROUP],
        label=pgettext_lazy("season form", "Kind"),
    )
    game = forms.ChoiceField(choices=GameKind.choices, label=pgettext_lazy("season form", "Game"))
    seats = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, label=gettext_lazy("Players per table")
    )
    format = forms.ChoiceField(
        choices=[
            (Tournament.Format.ROUND_ROBIN, Tournament.Format.ROUND_ROBIN.label),
            (Tournament.Format.SWISS, Tournament.Format.SWISS.label),
        ],
        label=pgettext_lazy("season form", "Each division plays"),
    )
    rounds = forms.IntegerField(
        min_value=1, max_value=30, required=False, label=gettext_lazy("Rounds (Swiss divisions)")
    )
    base_minutes = forms.FloatField(
        min_value=0, initial=0, required=False, label=gettext_lazy("Fischer: minutes (0 = untimed)")
    )
    increment = forms.IntegerField(
        min_value=0, initial=0, required=False, label=gettext_lazy("Fischer: seconds added per move")
    )
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated games"))
    division_size = forms.IntegerField(
        min_value=2, max_value=64, initial=8, label=gettext_lazy("Players per division")
    )
    promote = forms.IntegerField(
        min_value=0, max_value=32, initial=2, label=gettext_lazy("Going up per division")
    )
    relegate = forms.IntegerField(
        min_value=0, max_value=32, initial=2, label=gettext_lazy("Going down per division")
    )
    newcomers = forms.ChoiceField(choices=Season.Placement.choices, label=gettext_lazy("Newcomers"))
    team_boards = forms.IntegerField(
        min_value=1,
        max_value=12,
        required=False,
        label=gettext_lazy("Teams: boards per match (empty: a season of players)"),
    )
    deadline_days = forms.IntegerField(
        min_value=1, max_value=60, required=False, label=gettext_lazy("Round deadline (days after its start)")
    )
    deadline_rule = forms.ChoiceField(
        choices=Tournament.DeadlineRule.choices, label=gettext_lazy("Games unfinished at the deadline are")
    )
    series_points = forms.CharField(
        max_length=200,
        required=False,
        initial="10, 8, 6, 5, 4, 3, 2, 1",
        label=gettext_lazy("Series: points by place (best first, commas)"),
    )
    best_of = forms.IntegerField(
        min_value=1, max_value=100, required=False, label=gettext_lazy("Series: results that count")
    )

    def clean_series_points(self) -> list[float]:
        raw = self.cleaned_data.get("series_points", "")
        points = []
        for part in raw.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                value = float(part)
            except ValueError:
                raise forms.ValidationError(
                    _("%(value)s is not a number: write points like 10, 8, 6") % {"value": part}
                ) from None
            if value < 0:
                raise forms.ValidationError(_("points cannot be negative"))
            points.append(value)
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == Season.Kind.SERIES and not data.get("series_points"):
            self.add_error("series_points", _("a points series needs points by place, e.g. 10, 8, 6"))
        swiss = data.get("format") == Tournament.Format.SWISS
        if swiss and data.get("kind") == Season.Kind.DIVISIONS and not data.get("rounds"):
            self.add_error("rounds", _("a Swiss division needs its number of rounds"))
        size, up, down = data.get("division_size"), data.get("promote") or 0, data.get("relegate") or 0
        if size and up + down > size:
            self.add_error("promote", _("more players go up and down than a division holds"))
        return data


def _round_times(request: HttpRequest) -> tuple[list[datetime], list[str]]:
    """The posted round dates (local to the organiser's zone) as UTC datetimes, and the errors."""
    zone = timezone.get_current_timezone()
    times: list[datetime] = []
    errors: list[str] = []
    for raw in request.POST.getlist("round_time"):
        raw = raw.strip()
        if not raw:
            continue
        try:
            local = datetime.strptime(raw.replace(" ", "T")[:16], "%Y-%m-%dT%H:%M")
        except ValueError:
            errors.append(_("%(value)s is not a date and time (e.g. 2030-01-07 19:00)") % {"value": raw})
            continue
        times.append(timezone.make_aware(local, zone).astimezone(UTC))
    if times != sorted(times):
        errors.append(_("the round dates must be in order, round 1 first"))
    if len(set(times)) != len(times):
        errors.append(_("two rounds cannot start at the same time"))
    return times, errors


def _prize_rows(request: HttpRequest) -> tuple[list[dict[str, Any]], list[str]]:
    """The posted prizes ({"label", "places": [first, last], "rating_max"}) and the errors."""
    post = request.POST
    rows = zip(
        post.getlist("prize_label"),
        post.getlist("prize_first"),
        post.getlist("prize_last"),
        post.getlist("prize_rating_max"),
        strict=False,
    )
    prizes: list[dict[str, Any]] = []
    errors: list[str] = []
    for label, first, last, cap in rows:
        label = label.strip()
        if not label:
            continue
        numbers = [v.strip() for v in (first, last or first, cap)]
        if not all(v == "" or (v.isascii() and v.isdigit()) for v in numbers) or not numbers[0]:
            errors.append(_("prize %(label)s: places and rating are whole numbers") % {"label": label})
            continue
        lo, hi = int(numbers[0]), int(numbers[1] or numbers[0])
        if lo < 1 or hi < lo:
            errors.append(_("prize %(label)s: the places run from 1 up, first to last") % {"label": label})
            continue
        prizes.append(
            {"label": label[:80], "places": [lo, hi], "rating_max": int(cap) if cap.strip() else None}
        )
    return prizes, errors


def _settings(form: SeasonForm, times: list[datetime], prizes: list[dict[str, Any]]) -> dict[str, Any]:
    d = form.cleaned_data
    minutes = d.get("base_minutes") or 0
    tc = (
        {"kind": "fischer", "base": int(minutes * 60), "increment": d.get("increment") or 0}
        if minutes
        else None
    )
    series = d["kind"] == Season.Kind.SERIES
    return {
        "game": d["game"],
        "seats": d["seats"],
        "format": d["format"],
        "rounds": d.get("rounds") or 0,
        "time_control": tc,
        "rated": d["rated"],
        "division_size": d["division_size"],
        "promote": d["promote"],
        "relegate": d["relegate"],
        "newcomers": d["newcomers"],
        "team_boards": d.get("team_boards") if d["kind"] == Season.Kind.DIVISIONS else None,
        "round_times": [t.isoformat() for t in times],
        "round_deadline_minutes": d["deadline_days"] * 24 * 60 if d.get("deadline_days") else None,
        "deadline_rule": d["deadline_rule"],
        "series_points": d["series_points"] if series else [],
        "best_of": d.get("best_of") if series else None,
        "prizes": prizes,
    }


def _organised_league(request: HttpRequest, slug: str) -> tuple[Player, League]:
    """The league and its organiser: 404 for no league, 403 for anybody else."""
    me = request_player(request)
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    if not league_selectors.is_organiser(league, me):
        raise PermissionDenied(_("only organisers of %(league)s run its seasons") % {"league": league.name})
    return me, league


def _create(me: Player, league: League, form: SeasonForm, settings: dict[str, Any]) -> Season:
    d = form.cleaned_data
    return season_services.season_create(league=league, by=me, name=d["name"], kind=d["kind"], **settings)


def _rows(values: list[str], spare: int = SPARE_ROWS) -> list[str]:
    filled = [v for v in values if v.strip()]
    return filled + [""] * spare


def _posted_settings(request: HttpRequest, form: SeasonForm) -> tuple[dict[str, Any] | None, list[str]]:
    """The settings the posted form asks for (``None`` while anything is wrong), and the errors."""
    times, errors = _round_times(request)
    prizes, prize_errors = _prize_rows(request)
    errors += prize_errors
    if form.is_valid() and not errors:
        return _settings(form, times, prizes), errors
    return None, errors


def _form_context(
    request: HttpRequest, form: SeasonForm, errors: list[str], rows: tuple[list[str], list[tuple[str, ...]]]
) -> dict[str, Any]:
    """What the season form's template needs: ``rows`` are the round dates and prizes shown
    (replaced by the posted ones on a POST)."""
    post = request.POST
    round_rows, prize_rows = rows
    if request.method == "POST":
        round_rows = post.getlist("round_time")
        prize_rows = list(
            zip(
                post.getlist("prize_label"),
                post.getlist("prize_first"),
                post.getlist("prize_last"),
                post.getlist("prize_rating_max"),
                strict=False,
            )
        )
    return {
        "form": form,
        "errors": errors,
        "round_rows": _rows(round_rows),
        "prize_rows": [row for row in prize_rows if row[0].strip()] + [("", "", "", "")] * SPARE_ROWS,
        "zone": timezone.get_current_timezone_name(),
    }


@login_required
def organiser_seasons_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's seasons for its organisers, and the form that creates one (it posts here)."""
    me, league = _organised_league(request, slug)
    posted = request.method == "POST"
    form = SeasonForm(request.POST if posted else None)
    errors: list[str] = []
    if posted and "more" not in request.POST:
        settings, errors = _posted_settings(request, form)
        if settings is not None:
            try:
                season = _create(me, league, form, settings)
            except ServiceError as exc:
                messages.error(request, exc.detail)
            else:
                messages.success(
                    request,
                    _("%(season)s created: registration is open") % {"season": season.name},
                )
                return redirect("organiser-seasons", slug=league.slug)
    context = {
        "league": league,
        "seasons": Season.objects.filter(league=league).order_by("-id"),
        **_form_context(request, form, errors, ([], [])),
    }
    return render(request, "seasons/organiser.html", context)


@login_required
@require_POST
def organiser_season_action(request: HttpRequest, slug: str, season_id: int, action: str) -> HttpResponse:
    """Start the season, or close it and open the next one."""
    me, league = _organised_league(request, slug)
    season = Season.objects.filter(pk=season_id, league=league).first()
    if season is None or action not in ("start", "close"):
        raise Http404("no such season or action")
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("%(season)s was not changed: tick the box to confirm") % {"season": season.name}
        )
        return redirect("organiser-seasons", slug=league.slug)
    service = season_services.season_start if action == "start" else season_services.season_close
    try:
        result = service(season_id=season.pk, by=me)
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return redirect("organiser-seasons", slug=league.slug)
    if action == "start":
        messages.success(request, _("%(season)s started: the divisions are drawn") % {"season": season.name})
    else:
        messages.success(
            request,
            _("%(season)s closed, promotion and relegation applied: %(next)s is open for registration")
            % {"season": season.name, "next": result.name},
        )
    return redirect("organiser-seasons", slug=league.slug)


# -------------------------------------------------------------------- edit


def _whole(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _season_initial(season: Season) -> dict[str, Any]:
    """The form's fields filled from ``season`` (time control in minutes, deadline in days)."""
    tc = season.time_control or {}
    fischer = tc.get("kind") == "fischer"
    minutes = season.round_deadline_minutes
    return {
        "name": season.name,
        "kind": season.kind,
        "game": season.game,
        "seats": season.seats,
        "format": season.format,
        "rounds": season.rounds or None,
        "base_minutes": _whole(tc.get("base", 0) / 60) if fischer else 0,
        "increment": tc.get("increment", 0) if fischer else 0,
        "rated": season.rated,
        "division_size": season.division_size,
        "promote": season.promote,
        "relegate": season.relegate,
        "newcomers": season.newcomers,
        "team_boards": season.team_boards,
        "deadline_days": max(1, round(minutes / (24 * 60))) if minutes else None,
        "deadline_rule": season.deadline_rule,
        "series_points": ", ".join(f"{_whole(p)}" for p in season.series_points or []),
        "best_of": season.best_of,
    }


def _season_rows(season: Season) -> tuple[list[str], list[tuple[str, ...]]]:
    """The season's round dates (local to the current zone, as the form's inputs take them) and
    its prizes as form rows."""
    zone = timezone.get_current_timezone()
    times = [
        datetime.fromisoformat(t).astimezone(zone).strftime("%Y-%m-%dT%H:%M")
        for t in season.round_times or []
    ]
    prizes = [
        (
            p.get("label", ""),
            str(p["places"][0]),
            str(p["places"][-1]),
            "" if p.get("rating_max") is None else str(p["rating_max"]),
        )
        for p in season.prizes or []
    ]
    return times, prizes


def _changes(form: SeasonForm, settings: dict[str, Any]) -> dict[str, Any]:
    """The settings to update: the name added, and the time control and deadline left out while
    untouched (the form shows only Fischer clocks and whole days, so saving must not round them)."""
    changes = {**settings, "name": form.cleaned_data["name"]}
    if not {"base_minutes", "increment"} & set(form.changed_data):
        del changes["time_control"]
    if "deadline_days" not in form.changed_data:
        del changes["round_deadline_minutes"]
    return changes


def _refused(request: HttpRequest, league: League, season: Season) -> HttpResponse:
    messages.error(
        request,
        _("a season's settings can be changed only before it starts, and %(season)s is %(status)s")
        % {"season": season.name, "status": season.get_status_display()},
    )
    return redirect("organiser-seasons", slug=league.slug)


@login_required
def organiser_season_edit_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The creation form filled from a season still in registration; it posts here and saves."""
    me, league = _organised_league(request, slug)
    season = Season.objects.filter(pk=season_id, league=league).first()
    if season is None:
        raise Http404("no such season")
    if season.status != Season.Status.REGISTRATION:
        return _refused(request, league, season)
    posted = request.method == "POST"
    form = SeasonForm(request.POST if posted else None, initial=_season_initial(season))
    form.fields["kind"].disabled = True
    errors: list[str] = []
    if posted and "more" not in request.POST:
        settings, errors = _posted_settings(request, form)
        if settings is not None:
            try:
                season = season_services.season_update(season_id=season.pk, by=me, **_changes(form, settings))
            except Conflict as exc:
                messages.error(request, exc.detail)
                return redirect("organiser-seasons", slug=league.slug)
            except ServiceError as exc:
                messages.error(request, exc.detail)
            else:
                messages.success(request, _("%(season)s saved") % {"season": season.name})
                return redirect("organiser-seasons", slug=league.slug)
    rows = _season_rows(season)
    context = {"league": league, "season": season, **_form_context(request, form, errors, rows)}
    return render(request, "seasons/organiser_edit.html", context)

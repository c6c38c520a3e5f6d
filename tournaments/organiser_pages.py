"""The organiser dashboard and its actions (same services as the API)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.players import request_player
from games.models import GameKind

from . import botmatches, organisers, selectors, services
from .models import League, Tournament


class TournamentForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none())
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=GameKind.choices)
    seats = forms.TypedChoiceField(choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int)
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(min_value=0, max_value=30, initial=Tournament.DEFAULT_SWISS_ROUNDS)
    advance = forms.IntegerField(min_value=1, max_value=3, initial=1)
    base_minutes = forms.FloatField(min_value=0, initial=10, label="Fischer: minutes (0 = untimed)")
    increment = forms.FloatField(min_value=0, initial=5, label="Fischer: increment, seconds")
    rated = forms.BooleanField(required=False, initial=True)


LEVEL_CHOICES = [("random", "random"), ("greedy", "greedy"), ("search", "search")]


class BotMatchForm(forms.Form):
    game = forms.ChoiceField(choices=GameKind.choices)
    seat1 = forms.ChoiceField(choices=LEVEL_CHOICES, initial="search", label="Seat 1 bot")
    seat2 = forms.ChoiceField(choices=LEVEL_CHOICES, initial="greedy", label="Seat 2 bot")
    seat3 = forms.ChoiceField(choices=[("", "empty"), *LEVEL_CHOICES], required=False, label="Seat 3 bot")
    seat4 = forms.ChoiceField(choices=[("", "empty"), *LEVEL_CHOICES], required=False, label="Seat 4 bot")
    games = forms.IntegerField(
        min_value=1, max_value=100, initial=4, help_text="seats rotate from game to game"
    )
    rated = forms.BooleanField(required=False, initial=False)


@login_required
@require_POST
def bot_match_page(request: HttpRequest) -> HttpResponse:
    form = BotMatchForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, "bot match: " + "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        )
        return redirect("dashboard")
    d = form.cleaned_data
    levels = [d[f"seat{n}"] for n in range(1, 5) if d[f"seat{n}"]]
    try:
        tables = botmatches.bot_match_start(
            by=request_player(request),
            game=d["game"],
            levels=levels,
            games_count=d["games"],
            rated=d["rated"],
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, f"bot match started: tables {', '.join(f'#{t}' for t in tables)}")
    return redirect("dashboard")


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    me = request_player(request)
    leagues = selectors.organiser_leagues(me, staff=request.user.is_staff)
    form = TournamentForm(request.POST or None)
    form.fields["league"].queryset = leagues  # type: ignore[attr-defined]
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        tc = (
            {"kind": "fischer", "base": d["base_minutes"] * 60, "increment": d["increment"]}
            if d["base_minutes"]
            else None
        )
        try:
            t = services.tournament_create(
                organiser=me,
                league=d["league"],
                name=d["name"],
                game=d["game"],
                seats=d["seats"],
                format=d["format"],
                rounds=d["rounds"],
                advance=d["advance"],
                time_control=tc,
                rated=d["rated"],
            )
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(request, f"{t.name} created: registration is open")
            return redirect("dashboard")
    board = selectors.dashboard(leagues)
    attention: list[tuple[Any, str]] = []
    for t in board.events:
        if t.status == Tournament.Status.REGISTRATION:
            attention.append((t, f"registration open: {t.registered} players"))  # type: ignore[attr-defined]
        if t.status == Tournament.Status.RUNNING:
            waiting, overdue = t.waiting, t.overdue  # type: ignore[attr-defined]
            note = f"round {t.current_round}: {waiting} table(s) still playing"
            attention.append((t, note + (f", {overdue} past their deadline" if overdue else "")))
    for ladder in board.ladders:
        count, queued = ladder.pending, ladder.queued  # type: ignore[attr-defined]
        if count or queued:
            attention.append((ladder, f"{count} pending challenge(s), {queued} player(s) in the queue"))
    context = {
        "form": form,
        "events": board.events,
        "attention": attention,
        "leagues": leagues,
        "bot_form": BotMatchForm(),
        "can_bot_match": botmatches.may_start_bot_matches(me),
        "may_organise": organisers.may_organise(me),
        "bot_tables": selectors.bot_tables(me),
    }
    return render(request, "tournaments/dashboard.html", context)


class OrganiserRequestForm(forms.Form):
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=1000,
        required=False,
        label="About your club",
        help_text="Who you are, the club or events you want to run (staff read this).",
    )


@login_required
def organiser_request_page(request: HttpRequest) -> HttpResponse:
    """Ask staff for the organiser role (``tournaments.organisers``), and see the answer."""
    me = request_player(request)
    form = OrganiserRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            organisers.request_role(player=me, message=form.cleaned_data["message"])
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(request, "asked: staff will answer your request")
            return redirect("organiser-request")
    context = {
        "form": form,
        "may_organise": organisers.may_organise(me),
        "requests": selectors.organiser_requests(me) if not request.user.is_staff else [],
    }
    return render(request, "tournaments/organiser_request.html", context)


@login_required
@require_POST
def dashboard_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    me = request_player(request)
    try:
        if action == "start":
            services.start(tournament_id=tournament_id, by=me)
        elif action == "next-round":
            services.next_round(tournament_id=tournament_id, by=me)
        elif action == "add-bot":
            services.register_bot(tournament_id=tournament_id, level=request.POST.get("level", ""), by=me)
        elif action == "late-entry":
            who = selectors.find_player(request.POST.get("player"))
            if who is None:
                raise Http404("no such player")
            missed = request.POST.get("missed", "zero")
            services.late_entry(tournament_id=tournament_id, player=who, by=me, missed=missed)
        elif action == "withdraw":
            who = selectors.find_player(request.POST.get("player"))
            if who is None:
                raise Http404("no such player")
            services.withdraw(tournament_id=tournament_id, player=who, by=me)
        else:
            raise Http404("no such action")
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "done")
    return redirect("dashboard")



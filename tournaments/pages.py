"""Server-rendered pages: league, tournament, and the organiser dashboard (same services as the API)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.http import fragment_response
from common.players import request_player
from games.models import GameKind, Player, Table

from . import apis, botmatches, services
from .models import Challenge, Ladder, League, Tournament

TIEBREAK_LABELS = {
    "buchholz": "Buchholz",
    "median_buchholz": "median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "wins": "wins",
    "opponents_points": "opponents' points",
    "markers": "markers",
    "average_place": "average place",
}


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    context = {
        "league": league,
        "tournaments": league.tournaments.all(),
        "organisers": league.organisers.all(),
        "members": league.members.count(),
    }
    return render(request, "tournaments/league.html", context)


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise Http404("no such tournament")
    body = apis.tournament_body(t, full=True)
    for row in body["standings"]:
        row["tiebreak_list"] = [(TIEBREAK_LABELS.get(k, k), v) for k, v in row["tiebreaks"].items()]
    for rnd in body["rounds"]:
        if rnd["status"] == "finished":
            rnd["standings"] = apis.standings_body(t, rnd["number"])
    context = {"t": t, "body": body}
    if request.GET.get("fragment"):
        return fragment_response(request, "tournaments/_tournament_body.html", context)
    return render(request, "tournaments/tournament.html", context)


class TournamentForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none())
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=GameKind.choices)
    seats = forms.TypedChoiceField(choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int)
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(min_value=0, max_value=30, initial=5)
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
    leagues = League.objects.all() if request.user.is_staff else me.organised_leagues.all()
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
    events = Tournament.objects.filter(league__in=leagues).exclude(status=Tournament.Status.FINISHED)
    attention = []
    for t in events:
        if t.status == Tournament.Status.REGISTRATION:
            attention.append(
                (t, f"registration open: {t.registrations.exclude(status='withdrawn').count()} players")
            )
        if t.status == Tournament.Status.RUNNING:
            waiting = Table.objects.filter(round_table__round__tournament=t, status__in=["open", "active"])
            overdue = waiting.filter(deadline__lt=timezone.now()).count()
            note = f"round {t.current_round}: {waiting.count()} table(s) still playing"
            attention.append((t, note + (f", {overdue} past their deadline" if overdue else "")))
    pending = Challenge.objects.filter(ladder__league__in=leagues, status=Challenge.Status.PENDING)
    for ladder in Ladder.objects.filter(league__in=leagues):
        count = pending.filter(ladder=ladder).count()
        queued = ladder.queue.count()
        if count or queued:
            attention.append((ladder, f"{count} pending challenge(s), {queued} player(s) in the queue"))
    bot_tables = (
        Table.objects.filter(created_by=me)
        .exclude(seats__player__is_bot=False)
        .filter(seats__isnull=False)
        .distinct()
        .prefetch_related("seats__player")
        .order_by("-created_at")[:20]
    )
    context = {
        "form": form,
        "events": events,
        "attention": attention,
        "leagues": leagues,
        "bot_form": BotMatchForm(),
        "can_bot_match": botmatches.may_start_bot_matches(me),
        "bot_tables": bot_tables,
    }
    return render(request, "tournaments/dashboard.html", context)


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
        elif action == "withdraw":
            who = Player.objects.filter(pk=request.POST.get("player")).first()
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


def ladder_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = Ladder.objects.select_related("league").filter(pk=ladder_id).first()
    if ladder is None:
        raise Http404("no such ladder")
    context = {"ladder": ladder, "body": apis.ladder_body(ladder)}
    if request.GET.get("fragment"):
        return fragment_response(request, "tournaments/_ladder_body.html", context)
    return render(request, "tournaments/ladder.html", context)

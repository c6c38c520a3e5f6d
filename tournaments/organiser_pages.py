"""The organiser dashboard and its actions (same services as the API)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from common.errors import InvalidInput, NotFound, ServiceError
from common.players import request_player
from games.models import GameKind, Player
from games.wording import ordinal

from . import botmatches, organiser_actions, organisers, selectors, services
from .models import League, Registration, Round, Tournament

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"]


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=80)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, required=False)


class TournamentForm(forms.Form):
    league = forms.ModelChoiceField(queryset=League.objects.none())
    name = forms.CharField(max_length=100)
    game = forms.ChoiceField(choices=GameKind.choices)
    seats = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, label="Players per table"
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=Tournament.DEFAULT_SWISS_ROUNDS,
        required=False,
        label="Rounds (Swiss)",
    )
    advance = forms.IntegerField(
        min_value=1, max_value=3, initial=1, required=False, label="Players advancing per table (knockout)"
    )
    max_players = forms.IntegerField(min_value=2, required=False, label="Most players (empty: no limit)")
    rating_min = forms.IntegerField(min_value=0, required=False, label="Lowest rating allowed")
    rating_max = forms.IntegerField(min_value=0, required=False, label="Highest rating allowed")
    registration_opens = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label="Registration opens (empty: now)",
    )
    registration_closes = forms.DateTimeField(
        required=False,
        input_formats=DATETIME_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label="Registration closes (empty: at the start)",
    )
    check_in = forms.BooleanField(required=False, label="Players must check in (only they are paired)")
    base_minutes = forms.FloatField(min_value=0, initial=10, label="Fischer: minutes (0 = untimed)")
    increment = forms.FloatField(min_value=0, initial=5, label="Fischer: increment, seconds")
    rated = forms.BooleanField(required=False, initial=True)

    #: Which fields apply to which formats (the others apply to all): the page and its script use it.
    ONLY_FOR = {"rounds": ["swiss"], "advance": ["knockout"]}


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


def _event_form_fields(form: TournamentForm) -> list[tuple[Any, str]]:
    """The event form's fields, each with the formats it applies to ("" for all)."""
    return [(field, " ".join(TournamentForm.ONLY_FOR.get(field.name, []))) for field in form]


def _create_event(request: HttpRequest, me: Player, form: TournamentForm) -> Tournament | None:
    d = form.cleaned_data
    tc = (
        {"kind": "fischer", "base": d["base_minutes"] * 60, "increment": d["increment"]}
        if d["base_minutes"]
        else None
    )
    fmt = d["format"]
    try:
        t = services.tournament_create(
            organiser=me,
            league=d["league"],
            name=d["name"],
            game=d["game"],
            seats=d["seats"],
            format=fmt,
            rounds=(d["rounds"] or None) if fmt == Tournament.Format.SWISS else None,
            advance=(d["advance"] or 1) if fmt == Tournament.Format.KNOCKOUT else 1,
            time_control=tc,
            rated=d["rated"],
            check_in=d["check_in"],
            max_players=d["max_players"],
            rating_min=d["rating_min"],
            rating_max=d["rating_max"],
            registration_opens=d["registration_opens"],
            registration_closes=d["registration_closes"],
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return None
    places = f"up to {t.max_players} players" if t.max_players else "no limit on players"
    messages.success(request, f"{t.name} created ({t.get_format_display()}, {places}): registration is open")
    return t


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    me = request_player(request)
    leagues = selectors.organiser_leagues(me, staff=request.user.is_staff)
    posted = request.method == "POST"
    league_form = LeagueForm(request.POST if posted and request.POST.get("form") == "league" else None)
    form = TournamentForm(request.POST if posted and request.POST.get("form") != "league" else None)
    form.fields["league"].queryset = leagues  # type: ignore[attr-defined]
    league_list = list(leagues)  # read once: the form's choices and the page use the same rows
    form.fields["league"].choices = [("", "---------")] + [(x.pk, x.name) for x in league_list]  # type: ignore[attr-defined]
    if posted and request.POST.get("form") == "league":
        if league_form.is_valid():
            try:
                league = services.league_create(
                    organiser=me,
                    name=league_form.cleaned_data["name"],
                    description=league_form.cleaned_data["description"],
                )
            except ServiceError as exc:
                messages.error(request, exc.detail)
            else:
                messages.success(request, f"League {league.name} created: you are its organiser")
                return redirect("dashboard")
    elif posted and form.is_valid():
        t = _create_event(request, me, form)
        if t is not None:
            return redirect("organiser-event", t.pk)
    board = selectors.dashboard(leagues)
    attention: list[tuple[Any, str]] = []
    for t in board.events:
        if t.status == Tournament.Status.REGISTRATION:
            attention.append((t, f"registration open: {t.registered} players"))  # type: ignore[attr-defined]
        if t.status == Tournament.Status.RUNNING:
            waiting, overdue = t.waiting, t.overdue  # type: ignore[attr-defined]
            note = f"round {t.current_round}: {_count(waiting, 'table')} still playing"
            if t.paused:
                note += " (paused)"
            attention.append((t, note + (f", {overdue} past their deadline" if overdue else "")))
    for ladder in board.ladders:
        count, queued = ladder.pending, ladder.queued  # type: ignore[attr-defined]
        parts = [f"{_count(count, 'challenge')} waiting for an answer" if count else ""]
        parts.append(f"{_count(queued, 'player')} in the queue" if queued else "")
        if count or queued:
            attention.append((ladder, ", ".join(p for p in parts if p)))
    may_organise = organisers.may_organise(me)  # also who may start bot matches (``botmatches``)
    context = {
        "form": form,
        "form_fields": _event_form_fields(form),
        "league_form": league_form,
        "events": board.events,
        "finished": organiser_actions.finished_events(leagues) if league_list else [],
        "attention": attention,
        "leagues": league_list,
        "bot_form": BotMatchForm(),
        "can_bot_match": may_organise,
        "may_organise": may_organise,
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
        t = selectors.tournament(tournament_id)
        messages.success(request, f"{t.name}: {action.replace('-', ' ')} done ({_places_text(t)})")
    return redirect("dashboard")


# ------------------------------------------------------------ the event page


def _organised_event(request: HttpRequest, tournament_id: int) -> tuple[Player, Tournament]:
    """The event and the organiser looking at it: 404 for no event, 403 for anybody else."""
    me = request_player(request)
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise Http404("no such event")
    if not selectors.is_organiser(t.league, me):
        raise PermissionDenied(f"only organisers of {t.league.name} manage this event")
    return me, t


def _round_summary(rnd: Round | None, verb: str = "paired") -> str:
    """ "Round 3 paired: 4 tables, bye for Dave"."""
    if rnd is None:
        return ""
    count = rnd.tables.count()
    text = f"Round {rnd.number} {verb}: {count} table{'s' if count != 1 else ''}"
    if rnd.byes:
        names = dict(Player.objects.filter(pk__in=rnd.byes).values_list("pk", "display_name"))
        text += ", bye for " + ", ".join(names.get(p, "?") for p in rnd.byes)
    return text


def _places_text(t: Tournament) -> str:
    taken = services.places_taken(t)
    return f"{taken} of {t.max_players} places" if t.max_players else f"{taken} players registered"


def _current_round(t: Tournament) -> Round | None:
    return Round.objects.filter(tournament=t, number=t.current_round).first()


def _next_round_block(t: Tournament, rounds: list[Round]) -> str:
    """Why the next round cannot be started by hand now ("" when it can)."""
    if t.status != Tournament.Status.RUNNING:
        return f"the event is {t.get_status_display()}"
    current = next((r for r in rounds if r.number == t.current_round), None)
    if current is not None and current.status != Round.Status.FINISHED:
        playing = sum(1 for rt in current.tables.all() if rt.table.status == "active")
        return f"round {current.number} is still being played ({_count(playing, 'table')} playing)"
    if t.format != Tournament.Format.DOUBLE_ELIMINATION and t.current_round >= t.rounds:
        return "every round has been played"
    return ""


@login_required
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _, t = _organised_event(request, tournament_id)
    detail = selectors.tournament_detail(tournament_id)
    rounds = list(detail.round_set.all())
    current = next((r for r in rounds if r.number == t.current_round), None)
    repairable = (
        current is not None
        and current.status == Round.Status.RUNNING
        and not any(rt.table.actions for rt in current.tables.all())
    )
    boards = []
    for rnd in reversed(rounds):
        tables = []
        for rt in rnd.tables.all():
            seats = list(rt.table.seats.all())
            tables.append(
                {
                    "board": rt.number,
                    "table": rt.table,
                    "seats": seats,
                    "choices": [(n, ordinal(n)) for n in range(1, len(seats) + 1)],
                    "refusal": (
                        organiser_actions.correction_refusal(t, rnd) if rt.table.status == "finished" else ""
                    ),
                }
            )
        boards.append({"round": rnd, "tables": tables})
    regs = organiser_actions.registrations(t)
    find = request.GET.get("find", "").strip()
    context = {
        "t": t,
        "detail": detail,
        "registrations": regs,
        "active_count": sum(1 for r in regs if r.status != Registration.Status.WITHDRAWN),
        "places": _places_text(t),
        "not_started": t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION),
        "running": t.status == Tournament.Status.RUNNING,
        "current": current,
        "next_block": _next_round_block(t, rounds),
        "repairable": repairable,
        "boards": boards,
        "find": find,
        "found": organiser_actions.matching_players(find) if find else [],
        "entered": {r.player_id for r in regs if r.status != Registration.Status.WITHDRAWN},
        "announcements": list(t.announcements.select_related("author")),
        "audit": organiser_actions.audit_log(t),
        "levels": [level for level, _ in LEVEL_CHOICES],
        "seeded_format": t.format in organiser_actions.ELIMINATION_FORMATS,
        "use_seeds": t.format != Tournament.Format.ROUND_ROBIN
        and t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION),
    }
    return render(request, "tournaments/organiser_event.html", context)


def _register(request: HttpRequest, me: Player, t: Tournament) -> str | HttpResponse:
    if request.POST.get("player"):
        who = selectors.find_player(request.POST.get("player"))
        if who is None or who.is_bot or who.is_guest:
            raise InvalidInput("there is no such player")
    else:
        name = request.POST.get("player_name", "").strip()
        if not name:
            raise InvalidInput("type a name to find the player to register")
        found = organiser_actions.matching_players(name)
        if not found:
            raise NotFound(f"nobody is called {name!r} (or anything like it)")
        if len(found) > 1:
            messages.info(request, f"{len(found)} players match {name!r}: choose one below")
            return redirect(f"{reverse('organiser-event', args=[t.pk])}?find={quote(name)}#register")
        who = found[0]
    services.register(tournament_id=t.pk, player=who, by=me)
    t.refresh_from_db()
    checked = " (checked in)" if t.check_in else ""
    return f"{who.display_name} registered{checked}: {_places_text(t)}"


def _seeds(request: HttpRequest, me: Player, t: Tournament) -> str:
    seeds: dict[int, int | None] = {}
    for key, value in request.POST.items():
        if not key.startswith("seed_") or not key[5:].isdigit():
            continue
        value = value.strip()
        if value and not value.isdigit():
            raise InvalidInput(f"a seed is a whole number, not {value!r}")
        seeds[int(key[5:])] = int(value) if value else None
    services.set_seeds(tournament_id=t.pk, seeds=seeds, by=me)
    rows = Registration.objects.filter(tournament=t, seed__isnull=False).select_related("player")
    listed = ", ".join(f"{r.seed}. {r.player.display_name}" for r in rows.order_by("seed"))
    return (
        f"Seeds saved: {listed}" if listed else "Seeds saved: nobody is seeded (the bracket follows ratings)"
    )


def _result(request: HttpRequest, me: Player, t: Tournament) -> str:
    table_id = request.POST.get("table", "")
    if not table_id.isdigit():
        raise InvalidInput("which table? (no table was named)")
    ranks: dict[int, int] = {}
    for key, value in request.POST.items():
        if key.startswith("rank_") and key[5:].isdigit():
            if not value.isdigit():
                raise InvalidInput(f"choose a place for seat {key[5:]}")
            ranks[int(key[5:])] = int(value)
    change = organiser_actions.enter_result(
        tournament_id=t.pk, table_id=int(table_id), ranks=ranks, reason=request.POST.get("reason", ""), by=me
    )
    return change.message


def _player_named(request: HttpRequest) -> Player:
    who = selectors.find_player(request.POST.get("player"))
    if who is None:
        raise NotFound("there is no such player")
    return who


@login_required
@require_POST
def event_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Every write of the event page: one service call, a confirmation in words, back to the page."""
    me, t = _organised_event(request, tournament_id)
    page = redirect("organiser-event", t.pk)
    try:
        if action == "register":
            done = _register(request, me, t)
            if isinstance(done, HttpResponse):
                return done
        elif action == "remove":
            who = _player_named(request)
            services.withdraw(tournament_id=t.pk, player=who, by=me)
            done = f"{who.display_name} removed from {t.name}: {_places_text(t)}"
        elif action == "check-in":
            who = _player_named(request)
            services.check_in(tournament_id=t.pk, player=who, by=me)
            done = f"{who.display_name} checked in"
        elif action == "seeds":
            done = _seeds(request, me, t)
        elif action == "add-bot":
            reg = services.register_bot(tournament_id=t.pk, level=request.POST.get("level", ""), by=me)
            done = f"{reg.player.display_name} entered (checked in): {_places_text(t)}"
        elif action == "start":
            services.start(tournament_id=t.pk, by=me)
            t.refresh_from_db()
            done = f"{t.name} started. " + _round_summary(_current_round(t))
        elif action == "pause":
            services.pause(tournament_id=t.pk, by=me)
            done = (
                f"{t.name} paused: round {t.current_round} plays on, "
                "and no new round is paired until you resume"
            )
        elif action == "resume":
            rnd = services.resume(tournament_id=t.pk, by=me)
            t.refresh_from_db()
            done = f"{t.name} resumed" + (f". {_round_summary(rnd)}" if rnd else "")
            if t.status == Tournament.Status.FINISHED:
                done += ": every round has been played, the event is finished"
        elif action == "next-round":
            done = _round_summary(services.next_round(tournament_id=t.pk, by=me))
        elif action == "repair":
            done = _round_summary(services.repair_round(tournament_id=t.pk, by=me), "paired again")
        elif action == "result":
            done = _result(request, me, t)
        elif action == "announce":
            organiser_actions.announce(tournament_id=t.pk, text=request.POST.get("text", ""), by=me)
            done = "Announcement posted on the event page"
        elif action == "announcement-delete":
            raw = request.POST.get("announcement", "")
            if not raw.isdigit():
                raise NotFound("there is no such announcement")
            organiser_actions.announcement_delete(tournament_id=t.pk, announcement_id=int(raw), by=me)
            done = "Announcement deleted"
        else:
            raise Http404("no such action")
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return page


def _count(n: int, noun: str) -> str:
    """ "1 table", "3 tables"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _download(request: HttpRequest, tournament_id: int, what: str) -> HttpResponse:
    """One of the event's exports, as an attachment named after the event."""
    _, t = _organised_event(request, tournament_id)
    build, content_type, suffix = EXPORTS[what]
    response = HttpResponse(build(t), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{slugify(t.name) or t.pk}-{suffix}"'
    return response


EXPORTS: dict[str, tuple[Callable[[Tournament], Any], str, str]] = {
    "standings": (organiser_actions.standings_csv, "text/csv; charset=utf-8", "standings.csv"),
    "crosstable": (organiser_actions.crosstable_csv, "text/csv; charset=utf-8", "crosstable.csv"),
    "records": (organiser_actions.records_zip, "application/zip", "records.zip"),
}


@login_required
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "standings")


@login_required
def crosstable_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "crosstable")


@login_required
def records_zip(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "records")

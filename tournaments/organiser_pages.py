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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import InvalidInput, NotFound, ServiceError
from common.players import request_player
from common.validation import ascii_int, ascii_int_or_none
from games.models import GameKind, Player
from games.wording import ordinal

from . import botmatches, event_reads, organiser_actions, organisers, selectors, services
from .models import League, Registration, Round, Tournament

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"]


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=80, label=pgettext_lazy("league form", "Name"))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        required=False,
        label=pgettext_lazy("league form", "Description"),
    )


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

    #: Which fields apply to which formats (the others apply to all): the page and its script use it.
    ONLY_FOR = {"rounds": ["swiss"], "advance": ["knockout"], "requested_bye": ["swiss", "round_robin"]}


LEVEL_CHOICES = [
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


@login_required
@require_POST
def bot_match_page(request: HttpRequest) -> HttpResponse:
    form = BotMatchForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, _("bot match: %(errors)s") % {"errors": errors})
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
        listed = ", ".join(f"#{t}" for t in tables)
        messages.success(
            request,
            ngettext(
                "bot match started: table %(tables)s", "bot match started: tables %(tables)s", len(tables)
            )
            % {"tables": listed},
        )
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
            requested_bye=d["requested_bye"] or "half",
            max_players=d["max_players"],
            rating_min=d["rating_min"],
            rating_max=d["rating_max"],
            registration_opens=d["registration_opens"],
            registration_closes=d["registration_closes"],
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return None
    words = {"event": t.name, "format": t.get_format_display(), "n": t.max_players}
    if t.max_players:
        done = ngettext(
            "%(event)s created (%(format)s, up to %(n)d player): registration is open",
            "%(event)s created (%(format)s, up to %(n)d players): registration is open",
            t.max_players,
        )
    else:
        done = _("%(event)s created (%(format)s, no limit on players): registration is open")
    messages.success(request, done % words)
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
                messages.success(
                    request, _("League %(league)s created: you are its organiser") % {"league": league.name}
                )
                return redirect("dashboard")
    elif posted and form.is_valid():
        t = _create_event(request, me, form)
        if t is not None:
            return redirect("organiser-event", t.pk)
    board = selectors.dashboard(leagues)
    attention: list[tuple[Any, str]] = []
    for t in board.events:
        if t.status == Tournament.Status.REGISTRATION:
            registered = t.registered  # type: ignore[attr-defined]
            attention.append(
                (
                    t,
                    ngettext(
                        "registration open: %(n)d player", "registration open: %(n)d players", registered
                    )
                    % {"n": registered},
                )
            )
        if t.status == Tournament.Status.RUNNING:
            waiting, overdue = t.waiting, t.overdue  # type: ignore[attr-defined]
            note = ngettext(
                "round %(round)d: %(n)d table still playing",
                "round %(round)d: %(n)d tables still playing",
                waiting,
            ) % {"round": t.current_round, "n": waiting}
            if t.paused:
                # Translators: a running event's note on the dashboard, when the organisers paused it.
                note = _("%(note)s (paused)") % {"note": note}
            if overdue:
                note = ngettext(
                    "%(note)s, %(n)d past their deadline", "%(note)s, %(n)d past their deadline", overdue
                ) % {"note": note, "n": overdue}
            attention.append((t, note))
    for ladder in board.ladders:
        count, queued = ladder.pending, ladder.queued  # type: ignore[attr-defined]
        parts = []
        if count:
            parts.append(
                ngettext(
                    "%(n)d challenge waiting for an answer", "%(n)d challenges waiting for an answer", count
                )
                % {"n": count}
            )
        if queued:
            parts.append(
                ngettext("%(n)d player in the queue", "%(n)d players in the queue", queued) % {"n": queued}
            )
        if parts:
            attention.append((ladder, ", ".join(parts)))
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
        label=gettext_lazy("About your club"),
        help_text=gettext_lazy("Who you are, the club or events you want to run (staff read this)."),
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
            messages.success(request, _("asked: staff will answer your request"))
            return redirect("organiser-request")
    context = {
        "form": form,
        "may_organise": organisers.may_organise(me),
        "requests": selectors.organiser_requests(me) if not request.user.is_staff else [],
    }
    return render(request, "tournaments/organiser_request.html", context)


#: The dashboard's actions, as its confirmation names them.
DASHBOARD_ACTIONS = {
    "start": pgettext_lazy("organiser action", "start"),
    "next-round": pgettext_lazy("organiser action", "next round"),
    "add-bot": pgettext_lazy("organiser action", "add bot"),
    "late-entry": pgettext_lazy("organiser action", "late entry"),
    "withdraw": pgettext_lazy("organiser action", "withdraw"),
}


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
            invitation = services.late_entry(tournament_id=tournament_id, player=who, by=me, missed=missed)
            if invitation.status == invitation.Status.PENDING:
                messages.success(
                    request,
                    _(
                        "%(name)s is invited to enter %(event)s late: they are entered (from the next "
                        "round) only if they accept"
                    )
                    % {"name": who.display_name, "event": invitation.tournament.name},
                )
                return redirect("dashboard")
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
        messages.success(
            request,
            _("%(event)s: %(action)s done (%(places)s)")
            % {"event": t.name, "action": DASHBOARD_ACTIONS.get(action, action), "places": _places_text(t)},
        )
    return redirect("dashboard")


# ------------------------------------------------------------ the event page


def _organised_event(request: HttpRequest, tournament_id: int) -> tuple[Player, Tournament]:
    """The event and the organiser looking at it: 404 for no event, 403 for anybody else."""
    me = request_player(request)
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise Http404("no such event")
    if not selectors.is_organiser(t.league, me):
        raise PermissionDenied(
            _("only organisers of %(league)s manage this event") % {"league": t.league.name}
        )
    return me, t


def _round_summary(rnd: Round | None, again: bool = False) -> str:
    """ "Round 3 paired: 4 tables, bye for Dave"."""
    if rnd is None:
        return ""
    count = rnd.tables.count()
    words = {"round": rnd.number, "n": count}
    if again:
        text = ngettext(
            "Round %(round)d paired again: %(n)d table", "Round %(round)d paired again: %(n)d tables", count
        )
    else:
        text = ngettext("Round %(round)d paired: %(n)d table", "Round %(round)d paired: %(n)d tables", count)
    text %= words
    if rnd.byes:
        names = dict(Player.objects.filter(pk__in=rnd.byes).values_list("pk", "display_name"))
        listed = ", ".join(names.get(p, "?") for p in rnd.byes)
        text = _("%(summary)s, bye for %(names)s") % {"summary": text, "names": listed}
    return text


def _places_text(t: Tournament) -> str:
    taken = services.places_taken(t)
    if t.max_players:
        return ngettext("%(taken)d of %(n)d place", "%(taken)d of %(n)d places", t.max_players) % {
            "taken": taken,
            "n": t.max_players,
        }
    return ngettext("%(n)d player registered", "%(n)d players registered", taken) % {"n": taken}


def _current_round(t: Tournament) -> Round | None:
    return Round.objects.filter(tournament=t, number=t.current_round).first()


def _next_round_block(t: Tournament, rounds: list[Round]) -> str:
    """Why the next round cannot be started by hand now ("" when it can)."""
    if t.status != Tournament.Status.RUNNING:
        return _("the event is %(status)s") % {"status": t.get_status_display()}
    current = next((r for r in rounds if r.number == t.current_round), None)
    if current is not None and current.status != Round.Status.FINISHED:
        playing = sum(1 for rt in current.tables.all() if rt.table.status == "active")
        return ngettext(
            "round %(round)d is still being played (%(n)d table playing)",
            "round %(round)d is still being played (%(n)d tables playing)",
            playing,
        ) % {"round": current.number, "n": playing}
    if t.format != Tournament.Format.DOUBLE_ELIMINATION and t.current_round >= t.rounds:
        return _("every round has been played")
    return ""


@login_required
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _, t = _organised_event(request, tournament_id)
    detail = selectors.tournament_detail(tournament_id)
    rounds = list(detail.round_set.all())
    current = next((r for r in rounds if r.number == t.current_round), None)
    repair_block = (
        services.repair_refusal(current)
        if current is not None and current.status == Round.Status.RUNNING
        else ""
    )
    repairable = current is not None and current.status == Round.Status.RUNNING and not repair_block
    regs = organiser_actions.registrations(t)
    names = {r.player_id: r.player.display_name for r in regs}
    gone = {r.player_id for r in regs if r.status == Registration.Status.WITHDRAWN}
    boards = []
    for rnd in reversed(rounds):
        tables = []
        seated: set[int] = set()
        for rt in rnd.tables.all():
            seats = list(rt.table.seats.all())
            seated.update(s.player_id for s in seats)
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
        # Who has no table: byes, and a round robin's sit-out (``event_reads.sitting_out``).
        off = [*rnd.byes, *event_reads.sitting_out(t, rnd, seated, gone)]
        boards.append({"round": rnd, "tables": tables, "byes": [names.get(p, "?") for p in off]})
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
        "repair_block": repair_block,
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
            raise InvalidInput(_("there is no such player"))
    else:
        name = request.POST.get("player_name", "").strip()
        if not name:
            raise InvalidInput(_("type a name to find the player to register"))
        found = organiser_actions.matching_players(name)
        if not found:
            raise NotFound(_("nobody is called %(name)s (or anything like it)") % {"name": repr(name)})
        if len(found) > 1:
            messages.info(
                request,
                ngettext(
                    "%(n)d player matches %(name)s: choose one below",
                    "%(n)d players match %(name)s: choose one below",
                    len(found),
                )
                % {"n": len(found), "name": repr(name)},
            )
            return redirect(f"{reverse('organiser-event', args=[t.pk])}?find={quote(name)}#register")
        who = found[0]
    services.register(tournament_id=t.pk, player=who, by=me)
    t.refresh_from_db()
    words = {"name": who.display_name, "places": _places_text(t)}
    if t.check_in:
        return _("%(name)s registered (checked in): %(places)s") % words
    return _("%(name)s registered: %(places)s") % words


#: The largest seed a form may give: what the column holds (seeds are 1, 2, 3, … in practice).
SEED_MAX = 2**31 - 1


def _seeds(request: HttpRequest, me: Player, t: Tournament) -> str:
    seeds: dict[int, int | None] = {}
    for key, value in request.POST.items():
        player_id = ascii_int_or_none(key[5:]) if key.startswith("seed_") else None
        if player_id is None:
            continue
        value = value.strip()
        try:
            seeds[player_id] = ascii_int(value, hi=SEED_MAX) if value else None
        except ValueError:
            message = _("a seed is a whole number, not %(value)s") % {"value": repr(value)}
            raise InvalidInput(message) from None
    services.set_seeds(tournament_id=t.pk, seeds=seeds, by=me)
    rows = Registration.objects.filter(tournament=t, seed__isnull=False).select_related("player")
    listed = ", ".join(f"{r.seed}. {r.player.display_name}" for r in rows.order_by("seed"))
    if listed:
        return _("Seeds saved: %(seeds)s") % {"seeds": listed}
    return _("Seeds saved: nobody is seeded (the bracket follows ratings)")


def _result(request: HttpRequest, me: Player, t: Tournament) -> str:
    table_id = ascii_int_or_none(request.POST.get("table"))
    if table_id is None:
        raise InvalidInput(_("which table? (no table was named)"))
    ranks: dict[int, int] = {}
    for key, value in request.POST.items():
        seat = ascii_int_or_none(key[5:]) if key.startswith("rank_") else None
        if seat is not None:
            rank = ascii_int_or_none(value)
            if rank is None:
                raise InvalidInput(_("choose a place for seat %(seat)s") % {"seat": seat})
            ranks[seat] = rank
    change = organiser_actions.enter_result(
        tournament_id=t.pk, table_id=table_id, ranks=ranks, reason=request.POST.get("reason", ""), by=me
    )
    return change.message


def _player_named(request: HttpRequest) -> Player:
    who = selectors.find_player(request.POST.get("player"))
    if who is None:
        raise NotFound(_("there is no such player"))
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
            done = _("%(name)s removed from %(event)s: %(places)s") % {
                "name": who.display_name,
                "event": t.name,
                "places": _places_text(t),
            }
        elif action == "check-in":
            who = _player_named(request)
            services.check_in(tournament_id=t.pk, player=who, by=me)
            done = _("%(name)s checked in") % {"name": who.display_name}
        elif action == "seeds":
            done = _seeds(request, me, t)
        elif action == "add-bot":
            reg = services.register_bot(tournament_id=t.pk, level=request.POST.get("level", ""), by=me)
            done = _("%(name)s entered (checked in): %(places)s") % {
                "name": reg.player.display_name,
                "places": _places_text(t),
            }
        elif action == "start":
            services.start(tournament_id=t.pk, by=me)
            t.refresh_from_db()
            done = _("%(event)s started. %(summary)s") % {
                "event": t.name,
                "summary": _round_summary(_current_round(t)),
            }
        elif action == "pause":
            services.pause(tournament_id=t.pk, by=me)
            done = _(
                "%(event)s paused: round %(round)s plays on, and no new round is paired until you resume"
            ) % {"event": t.name, "round": t.current_round}
        elif action == "resume":
            rnd = services.resume(tournament_id=t.pk, by=me)
            t.refresh_from_db()
            if rnd:
                done = _("%(event)s resumed. %(summary)s") % {"event": t.name, "summary": _round_summary(rnd)}
            elif t.status == Tournament.Status.FINISHED:
                done = _("%(event)s resumed: every round has been played, the event is finished") % {
                    "event": t.name
                }
            else:
                done = _("%(event)s resumed") % {"event": t.name}
        elif action == "next-round":
            done = _round_summary(services.next_round(tournament_id=t.pk, by=me))
        elif action == "repair":
            if request.POST.get("confirm") != "yes":
                raise InvalidInput(
                    _(
                        "round %(round)s was not paired again: tick the box to confirm that its tables are "
                        "deleted and everyone is paired afresh"
                    )
                    % {"round": t.current_round}
                )
            done = _round_summary(services.repair_round(tournament_id=t.pk, by=me), again=True)
        elif action == "result":
            done = _result(request, me, t)
        elif action == "announce":
            organiser_actions.announce(tournament_id=t.pk, text=request.POST.get("text", ""), by=me)
            done = _("Announcement posted on the event page")
        elif action == "announcement-delete":
            announcement_id = ascii_int_or_none(request.POST.get("announcement"))
            if announcement_id is None:
                raise NotFound(_("there is no such announcement"))
            organiser_actions.announcement_delete(tournament_id=t.pk, announcement_id=announcement_id, by=me)
            done = _("Announcement deleted")
        else:
            raise Http404("no such action")
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return page


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
